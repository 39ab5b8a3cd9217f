/**
 * A 204 the document gives a body (SendGrid, unseen by the kit's tests before: 42 of its 204s declare JSON content).
 * RFC 9110 §15.3.5: a 204 cannot contain content; §8.6: a server MUST NOT send Content-Length in a 204. The mock
 * sent the Content-Length of the body it would have written and no body, so every such answer was invalid HTTP/1.1 to
 * its client (undici: "Response body length does not match content-length header", 72 runner findings). Read here
 * with undici directly, as any client reads the wire, on a keep-alive connection reused for a second request. And the
 * runner, which then held the 204 to the content its document declares ("declares a body … none was sent"), finds
 * nothing: a 204 is judged as one that documents no content (src/schema/validators.ts).
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ALERT = { type: 'object', required: ['email_to'], properties: { id: { type: 'integer', readOnly: true }, email_to: { type: 'string' } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Alerts', version: '1.0.0' },
  paths: {
    '/alerts': { post: { operationId: 'createAlert', requestBody: { required: true, content: json(ALERT) }, responses: { '201': { description: 'created', content: json(ALERT) } } } },
    '/alerts/{alert_id}': {
      parameters: [{ name: 'alert_id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getAlert', responses: { '200': { description: 'the alert', content: json(ALERT) }, '404': { description: 'none' } } },
      // The document's own contradiction: a 204 with content.
      delete: { operationId: 'deleteAlert', responses: { '204': { description: '', content: json({ type: 'object', properties: {} }) }, '404': { description: 'none' } } },
    },
  },
};

describe('a 204 the document gives a body', () => {
  let served: DocumentMock;
  const dispatcher = new Agent({ connections: 1 });
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(async () => {
    await dispatcher.close();
    await served?.close();
  });

  it('is sent with no content and no Content-Length, and the connection serves the next request', async () => {
    const created = await request(`${served.mock.url}/alerts`, { method: 'POST', body: JSON.stringify({ email_to: 'a@example.com' }), headers: { 'content-type': 'application/json' }, dispatcher });
    expect(created.statusCode).toBe(201);
    const { id } = (await created.body.json()) as { id: number };
    const deleted = await request(`${served.mock.url}/alerts/${id}`, { method: 'DELETE', dispatcher });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.headers['content-length']).toBeUndefined();
    expect(await deleted.body.text()).toBe('');
    const gone = await request(`${served.mock.url}/alerts/${id}`, { dispatcher });
    expect(gone.statusCode).toBe(404);
    await gone.body.dump();
  });

  it('the runner finds nothing: a 204 is not held to the content its document gives it', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 6 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.checkId === 'delete-removes' && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 90_000);
});
