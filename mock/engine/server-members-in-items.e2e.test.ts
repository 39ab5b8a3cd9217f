/**
 * Items of a list that must carry a server's member (readOnly, required) the client does not send: the member is added,
 * and the client's own members of each item are kept. Found by a sweep of hostile schemas (2026-11-28, seed 4242, the
 * 17th schema): the first draw of `status` (a `oneOf` with a branch no value meets) broke the item, the fit then drew
 * the whole item afresh, and a line sent as `{a: "hyphenationh", c: "2030-01-18"}` was answered and kept as
 * `{a: "extentextent", c: "2025-05-21", name: "d", status: ...}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const status = {
  readOnly: true,
  oneOf: [
    { type: 'integer', maximum: 91, multipleOf: 2.5 },
    { oneOf: [{ type: 'object', properties: { status: { type: 'string', format: 'email' } }, required: ['status'], additionalProperties: false, not: { type: 'integer', minimum: 17, maximum: 73, multipleOf: 0.3 } }, { type: 'string', format: 'date-time' }] },
    { type: 'string', minLength: 100_000_000, maxLength: 30 },
  ],
};
const line = { type: 'object', required: ['status', 'a', 'c'], not: { type: 'string', minLength: 5 }, properties: { status, a: { type: 'string', minLength: 12, maxLength: 22 }, name: { type: 'string', enum: ['babbd', 'd'] }, c: { type: 'string', format: 'date' } } };
const thing = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 30 }, value: { type: 'array', uniqueItems: true, items: line } } };
const document = {
  openapi: '3.0.3',
  info: { title: 'Things', version: '1.0.0' },
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { description: 'all', content: json({ type: 'array', items: thing }) } } },
      post: { operationId: 'createThing', requestBody: { required: true, content: json(thing) }, responses: { '201': { description: 'created', content: json(thing) }, '400': { description: 'refused', content: json(ERROR) } } },
    },
    '/things/{thingId}': {
      parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getThing', responses: { '200': { description: 'one', content: json(thing) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
};

describe("items that must carry a server's member", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(document);
  });
  afterAll(() => served?.close());

  it('get it added, and keep every member the client sent', async () => {
    const sent = [
      { a: 'hyphenationh', c: '2030-01-18' },
      { a: 'another-line-1', c: '2031-02-03', name: 'babbd' },
    ];
    const created = await served.client.send('POST', '/things', { json: { name: 'Rex', value: sent } });
    expect(created.status).toBe(201);
    const body = created.body as { id: number; value: Record<string, unknown>[] };
    expect(body.value).toHaveLength(2);
    body.value.forEach((item, index) => {
      expect(item).toMatchObject(sent[index]!);
      expect(item).toHaveProperty('status');
    });
    expect((await served.client.send('GET', `/things/${body.id}`)).body).toEqual(body);
  });
});
