/**
 * What mock/store.test.ts promised of the Pet Store's former store (removed in issue 34) that a user can see, over
 * HTTP, so that the promises outlive it: ids, filters, paging and order, the stock, the rules' effects on the records
 * they touch, each store's data and what an import takes. Run against the Pet Store mock, the generic engine with
 * the contract's rule file (petstore-rules.e2e.test.ts). Each scenario loads the store test's small world (SMALL_WORLD) into a session of its
 * own, so the numbers are the store test's; every answer is checked against openapi.yaml by the contract client.
 * The store test's two seeded walks come too, smaller: filtered lists against the records read one by one (issue 5),
 * and the default store and sessions sharing the initial data each equal to a private store given the same writes
 * (issue 14).
 * The refusals (code, message, nothing changed) are in state-rule-scenarios.ts; sessions, their bounds and resets in
 * sessions.e2e.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, InventoryItem, Order, Pet } from '../../src/types.js';
import type { MockOptions } from '../transport/server.js';
import type { ContractClient, Exchange, QueryValue } from './contract-client.js';
import { expectError, expectUnchanged, sessionName, startTestMock, type TestMock } from './harness.js';
import { SMALL_WORLD } from './state-rule-scenarios.js';
import { mulberry32 as seeded } from '../engine/random.js';

type Query = Readonly<Record<string, QueryValue | undefined>>;
type PetStatus = NonNullable<Pet['status']>;
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];
/** `text` as a regular expression matching it literally. */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The walks' generated world (mock/store.test.ts's too): `pets` pets in 4 categories, stock 3 each, an order for every pet that is not available. */
export function walkWorld(pets: number): { categories: Category[]; pets: Pet[]; orders: Order[]; inventory: { petId: number; quantity: number }[] } {
  const statuses: PetStatus[] = ['available', 'available', 'pending', 'sold'];
  const all = Array.from({ length: pets }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1 + (i % 4), status: statuses[(i * 7) % 4]! }));
  return {
    categories: [1, 2, 3, 4].map((id) => ({ id, name: `Category ${id}` })),
    pets: all,
    orders: all.filter((p) => p.status !== 'available').map((p, i) => ({ id: i + 1, petId: p.id, quantity: 1, complete: p.status === 'sold' })),
    inventory: all.map((p) => ({ petId: p.id, quantity: 3 })),
  };
}

/** Fixtures the Pet Store's own store refused (mock/behaviour/petstore/seed.test.ts) beyond ids twice and the stated rules. */
const FIXTURES_AS_HELD = "fixtures that break what the Pet Store's store held them to are refused, naming the file by its path and the place";

export function describeStoreScenarios(title: string, options: MockOptions = {}): void {
  let t: TestMock;
  beforeAll(async () => {
    // No fixtures: a session's id counters then start from the data it is given, as a store made from that data did
    // (an import into a session keeps the counters its initial data had: no id below them is issued again).
    t = await startTestMock({ ...options, fixtures: 'none' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A session of its own holding `state` (the small world unless told), as PUT /__mock/state takes it. */
  async function world(label: string, state: unknown = SMALL_WORLD): Promise<{ name: string; api: ContractClient }> {
    const name = sessionName(label);
    const loaded = await t.client.send('PUT', '/__mock/state', { query: { session: name }, json: state });
    expect(loaded.status, loaded.text).toBe(200);
    return { name, api: t.client.session(name) };
  }

  /** A success's body: the status says the request did what it asked. */
  function ok<T>(exchange: Exchange, status?: number): T {
    if (status !== undefined) expect(exchange.status, exchange.text).toBe(status);
    else expect(exchange.status, exchange.text).toBeLessThan(300);
    return exchange.body as T;
  }

  /** One page of a list, as its records and the X-Total-Count that counts the matches before paging. */
  async function page<T>(api: ContractClient, path: string, query: Query = {}): Promise<{ items: T[]; total: number }> {
    const answer = await api.get(path, { query: { limit: 100, ...query } });
    const items = ok<T[]>(answer, 200);
    return { items, total: Number(answer.headers['x-total-count']) };
  }

  /** The ids of one page (a pet's, an order's, a category's; an inventory entry's pet), with the total. */
  async function ids(api: ContractClient, path: string, query: Query = {}): Promise<{ ids: number[]; total: number }> {
    const { items, total } = await page<{ id?: number; petId?: number }>(api, path, query);
    return { ids: items.map((item) => (path === '/store/inventory' ? item.petId! : item.id!)), total };
  }

  const petOf = async (api: ContractClient, id: number): Promise<Pet> => ok<Pet[]>(await api.get('/pets', { query: { id } }), 200)[0]!;
  const entryOf = async (api: ContractClient, petId: number): Promise<InventoryItem> => ok<InventoryItem>(await api.get(`/store/inventory/${petId}`), 200);

  describe(`${title}: what the Pet Store's store promised (mock/store.test.ts), over HTTP`, () => {
    describe('pets', () => {
      it('rule 1: a new pet is available unless the body says otherwise, with an inventory entry of quantity 1; ids follow the largest', async () => {
        const { api } = await world('store-rule1');
        const plain = ok<Pet>(await api.post('/pets', { name: 'Bolt', categoryId: 1 }), 201);
        const pending = ok<Pet>(await api.post('/pets', { name: 'Kiwi', categoryId: 3, status: 'pending' }), 201);
        expect(plain).toEqual({ id: 5, name: 'Bolt', categoryId: 1, status: 'available' });
        expect(pending).toEqual({ id: 6, name: 'Kiwi', categoryId: 3, status: 'pending' });
        expect(await entryOf(api, 5)).toEqual({ petId: 5, quantity: 1, status: 'available' });
        expect(await entryOf(api, 6)).toEqual({ petId: 6, quantity: 1, status: 'pending' });
        expect(await petOf(api, 5)).toEqual(plain);
      });

      it('assigns ids sequentially after the largest initial id, and never reuses a deleted one', async () => {
        const { api } = await world('store-ids', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets, { id: 40, name: 'Old', categoryId: 3 }], inventory: [...SMALL_WORLD.inventory, { petId: 40, quantity: 1 }] });
        expect(ok<Pet>(await api.post('/pets', { name: 'A', categoryId: 1 }), 201).id).toBe(41);
        ok(await api.delete('/pets/41'), 204);
        expect(ok<Pet>(await api.post('/pets', { name: 'B', categoryId: 1 }), 201).id).toBe(42);
        expect(ok<Category>(await api.post('/categories', { name: 'Fish' }), 201).id).toBe(4);
        expect(ok<Order>(await api.post('/store/orders', { petId: 1, quantity: 1 }), 201).id).toBe(3);
      });

      it('a replace that omits status keeps the current one; one that gives it sets it, and its entry follows', async () => {
        const { api } = await world('store-replace');
        expect(ok<Pet>(await api.put('/pets/3', { name: 'Nemo II', categoryId: 2 }), 200)).toEqual({ id: 3, name: 'Nemo II', categoryId: 2, status: 'sold' });
        expect(ok<Pet>(await api.put('/pets/3', { name: 'Nemo II', categoryId: 2, status: 'available' }), 200).status).toBe('available');
        expect((await entryOf(api, 3)).status).toBe('available');
        // The category filter follows the move, oldest first.
        expect(await ids(api, '/pets', { categoryId: 2 })).toEqual({ ids: [2, 3, 4], total: 3 });
      });

      it('deleting a pet removes its inventory entry; a pet with only complete orders can go, the order staying as history', async () => {
        const { api } = await world('store-delete-pet');
        ok(await api.delete('/pets/3'), 204);
        expectError(await api.get('/pets/3'), 404, 'PET_NOT_FOUND');
        expectError(await api.get('/store/inventory/3'), 404, 'INVENTORY_ITEM_NOT_FOUND');
        expect(await ids(api, '/store/inventory')).toEqual({ ids: [1, 2, 4], total: 3 });
        expect(ok<Order>(await api.get('/store/orders/2'), 200).petId).toBe(3);
      });
    });

    describe('categories', () => {
      it.each(['Dogs', 'dogs', 'DOGS', 'dOgS'])('names are unique case-insensitively: creating %s is CATEGORY_NAME_TAKEN', async (name) => {
        const { name: session, api } = await world('store-unique');
        const refused = expectError(await expectUnchanged(t.client, session, () => api.post('/categories', { name })), 409, 'CATEGORY_NAME_TAKEN');
        expect(refused['message']).toBe('A category named Dogs exists already (id 1).');
      });

      it('a category may change the case of its own name, but not take another one; a name given up is free again', async () => {
        const { api } = await world('store-rename');
        expect(ok<Category>(await api.put('/categories/1', { name: 'DOGS' }), 200)).toEqual({ id: 1, name: 'DOGS' });
        expectError(await api.put('/categories/2', { name: 'dogs' }), 409, 'CATEGORY_NAME_TAKEN');
        ok(await api.put('/categories/1', { name: 'Hounds' }), 200);
        expect(ok<Category>(await api.post('/categories', { name: 'Dogs', description: 'Again' }), 201)).toEqual({ id: 4, name: 'Dogs', description: 'Again' });
      });

      it('a replace without description removes it', async () => {
        const { api } = await world('store-description');
        expect(ok<Category>(await api.put('/categories/1', { name: 'Dogs' }), 200)).toEqual({ id: 1, name: 'Dogs' });
        expect(ok<Category>(await api.get('/categories/1'), 200)).not.toHaveProperty('description');
      });

      it('rule 5: a category with pets cannot be deleted; an empty one can, and so can one whose last pet moved away', async () => {
        const { api } = await world('store-rule5');
        expect(expectError(await api.delete('/categories/1'), 409, 'CATEGORY_IN_USE')['message']).toBe('Category 1 still has 2 pets; move or delete them first.');
        ok(await api.delete('/categories/3'), 204);
        expectError(await api.get('/categories/3'), 404, 'CATEGORY_NOT_FOUND');
        ok(await api.put('/pets/1', { name: 'Rex', categoryId: 2 }), 200);
        ok(await api.delete('/pets/3'), 204);
        ok(await api.delete('/categories/1'), 204);
      });

      it('lists categories oldest first, paged, with the total', async () => {
        const { api } = await world('store-categories');
        expect(await page<Category>(api, '/categories', { offset: 1, limit: 1 })).toEqual({ items: [{ id: 2, name: 'Cats' }], total: 3 });
      });
    });

    describe('orders', () => {
      it('rule 2: placing an order reserves the stock and moves the pet to pending; complete defaults to false', async () => {
        const { api } = await world('store-rule2');
        const order = ok<Order>(await api.post('/store/orders', { petId: 1, quantity: 2, shipDate: '2026-12-01T09:00:00Z' }), 201);
        expect(order).toEqual({ id: 3, petId: 1, quantity: 2, shipDate: '2026-12-01T09:00:00Z', complete: false });
        expect((await petOf(api, 1)).status).toBe('pending');
        expect(await entryOf(api, 1)).toEqual({ petId: 1, quantity: 0, status: 'pending' });
        expect(await page<Order>(api, '/store/orders', { petId: 1, complete: false })).toEqual({ items: [order], total: 1 });
      });

      it('complete at placement sells the pet at once and keeps the stock consumed; no open order is left behind', async () => {
        const { api } = await world('store-complete-at-once');
        expect(ok<Order>(await api.post('/store/orders', { petId: 1, quantity: 1, complete: true }), 201).complete).toBe(true);
        expect((await petOf(api, 1)).status).toBe('sold');
        expect((await entryOf(api, 1)).quantity).toBe(1);
        ok(await api.delete('/pets/1'), 204);
      });

      it('rule 3: completing an order sells the pet; the stock stays consumed', async () => {
        const { api } = await world('store-rule3');
        expect(ok<Order>(await api.patch('/store/orders/1', { complete: true }), 200)).toEqual({ id: 1, petId: 2, quantity: 1, shipDate: '2026-11-20T10:00:00Z', complete: true });
        expect((await petOf(api, 2)).status).toBe('sold');
        expect((await entryOf(api, 2)).quantity).toBe(0);
        expect((await ids(api, '/store/orders', { complete: false })).total).toBe(0);
      });

      it('an update changes the ship date alone; keeping an open order open, or a complete one complete, is harmless', async () => {
        const { api } = await world('store-update-order');
        expect(ok<Order>(await api.patch('/store/orders/1', { shipDate: '2026-12-03T15:00:00Z' }), 200).shipDate).toBe('2026-12-03T15:00:00Z');
        expect((await petOf(api, 2)).status).toBe('pending');
        expect(ok<Order>(await api.patch('/store/orders/1', { complete: false }), 200).complete).toBe(false);
        expect(ok<Order>(await api.patch('/store/orders/2', { complete: true }), 200).complete).toBe(true);
        expect(ok<Order>(await api.patch('/store/orders/2', { shipDate: '2026-12-04T15:00:00Z' }), 200).shipDate).toBe('2026-12-04T15:00:00Z');
      });

      it('rule 4: cancelling an open order returns the stock, frees the pet and deletes the order; the pet can be ordered again', async () => {
        const { api } = await world('store-rule4');
        ok(await api.post('/store/orders', { petId: 1, quantity: 2 }), 201);
        ok(await api.delete('/store/orders/3'), 204);
        expect((await petOf(api, 1)).status).toBe('available');
        expect((await entryOf(api, 1)).quantity).toBe(2);
        expectError(await api.get('/store/orders/3'), 404, 'ORDER_NOT_FOUND');
        expect(await ids(api, '/store/orders', { petId: 1 })).toEqual({ ids: [], total: 0 });
        expect(ok<Order>(await api.post('/store/orders', { petId: 1, quantity: 1 }), 201).id).toBe(4);
      });

      // Regression (generic engine): the rule file's `add` refused the cancel, 409 NOT_ALLOWED (a code outside
      // x-error-codes), where the store capped the stock; the effect is `cap: true` now.
      it('returning stock never pushes it past the int32 the document allows', async () => {
        const { api } = await world('store-int32');
        ok(await api.post('/store/orders', { petId: 1, quantity: 2 }), 201);
        ok(await api.put('/store/inventory/1', { quantity: 2_147_483_647 }), 200);
        ok(await api.delete('/store/orders/3'), 204);
        expect((await entryOf(api, 1)).quantity).toBe(2_147_483_647);
      });

      it('lists orders oldest first, filtered by pet and by completion, with totals', async () => {
        const { api } = await world('store-list-orders');
        ok(await api.post('/store/orders', { petId: 1, quantity: 1 }), 201);
        const orderIds = async (query: Query): Promise<number[]> => (await ids(api, '/store/orders', query)).ids;
        expect(await orderIds({})).toEqual([1, 2, 3]);
        expect(await orderIds({ complete: false })).toEqual([1, 3]);
        expect(await orderIds({ complete: true })).toEqual([2]);
        expect(await orderIds({ petId: 3 })).toEqual([2]);
        expect(await orderIds({ petId: 3, complete: false })).toEqual([]);
        expect(await page<Order>(api, '/store/orders', { offset: 1, limit: 1 })).toEqual({ items: [ok<Order>(await api.get('/store/orders/2'), 200)], total: 3 });
      });
    });

    describe('inventory', () => {
      it("rule 6: an entry always has its pet's status, through orders and replaces, and the status filter follows", async () => {
        const { api } = await world('store-rule6');
        expect((await page<InventoryItem>(api, '/store/inventory')).items).toEqual([
          { petId: 1, quantity: 2, status: 'available' },
          { petId: 2, quantity: 0, status: 'pending' },
          { petId: 3, quantity: 0, status: 'sold' },
          { petId: 4, quantity: 0, status: 'available' },
        ]);
        ok(await api.post('/store/orders', { petId: 1, quantity: 1 }), 201);
        expect(await page<InventoryItem>(api, '/store/inventory', { status: 'pending' })).toEqual({ items: [{ petId: 1, quantity: 1, status: 'pending' }, { petId: 2, quantity: 0, status: 'pending' }], total: 2 });
        ok(await api.put('/pets/4', { name: 'Luna', categoryId: 2, status: 'sold' }), 200);
        expect((await ids(api, '/store/inventory', { status: 'sold' })).ids).toEqual([3, 4]);
      });

      it('an update sets the quantity and keeps the status; an order may then take all of it', async () => {
        const { api } = await world('store-update-inventory');
        expect(ok<InventoryItem>(await api.put('/store/inventory/2', { quantity: 3 }), 200)).toEqual({ petId: 2, quantity: 3, status: 'pending' });
        expect(ok<InventoryItem>(await api.put('/store/inventory/4', { quantity: 5 }), 200)).toEqual({ petId: 4, quantity: 5, status: 'available' });
        expect(ok<Order>(await api.post('/store/orders', { petId: 4, quantity: 5 }), 201).quantity).toBe(5);
        expect((await entryOf(api, 4)).quantity).toBe(0);
      });
    });

    describe('listing pets', () => {
      it('is oldest first, with the total before paging', async () => {
        const { api } = await world('store-list-pets');
        const all = (await page<Pet>(api, '/pets')).items;
        expect(await page<Pet>(api, '/pets', { offset: 1, limit: 2 })).toEqual({ items: all.slice(1, 3), total: 4 });
        expect(await page<Pet>(api, '/pets', { status: 'available' })).toEqual({ items: [all[0], all[3]], total: 2 });
        expect(await page<Pet>(api, '/pets', { status: 'sold', categoryId: 2 })).toEqual({ items: [], total: 0 });
        expect(await page<Pet>(api, '/pets', { offset: 10, limit: 20 })).toEqual({ items: [], total: 4 });
      });

      it('the id filter looks ids up, ignores unknown and repeated ones, sorts, and combines with the others', async () => {
        const { api } = await world('store-id-filter');
        expect(await ids(api, '/pets', { id: [4, 2, 42, 2] })).toEqual({ ids: [2, 4], total: 2 });
        expect(await ids(api, '/pets', { id: [1, 2, 3, 4], status: 'available' })).toEqual({ ids: [1, 4], total: 2 });
        expect(await ids(api, '/pets', { id: [1, 2, 3, 4], categoryId: 1, status: 'sold' })).toEqual({ ids: [3], total: 1 });
        expect(await ids(api, '/pets', { id: [1, 2, 3, 4], offset: 1, limit: 2 })).toEqual({ ids: [2, 3], total: 4 });
      });

      it('starts oldest first even when the imported data is out of order', async () => {
        const { api } = await world('store-out-of-order', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets].reverse(), orders: [...SMALL_WORLD.orders].reverse(), categories: [...SMALL_WORLD.categories].reverse() });
        expect((await ids(api, '/pets')).ids).toEqual([1, 2, 3, 4]);
        expect((await ids(api, '/store/orders')).ids).toEqual([1, 2]);
        expect((await ids(api, '/categories')).ids).toEqual([1, 2, 3]);
      });
    });

    // mock/store.test.ts's issue 5 walk, smaller (a request a step): whatever the writes did, a filtered list is the
    // same filter over the records read one by one, a page is a slice of it, and the rules hold throughout.
    describe('filtered lists after a seeded random walk of writes (issue 5)', () => {
      /** How far the walk's ids have gone (it aims a little past them, so some writes miss), and what each action answered. */
      interface Walk {
        maxPetId: number;
        maxOrderId: number;
        readonly outcomes: Map<string, number>;
      }

      /** One seeded write: creates, replaces, deletes, order transitions, stock and categories, as the store test's step. */
      async function step(api: ContractClient, walk: Walk, random: () => number, n: number): Promise<void> {
        const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
        const anyStatus = (): PetStatus | undefined => (random() < 0.3 ? undefined : pick(STATUSES));
        const petId = 1 + Math.floor(random() * (walk.maxPetId + 2));
        const orderId = 1 + Math.floor(random() * (walk.maxOrderId + 2));
        const categoryId = 1 + Math.floor(random() * 5); // 5 does not exist at first: some writes are refused
        const action = Math.floor(random() * 9);
        let answer: Exchange;
        if (action <= 1) {
          const status = anyStatus();
          answer = await api.post('/pets', { name: `New ${n}`, categoryId, ...(status ? { status } : {}) });
          if (answer.status === 201) walk.maxPetId = Math.max(walk.maxPetId, (answer.body as Pet).id);
        } else if (action === 2) {
          const status = anyStatus();
          answer = await api.put(`/pets/${petId}`, { name: `Renamed ${n}`, categoryId, ...(status ? { status } : {}) });
        } else if (action === 3) answer = await api.delete(`/pets/${petId}`);
        else if (action <= 5) {
          answer = await api.post('/store/orders', { petId, quantity: 1 + Math.floor(random() * 3), ...(random() < 0.2 ? { complete: true } : {}) });
          if (answer.status === 201) walk.maxOrderId = Math.max(walk.maxOrderId, (answer.body as Order).id!);
        } else if (action === 6) answer = await api.patch(`/store/orders/${orderId}`, { complete: random() < 0.7 });
        else if (action === 7) answer = await api.delete(`/store/orders/${orderId}`);
        else if (random() < 0.5) answer = await api.put(`/store/inventory/${petId}`, { quantity: Math.floor(random() * 4) });
        else answer = n % 50 === 0 ? await api.post('/categories', { name: `Category ${n}` }) : await api.delete(`/categories/${categoryId}`);
        const key = `${action}:${answer.status < 300 ? 'ok' : (answer.body as { code: string }).code}`;
        walk.outcomes.set(key, (walk.outcomes.get(key) ?? 0) + 1);
      }

      /** Every list against the records read one by one (GET /pets/{id}, GET /store/orders/{id}). */
      async function checkLists(api: ContractClient, walk: Walk, random: () => number): Promise<void> {
        const pets: Pet[] = [];
        for (let id = 1; id <= walk.maxPetId + 2; id++) {
          const answer = await api.get(`/pets/${id}`);
          if (answer.status === 200) pets.push(answer.body as Pet);
        }
        // Under the page's limit, so one page holds a whole filter.
        expect(pets.length).toBeLessThanOrEqual(100);
        for (const status of [undefined, ...STATUSES]) {
          for (const categoryId of [undefined, 1, 2, 3, 4, 5]) {
            const filter = { ...(status ? { status } : {}), ...(categoryId ? { categoryId } : {}) };
            const expected = pets.filter((p) => (status === undefined || p.status === status) && (categoryId === undefined || p.categoryId === categoryId));
            expect(await page<Pet>(api, '/pets', filter), JSON.stringify(filter)).toEqual({ items: expected, total: expected.length });
            const offset = Math.floor(random() * (expected.length + 3));
            const limit = 1 + Math.floor(random() * 10);
            expect(await page<Pet>(api, '/pets', { ...filter, offset, limit }), JSON.stringify({ filter, offset, limit })).toEqual({ items: expected.slice(offset, offset + limit), total: expected.length });
            const wanted = Array.from({ length: 1 + Math.floor(random() * 10) }, () => 1 + Math.floor(random() * (walk.maxPetId + 3)));
            const byIds = expected.filter((p) => wanted.includes(p.id));
            expect(await page<Pet>(api, '/pets', { ...filter, id: wanted, offset: 1, limit: 5 })).toEqual({ items: byIds.slice(1, 6), total: byIds.length });
          }
          // The inventory's status filter, and rule 6: an entry's status is its pet's.
          const entries = (await page<InventoryItem>(api, '/store/inventory', status ? { status } : {})).items;
          expect(entries.map((e) => [e.petId, e.status])).toEqual(pets.filter((p) => status === undefined || p.status === status).map((p) => [p.id, p.status]));
        }
        const orders: Order[] = [];
        for (let id = 1; id <= walk.maxOrderId + 2; id++) {
          const answer = await api.get(`/store/orders/${id}`);
          if (answer.status === 200) orders.push(answer.body as Order);
        }
        const openFor = new Set<number>();
        for (const order of orders.filter((o) => !o.complete)) {
          // One open order per pet, and its pet exists (rules 2 and 5).
          expect(openFor.has(order.petId!)).toBe(false);
          openFor.add(order.petId!);
          expect(pets.some((p) => p.id === order.petId)).toBe(true);
        }
        for (const complete of [undefined, true, false]) {
          const matching = orders.filter((o) => complete === undefined || o.complete === complete);
          expect(await page<Order>(api, '/store/orders', { ...(complete === undefined ? {} : { complete }), offset: 1, limit: 40 })).toEqual({ items: matching.slice(1, 41), total: matching.length });
          const petId = matching[Math.floor(random() * matching.length)]?.petId ?? 1;
          const forPet = matching.filter((o) => o.petId === petId);
          expect(await page<Order>(api, '/store/orders', { petId, ...(complete === undefined ? {} : { complete }) })).toEqual({ items: forPet, total: forPet.length });
        }
      }

      // mock/store.test.ts's copy-on-write walk (issue 14): the default store and two sessions share the initial data and
      // take turns at seeded writes; each must hold exactly what a store of its own given the same writes holds (its
      // shadow: a session loaded with the same data by PUT /__mock/state), and a session left alone, or reset, the
      // initial data. A mock of its own, whose fixtures are the walk's world, so that the stores share it.
      it('the default store and sessions writing in turn each equal a private store given the same writes', async () => {
        const pets = 30;
        const folder = await mkdtemp(join(tmpdir(), 'petstore-walk-'));
        const state: Record<string, unknown> = walkWorld(pets);
        for (const [name, records] of Object.entries(state)) await writeFile(join(folder, `${name}.json`), JSON.stringify(records));
        const own = await startTestMock({ ...options, fixtures: folder });
        try {
          const initial = await own.client.state();
          const lanes = [undefined, sessionName('cow-one'), sessionName('cow-two')].map((name, lane) => {
            const shadowName = sessionName('cow-shadow');
            const walk: Walk = { maxPetId: pets, maxOrderId: 20, outcomes: new Map() };
            return { name, api: name === undefined ? own.client : own.client.session(name), shadowName, shadow: own.client.session(shadowName), random: seeded(40 + lane), shadowRandom: seeded(40 + lane), walk };
          });
          for (const lane of lanes) {
            const loaded = await own.client.send('PUT', '/__mock/state', { query: { session: lane.shadowName }, json: state });
            expect(loaded.status, loaded.text).toBe(200);
          }
          const idle = sessionName('cow-idle');
          for (let n = 1; n <= 240; n++) {
            const lane = lanes[n % lanes.length]!;
            // The same seeded write to both, each aiming from the same ids (the shadow's walk is a copy from before).
            const before: Walk = { ...lane.walk, outcomes: new Map() };
            await step(lane.api, lane.walk, lane.random, n);
            await step(lane.shadow, before, lane.shadowRandom, n);
            if (n % 120 === 0) {
              for (const each of lanes) expect(await own.client.state(each.name), `${each.name ?? 'default'} at step ${n}`).toEqual(await own.client.state(each.shadowName));
              expect(await own.client.state(idle)).toEqual(initial);
            }
          }
          for (const lane of lanes) expect(lane.walk.outcomes.get('4:ok') ?? 0).toBeGreaterThan(0);
          // A reset restores exactly the initial data, and touches nothing else.
          expect((await own.client.send('POST', '/__mock/reset', { query: { session: lanes[1]!.name! } })).status).toBe(200);
          expect(await own.client.state(lanes[1]!.name)).toEqual(initial);
          expect(await own.client.state(lanes[2]!.name)).toEqual(await own.client.state(lanes[2]!.shadowName));
          expect(await own.client.state()).toEqual(await own.client.state(lanes[0]!.shadowName));
        } finally {
          await own.close();
          await rm(folder, { recursive: true, force: true });
        }
      }, 60_000);

      it.each([{ seed: 1 }, { seed: 2 }])('every filtered list equals the same filter over the records read one by one (seed $seed)', async ({ seed }) => {
        const pets = 30;
        const { api } = await world(`store-walk-${seed}`, walkWorld(pets));
        const random = seeded(seed);
        const walk: Walk = { maxPetId: pets, maxOrderId: (await ids(api, '/store/orders')).total, outcomes: new Map() };
        for (let n = 1; n <= 300; n++) {
          await step(api, walk, random, n);
          if (n % 100 === 0) await checkLists(api, walk, random);
        }
        // The walk went through the transitions, not only into refusals.
        for (const key of ['0:ok', '2:ok', '3:ok', '4:ok', '6:ok', '7:ok', '3:PET_HAS_OPEN_ORDER', '4:PET_NOT_AVAILABLE']) expect(walk.outcomes.get(key) ?? 0, key).toBeGreaterThan(0);
      }, 60_000);
    });

    // The registry's promises a user meets at start-up: its bounds checked, 100 sessions by default, and initial data
    // that breaks the rules refused (mock/store.test.ts "registry: a bounded number of sessions", "initial data the
    // store cannot hold"). Each starts a mock of its own.
    describe('start-up', () => {
      it.each([{ maxSessions: 0 }, { maxSessions: -1 }, { maxSessions: 1.5 }, { maxSessions: Number.NaN }, { maxSessionMemory: 0 }, { maxSessionMemory: 1.5 }])('refuses %o with a USAGE kit error', async (bound) => {
        const started = await startTestMock({ ...options, fixtures: 'none', ...bound }).then(
          async (running) => {
            await running.close();
            return undefined;
          },
          (error: unknown) => error,
        );
        expect(started).toMatchObject({ code: 'USAGE' });
      });

      it('keeps 100 sessions by default: the 101st pushes out the least recently used, which is told so on its return', async () => {
        const names = Array.from({ length: 101 }, (_, i) => sessionName(`hundred-${i}`));
        for (const name of names) ok(await t.client.session(name).get('/categories'), 200);
        const health = ok<{ sessions: number }>(await t.client.get('/__mock/health'), 200);
        expect(health.sessions).toBe(100);
        expect((await t.client.session(names[0]!).get('/categories')).headers['x-mock-session-dropped']).toBe('max-sessions');
      });

      const CANNOT_HOLD = 'fixtures the store cannot hold are refused at start-up, naming the file and where';
      const cannotHold = [
        ['a pet in a missing category', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets, { id: 5, name: 'Ghost', categoryId: 9 }], inventory: [...SMALL_WORLD.inventory, { petId: 5, quantity: 1 }] }, 'pets.json'],
        ['two open orders for one pet', { ...SMALL_WORLD, orders: [...SMALL_WORLD.orders, { id: 3, petId: 2, quantity: 1, complete: false }] }, 'orders.json'],
      ] as const;
      for (const [label, state, file] of cannotHold) it(`${CANNOT_HOLD} (${label})`, async () => {
        const folder = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
        try {
          for (const [name, records] of Object.entries(state)) await writeFile(join(folder, `${name}.json`), JSON.stringify(records));
          const started = await startTestMock({ ...options, fixtures: folder }).then(
            async (running) => {
              await running.close();
              return undefined;
            },
            (error: unknown) => error,
          );
          expect(started, label).toMatchObject({ code: 'FIXTURES_INVALID' });
          expect(String((started as Error).message)).toContain(file);
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      });
    });

    // Fixtures that give an id twice (mock/behaviour/petstore/seed.test.ts "a duplicate order id", mock/store.test.ts "a duplicate pet
    // id"): the start refused, naming the file by its full path and the place of the second record, on both engines
    // (the generic engine renumbered them before; its own examples still are).
    describe('fixtures that give an id twice', () => {
      /** The kit error a mock started on fixtures files of `state` refused with (undefined where it started). */
      async function refusalOf(state: Readonly<Record<string, unknown>>): Promise<{ error: unknown; folder: string }> {
        const folder = await mkdtemp(join(tmpdir(), 'petstore-fixtures-'));
        try {
          for (const [name, records] of Object.entries(state)) await writeFile(join(folder, `${name}.json`), JSON.stringify(records));
          const error = await startTestMock({ ...options, fixtures: folder }).then(
            (running) => running.close().then(() => undefined),
            (refused: unknown) => refused,
          );
          return { error, folder };
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      }
      it.each([
        ['a pet id', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets, { id: 1, name: 'Twin', categoryId: 1, status: 'available' }] }, 'pets.json', '/4/id'],
        ['a category id', { ...SMALL_WORLD, categories: [...SMALL_WORLD.categories, { id: 2, name: 'Fish' }] }, 'categories.json', '/3/id'],
        ['an order id', { ...SMALL_WORLD, orders: [...SMALL_WORLD.orders, { id: 1, petId: 3, quantity: 1, complete: true }] }, 'orders.json', '/2/id'],
        ["a pet's inventory entry", { ...SMALL_WORLD, inventory: [...SMALL_WORLD.inventory, { petId: 1, quantity: 5 }] }, 'inventory.json', '/4/petId'],
      ] as const)('%s given twice: FIXTURES_INVALID naming the file by its path and the place', async (_label, state, file, pointer) => {
        const { error, folder } = await refusalOf(state);
        expect(error).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(folder, file), pointer } });
        expect(String((error as Error).message)).toMatch(new RegExp(`^${escaped(join(folder, file))} at ${escaped(pointer)}: .* already`));
      });

      // What mock/behaviour/petstore/seed.test.ts refuses of fixtures beyond the stated rules: their schemas, and the Pet Store's load hook.
      const pets = (change: (pets: Record<string, unknown>[]) => void): Record<string, unknown>[] => {
        const copy = SMALL_WORLD.pets.map((pet) => ({ ...pet }) as Record<string, unknown>);
        change(copy);
        return copy;
      };
      const asHeld = [
        ['a pet name of the wrong type', { ...SMALL_WORLD, pets: pets((all) => void (all[3]!['name'] = 42)) }, 'pets.json', '/3/name'],
        ['a pet status outside the enum', { ...SMALL_WORLD, pets: pets((all) => void (all[0]!['status'] = 'lost')) }, 'pets.json', '/0/status'],
        ['a pet without an inventory entry', { ...SMALL_WORLD, inventory: SMALL_WORLD.inventory.slice(1) }, 'pets.json', '/0'],
        ['an open order whose pet is not pending', { ...SMALL_WORLD, pets: pets((all) => void (all[1]!['status'] = 'available')) }, 'pets.json', '/1/status'],
        ['a complete order whose pet is not sold', { ...SMALL_WORLD, pets: pets((all) => void (all[2]!['status'] = 'available')) }, 'pets.json', '/2/status'],
        ['an order without its quantity', { ...SMALL_WORLD, orders: [{ id: 1, petId: 2, complete: false }, SMALL_WORLD.orders[1]] }, 'orders.json', '/0/quantity'],
      ] as const;
      for (const [label, state, file, pointer] of asHeld) it(`${FIXTURES_AS_HELD} (${label})`, async () => {
        const { error, folder } = await refusalOf(state);
        expect(error, label).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(folder, file), pointer } });
      });
    });

    describe('names that are words of JavaScript', () => {
      it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString'])('a category may be named %s, and the name is then taken like any other', async (name) => {
        const { api } = await world('store-proto-name');
        const category = ok<Category>(await api.post('/categories', { name }), 201);
        expect(ok<Category>(await api.get(`/categories/${category.id}`), 200).name).toBe(name);
        expectError(await api.post('/categories', { name: name.toUpperCase() }), 409, 'CATEGORY_NAME_TAKEN');
        expect(ok<Category>(await api.post('/categories', { name: `${name}2` }), 201).id).toBe(category.id + 1);
      });
    });

    describe('what an import takes', () => {
      it('replaces one session: exported as taken (a pet without status is available), ids go on after it, other stores untouched', async () => {
        const small = { categories: [{ id: 7, name: 'Fish' }], pets: [{ id: 9, name: 'Nemo', categoryId: 7 }], orders: [], inventory: [{ petId: 9, quantity: 4 }] };
        const { name, api } = await world('store-import', small);
        const exported = (await t.client.state(name)) as Record<string, unknown>;
        expect({ categories: exported['categories'], pets: exported['pets'], orders: exported['orders'], inventory: exported['inventory'] }).toEqual({ ...small, pets: [{ id: 9, name: 'Nemo', categoryId: 7, status: 'available' }] });
        expect(ok<Pet>(await api.post('/pets', { name: 'Dory', categoryId: 7 }), 201).id).toBe(10);
        const { api: other } = await world('store-import-other');
        expect((await ids(other, '/pets')).total).toBe(4);
      });

      it('a new pet never reuses an id an old order points at (issue 12 finding 5), nor a new order an old order id', async () => {
        const { api } = await world('store-import-ids', { ...SMALL_WORLD, orders: [...SMALL_WORLD.orders, { id: 3, petId: 40, quantity: 1, complete: true }] });
        const pet = ok<Pet>(await api.post('/pets', { name: 'Newcomer', categoryId: 1 }), 201);
        expect(pet.id).toBe(41);
        expect((await ids(api, '/store/orders', { petId: pet.id })).total).toBe(0);
        expect(ok<Order>(await api.post('/store/orders', { petId: 1, quantity: 1 }), 201).id).toBe(4);
      });

      it.each([
        ['a pet in a missing category', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets, { id: 5, name: 'Ghost', categoryId: 9 }], inventory: [...SMALL_WORLD.inventory, { petId: 5, quantity: 1 }] }, '/pets/4/categoryId'],
        ['two open orders for one pet', { ...SMALL_WORLD, orders: [...SMALL_WORLD.orders, { id: 3, petId: 2, quantity: 1, complete: false }] }, '/orders/2'],
        ['a duplicate pet id', { ...SMALL_WORLD, pets: [...SMALL_WORLD.pets, { id: 1, name: 'Twin', categoryId: 1 }] }, '/pets/4'],
        ['an open order, stated as one, for a missing pet', { ...SMALL_WORLD, orders: [{ id: 1, petId: 9, quantity: 1, complete: false }] }, '/orders/0/petId'],
      ] as const)('data the store cannot hold (%s) is refused, naming where, and changes nothing', async (_label, state, pointer) => {
        await expectImportRefused(state, pointer);
      });

      const OPEN_BY_DEFAULT = 'an open order for a missing pet is refused, naming where, and changes nothing';
      it(`${OPEN_BY_DEFAULT} (an order without \`complete\` is open)`, async () => {
        await expectImportRefused({ ...SMALL_WORLD, orders: [{ id: 1, petId: 9, quantity: 1 }] }, '/orders/0/petId');
      });

      it('an order imported without `complete` is open: read so, and its pet cannot be ordered again', async () => {
        const { api } = await world('store-import-open', { ...SMALL_WORLD, orders: [{ id: 1, petId: 2, quantity: 1 }] });
        expect(ok<Order>(await api.get('/store/orders/1'), 200).complete).toBe(false);
        expectError(await api.post('/store/orders', { petId: 2, quantity: 1 }), 409, 'PET_HAS_OPEN_ORDER');
      });

      /** PUT /__mock/state of `state` into a session of the small world: a 400 VALIDATION_FAILED that names `pointer`, nothing changed. */
      async function expectImportRefused(state: unknown, pointer: string): Promise<void> {
        const { name } = await world('store-import-refused');
        const refused = expectError(await expectUnchanged(t.client, name, () => t.client.send('PUT', '/__mock/state', { query: { session: name }, json: state })), 400, 'VALIDATION_FAILED');
        expect(JSON.stringify(refused)).toContain(pointer);
      }
    });
  });
}
