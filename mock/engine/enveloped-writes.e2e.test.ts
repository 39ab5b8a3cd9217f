/**
 * A record sent in the envelope its answers wrap it in, with a key the client chooses (Box's Doc Gen templates:
 * `POST /docgen_templates { "file": { "type": "file", "id": "42037322" } }` answers `{ "file": {...} }`, and
 * `GET /docgen_templates/{template_id}` names it by the file's id):
 * - the mock keeps the record the envelope holds, under the client's key, and answers it wrapped once (it was kept as
 *   the envelope and answered `{ "file": { "file": ... } }`, under an id of its own);
 * - the runner makes the key inside the envelope its own (`42037322` + digits), as it does for a key at the top, so a
 *   record the target seeded from the same example is never the one it creates.
 * Every answer is checked against the document, and the runner finds nothing.
 *
 * And an envelope only the create has (Lago's payments: `POST /payments {payment: {...}}` answers `{payment: {lago_id,
 * ...}}`, `GET /payments/{lago_id}` the payment bare): the create's own answer says the envelope, by the member holding
 * the record's id field. Before, the record was kept as the envelope and answered bare, which the create's schema
 * refused, so it was fitted into an envelope of invented values: every payment answered with the example's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const FILE_REFERENCE = { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: ['file'] }, id: { type: 'string', pattern: '^[0-9]+$', example: '42037322' } } };
const TEMPLATE = { type: 'object', properties: { file: { allOf: [FILE_REFERENCE, { description: 'the file marked as a template' }] } }, example: { file: { type: 'file', id: '42037322' } } };

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Templates', version: '1.0.0' },
  paths: {
    '/docgen_templates': {
      get: { operationId: 'listTemplates', responses: { '200': { description: 'the templates', content: json({ type: 'object', properties: { entries: { type: 'array', items: TEMPLATE } } }) } } },
      post: {
        operationId: 'markTemplate',
        requestBody: { required: true, content: json({ type: 'object', required: ['file'], properties: { file: { allOf: [FILE_REFERENCE, {}] } } }) },
        responses: { '201': { description: 'marked', content: json(TEMPLATE) } },
      },
    },
    '/docgen_templates/{template_id}': {
      parameters: [{ name: 'template_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getTemplate', responses: { '200': { description: 'the template', content: json(TEMPLATE) }, '404': { description: 'none' } } },
      delete: { operationId: 'unmarkTemplate', responses: { '204': { description: 'unmarked' }, '404': { description: 'none' } } },
    },
  },
};

describe('a record sent in its envelope, under a key the client chooses', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it('is kept as the record the envelope holds, under its key, and answered wrapped once', async () => {
    const marked = await served.client.send('POST', '/docgen_templates', { json: { file: { type: 'file', id: '555' } } });
    expect(marked.status).toBe(201);
    expect(marked.body).toEqual({ file: { type: 'file', id: '555' } });
    expect(marked.headers['location']).toBe('/docgen_templates/555');
    expect((await served.client.send('GET', '/docgen_templates/555')).body).toEqual({ file: { type: 'file', id: '555' } });
  });

  it('the runner finds nothing: the key it sends inside the envelope is its own, not the example the mock holds', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 8 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    const created = report.results.filter((r) => r.checkId === 'create-read-back' && r.verdict === 'passed');
    expect(created.length).toBeGreaterThan(0);
    const sentIds = created.flatMap((r) => r.evidence.filter((x) => x.request.method === 'POST').map((x) => (JSON.parse(String(x.request.body)) as { file: { id: string } }).file.id));
    expect(sentIds.length).toBeGreaterThan(0);
    for (const id of sentIds) expect(id).toMatch(/^42037322\d+$/);
  }, 90_000);
});

const PAYMENT = {
  type: 'object',
  required: ['lago_id', 'invoice_id', 'amount_cents', 'reference', 'created_at'],
  properties: {
    lago_id: { type: 'string', format: 'uuid', example: '4cf085a7-c196-4f07-a543-97c50ec6e8b2' },
    invoice_id: { type: 'string' },
    amount_cents: { type: 'integer' },
    reference: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
};
const PAYMENTS = {
  openapi: '3.0.3',
  info: { title: 'Payments', version: '1.0.0' },
  paths: {
    '/payments': {
      get: { operationId: 'findAllPayments', responses: { '200': { description: 'the payments', content: json({ type: 'object', required: ['payments'], properties: { payments: { type: 'array', items: PAYMENT } } }) } } },
      post: {
        operationId: 'createPayment',
        requestBody: { required: true, content: json({ type: 'object', required: ['payment'], properties: { payment: { type: 'object', required: ['invoice_id', 'amount_cents', 'reference'], properties: { invoice_id: { type: 'string' }, amount_cents: { type: 'integer' }, reference: { type: 'string' } } } } }) },
        responses: { '200': { description: 'created', content: json({ type: 'object', required: ['payment'], properties: { payment: PAYMENT } }) }, '422': { description: 'refused' } },
      },
    },
    '/payments/{lago_id}': {
      parameters: [{ name: 'lago_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: { operationId: 'findPayment', responses: { '200': { description: 'the payment', content: json(PAYMENT) }, '404': { description: 'none' } } },
    },
  },
};

describe('an envelope only the create answers in (Lago\'s payments), the read answering the record bare', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(PAYMENTS);
  });
  afterAll(() => served?.close());

  it('keeps what the envelope held, answers it wrapped under an id of its own, and reads it back bare at that id', async () => {
    const ids = new Set<string>();
    for (const reference of ['ref-1', 'ref-2']) {
      const created = await served.client.send('POST', '/payments', { json: { payment: { invoice_id: 'inv-1', amount_cents: 100, reference } } });
      expect(created.status).toBe(200);
      const payment = (created.body as { payment: Record<string, unknown> }).payment;
      expect(payment).toMatchObject({ invoice_id: 'inv-1', amount_cents: 100, reference });
      const id = String(payment['lago_id']);
      ids.add(id);
      expect((await served.client.send('GET', `/payments/${id}`)).body).toEqual(payment);
    }
    expect(ids.size).toBe(2);
  });

  it('the runner finds nothing', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 8 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.checkId === 'create-read-back' && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 90_000);
});
