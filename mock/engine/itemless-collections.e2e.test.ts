/**
 * A collection the document gives no item path: a GET that lists records and a POST that creates one on the same
 * path, nothing below it (Formbricks' management API, unseen by the kit's tests before:
 * `/organizations/{organizationId}/users` lists `{ data: [user] }` and creates a user, answered 201). Answered
 * statelessly, a user the create answered was never in the list. The records are kept: each create is listed in its
 * own scope, and no Location names an item path the document does not have. A POST on a list path that answers no
 * record (a search answering 200) stays stateless.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const USER = { type: 'object', required: ['id', 'email'], properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' }, role: { type: 'string', enum: ['owner', 'member'] } } };
const ORG = { name: 'organizationId', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Members', version: '1.0.0' },
  paths: {
    '/organizations/{organizationId}/users': {
      parameters: [ORG],
      get: {
        operationId: 'listUsers',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: { '200': { description: 'users', content: json({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: USER } } }) } },
      },
      post: {
        operationId: 'createUser',
        requestBody: { required: true, content: json({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' }, role: { type: 'string', enum: ['owner', 'member'] } } }) },
        responses: { '201': { description: 'created', content: json(USER) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    // A list beside a search by POST: no record is made.
    '/products': {
      get: { operationId: 'listProducts', responses: { '200': { description: 'products', content: json({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } }) } } },
      post: {
        operationId: 'searchProducts',
        requestBody: { required: true, content: json({ type: 'object', properties: { q: { type: 'string' } } }) },
        responses: { '200': { description: 'found', content: json({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } }) } },
      },
    },
  },
};

describe('a collection with a list and a create and no item path', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it('lists each record a create made, in its own scope, and names no item path in a Location', async () => {
    const created = await served.client.send('POST', '/organizations/acme/users', { json: { email: 'jane@example.com', role: 'member' } });
    expect(created.status).toBe(201);
    expect(created.headers['location']).toBeUndefined();
    const { id } = created.body as { id: string };
    expect(created.body).toMatchObject({ email: 'jane@example.com', role: 'member' });
    const second = await served.client.send('POST', '/organizations/acme/users', { json: { email: 'joe@example.com' } });
    expect(second.status).toBe(201);
    const listed = (await served.client.send('GET', '/organizations/acme/users')).body as { data: { id: string; email: string }[] };
    expect(listed.data.map((user) => user.email)).toEqual(['jane@example.com', 'joe@example.com']);
    expect(listed.data[0]!.id).toBe(id);
    const other = (await served.client.send('GET', '/organizations/globex/users')).body as { data: unknown[] };
    expect(other.data).toEqual([]);
  });

  it('leaves a POST on a list path that answers no record stateless', async () => {
    const searched = await served.client.send('POST', '/products', { json: { q: 'lamp' } });
    expect(searched.status).toBe(200);
    const resources = (await served.client.send('GET', '/__mock/resources')).body as { resources: { collection: string }[] };
    expect(resources.resources.map((r) => r.collection)).toEqual(['/organizations/{organizationId}/users']);
  });
});
