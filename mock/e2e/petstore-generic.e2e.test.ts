/**
 * The Pet Store served by the generic engine with its rule file (fixtures/rules/petstore.rules.yaml and its behaviour
 * module), as every Pet Store mock is served (issue 34), on what the Pet Store's former handlers did beyond the state rules
 * (petstore-rules.e2e.test.ts has those): the state exported and imported in the contract's shape, with its checks;
 * `Prefer: code=` naming the real records; nothing logged under --quiet; --watch keeping the data across a reload of
 * the document, and refusing one the fixtures do not satisfy; the scripted front-end session giving the same
 * transcript as the Pet Store's own handlers. Every answer is checked against openapi.yaml by the contract client.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from '../../src/package-info.js';
import type { InventoryItem, Pet } from '../../src/types.js';
import { runFrontEndSession, type Send } from '../test-support/frontend-session.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

/** What the former engine answered (recorded before it went): the front-end session and the --seed 7 --pets 6 lists. */
const FORMER = JSON.parse(await readFile(join(PACKAGE_ROOT, 'mock/test-support/former-engine-answers.json'), 'utf8')) as {
  transcript: unknown;
  seeded: Record<string, { body: unknown; total: string } | undefined>;
};

const SEAM = { mockOverlay: join(PACKAGE_ROOT, 'fixtures/rules/petstore.rules.yaml'), fixtures: join(PACKAGE_ROOT, 'fixtures/seed') } as const;

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock(SEAM);
});
afterAll(async () => {
  await t?.close();
});

describe("the Pet Store's state in the contract's shape, through the generic engine", () => {
  it("exports categories, pets, orders, inventory (without the pet's status) and nextIds; every entry has its pet's status", async () => {
    const session = sessionName('petstore-shape');
    const exported = (await t.client.state(session)) as { categories: unknown[]; pets: Pet[]; orders: unknown[]; inventory: object[]; nextIds: Record<string, number> };
    expect(Object.keys(exported).sort()).toEqual(['categories', 'inventory', 'nextIds', 'orders', 'pets']);
    expect(exported.inventory.every((entry) => !Object.hasOwn(entry, 'status'))).toBe(true);
    expect(exported.nextIds).toEqual({ pet: Math.max(...exported.pets.map((p) => p.id)) + 1, category: expect.any(Number), order: expect.any(Number) });
    // The fixtures' entries carry no status: the load hook gave each its pet's (rule 6).
    const statusOf = new Map(exported.pets.map((p) => [p.id, p.status]));
    const listed = (await t.client.session(session).get('/store/inventory', { query: { limit: 100 } })).body as InventoryItem[];
    for (const entry of listed) expect(entry.status).toBe(statusOf.get(entry.petId));
  });

  it("imports a pet without its entry: the entries after it are out of step with the pets, and each still takes its pet's status", async () => {
    // The load hook reads the entries beside the pets, in step where they are (the generator's data, an export); out
    // of step (pet 2 has no entry, so pet 3's is where pet 2's would be) it looks each pet's entry up, and makes pet
    // 2 one (rule 1's quantity 1).
    const session = sessionName('petstore-shape-gap');
    const pets = [
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 1, status: 'sold' },
      { id: 3, name: 'Kit', categoryId: 1, status: 'pending' },
    ];
    const state = { categories: [{ id: 1, name: 'Dogs' }], pets, orders: [{ id: 1, petId: 3, quantity: 1, complete: false }], inventory: [1, 3].map((petId) => ({ petId, quantity: petId + 1 })) };
    expect((await t.client.send('PUT', '/__mock/state', { query: { session }, json: state })).status).toBe(200);
    const listed = (await t.client.session(session).get('/store/inventory', { query: { limit: 10 } })).body as InventoryItem[];
    // In whichever order the list answers (not what is checked here).
    expect([...listed].sort((a, b) => a.petId - b.petId)).toEqual([
      { petId: 1, quantity: 2, status: 'available' },
      { petId: 2, quantity: 1, status: 'sold' },
      { petId: 3, quantity: 4, status: 'pending' },
    ]);
  });

  it("imports it back: an entry takes its pet's status again, and the pet's open order holds", async () => {
    const from = sessionName('petstore-shape-from');
    const to = sessionName('petstore-shape-to');
    const api = t.client.session(from);
    const pet = await newPet(api, (await newCategory(api)).id);
    await newOrder(api, pet.id);
    const exported = await t.client.state(from);
    expect((await t.client.send('PUT', '/__mock/state', { query: { session: to }, json: exported })).status).toBe(200);
    expect(await t.client.state(to)).toEqual(exported);
    expect((await t.client.session(to).get(`/store/inventory/${pet.id}`)).body).toEqual({ petId: pet.id, quantity: 0, status: 'pending' });
    expectError(await t.client.session(to).post('/store/orders', { petId: pet.id, quantity: 1 }), 409, 'PET_HAS_OPEN_ORDER');
  });

  it.each([
    ['two categories of one name, case aside', { categories: [{ id: 1, name: 'Dogs' }, { id: 2, name: 'DOGS' }], pets: [], orders: [], inventory: [] }, '/body/categories/1/name'],
    ['two open orders of one pet', { categories: [{ id: 1, name: 'Dogs' }], pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'pending' }], orders: [{ id: 1, petId: 1, quantity: 1, complete: false }, { id: 2, petId: 1, quantity: 1, complete: false }], inventory: [{ petId: 1, quantity: 0 }] }, '/body/orders/1/petId'],
    ['an open order of no pet', { categories: [], pets: [], orders: [{ id: 1, petId: 5, quantity: 1, complete: false }], inventory: [] }, '/body/orders/0/petId'],
    ['an inventory entry of no pet', { categories: [], pets: [], orders: [], inventory: [{ petId: 5, quantity: 1 }] }, '/body/inventory/0/petId'],
  ])('refuses %s with a 400 pointing at it; nothing changes', async (_label, state, pointer) => {
    const session = sessionName('petstore-shape-refused');
    const answer = await expectUnchanged(t.client, session, () => t.client.send('PUT', '/__mock/state', { query: { session }, json: state }));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toContain(pointer);
  });
});

describe('Prefer: code through the generic engine', () => {
  it("names the pet's real open order from the stated rule's words, or says it has none", async () => {
    const session = sessionName('seam-forced');
    const api = t.client.session(session);
    const pet = await newPet(api, (await newCategory(api)).id);
    expect(expectError(await api.delete(`/pets/${pet.id}`, { headers: { prefer: 'code=409' } }), 409, 'PET_HAS_OPEN_ORDER')['message']).toBe(`Pet ${pet.id} has no open order; this 409 was asked for with Prefer: code=409.`);
    const order = await newOrder(api, pet.id);
    expect(expectError(await api.delete(`/pets/${pet.id}`, { headers: { prefer: 'code=409' } }), 409, 'PET_HAS_OPEN_ORDER')['message']).toBe(`Pet ${pet.id} has the open order ${order.id}; complete or cancel it first.`);
  });

  it('a forced 201 names an id no record has (the generic engine answers a missing record with a 404, not an error)', async () => {
    const session = sessionName('seam-forced-201');
    const pets = (await t.client.state(session)) as { pets: Pet[] };
    const answer = await t.client.session(session).post('/pets', { name: 'Rex', categoryId: 1 }, { headers: { prefer: 'code=201' } });
    expect(answer.status).toBe(201);
    expect(pets.pets.some((p) => p.id === (answer.body as Pet).id)).toBe(false);
    expect((answer.body as Pet).id).toBeLessThan(100);
  });
});

describe('--quiet through the generic engine', () => {
  it('logs nothing, the inferred resource map included', async () => {
    const lines: string[] = [];
    const quiet = await startTestMock({ ...SEAM, quiet: true, log: (line) => lines.push(line) });
    try {
      await quiet.client.get('/pets/1');
      expect(lines).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it('without --quiet, says nothing at start-up but the requests (regression: the report called it "not the Pet Store")', async () => {
    const lines: string[] = [];
    const loud = await startTestMock({ quiet: false, log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual([]);
      await loud.client.get('/pets/1');
      expect(lines).toEqual([expect.stringMatching(/^GET \/pets\/1 /)]);
    } finally {
      await loud.close();
    }
  });
});

describe('--watch through the generic engine', () => {
  it('keeps the data across a reload of the document, and refuses one the fixtures do not satisfy', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-generic-watch-'));
    const spec = join(dir, 'openapi.yaml');
    await cp(DEFAULT_SPEC_PATH, spec);
    const logged: string[] = [];
    const watched = await startTestMock({ ...SEAM, specPath: spec, watch: true, log: (line) => logged.push(line) });
    const reported = async (after: number): Promise<string> => {
      for (let i = 0; i < 100; i++) {
        const line = logged.slice(after).find((l) => l.startsWith('watch:'));
        if (line) return line;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the watcher said nothing; it said: ${logged.slice(after).join(' | ')}`);
    };
    try {
      const api = watched.client.session(sessionName('seam-watch'));
      const category = await newCategory(api);
      const text = await readFile(spec, 'utf8');
      let mark = logged.length;
      await writeFile(spec, text.replace('- { id: 1, name: Rex, categoryId: 1, status: available }', '- { id: 1, name: Rexford, categoryId: 1, status: available }'));
      expect(await reported(mark)).toMatch(/^watch: reloaded openapi\.yaml \(\d+ operations\); the data is kept$/);
      expect((await api.get(`/categories/${category.id}`)).status).toBe(200);
      mark = logged.length;
      await writeFile(spec, text.replace(/(    PetName:\n(?:      .*\n)*?      maxLength: )100/, '$13'));
      expect(await reported(mark)).toMatch(/^watch: openapi\.yaml was not reloaded: the fixtures do not satisfy it, pets\.json record \d+ \(id \d+\) at \/name: maxLength of the document's Pet schema: .*\(and \d+ more\); the previous document keeps serving$/);
      expect((await api.get(`/categories/${category.id}`)).status).toBe(200);
    } finally {
      await watched.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the Pet Store's own words through the generic engine", () => {
  it('the scripted front-end session gives the same transcript as through the Pet Store\'s former handlers', async () => {
    const over = (mock: TestMock): Send => async ({ method, target, headers, json }) => {
      const exchange = await mock.client.send(method, target, { ...(headers ? { headers } : {}), ...(json !== undefined ? { json } : {}) });
      return { status: exchange.status, headers: exchange.headers, body: exchange.body };
    };
    const session = sessionName('seam-transcript');
    // Recorded from the former engine before it went (test-support/former-engine-answers.json).
    expect(await runFrontEndSession(over(t), session)).toEqual(FORMER.transcript);
  });

  it('--seed N --pets K serves the data the Pet Store\'s generator makes, as its former handlers did', async () => {
    const seam = await startTestMock({ ...SEAM, seed: 7, pets: 6 });
    try {
      for (const path of ['/pets', '/categories', '/store/orders', '/store/inventory']) {
        const mine = await seam.client.get(path, { query: { limit: 100 } });
        expect(mine.body, path).toEqual(FORMER.seeded[path]?.body);
        expect(mine.headers['x-total-count'], path).toBe(FORMER.seeded[path]?.total);
      }
      expect(((await seam.client.get('/pets', { query: { limit: 100 } })).body as Pet[]).length).toBe(6);
    } finally {
      await seam.close();
    }
  });

  it('a category in use says how many pets, in the singular for one (a stated message with {count|pet|pets})', async () => {
    const api = t.client.session(sessionName('seam-plural'));
    const category = await newCategory(api);
    await newPet(api, category.id);
    expect(expectError(await api.delete(`/categories/${category.id}`), 409, 'CATEGORY_IN_USE')['message']).toBe(`Category ${category.id} still has 1 pet; move or delete it first.`);
    await newPet(api, category.id);
    expect(expectError(await api.delete(`/categories/${category.id}`), 409, 'CATEGORY_IN_USE')['message']).toBe(`Category ${category.id} still has 2 pets; move or delete them first.`);
  });

  it('a 406 names the one type the operation answers', async () => {
    const answer = expectError(await t.client.get('/pets', { headers: { accept: 'text/html' } }), 406, 'NOT_ACCEPTABLE');
    expect(answer['message']).toBe('This operation answers application/json only; accept it (Accept: application/json) or leave Accept out.');
  });
});
