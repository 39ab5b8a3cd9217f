/**
 * A created record's keys follow its schema's `properties` order, whatever order the client wrote them in and whatever
 * the mock filled itself (the id, a server time, a readOnly field, a default): the former Pet Store engine wrote
 * `{"id":21,"name":"Rex",...}`, the one engine wrote the id after the client's fields until issue 34. Fields the schema
 * does not name come after the named ones, in the order they came. A class rule, shown on a small constructed document;
 * the Pet Store's own answers show it too (below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../transport/server.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const RECORD = {
  type: 'object',
  required: ['label'],
  properties: {
    id: { type: 'integer', readOnly: true },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    label: { type: 'string' },
    colour: { type: 'string', default: 'red' },
    size: { type: 'integer' },
  },
};
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Key order', version: '1.0.0' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: json({ type: 'object', required: ['label'], properties: { label: { type: 'string' }, colour: { type: 'string' }, size: { type: 'integer' } } }) },
        responses: { '201': { description: 'created', content: json(RECORD) } },
      },
    },
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'one', content: json(RECORD) }, '404': { description: 'none' } },
      },
      put: {
        operationId: 'replaceThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, content: json({ type: 'object', required: ['label'], properties: { label: { type: 'string' }, colour: { type: 'string' }, size: { type: 'integer' } } }) },
        responses: { '200': { description: 'replaced', content: json(RECORD) }, '404': { description: 'none' } },
      },
    },
  },
};

describe('a created record is written in its schema\'s properties order', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(async () => {
    await served?.close();
  });

  it('the id and the fields the mock fills take their places among the client\'s, whatever order the client wrote', async () => {
    const created = await served.client.send('POST', '/things', { json: { size: 3, label: 'a' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object)).toEqual(['id', 'createdAt', 'label', 'colour', 'size']);
    const id = (created.body as { id: number }).id;
    const read = await served.client.send('GET', `/things/${id}`);
    expect(Object.keys(read.body as object)).toEqual(['id', 'createdAt', 'label', 'colour', 'size']);
    const replaced = await served.client.send('PUT', `/things/${id}`, { json: { size: 4, label: 'b', colour: 'blue' } });
    expect(replaced.status).toBe(200);
    expect(Object.keys(replaced.body as object)).toEqual(['id', 'createdAt', 'label', 'colour', 'size']);
  });
});

describe('the Pet Store writes the id first, as its former engine did', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, quiet: true, log: () => {} });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('a pet and an order', async () => {
    const post = async (path: string, body: unknown): Promise<string> => {
      const response = await fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status).toBe(201);
      return response.text();
    };
    const pet = await post('/pets', { status: 'pending', name: 'Rex', categoryId: 1 });
    expect(pet).toMatch(/^\{"id":\d+,"name":"Rex","categoryId":1,"status":"pending"\}$/);
    const order = await post('/store/orders', { quantity: 1, petId: 1 });
    expect(order).toMatch(/^\{"id":\d+,"petId":1,"quantity":1,/);
  });
});
