/**
 * A collection at the document's root: `/` and `/{id}`, served under the server's path (Vonage's Applications API,
 * `https://api.nexmo.com/v2/applications`; unseen before, found by a helper's sweep). The mock inferred no resource
 * (a collection needs a name, and `/` has none): every create answered the example's id, a deleted record was still
 * read. The runner inferred no links from `POST /` to `/{id}`, so it read made-up ids and judged nothing of the
 * records. Now the collection is named by its server's last path segment, kept as any other, and linked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const APP_IN = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 60 }, capabilities: { type: 'object', properties: { voice: { type: 'object' } } } } };
const APP = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true, example: '78d335fa-323d-0114-9c3d-d6f0d48968cf' }, ...APP_IN.properties } };
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Applications', version: '2.1.4' },
  servers: [{ url: 'https://api.example.com/v2/applications' }],
  paths: {
    '/': {
      get: { operationId: 'listApplication', responses: { '200': { description: 'the applications', content: json({ type: 'array', items: APP }) } } },
      post: { operationId: 'createApplication', requestBody: { required: true, content: json(APP_IN) }, responses: { '201': { description: 'made', content: json(APP) } } },
    },
    '/{id}': {
      parameters: [ID],
      get: { operationId: 'getApplication', responses: { '200': { description: 'the application', content: json(APP) }, '404': { description: 'none' } } },
      put: { operationId: 'updateApplication', requestBody: { required: true, content: json(APP_IN) }, responses: { '200': { description: 'updated', content: json(APP) }, '404': { description: 'none' } } },
      delete: { operationId: 'deleteApplication', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
};

describe('a collection at the document\'s root, under its server\'s path', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: `${served.mock.url}${served.mock.app.basePath}`, specPath: served.file, seed: 8, only: ['create-read-back', 'replace-visible', 'delete-removes', 'list-contains-created'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('the mock keeps what is created at the root: read back, replaced, deleted', async () => {
    const created = await served.client.send('POST', '/', { json: { name: 'My App' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(id).not.toBe('78d335fa-323d-0114-9c3d-d6f0d48968cf');
    expect((await served.client.send('GET', `/${id}`)).body).toMatchObject({ id, name: 'My App' });
    expect((await served.client.send('DELETE', `/${id}`)).status).toBe(204);
    expect((await served.client.send('GET', `/${id}`, { plainNotFound: true })).status).toBe(404);
  });

  it('the runner links the root create to its item path and judges the records: passed, not skipped', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    for (const check of ['create-read-back', 'replace-visible', 'delete-removes']) {
      expect(report.results.filter((r) => r.checkId === check).map((r) => r.verdict), check).toContain('passed');
    }
    expect(report.cleanup.leftBehind).toEqual([]);
  });
});
