/**
 * Rules of a few lines on published documents (issue 34, point 5): Svix's API with fixtures/rules/svix.rules.yaml (an
 * application's uid is unique; a message names an event type that exists, and an event type in use cannot go) and
 * Xero's Accounting API with fixtures/rules/xero-accounting.rules.yaml (an invoice's status follows its life; an
 * item's code is unique). Each scenario runs twice, through the HTTP mock and through MSW (petstore-kit/msw with the
 * same overlay), and every answer is checked against the document: what the rules refuse gets the document's own
 * answer, and changes nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { createRouter } from '../../src/router.js';
import { createMswMock } from '../msw/node.js';
import { startMock } from '../transport/server.js';

const SVIX = join(PACKAGE_ROOT, 'fixtures/published/svix/openapi.json');
const XERO = join(PACKAGE_ROOT, 'fixtures/published/xero/xero_accounting.yaml');
const RULES = join(PACKAGE_ROOT, 'fixtures/rules');

type Send = (method: string, path: string, json?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

/** A client of one document: every answer checked against it (its status documented, its headers and body valid). */
function checked(compiled: CompiledContract, basePath: string, headers: Record<string, string>, fetchText: (method: string, url: string, headers: Record<string, string>, body?: string) => Promise<{ status: number; headers: Record<string, string>; text: string }>): Send {
  const router = createRouter(compiled.contract, basePath);
  return async (method, path, json) => {
    const answer = await fetchText(method, `${basePath}${path}`, { ...headers, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) }, json === undefined ? undefined : JSON.stringify(json));
    const body: unknown = answer.text === '' ? undefined : JSON.parse(answer.text);
    const match = router.match(method, `${basePath}${path.split('?')[0]!}`);
    if (match.kind !== 'match') throw new Error(`${method} ${path} names no operation`);
    const verdict = compiled.operations.get(match.operation.operationId)!.response(answer.status, answer.headers, body);
    expect(verdict.statusKey, `${method} ${path} answered ${answer.status}, which the document does not list: ${answer.text.slice(0, 300)}`).toBeDefined();
    expect(verdict.diagnostics, `${method} ${path} ${answer.status}: ${answer.text.slice(0, 300)}`).toEqual([]);
    return { status: answer.status, body: (body ?? {}) as Record<string, unknown> };
  };
}

/** The same scenario through the HTTP mock and through MSW, each started with the document and its rule file. */
function bothWays(name: string, spec: string, rules: string, headers: Record<string, string>, scenario: (send: Send) => Promise<void>): void {
  describe(name, () => {
    let compiled: CompiledContract;
    beforeAll(async () => {
      compiled = compileContract(await loadContract(spec));
    });

    it('holds its rules through the HTTP mock', async () => {
      const mock = await startMock({ port: 0, specPath: spec, mockOverlay: rules, quiet: true, log: () => {} });
      try {
        await scenario(
          checked(compiled, mock.app.basePath, headers, async (method, path, sent, body) => {
            const answer = await request(`${mock.url}${path}`, { method: method as 'GET', headers: sent, ...(body !== undefined ? { body } : {}) });
            const flat = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
            return { status: answer.statusCode, headers: flat, text: await answer.body.text() };
          }),
        );
      } finally {
        await mock.close();
      }
    });

    it('holds its rules through MSW', async () => {
      const origin = 'http://rules.example.test';
      const mock = await createMswMock({ specPath: spec, mockOverlay: rules, origin });
      const server = setupServer(...mock.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      try {
        await scenario(
          checked(compiled, mock.app.basePath, headers, async (method, path, sent, body) => {
            const answer = await fetch(`${origin}${path}`, { method, headers: sent, ...(body !== undefined ? { body } : {}) });
            return { status: answer.status, headers: Object.fromEntries(answer.headers), text: await answer.text() };
          }),
        );
      } finally {
        server.close();
      }
    });
  });
}

bothWays('Svix with svix.rules.yaml', SVIX, join(RULES, 'svix.rules.yaml'), {}, async (send) => {
  const apps = async (): Promise<number> => ((await send('GET', '/api/v1/app?limit=250')).body['data'] as unknown[]).length;
  const before = await apps();
  const app = await send('POST', '/api/v1/app', { name: 'Shop', uid: 'shop-rules-1' });
  expect(app.status).toBe(201);
  const twice = await send('POST', '/api/v1/app', { name: 'Other shop', uid: 'shop-rules-1' });
  expect(twice.status).toBe(409);
  expect(JSON.stringify(twice.body)).toContain(`An application with uid shop-rules-1 exists already (${String(app.body['id'])}).`);
  expect(await apps()).toBe(before + 1);

  const type = await send('POST', '/api/v1/event-type', { name: 'invoice.paid', description: 'An invoice was paid' });
  expect(type.status).toBe(201);
  const appId = String(app.body['id']);
  const unknown = await send('POST', `/api/v1/app/${appId}/msg`, { eventType: 'invoice.lost', payload: { invoiceId: 'in_1' } });
  expect(unknown.status).toBe(422);
  expect(JSON.stringify(unknown.body)).toContain('No record of /api/v1/event-type has id invoice.lost');
  const message = await send('POST', `/api/v1/app/${appId}/msg`, { eventType: 'invoice.paid', payload: { invoiceId: 'in_1' } });
  expect(message.status).toBe(202);
  const inUse = await send('DELETE', '/api/v1/event-type/invoice.paid');
  expect(inUse.status).toBe(409);
  expect((await send('GET', '/api/v1/event-type/invoice.paid')).status).toBe(200);
});

const TENANT = { 'xero-tenant-id': 'c2cc9b6e-9458-4c7d-93cc-f02b81b0594f' };
bothWays('Xero Accounting with xero-accounting.rules.yaml', XERO, join(RULES, 'xero-accounting.rules.yaml'), TENANT, async (send) => {
  const created = await send('PUT', '/Invoices', { Invoices: [{ Type: 'ACCREC', Contact: { ContactID: '430fa14a-f945-44d3-9f97-5df5e28441b8' }, LineItems: [{ Description: 'Consulting', Quantity: 1, UnitAmount: 100 }], Status: 'DRAFT' }] });
  expect(created.status).toBe(200);
  const invoice = (created.body['Invoices'] as Record<string, unknown>[])[0]!;
  const at = `/Invoices/${String(invoice['InvoiceID'])}`;
  const status = async (): Promise<unknown> => ((await send('GET', at)).body['Invoices'] as Record<string, unknown>[])[0]!['Status'];
  const move = (to: string): ReturnType<Send> => send('POST', at, { Invoices: [{ Status: to }] });
  const paidTooSoon = await move('PAID');
  expect(paidTooSoon.status).toBe(400);
  expect(JSON.stringify(paidTooSoon.body)).toContain('Status cannot go from DRAFT to PAID; from DRAFT it may go to SUBMITTED or AUTHORISED or DELETED.');
  expect(await status()).toBe('DRAFT');
  for (const step of ['SUBMITTED', 'AUTHORISED', 'PAID']) expect((await move(step)).status, step).toBe(200);
  expect((await move('DRAFT')).status).toBe(400);
  expect(await status()).toBe('PAID');

  const code = `RULE-${Date.now() % 100000}`;
  expect((await send('PUT', '/Items', { Items: [{ Code: code, Name: 'Widget' }] })).status).toBe(200);
  const taken = await send('PUT', '/Items', { Items: [{ Code: code.toLowerCase(), Name: 'Another widget' }] });
  expect(taken.status).toBe(400);
  expect(JSON.stringify(taken.body)).toContain('ITEM_CODE_TAKEN');
});

afterAll(() => {
  // The rule files are the worked examples docs/rules.md shows: they exist, and say what they hold.
  for (const file of ['svix.rules.yaml', 'xero-accounting.rules.yaml']) expect(readFileSync(join(RULES, file), 'utf8')).toMatch(/x-mock-/);
});
