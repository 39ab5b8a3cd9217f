/**
 * Records of one collection created by a POST on a fixed child of its path, one per kind (Coolify, unseen by the
 * kit's tests before: `POST /applications/dockerimage`, `/applications/public`, ... each answer 201 `{ uuid }` for the
 * application read at `GET /applications/{uuid}`, and `/applications` itself has no POST). Answered statelessly, every
 * uuid a create gave was a 404 at the item path and never in the list. A POST on a fixed child is such a create where
 * it documents 201 or its words say it creates, and its answer carries the record's identity field; a POST there that
 * answers no record (a search, an action) stays stateless.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const APPLICATION = { type: 'object', properties: { uuid: { type: 'string' }, name: { type: 'string' }, image: { type: 'string' }, repository: { type: 'string' } } };
const CREATED = { type: 'object', properties: { uuid: { type: 'string' } } };
const kind = (name: string, required: string, status: '201' | '200'): unknown => ({
  post: {
    operationId: `create-${name}-application`,
    summary: `Create (${name})`,
    requestBody: { required: true, content: json({ type: 'object', required: ['name', required], properties: { name: { type: 'string' }, [required]: { type: 'string' } } }) },
    responses: { [status]: { description: 'created', content: json(CREATED) }, '422': { description: 'refused', content: json(ERROR) } },
  },
});
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Applications', version: '1.0.0' },
  paths: {
    '/applications': { get: { operationId: 'list-applications', responses: { '200': { description: 'all', content: json({ type: 'array', items: APPLICATION }) } } } },
    '/applications/dockerimage': kind('dockerimage', 'image', '201'),
    // 200 for a create, but its words say it creates.
    '/applications/public': kind('public', 'repository', '200'),
    // An action on the collection that answers no record: stateless.
    '/applications/search': {
      post: {
        operationId: 'search-applications',
        requestBody: { required: true, content: json({ type: 'object', properties: { q: { type: 'string' } } }) },
        responses: { '200': { description: 'found', content: json({ type: 'object', properties: { total: { type: 'integer' } } }) } },
      },
    },
    '/applications/{uuid}': {
      parameters: [{ name: 'uuid', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'get-application', responses: { '200': { description: 'one', content: json(APPLICATION) }, '404': { description: 'none', content: json(ERROR) } } },
      delete: { operationId: 'delete-application', responses: { '204': { description: 'gone' }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
};

describe('a collection whose records are created by a POST per kind on a fixed child of its path', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it.each([
    ['dockerimage', { name: 'web', image: 'nginx:1.27' }],
    ['public', { name: 'site', repository: 'https://example.com/site.git' }],
  ])('keeps what POST /applications/%s created: read back at the uuid it answered, listed, then deleted', async (path, body) => {
    const created = await served.client.send('POST', `/applications/${path}`, { json: body });
    expect(created.status).toBe(path === 'public' ? 200 : 201);
    const { uuid } = created.body as { uuid: string };
    expect(typeof uuid).toBe('string');
    const read = await served.client.send('GET', `/applications/${encodeURIComponent(uuid)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ...body, uuid });
    const listed = (await served.client.send('GET', '/applications')).body as { uuid: string }[];
    expect(listed.map((a) => a.uuid)).toContain(uuid);
    expect((await served.client.send('DELETE', `/applications/${encodeURIComponent(uuid)}`)).status).toBe(204);
    expect((await served.client.send('GET', `/applications/${encodeURIComponent(uuid)}`)).status).toBe(404);
  });

  it('leaves a POST on the collection that answers no record stateless', async () => {
    const before = ((await served.client.send('GET', '/applications')).body as unknown[]).length;
    expect((await served.client.send('POST', '/applications/search', { json: { q: 'web' } })).status).toBe(200);
    expect(((await served.client.send('GET', '/applications')).body as unknown[]).length).toBe(before);
  });
});
