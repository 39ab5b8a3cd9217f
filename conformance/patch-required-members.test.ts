/**
 * A document that reuses its record schema for PATCH (required `customer` and `lines`) allows no patch of one field
 * alone. patch-keeps-fields then sent nothing and skipped, saying every partial update "was refused with 409 by a state
 * rule" when none had been sent: a wrong reason, and a check that judged nothing. It now sends each field's change
 * with the required members as the record holds them, which the document allows, and judges what the target keeps,
 * the lines' server-made `lineId` aside (an array of records holds what was sent when each sent record is in one of
 * its records).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const LINE = { type: 'object', required: ['lineId', 'sku', 'quantity'], properties: { lineId: { type: 'string', format: 'uuid', readOnly: true }, sku: { type: 'string', minLength: 1, maxLength: 20 }, quantity: { type: 'integer', minimum: 1, maximum: 99 } } };
const ORDER = { type: 'object', required: ['id', 'customer', 'lines'], properties: { id: { type: 'integer', readOnly: true }, customer: { type: 'string', minLength: 1, maxLength: 40 }, lines: { type: 'array', minItems: 1, maxItems: 5, items: LINE } } };
const ERROR = json({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } });
const ID = { name: 'orderId', in: 'path', required: true, schema: { type: 'integer' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Orders with lines', version: '1.0.0' },
  paths: {
    '/orders': {
      post: {
        operationId: 'createOrder',
        requestBody: { required: true, content: json(ORDER) },
        responses: { '201': { description: 'made', content: json(ORDER) }, '400': { description: 'bad', content: ERROR } },
      },
    },
    '/orders/{orderId}': {
      parameters: [ID],
      get: { operationId: 'getOrder', responses: { '200': { description: 'the order', content: json(ORDER) }, '404': { description: 'none', content: ERROR } } },
      patch: {
        operationId: 'updateOrder',
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ORDER } } },
        responses: { '200': { description: 'updated', content: json(ORDER) }, '400': { description: 'bad', content: ERROR }, '404': { description: 'none', content: ERROR } },
      },
      delete: { operationId: 'deleteOrder', responses: { '204': { description: 'gone' }, '404': { description: 'none', content: ERROR } } },
    },
  },
};

describe('a PATCH whose body schema requires members', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 1, only: ['patch-keeps-fields'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('is judged with each change sent beside the required members, and passes', () => {
    const patched = report.results.filter((r) => r.checkId === 'patch-keeps-fields' && r.operationId === 'updateOrder');
    expect(patched.map((r) => `${r.verdict}: ${r.reason ?? ''}`)).toEqual(['passed: ']);
    const patches = patched.flatMap((r) => r.evidence).filter((x) => x.request.method === 'PATCH');
    // Each patch sent is one the document allows, and was taken.
    expect(patches.length).toBeGreaterThan(0);
    for (const x of patches) expect(x.response?.status).toBe(200);
    for (const x of patches) expect(Object.keys(JSON.parse(x.request.body ?? '{}') as object).sort()).toEqual(['customer', 'lines']);
  });
});
