/**
 * What a write keeps, on a small constructed document with the two shapes found on Rebilly's and ReadMe's documents:
 * - a create whose own answer allows what was sent (`oneOf` of every token kind) while the resource's read answers a
 *   narrower schema (only `cash` tokens: the document contradicts itself, as Rebilly's `PaymentToken` does). The
 *   create answers what was sent; the read answers what its schema allows (engine.ts `refitted`).
 * - one record at a path of no collection (`/settings/{userId}/{section}`: GET, PUT, PATCH and DELETE): what
 *   a PUT sent is what the GET answers, per concrete path and per session; PATCH merges; DELETE forgets (infer.ts
 *   `singletons`), at most 1,000 paths per session.
 * Every answer is checked against the document (foreign-client.ts throws on any that breaks it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';
import type { ForeignClient } from './test-support/foreign-client.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Kept writes', version: '1.0.0' },
  paths: {
    '/tokens': {
      post: {
        operationId: 'createToken',
        requestBody: { required: true, content: json({ oneOf: [{ $ref: '#/components/schemas/CardInput' }, { $ref: '#/components/schemas/CashInput' }] }) },
        responses: {
          '201': { description: 'the token, of the kind sent', content: json({ oneOf: [{ $ref: '#/components/schemas/CardToken' }, { $ref: '#/components/schemas/CashToken' }] }) },
          '400': { description: 'refused', content: json(ERROR) },
        },
      },
    },
    '/tokens/{tokenId}': {
      get: {
        operationId: 'getToken',
        parameters: [{ name: 'tokenId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'a token, as the document narrows it', content: json({ $ref: '#/components/schemas/CashToken' }) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: json({ type: 'object', required: ['text'], additionalProperties: false, properties: { text: { type: 'string', maxLength: 100 } } }) },
        responses: { '201': { description: 'the note', content: json({ $ref: '#/components/schemas/Note' }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    '/notes/{noteId}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'the note', content: json({ $ref: '#/components/schemas/Note' }) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
    '/settings/{userId}/{section}': {
      parameters: [
        { name: 'userId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'section', in: 'path', required: true, schema: { type: 'string', enum: ['display', 'mail'] } },
      ],
      get: { operationId: 'getSettings', responses: { '200': { description: 'the settings', content: json({ $ref: '#/components/schemas/Settings' }) } } },
      put: {
        operationId: 'putSettings',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Settings' }) },
        responses: { '200': { description: 'kept', content: json({ $ref: '#/components/schemas/Settings' }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
      patch: {
        operationId: 'patchSettings',
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { $ref: '#/components/schemas/Settings' } } } },
        responses: { '200': { description: 'merged', content: json({ $ref: '#/components/schemas/Settings' }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
      delete: { operationId: 'deleteSettings', responses: { '204': { description: 'back to the defaults' } } },
    },
  },
  components: {
    schemas: {
      CardInput: { type: 'object', required: ['method', 'last4'], additionalProperties: false, properties: { method: { type: 'string', enum: ['card'] }, last4: { type: 'string', pattern: '^[0-9]{4}$' } } },
      CashInput: { type: 'object', required: ['method'], additionalProperties: false, properties: { method: { type: 'string', enum: ['cash'] } } },
      CardToken: { type: 'object', required: ['id', 'method', 'last4'], properties: { id: { type: 'integer', readOnly: true }, method: { type: 'string', enum: ['card'] }, last4: { type: 'string', pattern: '^[0-9]{4}$' } } },
      CashToken: { type: 'object', required: ['id', 'method'], properties: { id: { type: 'integer', readOnly: true }, method: { type: 'string', enum: ['cash'] }, last4: { type: 'string' } } },
      Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } } },
      Settings: {
        type: 'object',
        properties: { theme: { type: 'string', enum: ['light', 'dark'] }, fontSize: { type: 'integer', minimum: 8, maximum: 40 }, digest: { type: 'boolean' } },
        example: { theme: 'light', fontSize: 12, digest: false },
      },
    },
  },
};

describe('what a write keeps', () => {
  let served: DocumentMock;
  let client: ForeignClient;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    client = served.client;
  });
  afterAll(() => served?.close());

  it('a create answers the kind it was sent where its own answer allows it; the read answers what its schema allows', async () => {
    const created = await client.send('POST', '/tokens', { json: { method: 'card', last4: '4242' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ method: 'card', last4: '4242' });
    const id = (created.body as { id: number }).id;
    const read = await client.send('GET', `/tokens/${id}`);
    // The read's schema admits only cash tokens: the document's own contradiction, answered validly (checked by the client).
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, method: 'cash' });
    const cash = await client.send('POST', '/tokens', { json: { method: 'cash' } });
    expect(cash.body).toMatchObject({ method: 'cash' });
  });

  it('a record at a path of no collection: the GET answers what the PUT sent, per concrete path', async () => {
    const before = await client.send('GET', '/settings/7/display');
    expect(before.body).toEqual({ theme: 'light', fontSize: 12, digest: false });
    const put = await client.send('PUT', '/settings/7/display', { json: { theme: 'dark', fontSize: 20, digest: true } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ theme: 'dark', fontSize: 20, digest: true });
    expect((await client.send('GET', '/settings/7/display')).body).toEqual({ theme: 'dark', fontSize: 20, digest: true });
    // Another user's, another section: untouched.
    expect((await client.send('GET', '/settings/8/display')).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
    expect((await client.send('GET', '/settings/7/mail')).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
  });

  it('PATCH merges into what was put, DELETE forgets it, and a session keeps its own', async () => {
    await client.send('PUT', '/settings/9/mail', { json: { theme: 'dark', fontSize: 30 } });
    const patched = await client.send('PATCH', '/settings/9/mail', { json: { fontSize: 10 }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(200);
    expect((await client.send('GET', '/settings/9/mail')).body).toMatchObject({ theme: 'dark', fontSize: 10 });
    const other = { 'x-mock-session': 'kept-writes-other' };
    expect((await client.send('GET', '/settings/9/mail', { headers: other })).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
    await client.send('PUT', '/settings/9/mail', { json: { theme: 'light', fontSize: 39 }, headers: other });
    expect((await client.send('GET', '/settings/9/mail', { headers: other })).body).toMatchObject({ fontSize: 39 });
    expect((await client.send('GET', '/settings/9/mail')).body).toMatchObject({ fontSize: 10 });
    expect((await client.send('DELETE', '/settings/9/mail')).status).toBe(204);
    expect((await client.send('GET', '/settings/9/mail')).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
  });

  it('keeps at most 1,000 such records per session: past them the oldest is forgotten, so memory stays bounded', async () => {
    const session = { 'x-mock-session': 'kept-writes-many' };
    // 1,001 PUTs, each to a path of its own (bounded: one loop of loopback requests, eight at a time).
    for (let start = 1; start <= 1001; start += 8) {
      await Promise.all(Array.from({ length: Math.min(8, 1002 - start) }, (_, i) => client.send('PUT', `/settings/${start + i}/mail`, { json: { fontSize: 9 }, headers: session })));
    }
    expect((await client.send('GET', '/settings/1/mail', { headers: session })).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
    expect((await client.send('GET', '/settings/2/mail', { headers: session })).body).toMatchObject({ fontSize: 9 });
    expect((await client.send('GET', '/settings/1001/mail', { headers: session })).body).toMatchObject({ fontSize: 9 });
  });

  it('a PUT the document refuses keeps nothing', async () => {
    const refused = await client.send('PUT', '/settings/11/display', { json: { theme: 'neon' } });
    expect(refused.status).toBe(400);
    expect((await client.send('GET', '/settings/11/display')).body).toEqual({ theme: 'light', fontSize: 12, digest: false });
  });
});

describe('under --validation warn', () => {
  let served: DocumentMock;
  let client: ForeignClient;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { validation: 'warn' });
    client = served.client;
  });
  afterAll(() => served?.close());

  it('a member a closed request schema has no word for is let through and dropped, not kept ("__proto__" too)', async () => {
    const created = await client.send('POST', '/notes', { json: JSON.parse('{"text":"hi","colour":"red","__proto__":{"polluted":true}}') as unknown });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object).sort()).toEqual(['id', 'text']);
    const read = await client.send('GET', `/notes/${String((created.body as { id: number }).id)}`);
    expect(Object.keys(read.body as object).sort()).toEqual(['id', 'text']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
