/**
 * Inputs a document requires on every request of a kind, sent as its clients must (VictorOps' public API, unseen
 * before, through the generic mock):
 * - a DELETE that documents a required body (`DELETE /user/{user}` names the user who takes over: `{ replacement }`)
 *   is sent a valid one, by the checks and by the clean-up; sent bare, it was refused 400 and delete-removes failed a
 *   server that did what its document says;
 * - a required header parameter (`X-VO-Api-Id` on every operation) does not make a probe skip its request as invalid:
 *   the call fills it (accepts-large-ids skipped 87 requests as "/header/x-vo-api-id is required").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const API_ID = { name: 'X-VO-Api-Id', in: 'header', required: true, schema: { type: 'string', minLength: 4, maxLength: 20 } };
const USER = { type: 'object', required: ['username', 'email'], properties: { username: { type: 'string', maxLength: 30 }, email: { type: 'string', format: 'email' } } };
const DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'On-call users', version: '1.0.0' },
  paths: {
    '/user': {
      post: { operationId: 'addUser', parameters: [API_ID], requestBody: { required: true, content: json(USER) }, responses: { '200': { description: 'added', content: json(USER) }, '400': { description: 'bad' } } },
    },
    '/user/{user}': {
      parameters: [{ name: 'user', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }, API_ID],
      get: { operationId: 'getUser', responses: { '200': { description: 'the user', content: json(USER) }, '404': { description: 'none' } } },
      delete: {
        operationId: 'deleteUser',
        requestBody: { required: true, content: json({ type: 'object', required: ['replacement'], properties: { replacement: { type: 'string', maxLength: 30 } } }) },
        responses: { '200': { description: 'deleted' }, '400': { description: 'bad' }, '404': { description: 'none' } },
      },
    },
  },
};

describe('inputs a document requires on every request of a kind', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 6, only: ['delete-removes', 'accepts-large-ids', 'create-read-back'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('a DELETE with a required body is sent one, and the record is gone: nothing fails, nothing is left behind', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    const deletes = report.results.flatMap((r) => r.evidence).filter((x) => x.request.method === 'DELETE' && x.response?.status === 200);
    expect(deletes.length).toBeGreaterThan(0);
    for (const x of deletes) expect(JSON.parse(x.request.body ?? '{}')).toHaveProperty('replacement');
    expect(report.results.some((r) => r.checkId === 'delete-removes' && r.verdict === 'passed')).toBe(true);
    expect(report.cleanup.leftBehind).toEqual([]);
  });

  it('a required header parameter is filled, not a reason to skip a probe', () => {
    const large = report.results.filter((r) => r.checkId === 'accepts-large-ids');
    expect(large.length).toBeGreaterThan(0);
    expect(large.filter((r) => r.verdict === 'skipped').map((r) => r.reason)).toEqual([]);
    const sent = large.flatMap((r) => r.evidence).filter((x) => x.response !== undefined);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((x) => typeof x.request.headers['x-vo-api-id'] === 'string')).toBe(true);
  });
});
