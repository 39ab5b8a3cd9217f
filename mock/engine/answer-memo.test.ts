/**
 * What the generic engine keeps between answers so a read costs less (issue 22, point 8), and what it must not keep:
 * stored records are immutable all the way down (their text is written once, mock/engine/json.ts), an item's envelope and
 * an unchanged list are the same object on every read, and a check an answer passed is remembered only for that
 * immutable body, operation, status and the header values the check reads. Every answer here is checked against
 * the document by its compiled validators, as the mock itself does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { encodeJson, immutableJson, isImmutableJson } from './json.js';
import type { MockRequest, MockResponse } from './message.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createGenericEngine } from './engine.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Answer memo, version: '1' }
paths:
  /services:
    get:
      operationId: listServices
      parameters: [{ name: PageSize, in: query, schema: { type: integer, minimum: 1 } }]
      responses:
        '200':
          description: a page
          content:
            application/json:
              schema: { type: object, properties: { services: { type: array, items: { $ref: '#/components/schemas/Service' } }, meta: { type: object } } }
    post:
      operationId: createService
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Service' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Service' } } } }
  /services/{sid}:
    get:
      operationId: getService
      parameters: [{ name: sid, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: the service, content: { application/json: { schema: { $ref: '#/components/schemas/Service' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
    delete:
      operationId: deleteService
      parameters: [{ name: sid, in: path, required: true, schema: { type: string } }]
      responses:
        '204': { description: gone }
  /things:
    post:
      operationId: createThing
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/ThingAnswer' } } } }
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: the thing in an envelope, content: { application/json: { schema: { $ref: '#/components/schemas/ThingAnswer' } } } }
components:
  schemas:
    Service:
      type: object
      required: [sid, name]
      properties:
        sid: { type: string, readOnly: true }
        name: { type: string }
        links: { type: object, properties: { self: { type: string } } }
    Thing:
      type: object
      required: [label]
      properties: { id: { type: integer, readOnly: true }, label: { type: string }, tags: { type: array, items: { type: string } } }
    ThingAnswer:
      type: object
      required: [data]
      properties: { data: { $ref: '#/components/schemas/Thing' } }
    Problem:
      type: object
      required: [code]
      properties: { code: { type: string }, message: { type: string } }
`;

let dir: string;
let file: string;
let mock: RunningMock;
let compiled: CompiledContract;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'generic-answer-memo-'));
  file = join(dir, 'memo.yaml');
  writeFileSync(file, DOCUMENT);
  mock = await startMock({ port: 0, specPath: file, quiet: true, log: () => {}, fixtures: 'none' });
  compiled = compileContract(await loadContract(file));
}, 60_000);

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

const JSON_HEADERS = { host: 'memo.test', 'content-type': 'application/json' };

function send(method: string, path: string, json?: unknown, query: MockRequest['query'] = {}): MockResponse {
  const body = json === undefined ? undefined : { kind: 'bytes' as const, bytes: new TextEncoder().encode(JSON.stringify(json)) };
  const response = mock.app.handle({ method, path, query, headers: json === undefined ? { host: 'memo.test' } : { ...JSON_HEADERS, 'content-length': String(body!.bytes.byteLength) }, ...(body ? { body } : {}) });
  return response;
}

/** The document's own verdict on an answer, by the operation's compiled validators. */
function problems(operationId: string, response: MockResponse): readonly unknown[] {
  return compiled.operations.get(operationId)!.response(response.status, response.headers, response.body).diagnostics;
}

describe('what the generic engine keeps between answers', () => {
  it('stores a record immutable all the way down, without freezing what the client sent', () => {
    const sent = { name: 'Alerts', links: { self: 'https://example.com/alerts' } };
    const created = send('POST', '/services', sent);
    expect(created.status).toBe(201);
    expect(problems('createService', created)).toEqual([]);
    const sid = (created.body as { sid: string }).sid;
    const read = send('GET', `/services/${sid}`);
    expect(problems('getService', read)).toEqual([]);
    expect(isImmutableJson(read.body)).toBe(true);
    const links = (read.body as { links: { self: string } }).links;
    expect(Object.isFrozen(links)).toBe(true);
    expect(() => {
      links.self = 'https://example.com/changed';
    }).toThrow(TypeError);
    expect(encodeJson(read.body)).toBe(JSON.stringify(read.body));
    expect(encodeJson(read.body)).toBe(JSON.stringify(read.body));
    expect(Object.isFrozen(sent.links)).toBe(false);
  });

  it('answers the same record, and the same envelope around it, on every read, each passing the document', () => {
    const created = send('POST', '/things', { label: 'first', tags: ['a'] });
    expect(created.status).toBe(201);
    const id = (created.body as { data: { id: number } }).data.id;
    const first = send('GET', `/things/${id}`);
    const second = send('GET', `/things/${id}`);
    expect(first.body).toEqual({ data: { id, label: 'first', tags: ['a'] } });
    expect(second.body).toBe(first.body);
    expect(problems('getThing', first)).toEqual([]);
    expect(problems('getThing', second)).toEqual([]);
  });

  it('answers an unchanged list with the same object, and a new one once the store changes', () => {
    const before = send('GET', '/services');
    expect(send('GET', '/services').body).toBe(before.body);
    // Another query is another answer.
    expect(send('GET', '/services', undefined, { PageSize: '1' }).body).not.toBe(before.body);
    const created = send('POST', '/services', { name: 'Billing' });
    const sid = (created.body as { sid: string }).sid;
    const after = send('GET', '/services');
    expect(after.body).not.toBe(before.body);
    expect((after.body as { services: { sid: string }[] }).services.map((s) => s.sid)).toContain(sid);
    expect(problems('listServices', after)).toEqual([]);
    expect(send('DELETE', `/services/${sid}`).status).toBe(204);
    const gone = send('GET', '/services');
    expect((gone.body as { services: { sid: string }[] }).services.map((s) => s.sid)).not.toContain(sid);
    expect(send('GET', `/services/${sid}`).status).toBe(404);
  });

  it('checks an immutable body again when a header the check reads differs, and never remembers a failed check', async () => {
    const engine = createGenericEngine(compiled, { basePath: '', fixtures: 'none' });
    const getService = compiled.contract.operations.find((o) => o.operationId === 'getService')!;
    const record = immutableJson({ sid: 'MG1', name: 'Alerts', links: { self: 'https://example.com/MG1' } });
    const answer = (contentType: string): MockResponse => engine.conform(getService, { status: 200, headers: { 'content-type': contentType }, body: record });
    const passed = answer('application/json');
    expect(passed.body).toBe(record);
    expect(answer('application/json').body).toBe(record);
    // The same body under a Content-Type the document does not have for it: checked again, and sent as documented.
    const wrongType = answer('text/plain');
    expect(wrongType.headers['content-type']).toBe('application/json');
    expect(problems('getService', wrongType)).toEqual([]);

    // A body that breaks the document is fitted each time it is sent, however immutable.
    const broken = immutableJson({ sid: 'MG2', name: 7 });
    for (let i = 0; i < 2; i++) {
      const fitted = engine.conform(getService, { status: 200, headers: { 'content-type': 'application/json' }, body: broken });
      expect(fitted.body).not.toBe(broken);
      expect(problems('getService', fitted)).toEqual([]);
    }
  });
});
