/**
 * A record created under another record's path and read at its own top-level item path (Qovery, unseen by the kit's
 * tests before: `POST /project/{projectId}/environment` answers 201 with the Environment read at
 * `GET /environment/{environmentId}`, which has no create of its own). Answered statelessly, every id a create gave
 * was a 404 at the item path, so no environment could ever be read, replaced or deleted. The POST named by the
 * resource's word, answering its identity field, is its create; the record is read, replaced and deleted at its own
 * path, and the Location names it; the record it is made under must exist (the 404 of an absent project). A POST
 * there that answers no record (an action) stays stateless.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const ENVIRONMENT = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, mode: { type: 'string', enum: ['PRODUCTION', 'STAGING'] } } };
const PROJECT = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } };
const uuid = (name: string): unknown => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Environments', version: '1.0.0' },
  paths: {
    '/project': {
      post: {
        operationId: 'createProject',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) },
        responses: { '201': { description: 'created', content: json(PROJECT) } },
      },
    },
    '/project/{projectId}': {
      parameters: [uuid('projectId')],
      get: { operationId: 'getProject', responses: { '200': { description: 'one', content: json(PROJECT) }, '404': { description: 'none', content: json(ERROR) } } },
    },
    '/project/{projectId}/environment': {
      parameters: [uuid('projectId')],
      post: {
        operationId: 'createEnvironment',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, mode: { type: 'string', enum: ['PRODUCTION', 'STAGING'] } } }) },
        responses: { '201': { description: 'created', content: json(ENVIRONMENT) }, '404': { description: 'no project', content: json(ERROR) } },
      },
    },
    '/project/{projectId}/environment/status': {
      parameters: [uuid('projectId')],
      get: { operationId: 'environmentStatuses', responses: { '200': { description: 'statuses', content: json({ type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, state: { type: 'string' } } } }) } } },
    },
    '/environment/{environmentId}': {
      parameters: [uuid('environmentId')],
      get: { operationId: 'getEnvironment', responses: { '200': { description: 'one', content: json(ENVIRONMENT) }, '404': { description: 'none', content: json(ERROR) } } },
      put: {
        operationId: 'editEnvironment',
        requestBody: { required: true, content: json({ type: 'object', properties: { name: { type: 'string' }, mode: { type: 'string', enum: ['PRODUCTION', 'STAGING'] } } }) },
        responses: { '200': { description: 'edited', content: json(ENVIRONMENT) }, '404': { description: 'none', content: json(ERROR) } },
      },
      delete: { operationId: 'deleteEnvironment', responses: { '204': { description: 'gone' }, '404': { description: 'none', content: json(ERROR) } } },
    },
    // An action under an environment, named by another word, answering no record.
    '/environment/{environmentId}/deploy': {
      parameters: [uuid('environmentId')],
      post: { operationId: 'deployEnvironment', responses: { '202': { description: 'queued', content: json({ type: 'object', properties: { status: { type: 'string' } } }) } } },
    },
  },
};

describe('a record created under another record and read at its own item path', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it('reads, replaces and deletes at /environment/{id} what POST /project/{projectId}/environment created', async () => {
    const project = (await served.client.send('POST', '/project', { json: { name: 'shop' } })).body as { id: string };
    const created = await served.client.send('POST', `/project/${project.id}/environment`, { json: { name: 'production', mode: 'PRODUCTION' } });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect(created.headers['location']).toBe(`/environment/${id}`);
    const read = await served.client.send('GET', `/environment/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, name: 'production', mode: 'PRODUCTION' });
    const edited = await served.client.send('PUT', `/environment/${id}`, { json: { name: 'live', mode: 'PRODUCTION' } });
    expect(edited.status).toBe(200);
    expect((await served.client.send('GET', `/environment/${id}`)).body).toMatchObject({ id, name: 'live' });
    expect((await served.client.send('DELETE', `/environment/${id}`)).status).toBe(204);
    expect((await served.client.send('GET', `/environment/${id}`)).status).toBe(404);
  });

  it('answers the 404 of a project no record has, and stores nothing', async () => {
    const refused = await served.client.send('POST', '/project/3fa85f64-5717-4562-b3fc-2c963f66afa6/environment', { json: { name: 'orphan' } });
    expect(refused.status).toBe(404);
  });

  it('leaves an action under the record stateless', async () => {
    const resources = (await served.client.send('GET', '/__mock/resources')).body as { resources: unknown[]; stateless: string[] };
    expect(resources.stateless).toEqual(expect.arrayContaining(['deployEnvironment', 'environmentStatuses']));
    expect(resources.stateless).not.toContain('createEnvironment');
  });
});
