// The bench's second baseline (bench/fastify-server.mjs) does the work the bench says it does: it answers as the
// document says (every answer checked by the contract client), serves the mock's data from its exported state,
// validates what it is sent and keeps what it creates, and keeps the order rules the order cycle exercises. Nothing
// here is timed: the figures are `npm run bench`'s.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { bundledContract } from '../src/test-support.js';
import { createContractClient, type ContractClient } from '../mock/test-support/contract-client.js';
import { buildIfStale } from '../mock/test-support/child-mock.js';
import { startTestMock, type TestMock } from '../mock/test-support/harness.js';
import type { Pet } from '../src/types.js';

let mock: TestMock;
let child: ChildProcess | undefined;
let fastify: ContractClient;
const folder = mkdtempSync(join(tmpdir(), 'fastify-baseline-'));

function startFastify(stateFile: string): Promise<string> {
  const started = spawn(process.execPath, [join(PACKAGE_ROOT, 'bench', 'fastify-server.mjs'), '--port', '0', '--state', stateFile], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s: ${err}`)), 60_000);
    started.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    started.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    started.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening: ${err}`));
    });
  });
}

beforeAll(async () => {
  buildIfStale();
  mock = await startTestMock();
  const stateFile = join(folder, 'state.json');
  writeFileSync(stateFile, JSON.stringify(await mock.client.state()));
  const { compiled } = await bundledContract();
  fastify = createContractClient({ origin: await startFastify(stateFile), compiled });
}, 180_000);

afterAll(async () => {
  await fastify?.close();
  await mock?.close();
  if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

describe('the fastify baseline of the bench', () => {
  it('serves the records of the state it was started from, as the mock does', async () => {
    for (const target of ['/pets/1', '/pets?status=available&limit=20', '/pets?categoryId=2&limit=3&offset=1', '/pets?id=2&id=3']) {
      const [ours, theirs] = await Promise.all([mock.client.get(target), fastify.get(target)]);
      expect(theirs.status, `${target}: ${theirs.text}`).toBe(200);
      expect(theirs.body, target).toEqual(ours.body);
      expect(theirs.headers['x-total-count'], target).toBe(ours.headers['x-total-count']);
    }
    const read = await fastify.get('/pets/1');
    expect(read.headers['deprecation']).toBe('@1767225600');
    expect(read.headers['link']).toContain('</pets?id=1>; rel="successor-version"');
  });

  it('validates what it is sent: every problem of a body, and a path id, are a 400 with details', async () => {
    const refused = await fastify.post('/pets', { categoryId: 0, status: 'lost', colour: 'brown' });
    expect(refused.status).toBe(400);
    expect((refused.body as { details: unknown[] }).details).toHaveLength(4);
    expect((await fastify.get('/pets/abc')).status).toBe(400);
    expect((await fastify.get('/pets?limit=101')).status).toBe(400);
  });

  it('keeps what it creates, refuses an unknown category, and keeps the order rules the order cycle runs', async () => {
    const created = await fastify.post('/pets', { name: 'Kept', categoryId: 1 });
    expect(created.status).toBe(201);
    const pet = created.body as Pet;
    expect(created.headers['location']).toBe(`/pets/${pet.id}`);
    expect((await fastify.get(`/pets/${pet.id}`)).body).toEqual(pet);
    expect((await fastify.post('/pets', { name: 'Lost', categoryId: 999 })).status).toBe(422);

    const placed = await fastify.post('/store/orders', { petId: pet.id, quantity: 1 });
    expect(placed.status).toBe(201);
    expect((await fastify.get(`/pets/${pet.id}`)).body).toMatchObject({ status: 'pending' });
    expect((await fastify.post('/store/orders', { petId: pet.id, quantity: 1 })).status).toBe(409);
    const orderId = (placed.body as { id: number }).id;
    expect((await fastify.delete(`/store/orders/${orderId}`)).status).toBe(204);
    expect((await fastify.get(`/pets/${pet.id}`)).body).toMatchObject({ status: 'available' });
    expect((await fastify.delete(`/store/orders/${orderId}`)).status).toBe(404);
  });
});
