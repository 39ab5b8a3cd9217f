/**
 * Bodies sent as `application/x-www-form-urlencoded` (Vonage, Twilio, Stripe), read by the operation's form schema
 * (form-body.ts). The mock read none of them: a form-only operation took any body (a required field missing, a value
 * past its maxLength, JSON, nothing at all) and an operation that takes JSON too refused the form with 415 (found by
 * a sweep of APIs-guru's documents: Vonage's `POST /number/buy`, Ably's `POST /push/publish`). Now a form is judged
 * by its schema, typed field by field as query values are, and a record created from a form keeps what was sent.
 * Every answer is checked against the document by the test client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
const ERRORS = { '400': { description: 'bad input', content: json(ERROR) }, '415': { description: 'not a form', content: json(ERROR) } };
const PURCHASE = { type: 'object', required: ['country', 'msisdn'], properties: { country: { type: 'string', minLength: 2, maxLength: 2 }, msisdn: { type: 'string', pattern: '^[0-9]{6,15}$' }, count: { type: 'integer', minimum: 1, maximum: 5 } }, additionalProperties: false };
const SERVICE_IN = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 40 }, priority: { type: 'integer', minimum: 0, maximum: 9 }, tags: { type: 'array', items: { type: 'string' } }, metadata: { type: 'object', additionalProperties: { type: 'string' } } } };
const SERVICE = { type: 'object', required: ['sid', 'name'], properties: { sid: { type: 'string', readOnly: true }, ...SERVICE_IN.properties } };
const SID = { name: 'sid', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Numbers and services', version: '1.0.0' },
  paths: {
    '/number/buy': {
      post: {
        operationId: 'buyNumber',
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: PURCHASE } } },
        responses: { '200': { description: 'bought', content: json({ type: 'object', properties: { 'error-code': { type: 'string' } } }) }, ...ERRORS },
      },
    },
    '/services': {
      post: {
        operationId: 'createService',
        requestBody: { required: true, content: { 'application/json': { schema: SERVICE_IN }, 'application/x-www-form-urlencoded': { schema: SERVICE_IN } } },
        responses: { '201': { description: 'made', content: json(SERVICE) }, ...ERRORS },
      },
    },
    '/services/{sid}': {
      parameters: [SID],
      get: { operationId: 'getService', responses: { '200': { description: 'the service', content: json(SERVICE) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
};

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form bodies', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(async () => {
    await served?.close();
  });

  it('a form-only operation judges the form by its schema: valid taken, each problem named', async () => {
    expect((await served.client.send('POST', '/number/buy', { text: 'country=GB&msisdn=447700900000&count=2', headers: FORM })).status).toBe(200);
    const cases: [string, string][] = [
      ['country=GB', '/body/msisdn'],
      ['country=GBR&msisdn=447700900000', '/body/country'],
      ['country=GB&msisdn=447700900000&count=nine', '/body/count'],
      ['country=GB&msisdn=447700900000&colour=red', '/body'],
      ['', '/body'],
    ];
    for (const [text, pointer] of cases) {
      const refused = await served.client.send('POST', '/number/buy', { text, headers: FORM });
      expect(refused.status, `${text}: ${JSON.stringify(refused.body)}`).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(pointer);
    }
  });

  it('a form-only operation refuses JSON with 415, naming the form', async () => {
    const refused = await served.client.send('POST', '/number/buy', { json: { country: 'GB', msisdn: '447700900000' } });
    expect(refused.status).toBe(415);
    expect(JSON.stringify(refused.body)).toContain('application/x-www-form-urlencoded');
  });

  it('an operation that takes JSON and a form takes either, and the record keeps what the form sent, typed', async () => {
    const text = 'name=Alerts&priority=3&tags=ops&tags=night&metadata[team]=blue';
    const created = await served.client.send('POST', '/services', { text, headers: FORM });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Alerts', priority: 3, tags: ['ops', 'night'], metadata: { team: 'blue' } });
    const sid = (created.body as { sid: string }).sid;
    const read = await served.client.send('GET', `/services/${encodeURIComponent(sid)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ name: 'Alerts', priority: 3, tags: ['ops', 'night'], metadata: { team: 'blue' } });
    expect((await served.client.send('POST', '/services', { json: { name: 'Pager' } })).status).toBe(201);
  });

  it('a field named __proto__ is a field, never the prototype', async () => {
    const created = await served.client.send('POST', '/services', { text: 'name=Proto&__proto__=polluted', headers: FORM });
    expect([201, 400]).toContain(created.status);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
