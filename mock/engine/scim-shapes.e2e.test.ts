/**
 * Two shapes of SCIM (RFC 7643/7644), found on PagerDuty's SCIM API, on a small document of users:
 * - a record id the mock makes must satisfy the record's own id field (`id`: 26 to 100 characters), not only the
 *   path parameter: a sequence number the field refused was replaced in the record by an invented id, so the record
 *   answered one id and was kept under another (its Location, and every read of the id it answered, a 404);
 * - a list answered as a ListResponse, `{ schemas: [...], totalResults, Resources: [...] }`: the records travel in the
 *   one array of objects, named in no list convention the mock or the runner knew.
 * Every answer is checked against the document, and the kit's runner finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const scim = (schema: unknown): unknown => ({ 'application/scim+json': { schema } });
const ERROR = { type: 'object', required: ['schemas', 'status'], properties: { schemas: { type: 'array', items: { type: 'string' } }, status: { type: 'string' }, detail: { type: 'string' } } };

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'SCIM users', version: '1.0.0' },
  paths: {
    '/Users': {
      get: {
        operationId: 'listUsers',
        parameters: [
          { name: 'startIndex', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'count', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 100 } },
        ],
        responses: { '200': { description: 'a ListResponse', content: scim({ $ref: '#/components/schemas/UserList' }) } },
      },
      post: {
        operationId: 'createUser',
        requestBody: { required: true, content: scim({ $ref: '#/components/schemas/User' }) },
        responses: { '201': { description: 'the user', content: scim({ $ref: '#/components/schemas/User' }) }, '400': { description: 'refused', content: scim(ERROR) } },
      },
    },
    '/Users/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getUser', responses: { '200': { description: 'the user', content: scim({ $ref: '#/components/schemas/User' }) }, '404': { description: 'none', content: scim(ERROR) } } },
      delete: { operationId: 'deleteUser', responses: { '204': { description: 'deleted' }, '404': { description: 'none', content: scim(ERROR) } } },
    },
  },
  components: {
    schemas: {
      User: {
        type: 'object',
        required: ['userName'],
        properties: {
          id: { type: 'string', readOnly: true, minLength: 26, maxLength: 100 },
          userName: { type: 'string', minLength: 1, maxLength: 60 },
          displayName: { type: 'string', maxLength: 60 },
          active: { type: 'boolean' },
        },
      },
      UserList: {
        type: 'object',
        required: ['schemas', 'totalResults', 'Resources'],
        properties: {
          schemas: { type: 'array', items: { type: 'string', enum: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] } },
          totalResults: { type: 'integer', minimum: 0 },
          itemsPerPage: { type: 'integer', minimum: 0 },
          startIndex: { type: 'integer', minimum: 1 },
          Resources: { type: 'array', items: { $ref: '#/components/schemas/User' } },
        },
      },
    },
  },
};

describe('SCIM shapes', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it('a created user is kept under the id it is answered with, one its field allows, and listed in Resources', async () => {
    const headers = { 'content-type': 'application/scim+json' };
    const created = await served.client.send('POST', '/Users', { json: { userName: 'ada@example.com', displayName: 'Ada' }, headers });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(id.length).toBeGreaterThanOrEqual(26);
    expect(created.headers['location']).toBe(`/Users/${id}`);
    expect((await served.client.send('GET', `/Users/${id}`)).body).toMatchObject({ id, userName: 'ada@example.com' });
    const second = await served.client.send('POST', '/Users', { json: { userName: 'grace@example.com' }, headers });
    expect((second.body as { id: string }).id).not.toBe(id);
    const list = (await served.client.send('GET', '/Users')).body as { totalResults: number; Resources: { id: string }[] };
    expect(list.Resources.map((user) => user.id)).toEqual(expect.arrayContaining([id, (second.body as { id: string }).id]));
    expect(list.totalResults).toBe(list.Resources.length);
  });

  it('the runner finds nothing: its reads follow the id answered, and it finds the records in Resources', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 5 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.checkId === 'list-contains-created' && r.verdict === 'passed').length).toBeGreaterThan(0);
    expect(report.results.filter((r) => r.checkId === 'create-read-back' && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 90_000);
});
