/**
 * `X-Mock-Session`: each name gets its own copy of the initial data, created
 * on first use, so parallel runs do not disturb each other; a reset of one
 * session leaves the others alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Pet } from '../../src/types.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

const namesOf = async (api: ReturnType<TestMock['client']['session']>, path: string): Promise<string[]> =>
  ((await api.get(path, { query: { limit: 100 } })).body as { name: string }[]).map((r) => r.name);

describe('sessions', () => {
  it('two sessions interleaving writes never see each other’s data, nor does the default store', async () => {
    const initial = await t.client.state();
    const a = t.client.session(sessionName('iso-a'));
    const b = t.client.session(sessionName('iso-b'));
    const aCategories: Category[] = [];
    const bCategories: Category[] = [];
    for (let i = 0; i < 5; i++) {
      aCategories.push(await newCategory(a, `A category ${i}`));
      bCategories.push(await newCategory(b, `B category ${i}`));
      await newPet(a, aCategories[i]!.id, { name: `A pet ${i}` });
      await newPet(b, bCategories[i]!.id, { name: `B pet ${i}` });
    }
    // The same name in two sessions is no conflict: each has its own categories.
    expect((await a.post('/categories', { name: 'B category 0' })).status).toBe(201);
    const aNames = await namesOf(a, '/categories');
    const bNames = await namesOf(b, '/categories');
    expect(aNames.filter((n) => n.startsWith('B category'))).toEqual(['B category 0']);
    expect(bNames.some((n) => n.startsWith('A category'))).toBe(false);
    const aPets = ((await a.get('/pets', { query: { limit: 100 } })).body as Pet[]).map((p) => p.name);
    expect(aPets.some((n) => n.startsWith('B pet'))).toBe(false);
    // Each session numbers its own records from the same initial data, so the ids coincide, the data does not.
    expect(aCategories.map((c) => c.id)).toEqual(bCategories.map((c) => c.id));
    expect(await t.client.state()).toEqual(initial);
  });

  it('a session starts from the initial data even after the default store changed', async () => {
    const before = await t.client.state(sessionName('unused'));
    const category = await newCategory(t.client, `Default-only ${process.pid}`);
    const late = sessionName('late');
    expect(await t.client.state(late)).toEqual(before);
    await t.client.post('/__mock/reset', undefined);
    expectError(await t.client.get(`/categories/${category.id}`), 404, 'CATEGORY_NOT_FOUND');
  });

  it('resetting one session leaves the others alone; resetting all resets every one', async () => {
    const one = sessionName('reset-one');
    const two = sessionName('reset-two');
    const a = t.client.session(one);
    const b = t.client.session(two);
    const initial = await t.client.state(one);
    await newCategory(a, 'Only in one');
    await newCategory(b, 'Only in two');
    const reset = await t.client.send('POST', '/__mock/reset', { query: { session: one } });
    expect(reset.body).toEqual({ reset: 'session', session: one });
    expect(await t.client.state(one)).toEqual(initial);
    expect(await namesOf(b, '/categories')).toContain('Only in two');
    expect((await t.client.send('POST', '/__mock/reset')).body).toEqual({ reset: 'all' });
    expect(await t.client.state(two)).toEqual(initial);
  });

  it('past --max-sessions the least recently used session is dropped, logged, and starts afresh on its next request', async () => {
    const lines: string[] = [];
    const small = await startTestMock({ maxSessions: 2, quiet: false, log: (line) => lines.push(line) });
    try {
      const [one, two, three] = ['cap-one', 'cap-two', 'cap-three'].map(sessionName) as [string, string, string];
      const initial = await small.client.state(one);
      await newCategory(small.client.session(one), 'Only in one');
      await newCategory(small.client.session(two), 'Only in two');
      await newCategory(small.client.session(one), 'One again');
      // A third session: two is the least recently used, so it goes; one keeps its data.
      await newCategory(small.client.session(three), 'Only in three');
      expect(lines.filter((line) => line.includes('dropped'))).toEqual([expect.stringMatching(new RegExp(`^session ${two} dropped: the least recently used of 2 \\(--max-sessions\\)`))]);
      expect(await namesOf(small.client.session(one), '/categories')).toEqual(expect.arrayContaining(['Only in one', 'One again']));
      expect((await small.client.get('/__mock/health')).body).toMatchObject({ sessions: 2 });
      expect(await small.client.state(two)).toEqual(initial);
    } finally {
      await small.close();
    }
  });

  it('a client whose session was dropped is told once, in X-Mock-Session-Dropped, on the first answer after it started afresh', async () => {
    const small = await startTestMock({ maxSessions: 1 });
    try {
      const [one, two] = ['told-one', 'told-two'].map(sessionName) as [string, string];
      const first = small.client.session(one);
      const category = await newCategory(first, 'Only in one');
      expect((await first.get(`/categories/${category.id}`)).headers['x-mock-session-dropped']).toBeUndefined();
      // A second session pushes the first out (--max-sessions 1); its own answers carry no notice.
      const other = await small.client.session(two).get('/pets');
      expect(other.headers['x-mock-session-dropped']).toBeUndefined();
      // The first session's next answer says why its data is gone, even when the answer is an error …
      const gone = await first.get(`/categories/${category.id}`, { headers: { origin: 'http://localhost:5173' } });
      expectError(gone, 404, 'CATEGORY_NOT_FOUND');
      expect(gone.headers['x-mock-session-dropped']).toBe('max-sessions');
      expect(gone.headers['access-control-expose-headers']).toContain('X-Mock-Session-Dropped');
      // … and only that one.
      expect((await first.get('/pets')).headers['x-mock-session-dropped']).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('past --max-session-memory the least recently used session is dropped and its client told why', async () => {
    const lines: string[] = [];
    // 64 KiB: a session writing a few hundred categories (~160 bytes each, and the pieces it copies) passes it.
    const small = await startTestMock({ maxSessionMemory: 64 * 1024, quiet: false, log: (line) => lines.push(line) });
    try {
      const [big, kept] = ['mem-big', 'mem-kept'].map(sessionName) as [string, string];
      const heavy = small.client.session(big);
      await newCategory(small.client.session(kept), 'Kept');
      const before = (await small.client.session(big).get('/categories')).headers['x-total-count'];
      let created = 0;
      // Bounded: the budget is passed long before 10,000 writes.
      for (; created < 10_000; created++) {
        await heavy.post('/categories', { name: `Bulk ${created}` });
        if (lines.some((line) => line.includes('dropped'))) break;
      }
      expect(created).toBeLessThan(10_000);
      expect(lines.find((line) => line.includes('dropped'))).toMatch(new RegExp(`^session ${kept} dropped: the least recently used past 0.06 MiB \\(--max-session-memory\\)`));
      const told = await small.client.session(kept).get('/categories', { query: { limit: 100 } });
      expect(told.headers['x-mock-session-dropped']).toBe('max-session-memory');
      expect(told.headers['x-total-count']).toBe(before);
    } finally {
      await small.close();
    }
  });

  it('issue 12 finding 5: after an import, a new pet never reuses an id an old order points at', async () => {
    const name = sessionName('import-ids');
    const api = t.client.session(name);
    const state = (await t.client.state(name)) as { categories: { id: number }[]; pets: { id: number }[]; orders: { id: number; petId: number; complete: boolean }[]; inventory: unknown[] };
    const highest = Math.max(...state.pets.map((p) => p.id));
    // A complete order whose pet was deleted before the export: the order still names the pet's id.
    const orphanPetId = highest + 40;
    const orders = [...state.orders, { id: Math.max(0, ...state.orders.map((o) => o.id)) + 1, petId: orphanPetId, quantity: 1, complete: true }];
    const loaded = await t.client.send('PUT', '/__mock/state', { query: { session: name }, json: { ...state, orders } });
    expect(loaded.status, loaded.text).toBe(200);
    const pet = await newPet(api, state.categories[0]!.id, { name: 'Newcomer' });
    expect(pet.id).toBeGreaterThan(orphanPetId);
    const history = await api.get('/store/orders', { query: { petId: pet.id } });
    expect(history.body).toEqual([]);
  });

  it.each(['', 'has space', 'x'.repeat(65), 'slash/no', 'ümlaut'])('an invalid session name (%j) is a 400 that changes nothing', async (bad) => {
    const name = sessionName('bad-session');
    const answer = await expectUnchanged(t.client, name, () => t.client.send('POST', '/categories', { json: { name: 'Nope' }, headers: { 'x-mock-session': encodeURIComponent(bad) === bad ? bad : bad.replace(/[^\x20-\x7e]/g, '?') } }));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toEqual(['/header/x-mock-session']);
    expectError(await t.client.send('GET', '/__mock/state', { query: { session: bad || ' ' } }), 400, 'VALIDATION_FAILED');
  });
});
