/**
 * An error of a status the operation does not document (a 415 for a body sent as text, a 404 where only 200 and 400
 * are listed) is answered in the document-wide Error shape where the document has one (`components.schemas.Error`,
 * or its `x-unmatched-requests` answer): the rule the runner's error-shape check judges by (src/contract/error-schema.ts),
 * found on PagerDuty's Slack integration API, whose errors are `{ "error": { "message": ... } }`. Every answer is
 * checked against the document, and the kit's runner finds nothing in the mock's errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Channels', version: '1.0.0' },
  paths: {
    '/channels': {
      post: {
        operationId: 'createChannel',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 40 } } }) },
        responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Channel' }) }, '400': { description: 'refused', content: json({ $ref: '#/components/schemas/Error' }) } },
      },
    },
    '/channels/{channelId}': {
      get: {
        operationId: 'getChannel',
        parameters: [{ name: 'channelId', in: 'path', required: true, schema: { type: 'string', maxLength: 20 } }],
        responses: { '200': { description: 'the channel', content: json({ $ref: '#/components/schemas/Channel' }) } },
      },
    },
  },
  components: {
    schemas: {
      Channel: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
      Error: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['message'], additionalProperties: false, properties: { code: { type: 'integer' }, message: { type: 'string' }, errors: { type: 'array', items: { type: 'string' } } } } },
      },
    },
  },
};

describe('an error of a status its operation does not document', () => {
  const work = mkdtempSync(join(tmpdir(), 'undocumented-errors-'));
  const file = join(work, 'channels.json');
  let mock: RunningMock;
  beforeAll(async () => {
    writeFileSync(file, JSON.stringify(DOCUMENT));
    mock = await startMock({ port: 0, specPath: file, fixtures: 'none', quiet: true, log: () => {} });
  });
  afterAll(async () => {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('is answered in the document-wide Error shape, saying what went wrong', async () => {
    const compiled = compileContract(mock.app.contract);
    const asText = await request(`${mock.url}/channels`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=general' });
    const refused = (await asText.body.json()) as { error: { message: string } };
    expect(asText.statusCode).toBe(415);
    expect(compiled.validate(DOCUMENT.components.schemas.Error as never, refused, 'response')).toEqual([]);
    expect(refused.error.message).toMatch(/application\/json/);
    const absent = await request(`${mock.url}/channels/nowhere`);
    const missing = (await absent.body.json()) as { error: { message: string } };
    expect(absent.statusCode).toBe(404);
    expect(compiled.validate(DOCUMENT.components.schemas.Error as never, missing, 'response')).toEqual([]);
    expect(missing.error.message).toContain('nowhere');
  });

  it('so the runner finds nothing wrong with the mock’s errors', async () => {
    const report = await runConformance({ baseUrl: mock.url, specPath: file, seed: 2, only: ['error-shape', 'unsupported-media-type', 'unknown-id-404', 'create-read-back'] });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.some((r) => r.checkId === 'error-shape' && r.verdict === 'passed')).toBe(true);
  }, 60_000);
});
