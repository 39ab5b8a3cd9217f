/**
 * `--fallback`, `--fallback-url` and `--mock`: a backend that lacks operations (here the kit's own HTTP mock behind
 * a gateway that answers the orders with a framework's HTML 404 and the stock update with 501) is completed by the
 * kit's mock, and the answers say so. The mock that answers is the one the front end already knows: the in-process
 * fallback answers exactly as the HTTP mock (`petstore-kit mock`) and the MSW mock (`petstore-kit/msw`) answer the
 * same request from the same data, since all three run the one core (mock/engine/app.ts). A 404 that is the operation's own
 * ("no such pet") is the target's answer, not a missing operation.
 */
import { setupServer } from 'msw/node';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMswMock, type MswMock } from '../../mock/msw/node.js';
import { startMock, type RunningMock } from '../../mock/transport/server.js';
import { FALLBACK_HEADER } from './fallback.js';
import { passOn, startTestProxy, startUpstream, type TestProxy } from './test-support/servers.js';

let backend: RunningMock;
let gateway: Awaited<ReturnType<typeof startUpstream>>;
const gatewaySaw: string[] = [];
const open: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  backend = await startMock({ port: 0, quiet: true });
  const forwardToBackend = passOn(() => backend.url);
  gateway = await startUpstream((req, res) => {
    gatewaySaw.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/store/orders')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><pre>Cannot GET /store/orders</pre>');
      return;
    }
    if (req.method === 'PUT' && req.url?.startsWith('/store/inventory/')) {
      res.writeHead(501, { 'content-type': 'text/plain' });
      res.end('not implemented yet');
      return;
    }
    forwardToBackend(req, res);
  });
}, 30_000);
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  gatewaySaw.length = 0;
});
afterAll(async () => {
  await gateway?.close();
  await backend?.close();
});

async function proxy(options: Partial<Parameters<typeof startTestProxy>[0]>): Promise<TestProxy> {
  const started = await startTestProxy({ target: gateway.url, ...options });
  open.push(started);
  return started;
}

async function text(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: string; fallback: string | undefined }> {
  const answer = await request(`${base}${path}`, { method: method as 'GET', headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const header = answer.headers[FALLBACK_HEADER];
  return { status: answer.statusCode, body: await answer.body.text(), fallback: typeof header === 'string' ? header : undefined };
}

describe('--fallback: the mock in this process answers what the target lacks', () => {
  it('an unknown route (a 404 that is not the operation’s own) and a 501 go to the mock, marked in a header and the log', async () => {
    const p = await proxy({ fallback: true });
    const orders = await text(p.url, 'GET', '/store/orders?limit=3');
    expect(orders.status).toBe(200);
    expect(orders.fallback).toBe('mock (the target answered 404)');
    const stock = await text(p.url, 'PUT', '/store/inventory/1', { quantity: 3 });
    expect([stock.status, JSON.parse(stock.body)]).toEqual([200, expect.objectContaining({ petId: 1, quantity: 3 })]);
    expect(stock.fallback).toBe('mock (the target answered 501)');
    await p.close();
    expect(p.lines.filter((l) => l.includes('| mocked'))).toEqual([
      expect.stringMatching(/^GET \/store\/orders 200 .* \| mocked \(the target answered 404\): answered by the Pet Store mock \(in process\)$/),
      expect.stringMatching(/^PUT \/store\/inventory\/1 200 .* \| mocked \(the target answered 501\): answered by the Pet Store mock \(in process\)$/),
    ]);
    // The gateway's HTML 404 and 501 are not held against the target: it lacks those operations, it did not break them.
    expect(p.violations).toBe(0);
    expect(p.report().warnings?.map((w) => w.message)).toContainEqual(expect.stringMatching(/^2 exchanges were answered by the fallback mock, not the target \(listOrders, updateInventory\)/));
  });

  it('answers as the HTTP mock and the MSW mock answer, from the same data', async () => {
    const p = await proxy({ fallback: true });
    const path = '/store/orders?limit=3&complete=false';
    const viaProxy = await text(p.url, 'GET', path);
    const http = await startMock({ port: 0, quiet: true });
    open.push(http);
    const viaHttp = await text(http.url, 'GET', path);
    const msw: MswMock = await createMswMock({ origin: 'http://petstore.test' });
    const server = setupServer(...msw.handlers);
    server.listen({ onUnhandledRequest: 'bypass' });
    let viaMsw: string;
    try {
      viaMsw = await (await fetch(`http://petstore.test${path}`, { headers: { accept: 'application/json' } })).text();
    } finally {
      server.close();
    }
    expect(viaProxy.fallback).toBeDefined();
    expect(JSON.parse(viaProxy.body)).toEqual(JSON.parse(viaHttp.body));
    expect(JSON.parse(viaProxy.body)).toEqual(JSON.parse(viaMsw));
    expect((JSON.parse(viaProxy.body) as unknown[]).length).toBeGreaterThan(0);
  });

  it("leaves the operation's own 404 (no such pet) and every answer the target has to the target", async () => {
    const p = await proxy({ fallback: true });
    const missing = await text(p.url, 'GET', '/pets/987654');
    expect([missing.status, JSON.parse(missing.body).code, missing.fallback]).toEqual([404, 'PET_NOT_FOUND', undefined]);
    const pet = await text(p.url, 'GET', '/pets/1');
    expect([pet.status, pet.fallback]).toEqual([200, undefined]);
    expect(gatewaySaw).toEqual(['GET /pets/987654', 'GET /pets/1']);
  });

  it('without --fallback the target’s 404 passes unchanged, and is judged', async () => {
    const p = await proxy({});
    const orders = await text(p.url, 'GET', '/store/orders');
    expect([orders.status, orders.body, orders.fallback]).toEqual([404, '<!DOCTYPE html><pre>Cannot GET /store/orders</pre>', undefined]);
    await p.close();
    expect(p.violationLines()).toContainEqual(expect.stringMatching(/^violation: GET \/store\/orders → 404 (status-documented|content-type)/));
  });
});

describe('--mock and --fallback-url: named operations always go to a mock already running', () => {
  it('sends every operation of a tag to that mock and never to the target', async () => {
    const running = await startMock({ port: 0, quiet: true });
    open.push(running);
    const p = await proxy({ fallbackUrl: running.url, mock: ['Store'] });
    const created = await text(p.url, 'POST', '/store/orders', { petId: 1, quantity: 1 });
    expect([created.status, created.fallback]).toEqual([201, 'mock (--mock placeOrder)']);
    const order = JSON.parse(created.body) as { id: number };
    // The running mock keeps the order: it is the same mock a teammate's browser or a script can use too.
    const direct = await text(running.url, 'GET', `/store/orders/${order.id}`);
    expect([direct.status, JSON.parse(direct.body).petId]).toEqual([200, 1]);
    const pets = await text(p.url, 'GET', '/pets?limit=1');
    expect([pets.status, pets.fallback]).toEqual([200, undefined]);
    expect(gatewaySaw).toEqual(['GET /pets?limit=1']);
  });

  it('refuses an --mock value that is no operationId or tag, as a USAGE error', async () => {
    await expect(startTestProxy({ target: gateway.url, mock: ['listOrderz'] })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--mock listOrderz: not an operationId or tag/) });
  });
});
