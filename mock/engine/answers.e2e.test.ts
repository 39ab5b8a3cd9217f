/**
 * What the generic engine answers where the corpus of published documents showed it wrong (issue 22, point 9),
 * over HTTP on a small document written for it: a create or an action answers the fields the client sent where
 * its answer declares them (Adyen's `POST /sessions`, `POST /merchants`); an operation documenting only a redirect
 * answers it (Twilio's OAuth `authorize`: 302); a create of a client-chosen key a record holds gets the document's
 * 409 (Svix's event types, addressed by name); a value the answer types otherwise than the request (a date answered
 * as a date-time, an integer as text) is kept converted. Every answer is checked against the document (foreign-client.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Answers, version: '1' }
paths:
  /sessions:
    post:
      operationId: createSession
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/SessionIn' } } } }
      responses:
        '201':
          description: a session, not kept
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [id, reference, expiresAt]
                properties:
                  id: { type: string }
                  reference: { type: string, maxLength: 20 }
                  merchantAccount: { type: string }
                  expiresAt: { type: string, format: date-time }
                  bornOn: { type: string, format: date-time }
                  slot: { type: string }
              example: { id: CS1, reference: EXAMPLE_REFERENCE, merchantAccount: EXAMPLE_ACCOUNT, expiresAt: '2025-01-01T00:00:00Z' }
  /authorize:
    get:
      operationId: authorize
      responses:
        '302': { description: to the consent page }
  /merchants:
    post:
      operationId: createMerchant
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string }, legalEntityId: { type: string } } } } } }
      responses:
        '200':
          description: created
          content:
            application/json:
              schema: { type: object, additionalProperties: false, properties: { id: { type: string }, name: { type: string }, legalEntityId: { type: string } } }
  /merchants/{merchantId}:
    get:
      operationId: getMerchant
      parameters: [{ name: merchantId, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: the merchant
          content:
            application/json:
              schema: { type: object, additionalProperties: false, properties: { id: { type: string }, name: { type: string } } }
  /event-types:
    post:
      operationId: createEventType
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/EventType' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/EventType' } } } }
        '409': { description: taken, content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /event-types/{event_type_name}:
    get:
      operationId: getEventType
      parameters: [{ name: event_type_name, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/EventType' } } } }
  /posts:
    post:
      operationId: createPost
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [raw], properties: { raw: { type: string }, replyTo: { type: integer } } } } } }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
  /posts/{id}:
    get:
      operationId: getPost
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Post' } } } }
  /employees:
    get:
      operationId: listEmployees
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object, properties: { pagination: { type: object }, employees: { type: array, items: { $ref: '#/components/schemas/Employee' } } } } } } }
    post:
      operationId: createEmployee
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Employee' } } } }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/EmployeeObject' } } } }
  /employees/{employeeId}:
    get:
      operationId: getEmployee
      parameters: [{ name: employeeId, in: path, required: true, schema: { type: string, format: uuid } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/EmployeeObject' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
components:
  schemas:
    Employee:
      type: object
      required: [name]
      properties:
        employeeId: { type: string, format: uuid, readOnly: true }
        name: { type: string }
    EmployeeObject:
      type: object
      properties:
        pagination: { type: object }
        problem: { $ref: '#/components/schemas/Problem' }
        employee: { $ref: '#/components/schemas/Employee' }
    Post:
      type: object
      required: [id, raw]
      properties:
        id: { type: integer }
        raw: { type: string }
        replyTo: { type: string, nullable: true }
    SessionIn:
      type: object
      required: [reference]
      properties:
        reference: { type: string }
        merchantAccount: { type: string }
        password: { type: string, writeOnly: true }
        bornOn: { type: string, format: date }
        slot: { type: integer }
    EventType:
      type: object
      required: [name]
      properties:
        name: { type: string }
        description: { type: string }
    Problem:
      type: object
      required: [code, detail]
      properties: { code: { type: string }, detail: { type: string } }
`;

let dir: string;
let mock: RunningMock;
let client: ForeignClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'generic-answers-'));
  const file = join(dir, 'answers.yaml');
  writeFileSync(file, DOCUMENT);
  mock = await startMock({ port: 0, specPath: file, quiet: true, log: () => {}, fixtures: 'none' });
  client = createForeignClient(mock.url, compileContract(mock.app.contract));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('answers the corpus showed wrong', () => {
  it('a stateless create answers what was sent where its answer declares it, never a writeOnly field, and keeps bounds', async () => {
    const sent = { reference: 'Zoë 名前 order 7', merchantAccount: 'ACME_NL', password: 'secret' };
    const created = await client.send('POST', '/sessions', { json: sent });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ reference: sent.reference, merchantAccount: sent.merchantAccount });
    expect(created.body).not.toHaveProperty('password');
    // A reference longer than the answer allows (maxLength 20) is not echoed: the answer stays valid (the client checks it).
    const long = await client.send('POST', '/sessions', { json: { reference: 'a reference far longer than twenty', merchantAccount: 'ACME_DE' } });
    expect(long.body).toMatchObject({ merchantAccount: 'ACME_DE' });
  });

  it('a value the answer types otherwise than the request echoes converted: a date as that day\'s date-time, a number as its text', async () => {
    const created = await client.send('POST', '/sessions', { json: { reference: 'R1', bornOn: '2030-01-23', slot: 7 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ reference: 'R1', bornOn: '2030-01-23T00:00:00Z', slot: '7' });
  });

  it('a record keeps a sent value its schema types otherwise, converted, not replaced by an invented one (Discourse reply_to_post_number)', async () => {
    const created = await client.send('POST', '/posts', { json: { raw: 'hello', replyTo: 1 } });
    expect(created.body).toMatchObject({ raw: 'hello', replyTo: '1' });
    const id = (created.body as { id: number }).id;
    expect((await client.send('GET', `/posts/${id}`)).body).toMatchObject({ id, raw: 'hello', replyTo: '1' });
  });

  it('a record answered in one object member named as a record (Xero payroll `{ employee: {...} }`) is kept unwrapped and answered wrapped', async () => {
    const created = await client.send('POST', '/employees', { json: { name: 'Ada' } });
    expect(created.status).toBe(200);
    const employee = (created.body as { employee: { employeeId: string; name: string } }).employee;
    expect(employee).toMatchObject({ name: 'Ada' });
    expect(employee.employeeId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.send('GET', `/employees/${employee.employeeId}`)).body).toMatchObject({ employee: { employeeId: employee.employeeId, name: 'Ada' } });
    expect((await client.send('GET', '/employees')).body).toMatchObject({ employees: expect.arrayContaining([expect.objectContaining({ employeeId: employee.employeeId, name: 'Ada' })]) });
  });

  it('a create answers a field its own answer declares though the record does not keep it', async () => {
    const created = await client.send('POST', '/merchants', { json: { name: 'Bäckerei', legalEntityId: 'LE-1' } });
    expect(created.body).toMatchObject({ name: 'Bäckerei', legalEntityId: 'LE-1' });
    const id = (created.body as { id: string }).id;
    const read = await client.send('GET', `/merchants/${id}`);
    expect(read.body).toEqual({ id, name: 'Bäckerei' });
  });

  it('an operation documenting only a redirect answers it', async () => {
    expect((await client.send('GET', '/authorize')).status).toBe(302);
  });

  it('a second create of a name a record holds gets the documented 409, and the first record stays', async () => {
    expect((await client.send('POST', '/event-types', { json: { name: 'user.signup', description: 'first' } })).status).toBe(201);
    const again = await client.send('POST', '/event-types', { json: { name: 'user.signup', description: 'second' } });
    expect(again.status).toBe(409);
    expect((await client.send('GET', '/event-types/user.signup')).body).toEqual({ name: 'user.signup', description: 'first' });
  });
});
