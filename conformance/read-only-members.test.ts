/**
 * A member the answer marks `readOnly` is the server's (OpenAPI 3.0.3 §4.7.25), even where the request's own schema
 * lets a client send it (Rebilly's invoice `websiteId`: set on create, kept on replace). create-read-back and
 * replace-visible do not expect it to follow what was sent (compare.ts sentFieldsReflected); what the server answered
 * for it is still compared between its answers, and every other member is still expected back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Invoices, version: 1.0.0 }
paths:
  /invoices:
    post:
      operationId: createInvoice
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/InvoiceInput' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Invoice' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /invoices/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } } ]
    get:
      operationId: getInvoice
      responses:
        '200': { description: the invoice, content: { application/json: { schema: { $ref: '#/components/schemas/Invoice' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    put:
      operationId: replaceInvoice
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/InvoiceInput' } } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Invoice' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    InvoiceInput:
      type: object
      required: [websiteId, currency]
      additionalProperties: false
      properties:
        websiteId: { type: string, minLength: 1, maxLength: 60 }
        currency: { type: string, minLength: 3, maxLength: 3 }
    Invoice:
      type: object
      required: [id, websiteId, currency]
      properties:
        id: { type: integer, readOnly: true }
        websiteId: { type: string, readOnly: true, description: set on create, kept after }
        currency: { type: string }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;

type Invoice = { id: number; websiteId: string; currency: string };

/** Keeps the websiteId it was created with; `forgetsCurrency` keeps the old currency on replace too (a defect). */
function invoiceServer(forgetsCurrency: boolean): (req: IncomingMessage, res: ServerResponse) => void {
  const invoices = new Map<number, Invoice>();
  let next = 1;
  const valid = (body: unknown): body is { websiteId: string; currency: string } =>
    typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).every((k) => k === 'websiteId' || k === 'currency') && typeof (body as Invoice).websiteId === 'string' && (body as Invoice).websiteId.length >= 1 && (body as Invoice).websiteId.length <= 60 && typeof (body as Invoice).currency === 'string' && (body as Invoice).currency.length === 3;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const item = /^\/invoices\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/invoices' && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        if (!valid(body)) return sendJson(res, 400, { message: 'invalid' });
        const invoice = { id: next++, websiteId: body.websiteId, currency: body.currency };
        invoices.set(invoice.id, invoice);
        return sendJson(res, 201, invoice, { location: `/invoices/${invoice.id}` });
      }
      if (!item) return sendJson(res, 404, { message: 'no such path' });
      const invoice = invoices.get(Number(item[1]));
      if (req.method === 'GET') return invoice ? sendJson(res, 200, invoice) : sendJson(res, 404, { message: 'none' });
      if (req.method === 'PUT') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        if (!valid(body)) return sendJson(res, 400, { message: 'invalid' });
        if (!invoice) return sendJson(res, 404, { message: 'none' });
        const replaced = { ...invoice, currency: forgetsCurrency ? invoice.currency : body.currency };
        invoices.set(invoice.id, replaced);
        return sendJson(res, 200, replaced);
      }
      return sendJson(res, 405, { message: 'no' }, { allow: 'GET, PUT' });
    })();
  };
}

function failed(report: RunReport): string[] {
  return report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
}

describe('a member the answer marks readOnly, sendable on create', () => {
  let correct: DocumentedServer;
  let forgetful: DocumentedServer;
  beforeAll(async () => {
    [correct, forgetful] = await Promise.all([serveDocumented('invoices.yaml', DOCUMENT, invoiceServer(false)), serveDocumented('invoices.yaml', DOCUMENT, invoiceServer(true))]);
  });
  afterAll(() => Promise.all([correct?.close(), forgetful?.close()]));

  it('is not expected to follow a replacement: a server that keeps its own is blamed for nothing', async () => {
    const report = await runConformance({ baseUrl: correct.baseUrl, specPath: correct.specPath, seed: 4, only: ['create-read-back', 'replace-visible'] });
    expect(failed(report)).toEqual([]);
    expect(report.results.some((r) => r.checkId === 'replace-visible' && r.verdict === 'passed')).toBe(true);
  }, 60_000);

  it('while a member the answer does not mark readOnly, kept from before a replacement, still fails', async () => {
    const report = await runConformance({ baseUrl: forgetful.baseUrl, specPath: forgetful.specPath, seed: 4, only: ['create-read-back', 'replace-visible'] });
    expect(failed(report).some((line) => line.startsWith('replace-visible') && line.includes('currency'))).toBe(true);
  }, 60_000);
});
