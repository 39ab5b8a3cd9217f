/**
 * A record whose optional member no value can make valid in an answer: the member is left out, and the record keeps
 * its id and everything else the client sent. Found by a sweep of hostile schemas (2026-11-28): `value` required a
 * readOnly member whose schema no value meets (an enum of words under a pattern of digits), so every record that was
 * sent a `value` was stored invalid, and each answer of it was drawn afresh by the answer guard: another id and name
 * than the client's, and a list of one invented record in place of the collection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
// `code` is the server's (readOnly) and required in every answer, yet no text is both one of these words and digits.
const unmakeable = { type: 'object', required: ['code'], additionalProperties: false, properties: { code: { type: 'string', readOnly: true, enum: ['x', 'y'], pattern: '^[0-9]+$' }, note: { type: 'string' } } };
const thing = { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 40 }, value: unmakeable } };
const document = {
  openapi: '3.1.0',
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

describe('an optional member no answer can hold', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(document);
  });
  afterAll(() => served?.close());

  it('is left out of the record, which keeps its id, its name and the rest of the collection', async () => {
    const before = (await served.client.send('GET', '/things')).body as { id: number }[];
    const created = await served.client.send('POST', '/things', { json: { name: 'Rex', value: { note: 'hello' } } });
    expect(created.status).toBe(201);
    const body = created.body as { id: number; name: string; value?: unknown };
    expect(body.name).toBe('Rex');
    expect(body).not.toHaveProperty('value');
    expect(created.headers['location']).toBe(`/things/${body.id}`);
    expect((await served.client.send('GET', `/things/${body.id}`)).body).toEqual({ id: body.id, name: 'Rex' });
    const after = (await served.client.send('GET', '/things')).body as { id: number }[];
    expect(after.map((record) => record.id)).toEqual([...before.map((record) => record.id), body.id]);
  });
});
