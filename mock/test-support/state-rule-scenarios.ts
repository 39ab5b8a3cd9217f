/**
 * The six state rules of the contract (contract.md, "State rules") and its "Details", end to end over HTTP, each in
 * its own session; rule 6 (an inventory entry's status is its pet's) is checked after every step. Run against the
 * Pet Store mock, the generic engine with the contract's rule file (petstore-rules.e2e.test.ts, issue 34).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryItem, Order, Pet } from '../../src/types.js';
import type { MockOptions } from '../transport/server.js';
import type { ContractClient } from './contract-client.js';
import { expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from './harness.js';

/**
 * The small world of mock/store.test.ts, for a session loaded with PUT /__mock/state: 1 available with stock 2, 2
 * pending with the open order 1, 3 sold with the complete order 2, 4 available with no stock; category 3 has no pets.
 * The refusals here and the store's promises (store-scenarios.ts) start from it.
 */
export const SMALL_WORLD = {
  categories: [{ id: 1, name: 'Dogs', description: 'Loyal companions' }, { id: 2, name: 'Cats' }, { id: 3, name: 'Birds' }],
  pets: [
    { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
    { id: 3, name: 'Nemo', categoryId: 1, status: 'sold' },
    { id: 4, name: 'Luna', categoryId: 2, status: 'available' },
  ],
  orders: [
    { id: 1, petId: 2, quantity: 1, shipDate: '2026-11-20T10:00:00Z', complete: false },
    { id: 2, petId: 3, quantity: 1, complete: true },
  ],
  inventory: [{ petId: 1, quantity: 2 }, { petId: 2, quantity: 0 }, { petId: 3, quantity: 0 }, { petId: 4, quantity: 0 }],
} as const;

export function describeStateRules(title: string, options: MockOptions = {}): void {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock(options);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Rule 6, and the stock: the pet's status and its inventory entry agree. */
  async function expectPet(api: ContractClient, petId: number, status: Pet['status'], quantity: number): Promise<void> {
    const pet = (await api.get('/pets', { query: { id: petId } })).body as Pet[];
    expect(pet[0]?.status).toBe(status);
    const item = (await api.get(`/store/inventory/${petId}`)).body as InventoryItem;
    expect(item).toEqual({ petId, quantity, status });
  }

  function fresh(label: string): { name: string; api: ContractClient } {
    const name = sessionName(label);
    return { name, api: t.client.session(name) };
  }

  describe(title, () => {
    it('1. a new pet is available unless the body says otherwise, with an inventory entry of quantity 1', async () => {
      const { api } = fresh('rule1');
      const category = await newCategory(api);
      const plain = await newPet(api, category.id);
      await expectPet(api, plain.id, 'available', 1);
      const sold = await newPet(api, category.id, { status: 'sold' });
      await expectPet(api, sold.id, 'sold', 1);
    });

    it('2. an order needs an available pet with enough stock; it reserves the quantity and makes the pet pending; one open order per pet', async () => {
      const { name, api } = fresh('rule2');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      await api.put(`/store/inventory/${pet.id}`, { quantity: 3 });
      expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: pet.id, quantity: 4 })), 409, 'INSUFFICIENT_STOCK');
      const order = await newOrder(api, pet.id, { quantity: 2 });
      expect(order.complete).toBe(false);
      await expectPet(api, pet.id, 'pending', 1);
      // One open order per pet, even with stock left.
      expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: pet.id, quantity: 1 })), 409, 'PET_HAS_OPEN_ORDER');
      const pending = await newPet(api, category.id, { status: 'pending' });
      expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: pending.id, quantity: 1 })), 409, 'PET_NOT_AVAILABLE');
    });

    it('3. completing an order sells the pet; the stock stays consumed', async () => {
      const { api } = fresh('rule3');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      const order = await newOrder(api, pet.id);
      const done = await api.patch(`/store/orders/${order.id}`, { complete: true });
      expect((done.body as Order).complete).toBe(true);
      await expectPet(api, pet.id, 'sold', 0);
      // Completing twice is harmless.
      expect((await api.patch(`/store/orders/${order.id}`, { complete: true })).status).toBe(200);
      await expectPet(api, pet.id, 'sold', 0);
    });

    it('details: complete: true at placement places and fulfils at once, the pet goes straight to sold', async () => {
      const { api } = fresh('complete-at-once');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      const order = await newOrder(api, pet.id, { complete: true });
      expect(order.complete).toBe(true);
      await expectPet(api, pet.id, 'sold', 0);
    });

    it('4. cancelling an open order returns the stock and makes the pet available; a complete order cannot be cancelled or reopened', async () => {
      const { name, api } = fresh('rule4');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      await api.put(`/store/inventory/${pet.id}`, { quantity: 5 });
      const order = await newOrder(api, pet.id, { quantity: 3 });
      await expectPet(api, pet.id, 'pending', 2);
      expect((await api.delete(`/store/orders/${order.id}`)).status).toBe(204);
      await expectPet(api, pet.id, 'available', 5);
      // Ordering again works once the order is gone.
      const again = await newOrder(api, pet.id, { quantity: 5 });
      await api.patch(`/store/orders/${again.id}`, { complete: true });
      await expectPet(api, pet.id, 'sold', 0);
      expectError(await expectUnchanged(t.client, name, () => api.delete(`/store/orders/${again.id}`)), 409, 'ORDER_ALREADY_COMPLETE');
      expectError(await expectUnchanged(t.client, name, () => api.patch(`/store/orders/${again.id}`, { complete: false })), 409, 'ORDER_ALREADY_COMPLETE');
      // A refused reopen that also moves the ship date changes nothing at all.
      expectError(await expectUnchanged(t.client, name, () => api.patch(`/store/orders/${again.id}`, { complete: false, shipDate: '2027-01-01T00:00:00Z' })), 409, 'ORDER_ALREADY_COMPLETE');
    });

    it('5. a category with pets cannot be deleted; a pet with an open order cannot', async () => {
      const { name, api } = fresh('rule5');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      expectError(await expectUnchanged(t.client, name, () => api.delete(`/categories/${category.id}`)), 409, 'CATEGORY_IN_USE');
      const order = await newOrder(api, pet.id);
      expectError(await expectUnchanged(t.client, name, () => api.delete(`/pets/${pet.id}`)), 409, 'PET_HAS_OPEN_ORDER');
      // Complete the order: no longer open, so the pet can go, and then its category.
      await api.patch(`/store/orders/${order.id}`, { complete: true });
      expect((await api.delete(`/pets/${pet.id}`)).status).toBe(204);
      expect((await api.delete(`/categories/${category.id}`)).status).toBe(204);
    });

    it('6. an inventory entry always has its pet status, through replaces and orders', async () => {
      const { api } = fresh('rule6');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id);
      await api.put(`/pets/${pet.id}`, { name: 'Renamed', categoryId: category.id, status: 'pending' });
      await expectPet(api, pet.id, 'pending', 1);
      await api.put(`/pets/${pet.id}`, { name: 'Renamed again', categoryId: category.id });
      await expectPet(api, pet.id, 'pending', 1);
      await api.put(`/pets/${pet.id}`, { name: 'Back', categoryId: category.id, status: 'available' });
      const order = await newOrder(api, pet.id);
      await expectPet(api, pet.id, 'pending', 0);
      await api.delete(`/store/orders/${order.id}`);
      await expectPet(api, pet.id, 'available', 1);
      const list = (await api.get('/store/inventory', { query: { status: 'available', limit: 100 } })).body as InventoryItem[];
      expect(list.find((i) => i.petId === pet.id)).toEqual({ petId: pet.id, quantity: 1, status: 'available' });
    });

    it('details: deleting a pet removes its inventory entry; a replace without status keeps it', async () => {
      const { api } = fresh('details');
      const category = await newCategory(api);
      const pet = await newPet(api, category.id, { status: 'sold' });
      expect((await api.put(`/pets/${pet.id}`, { name: 'Kept', categoryId: category.id })).body).toMatchObject({ status: 'sold' });
      await api.delete(`/pets/${pet.id}`);
      expectError(await api.get(`/store/inventory/${pet.id}`), 404, 'INVENTORY_ITEM_NOT_FOUND');
      expectError(await api.put(`/store/inventory/${pet.id}`, { quantity: 2 }), 404, 'INVENTORY_ITEM_NOT_FOUND');
    });
  });

  // The refusals mock/store.test.ts checks of the Pet Store's store, over HTTP, so that they hold for every engine that
  // serves the Pet Store (issue 34: the store's own tests go with it): the code, the message word for word, and nothing
  // changed. Each case starts from a session loaded with the same small world.
  describe(`${title}: every refusal, its code, its message, and nothing changed`, () => {
    type Arranged = Record<string, unknown>;
    type Send = (api: ContractClient, arranged: Arranged) => ReturnType<ContractClient['get']>;
    /** `arrange` makes what the refusal needs (its answer's body is handed to `act` and `message`), outside what must stay unchanged. */
    const cases: readonly { name: string; act: Send; status: number; code: string; message: string | ((arranged: Arranged) => string); arrange?: Send }[] = [
      { name: 'getPet of a missing id', act: (a) => a.get('/pets/42'), status: 404, code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
      { name: 'createPet in a missing category', act: (a) => a.post('/pets', { name: 'Ghost', categoryId: 42 }), status: 422, code: 'UNKNOWN_CATEGORY', message: 'No category has id 42; create it first or pick another.' },
      { name: 'replacePet of a missing pet', act: (a) => a.put('/pets/42', { name: 'Ghost', categoryId: 1 }), status: 404, code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
      { name: 'replacePet into a missing category', act: (a) => a.put('/pets/1', { name: 'Rex', categoryId: 42, status: 'sold' }), status: 422, code: 'UNKNOWN_CATEGORY', message: 'No category has id 42; create it first or pick another.' },
      { name: 'deletePet of a missing pet', act: (a) => a.delete('/pets/42'), status: 404, code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
      { name: 'deletePet of a pet with an open order', act: (a) => a.delete('/pets/2'), status: 409, code: 'PET_HAS_OPEN_ORDER', message: 'Pet 2 has the open order 1; complete or cancel it first.' },
      { name: 'getCategory of a missing id', act: (a) => a.get('/categories/42'), status: 404, code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
      { name: 'createCategory with a taken name', act: (a) => a.post('/categories', { name: 'cats' }), status: 409, code: 'CATEGORY_NAME_TAKEN', message: 'A category named Cats exists already (id 2).' },
      { name: 'replaceCategory of a missing id', act: (a) => a.put('/categories/42', { name: 'Fish' }), status: 404, code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
      { name: 'replaceCategory to a taken name', act: (a) => a.put('/categories/3', { name: 'CATS', description: 'x' }), status: 409, code: 'CATEGORY_NAME_TAKEN', message: 'A category named Cats exists already (id 2).' },
      { name: 'deleteCategory of a missing id', act: (a) => a.delete('/categories/42'), status: 404, code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
      { name: 'deleteCategory with pets', act: (a) => a.delete('/categories/2'), status: 409, code: 'CATEGORY_IN_USE', message: 'Category 2 still has 2 pets; move or delete them first.' },
      { name: 'deleteCategory with one pet', arrange: (a) => a.put('/pets/4', { name: 'Luna', categoryId: 1 }), act: (a) => a.delete('/categories/2'), status: 409, code: 'CATEGORY_IN_USE', message: 'Category 2 still has 1 pet; move or delete it first.' },
      { name: 'placeOrder for a missing pet', act: (a) => a.post('/store/orders', { petId: 42, quantity: 1 }), status: 422, code: 'UNKNOWN_PET', message: 'No pet has id 42.' },
      { name: 'placeOrder for a pet with an open order', act: (a) => a.post('/store/orders', { petId: 2, quantity: 1 }), status: 409, code: 'PET_HAS_OPEN_ORDER', message: 'Pet 2 has the open order 1; complete or cancel it first.' },
      {
        name: 'placeOrder for a pet set back to available while its order is open',
        arrange: (a) => a.put('/pets/2', { name: 'Tom', categoryId: 2, status: 'available' }),
        act: (a) => a.post('/store/orders', { petId: 2, quantity: 1 }),
        status: 409,
        code: 'PET_HAS_OPEN_ORDER',
        message: 'Pet 2 has the open order 1; complete or cancel it first.',
      },
      { name: 'placeOrder for a sold pet', act: (a) => a.post('/store/orders', { petId: 3, quantity: 1 }), status: 409, code: 'PET_NOT_AVAILABLE', message: 'Pet 3 is sold; only available pets can be ordered.' },
      {
        name: 'placeOrder for a pending pet without an order',
        arrange: (a) => a.post('/pets', { name: 'Kiwi', categoryId: 3, status: 'pending' }),
        act: (a, kiwi) => a.post('/store/orders', { petId: kiwi['id'], quantity: 1 }),
        status: 409,
        code: 'PET_NOT_AVAILABLE',
        message: (kiwi) => `Pet ${String(kiwi['id'])} is pending; only available pets can be ordered.`,
      },
      { name: 'placeOrder beyond the stock', act: (a) => a.post('/store/orders', { petId: 1, quantity: 3 }), status: 409, code: 'INSUFFICIENT_STOCK', message: 'Pet 1 has 2 in stock; 3 were ordered.' },
      { name: 'placeOrder with no stock, complete at once', act: (a) => a.post('/store/orders', { petId: 4, quantity: 1, complete: true }), status: 409, code: 'INSUFFICIENT_STOCK', message: 'Pet 4 has 0 in stock; 1 was ordered.' },
      { name: 'getOrder of a missing id', act: (a) => a.get('/store/orders/42'), status: 404, code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
      { name: 'updateOrder of a missing id', act: (a) => a.patch('/store/orders/42', { complete: true }), status: 404, code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
      { name: 'updateOrder reopening a complete order (with a ship date)', act: (a) => a.patch('/store/orders/2', { complete: false, shipDate: '2027-01-01T00:00:00Z' }), status: 409, code: 'ORDER_ALREADY_COMPLETE', message: 'Order 2 is complete; it cannot be reopened or cancelled.' },
      { name: 'cancelOrder of a missing id', act: (a) => a.delete('/store/orders/42'), status: 404, code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
      { name: 'cancelOrder of a complete order', act: (a) => a.delete('/store/orders/2'), status: 409, code: 'ORDER_ALREADY_COMPLETE', message: 'Order 2 is complete; it cannot be reopened or cancelled.' },
      { name: 'getInventoryItem of a missing pet', act: (a) => a.get('/store/inventory/42'), status: 404, code: 'INVENTORY_ITEM_NOT_FOUND', message: 'No inventory entry for pet 42.' },
      { name: 'updateInventory of a missing pet', act: (a) => a.put('/store/inventory/42', { quantity: 3 }), status: 404, code: 'INVENTORY_ITEM_NOT_FOUND', message: 'No inventory entry for pet 42.' },
    ];

    it.each(cases)('$name → $code', async ({ act, arrange, status, code, message }) => {
      const { name, api } = fresh('refusal');
      expect((await t.client.send('PUT', '/__mock/state', { query: { session: name }, json: SMALL_WORLD })).status).toBe(200);
      const arranged = arrange ? await arrange(api, {}) : undefined;
      if (arranged) expect(arranged.status, arranged.text).toBeLessThan(300);
      const made = (arranged?.body ?? {}) as Arranged;
      expect(expectError(await expectUnchanged(t.client, name, () => act(api, made)), status, code)['message']).toBe(typeof message === 'string' ? message : message(made));
    });
  });
}
