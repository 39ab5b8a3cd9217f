import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreSnapshot } from './domain.js';
import { generateSnapshot } from './seed.js';
import { startTestMock } from '../../test-support/harness.js';
import { startMock } from '../../transport/server.js';
import { isKitError, type KitError } from '../../../src/kit-error.js';
import { DEFAULT_FIXTURES_DIR } from '../../../src/package-info.js';

const temporary: string[] = [];

afterAll(async () => {
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function kitErrorOf(promise: Promise<unknown>): Promise<KitError> {
  try {
    await promise;
  } catch (error) {
    if (isKitError(error)) return error;
    throw error;
  }
  throw new Error('expected a KitError, got success');
}

type Files = Record<string, unknown>;
/** One record of a fixtures file, to break. */
const row = (files: Files, name: string, index: number): Record<string, unknown> => (files[name] as Record<string, unknown>[])[index]!;
const rows = (files: Files, name: string): unknown[] => files[name] as unknown[];

/** A copy of the bundled fixtures with one file changed (or raw files written, for what JSON cannot say). */
async function brokenFixtures(change: (files: Files) => void | Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
  temporary.push(dir);
  await cp(DEFAULT_FIXTURES_DIR, dir, { recursive: true });
  const files: Files = {};
  for (const name of ['categories', 'pets', 'orders', 'inventory']) files[name] = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as unknown;
  const raw = change(files);
  for (const [name, rows] of Object.entries(files)) await writeFile(join(dir, `${name}.json`), JSON.stringify(rows));
  for (const [file, text] of Object.entries(raw ?? {})) await writeFile(join(dir, file), text);
  return dir;
}

/** The snapshot written as a fixtures folder, and a mock started from it (the engine holds fixtures to the schemas and the rule file). */
async function startsFrom(snapshot: StoreSnapshot): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
  temporary.push(dir);
  for (const name of ['categories', 'pets', 'orders', 'inventory'] as const) await writeFile(join(dir, `${name}.json`), JSON.stringify(snapshot[name]));
  const mock = await startMock({ port: 0, quiet: true, fixtures: dir });
  await mock.close();
}

/** The bundled fixtures, read as the files they are. */
async function bundled(): Promise<StoreSnapshot> {
  const read = async (name: string): Promise<never> => JSON.parse(await readFile(join(DEFAULT_FIXTURES_DIR, `${name}.json`), 'utf8')) as never;
  return { categories: await read('categories'), pets: await read('pets'), orders: await read('orders'), inventory: await read('inventory') };
}

describe('the bundled fixtures', () => {
  it('load, validate, and hold what the mock promises (issue 3)', async () => {
    const snapshot = await bundled();
    await startsFrom(snapshot);
    expect(snapshot.categories.length).toBeGreaterThanOrEqual(4);
    expect(snapshot.pets.length).toBeGreaterThanOrEqual(20);
    expect(new Set(snapshot.pets.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
    const open = snapshot.orders.filter((o) => !o.complete);
    const complete = snapshot.orders.filter((o) => o.complete);
    expect(open.length).toBeGreaterThan(0);
    expect(complete.length).toBeGreaterThan(0);
    for (const order of open) expect(snapshot.pets.find((p) => p.id === order.petId)?.status).toBe('pending');
    for (const order of complete) expect(snapshot.pets.find((p) => p.id === order.petId)?.status).toBe('sold');
    expect(snapshot.inventory.map((i) => i.petId).sort((a, b) => a - b)).toEqual(snapshot.pets.map((p) => p.id).sort((a, b) => a - b));
  });

  it('line up with the document\'s examples: the next pet is 21, the next category 5, the next order 7', async () => {
    // Over HTTP, on the mock that serves them (the generic engine with the Pet Store's rule file).
    const t = await startTestMock({ fixtures: DEFAULT_FIXTURES_DIR });
    try {
      expect((await t.client.post('/pets', { name: 'Rex', categoryId: 1 })).body).toEqual({ id: 21, name: 'Rex', categoryId: 1, status: 'available' });
      expect((await t.client.post('/categories', { name: 'Birds', description: 'Feathered friends' })).body).toEqual({ id: 5, name: 'Birds', description: 'Feathered friends' });
      expect((await t.client.post('/store/orders', { petId: 1, quantity: 1, shipDate: '2026-12-01T09:00:00Z' })).body).toEqual({ id: 7, petId: 1, quantity: 1, shipDate: '2026-12-01T09:00:00Z', complete: false });
    } finally {
      await t.close();
    }
  });
});

describe('broken fixtures are a FIXTURES_INVALID kit error naming the file, the pointer and the reason', () => {
  it.each([
    { name: 'a pet name of the wrong type', change: (f: Files) => void (row(f, 'pets', 3)['name'] = 42), file: 'pets.json', pointer: '/3/name', reason: /string/ },
    { name: 'a pet status outside the enum', change: (f: Files) => void (row(f, 'pets', 0)['status'] = 'lost'), file: 'pets.json', pointer: '/0/status', reason: /available/ },
    { name: 'a pet in a missing category', change: (f: Files) => void (row(f, 'pets', 5)['categoryId'] = 99), file: 'pets.json', pointer: '/5/categoryId', reason: /names 99, which no record of categories\.json has/ },
    { name: 'a category name taken in another case', change: (f: Files) => void rows(f, 'categories').push({ id: 9, name: 'DOGS' }), file: 'categories.json', pointer: '/4/name', reason: /"DOGS" is \/0's already \(case aside\)/ },
    { name: 'a duplicate order id', change: (f: Files) => void rows(f, 'orders').push({ id: 1, petId: 1, quantity: 1, complete: true }), file: 'orders.json', pointer: '/6/id', reason: /unique/ },
    { name: 'an order quantity of 0', change: (f: Files) => void (row(f, 'orders', 0)['quantity'] = 0), file: 'orders.json', pointer: '/0/quantity', reason: />= 1/ },
    { name: 'a pet without an inventory entry', change: (f: Files) => void rows(f, 'inventory').splice(0, 1), file: 'pets.json', pointer: '/0', reason: /no inventory entry/ },
    { name: 'a negative stock', change: (f: Files) => void (row(f, 'inventory', 2)['quantity'] = -1), file: 'inventory.json', pointer: '/2/quantity', reason: />= 0/ },
    { name: 'an open order whose pet is not pending', change: (f: Files) => void (row(f, 'pets', 1)['status'] = 'available'), file: 'pets.json', pointer: '/1/status', reason: /must be pending/ },
    { name: 'a complete order whose pet is not sold', change: (f: Files) => void (row(f, 'pets', 2)['status'] = 'available'), file: 'pets.json', pointer: '/2/status', reason: /must be sold/ },
    { name: 'a file that is not an array', change: (f: Files) => void (f['categories'] = { id: 1 }), file: 'categories.json', pointer: '', reason: /array/ },
    { name: 'a file that is not JSON', change: () => ({ 'orders.json': '[{"id": 1,' }), file: 'orders.json', pointer: '', reason: /not valid JSON/ },
    { name: 'a misspelt file name', change: () => ({ 'pet.json': '[]' }), file: 'pet.json', pointer: '', reason: /unknown collection/ },
  ])('$name → $file at "$pointer"', async ({ change, file, pointer, reason }) => {
    const dir = await brokenFixtures(change);
    const error = await kitErrorOf(startMock({ port: 0, quiet: true, fixtures: dir }));
    expect(error.code, error.message).toBe('FIXTURES_INVALID');
    expect(error.details.file).toBe(join(dir, file));
    expect(error.details.pointer).toBe(pointer);
    expect(error.details.reason).toMatch(reason);
    expect(error.message).toContain(join(dir, file));
  });

  it('a missing folder says so and how to go on', async () => {
    const error = await kitErrorOf(startMock({ port: 0, quiet: true, fixtures: join(tmpdir(), 'petstore-no-such-folder') }));
    expect(error.code).toBe('FIXTURES_INVALID');
    expect(error.message).toMatch(/no such folder.*--fixtures none/);
  });

  it('missing files are empty collections', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
    temporary.push(dir);
    await writeFile(join(dir, 'categories.json'), '[{"id": 3, "name": "Fish"}]');
    await writeFile(join(dir, 'README.md'), 'not JSON, and not read');
    const t = await startTestMock({ fixtures: dir });
    try {
      expect((await t.client.state()) as StoreSnapshot).toMatchObject({ categories: [{ id: 3, name: 'Fish' }], pets: [], orders: [], inventory: [] });
    } finally {
      await t.close();
    }
  });
});

describe('generateSnapshot', () => {
  it('gives the same data for the same seed, and other data for another seed', async () => {
    expect(await generateSnapshot(42, 300)).toEqual(await generateSnapshot(42, 300));
    expect((await generateSnapshot(43, 300)).pets).not.toEqual((await generateSnapshot(42, 300)).pets);
  });

  it.each([1, 2, 3])('validates as fixtures, with every status, open and complete orders (seed %i)', async (seed) => {
    const snapshot = await generateSnapshot(seed, 2_000);
    await startsFrom(snapshot);
    expect(snapshot.pets).toHaveLength(2_000);
    expect(new Set(snapshot.pets.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(snapshot.orders.some((o) => o.complete)).toBe(true);
    expect(snapshot.orders.some((o) => !o.complete)).toBe(true);
    expect(new Set(snapshot.pets.map((p) => p.name)).size).toBeGreaterThan(100);
    expect(snapshot.categories.length).toBeGreaterThanOrEqual(4);
  });

  it('with inventoryStatus, gives the same data with each inventory entry holding its pet\'s status, after its quantity', async () => {
    // The entry as the generic engine keeps it (rule 6), so the Pet Store's behaviour module has none to write at start-up.
    const plain = await generateSnapshot(4, 1_000);
    const withStatus = await generateSnapshot(4, 1_000, { inventoryStatus: true });
    expect({ ...withStatus, inventory: [] }).toEqual({ ...plain, inventory: [] });
    const statusOf = new Map(plain.pets.map((pet) => [pet.id, pet.status]));
    expect(withStatus.inventory).toEqual(plain.inventory.map((entry) => ({ ...entry, status: statusOf.get(entry.petId) })));
    expect(Object.keys(withStatus.inventory[0]!)).toEqual(['petId', 'quantity', 'status']);
  });

  it('a mock serving it works like any other', async () => {
    const t = await startTestMock({ seed: 9, pets: 500 });
    try {
      const available = ((await t.client.get('/pets', { query: { status: 'available', limit: 1 } })).body as { id: number }[])[0]!;
      const order = (await t.client.post('/store/orders', { petId: available.id, quantity: 1 })).body as { id: number };
      expect(String(order.id)).toBe((await t.client.get('/store/orders', { query: { limit: 1 } })).headers['x-total-count']);
      expect((await t.client.get('/pets', { query: { id: String(available.id) } })).body).toEqual([{ ...available, status: 'pending' }]);
    } finally {
      await t.close();
    }
  });

  it('zero pets is a store with categories only', async () => {
    const snapshot: StoreSnapshot = await generateSnapshot(1, 0);
    expect(snapshot.pets).toEqual([]);
    expect(snapshot.categories.length).toBeGreaterThan(0);
    await startsFrom(snapshot);
  });

  it.each([-1, 1.5, Number.NaN])('refuses %s pets with a USAGE kit error', async (pets) => {
    await expect(generateSnapshot(1, pets)).rejects.toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it('does not touch the global faker', async () => {
    const { faker } = await import('@faker-js/faker');
    faker.seed(7);
    const expected = faker.number.int();
    faker.seed(7);
    await generateSnapshot(1, 10);
    expect(faker.number.int()).toBe(expected);
  });
});
