/**
 * A record answered inside one member beside other objects (InfluxDB's labels: `{ "label": {...}, "links": { "self":
 * ... } }`) is compared inside that member. patch-keeps-fields took a wrapper only where it was the one object member,
 * so it compared the whole answer with what was first created, and took a patched name for a lost one: a false finding
 * against the generic mock on InfluxDB's OSS document, unseen before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const LABEL = { type: 'object', properties: { id: { type: 'string', readOnly: true }, orgID: { type: 'string' }, name: { type: 'string' }, properties: { type: 'object', additionalProperties: { type: 'string' } } } };
const LABEL_ANSWER = { type: 'object', properties: { label: LABEL, links: { type: 'object', properties: { self: { type: 'string', format: 'uri' } } } } };
const ID = { name: 'labelID', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Labels', version: '1.0.0' },
  paths: {
    '/labels': {
      post: {
        operationId: 'PostLabels',
        requestBody: { required: true, content: json({ type: 'object', required: ['name', 'orgID'], properties: { name: { type: 'string' }, orgID: { type: 'string' }, properties: { type: 'object', additionalProperties: { type: 'string' } } } }) },
        responses: { '201': { description: 'made', content: json(LABEL_ANSWER) } },
      },
    },
    '/labels/{labelID}': {
      parameters: [ID],
      get: { operationId: 'GetLabelsID', responses: { '200': { description: 'the label', content: json(LABEL_ANSWER) }, '404': { description: 'none' } } },
      patch: {
        operationId: 'PatchLabelsID',
        requestBody: { required: true, content: json({ type: 'object', properties: { name: { type: 'string' }, properties: { type: 'object', additionalProperties: { type: 'string' } } } }) },
        responses: { '200': { description: 'updated', content: json(LABEL_ANSWER) }, '404': { description: 'none' } },
      },
      delete: { operationId: 'DeleteLabelsID', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
};

describe('a record wrapped in one member beside another object', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 2, only: ['patch-keeps-fields'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('is patched and read back inside its member: the patched name is kept, nothing fails', () => {
    const patched = report.results.filter((r) => r.checkId === 'patch-keeps-fields' && r.operationId === 'PatchLabelsID');
    expect(patched.map((r) => `${r.verdict}: ${r.reason ?? ''}`)).toEqual(['passed: ']);
    const reads = patched.flatMap((r) => r.evidence).filter((x) => x.request.method === 'GET' && x.response?.status === 200);
    expect(reads.length).toBeGreaterThan(1);
  });
});
