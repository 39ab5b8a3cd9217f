/**
 * Reads under a record no operation makes (Asana's workspaces: listed, never created) are sent to a record the target
 * lists, not to the parameter's example, which a stateful target rightly answers 404 (every check of such a read then
 * skipped: some 500 results on Asana's document). Writes never go there: a listed record is the target's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const WORKSPACE = { type: 'object', required: ['gid', 'name'], properties: { gid: { type: 'string', readOnly: true, example: '12345' }, name: { type: 'string' } } };
const PROJECT = { type: 'object', required: ['gid', 'name'], properties: { gid: { type: 'string', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 40 } } };
const page = (item: unknown): unknown => json({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: item } } });
const ERROR = json({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } });
const WORKSPACE_GID = { name: 'workspace_gid', in: 'path', required: true, schema: { type: 'string' }, example: '12345' };
const LIMIT = { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Workspaces', version: '1.0.0' },
  paths: {
    '/workspaces': { get: { operationId: 'getWorkspaces', parameters: [LIMIT], responses: { '200': { description: 'the workspaces', content: page(WORKSPACE) } } } },
    '/workspaces/{workspace_gid}': {
      parameters: [WORKSPACE_GID],
      get: { operationId: 'getWorkspace', responses: { '200': { description: 'one', content: json({ type: 'object', properties: { data: WORKSPACE } }) }, '404': { description: 'none', content: ERROR } } },
      put: {
        operationId: 'updateWorkspace',
        requestBody: { required: true, content: json({ type: 'object', required: ['data'], properties: { data: { type: 'object', properties: { name: { type: 'string' } } } } }) },
        responses: { '200': { description: 'updated', content: json({ type: 'object', properties: { data: WORKSPACE } }) }, '400': { description: 'bad', content: ERROR }, '404': { description: 'none', content: ERROR } },
      },
    },
    '/workspaces/{workspace_gid}/projects': {
      parameters: [WORKSPACE_GID],
      get: { operationId: 'getProjectsForWorkspace', parameters: [LIMIT], responses: { '200': { description: 'its projects', content: page(PROJECT) }, '400': { description: 'bad', content: ERROR }, '404': { description: 'none', content: ERROR } } },
    },
  },
};

describe('reads under a record the target lists but no operation makes', () => {
  let served: DocumentMock;
  let report: RunReport;
  let listed: string[];
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    const answer = (await (await fetch(`${served.mock.url}/workspaces`)).json()) as { data: { gid: string }[] };
    listed = answer.data.map((workspace) => workspace.gid);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 1, only: ['accepts-json-accept', 'accepts-valid-queries', 'accepts-valid-bodies', 'unknown-path-404'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  const exchanges = (operationId: string): { method: string; url: string; status: number | undefined }[] =>
    report.results.filter((r) => r.operationId === operationId).flatMap((r) => r.evidence.map((x) => ({ method: x.request.method, url: x.request.url, status: x.response?.status })));

  it('the mock holds workspaces, none of them the example 12345', () => {
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).not.toContain('12345');
  });

  it('reads the projects of a listed workspace, and judges them instead of skipping', () => {
    const nested = report.results.filter((r) => r.operationId === 'getProjectsForWorkspace' && ['accepts-json-accept', 'accepts-valid-queries'].includes(r.checkId));
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.filter((r) => r.verdict !== 'passed').map((r) => `${r.checkId} ${r.verdict}: ${r.reason ?? ''}`)).toEqual([]);
    const reads = exchanges('getProjectsForWorkspace').filter((x) => x.method === 'GET' && x.url.includes('/projects'));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(listed.some((gid) => read.url.includes(`/workspaces/${gid}/projects`))).toBe(true);
  });

  it('checks the path below a listed workspace for a 404', () => {
    const below = report.results.filter((r) => r.checkId === 'unknown-path-404' && r.operationId === 'getWorkspace');
    expect(below.map((r) => r.verdict)).toEqual(['passed']);
  });

  it('never writes to a listed workspace: the run made none, so its PUT goes to a made-up id', () => {
    const puts = exchanges('updateWorkspace').filter((x) => x.method === 'PUT');
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) expect(listed.some((gid) => put.url.endsWith(`/workspaces/${gid}`))).toBe(false);
  });
});
