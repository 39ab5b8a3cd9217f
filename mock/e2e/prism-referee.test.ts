/**
 * An independent referee: Stoplight Prism's validation proxy
 * (`prism proxy openapi.yaml <upstream> --errors`) in front of the mock, while
 * a scripted front-end session runs through it: browse, filter, create a
 * category and a pet, order, complete, cancel, update the stock, the
 * deprecated read, and the usual mistakes. Prism validates every request and
 * every response against openapi.yaml with its own code (not our validators).
 *
 * How Prism 5.14 reports (prism-http-server/dist/server.js): any violation,
 * request or response, error or warning, goes into an `sl-violations` response
 * header; with `--errors`, a response violation replaces the answer with a 500
 * `application/problem+json` of type VIOLATIONS; an invalid request is not
 * forwarded but answered 422 `application/problem+json` by Prism itself
 * (forwarder/index.js). So "zero violations" means: no `sl-violations` header
 * and no problem+json on any answer of the session.
 *
 * To show the referee is not blind, the upstream Prism talks to is a small
 * pass-through in front of the mock that can plant a defect on request (it
 * drops X-Total-Count when asked), and one invalid request is sent: both must
 * be flagged.
 *
 * Known Prism limitation, worked around rather than hidden: Prism adds a
 * `Deprecation: true` header to a deprecated operation's answer only when the
 * upstream sent none (forwarder/index.js); ours always sends the RFC 9745 form,
 * so nothing is added. No other limitation showed up with this document.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import type { Category, Order, Pet } from '../../src/types.js';
import { createContractClient, type ContractClient, type Exchange } from '../test-support/contract-client.js';
import { startTestMock, type TestMock } from '../test-support/harness.js';
import { onFreePort } from '../../conformance/test-support/prism.js';

const PRISM = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
const PLANT = 'x-referee-plant';

let t: TestMock;
let upstream: Server;
let prism: ChildProcess | undefined;
let prismLog = '';
let via: ContractClient;

/** A pass-through to the mock that plants one defect when the request asks for it (to prove the referee sees defects). */
function startUpstream(target: string): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers['host'];
      const plant = headers[PLANT];
      void request(`${target}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) })
        .then(async (answer) => {
          const body = Buffer.from(await answer.body.arrayBuffer());
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && name !== 'connection' && name !== 'keep-alive') out[name] = value;
          if (plant === 'drop-total-count') delete out['x-total-count'];
          res.writeHead(answer.statusCode, out);
          res.end(body);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitForPrism(url: string): Promise<void> {
  // Bounds a hang only: Prism took more than 45 s to start on a 2-core machine busy with other work.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (prism?.exitCode !== null && prism?.exitCode !== undefined) throw new Error(`prism exited with ${prism.exitCode}: ${prismLog}`);
    try {
      const answer = await request(`${url}/categories`, { method: 'GET' });
      await answer.body.text();
      if (answer.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`prism did not answer within 120 s: ${prismLog}`);
}

beforeAll(async () => {
  t = await startTestMock();
  upstream = await startUpstream(t.mock.url);
  const address = upstream.address();
  const upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // Another process may take the free port before Prism binds it (EADDRINUSE): onFreePort tries another, up to three times.
  const url = await onFreePort(async (port) => {
    prismLog = '';
    const started = spawn(PRISM, ['proxy', join(PACKAGE_ROOT, 'openapi.yaml'), upstreamUrl, '--errors', '--port', String(port), '--host', '127.0.0.1'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    prism = started;
    started.stdout?.on('data', (chunk: Buffer) => (prismLog = `${prismLog}${chunk.toString()}`.slice(-20_000)));
    started.stderr?.on('data', (chunk: Buffer) => (prismLog = `${prismLog}${chunk.toString()}`.slice(-20_000)));
    const at = `http://127.0.0.1:${port}`;
    await waitForPrism(at);
    return at;
  });
  via = createContractClient({ origin: url, compiled: t.compiled, connections: 4 });
}, 180_000);

/** Signals a process we started, by its PID; one that has already gone is fine. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

afterAll(async () => {
  if (prism?.pid !== undefined && prism.exitCode === null && prism.signalCode === null) {
    const exited = new Promise((resolve) => prism?.once('exit', resolve));
    signal(prism.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (prism.exitCode === null && prism.signalCode === null) signal(prism.pid, 'SIGKILL');
  }
  await via?.close();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await t?.close();
});

const violations: string[] = [];

/** Prism's verdict on one exchange: no sl-violations header, no problem+json of its own. */
function refereed(exchange: Exchange, status: number): Exchange {
  const flagged = exchange.headers['sl-violations'];
  if (flagged !== undefined) violations.push(`${exchange.method} ${exchange.target}: ${flagged}`);
  expect(flagged, `${exchange.method} ${exchange.target}`).toBeUndefined();
  expect(exchange.headers['content-type'] ?? '', exchange.text).not.toMatch(/problem\+json/);
  expect(exchange.status, `${exchange.method} ${exchange.target}: ${exchange.text}`).toBe(status);
  return exchange;
}

describe('Prism’s validation proxy as referee', () => {
  it('sees nothing wrong in a complete front-end session', async () => {
    // Browse and filter.
    const pets = refereed(await via.get('/pets'), 200);
    expect(Number(pets.headers['x-total-count'])).toBeGreaterThan(0);
    refereed(await via.get('/pets', { query: { limit: 5, offset: 5 } }), 200);
    refereed(await via.get('/pets', { query: { status: 'available' } }), 200);
    refereed(await via.get('/pets', { query: { categoryId: 1, status: 'sold' } }), 200);
    refereed(await via.get('/pets', { query: { id: [1, 2, 3] } }), 200);
    refereed(await via.get('/categories'), 200);
    refereed(await via.get('/categories/1'), 200);
    refereed(await via.get('/store/orders', { query: { complete: false } }), 200);
    refereed(await via.get('/store/inventory', { query: { status: 'available', limit: 10 } }), 200);

    // Create a category and a pet in it; read it back both ways, the deprecated one included.
    const category = refereed(await via.post('/categories', { name: 'Referee birds', description: 'Checked by Prism' }), 201).body as Category;
    refereed(await via.get(`/categories/${category.id}`), 200);
    refereed(await via.put(`/categories/${category.id}`, { name: 'Referee birds', description: 'Still checked' }), 200);
    const pet = refereed(await via.post('/pets', { name: 'Tweety', categoryId: category.id }), 201).body as Pet;
    refereed(await via.get('/pets', { query: { id: pet.id } }), 200);
    const deprecated = refereed(await via.get(`/pets/${pet.id}`), 200);
    expect(deprecated.headers['deprecation']).toBe('@1767225600');
    refereed(await via.put(`/pets/${pet.id}`, { name: 'Tweety Bird', categoryId: category.id }), 200);

    // Stock, order, complete.
    refereed(await via.put(`/store/inventory/${pet.id}`, { quantity: 4 }), 200);
    refereed(await via.get(`/store/inventory/${pet.id}`), 200);
    const order = refereed(await via.post('/store/orders', { petId: pet.id, quantity: 2, shipDate: '2026-12-01T09:00:00Z' }), 201).body as Order;
    refereed(await via.get(`/store/orders/${order.id}`), 200);
    refereed(await via.get('/store/orders', { query: { petId: pet.id } }), 200);
    refereed(await via.patch(`/store/orders/${order.id}`, { shipDate: '2026-12-02T09:00:00Z' }), 200);
    refereed(await via.patch(`/store/orders/${order.id}`, { complete: true }), 200);

    // Another pet: order, then cancel.
    const second = refereed(await via.post('/pets', { name: 'Polly', categoryId: category.id, status: 'available' }), 201).body as Pet;
    const open = refereed(await via.post('/store/orders', { petId: second.id, quantity: 1 }), 201).body as Order;
    refereed(await via.delete(`/pets/${second.id}`), 409);
    refereed(await via.delete(`/store/orders/${open.id}`), 204);
    refereed(await via.get(`/store/inventory/${second.id}`), 200);

    // The mistakes a front-end makes, answered with documented errors.
    refereed(await via.get('/pets/999999'), 404);
    refereed(await via.get('/store/orders/999999'), 404);
    refereed(await via.post('/categories', { name: 'REFEREE BIRDS' }), 409);
    refereed(await via.post('/store/orders', { petId: 999_999, quantity: 1 }), 422);
    refereed(await via.post('/store/orders', { petId: pet.id, quantity: 1 }), 409);
    refereed(await via.delete(`/store/orders/${order.id}`), 409);
    refereed(await via.delete(`/categories/${category.id}`), 409);
    refereed(await via.post('/pets', { name: 'Ghost', categoryId: 999_999 }), 422);
    refereed(await via.get('/pets', { headers: { accept: 'text/html' } }), 406);

    // Clean up through the API, as a front-end would.
    refereed(await via.delete(`/pets/${second.id}`), 204);
    refereed(await via.delete(`/pets/${pet.id}`), 204);
    refereed(await via.delete(`/categories/${category.id}`), 204);
    refereed(await via.get(`/pets/${pet.id}`), 404);

    expect(violations).toEqual([]);
  });

  it('is not blind: a planted response defect and an invalid request are both flagged', async () => {
    const planted = await request(`${prismUrl()}/pets`, { method: 'GET', headers: { [PLANT]: 'drop-total-count' } });
    const plantedText = await planted.body.text();
    expect(planted.statusCode).toBe(500);
    expect(planted.headers['content-type']).toMatch(/problem\+json/);
    expect(plantedText).toMatch(/VIOLATIONS/);
    expect(planted.headers['sl-violations']).toMatch(/X-Total-Count/i);

    // An invalid request never reaches the mock: Prism answers 422 problem+json listing what it found.
    const invalid = await request(`${prismUrl()}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":5}' });
    const invalidText = await invalid.body.text();
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers['content-type']).toMatch(/problem\+json/);
    expect(invalidText).toMatch(/categoryId/);
  });
});

function prismUrl(): string {
  const args = prism?.spawnargs ?? [];
  return `http://127.0.0.1:${args[args.indexOf('--port') + 1]}`;
}
