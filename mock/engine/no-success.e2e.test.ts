/**
 * An operation whose document gives it no success at all (PagerDuty's `GET /oauth_delegations/revocation_requests/
 * status` documents 400, 401, 403, 404 and 429 only). The mock answered an undocumented 200 with no body; what the
 * document allows is one of its own answers. As Prism does (its negotiator: the lowest 2xx, else `default`, else the
 * first response), the first the operation documents is answered, with its schema; a `default` beside errors is
 * answered as a 200 (`default` stands for every status the operation does not list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } } } };
const STATUS = { type: 'object', required: ['state'], properties: { state: { type: 'string', enum: ['pending', 'done'] } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Errors only', version: '1.0.0' },
  paths: {
    '/revocations/status': { get: { operationId: 'getRevocationStatus', responses: { '400': { description: 'bad', content: json(ERROR) }, '401': { description: 'who', content: json(ERROR) }, '429': { description: 'slow down' } } } },
    '/revocations/summary': { get: { operationId: 'getRevocationSummary', responses: { '404': { description: 'none', content: json(ERROR) }, default: { description: 'the summary', content: json(STATUS) } } } },
  },
};

describe('an operation that documents no success', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(async () => {
    await served?.close();
  });

  it('answers the first response it documents, valid against its schema, never an undocumented status', async () => {
    // The client checks every answer against the document: an undocumented status or body fails here.
    const answer = await served.client.send('GET', '/revocations/status');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: expect.any(Number), message: expect.any(String) } });
  });

  it('answers a default beside errors as its success', async () => {
    const answer = await served.client.send('GET', '/revocations/summary');
    expect(answer.status).toBe(200);
    expect(['pending', 'done']).toContain((answer.body as { state: string }).state);
  });

  it('the runner finds nothing: an operation that documents no success is not held to one', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 2 });
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
  }, 90_000);
});
