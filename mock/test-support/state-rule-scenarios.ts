/**
 * The six state rules of the contract (contract.md, "State rules") and its "Details", end to end over HTTP, each in
 * its own session; rule 6 (an inventory entry's status is its pet's) is checked after every step. One set of
 * scenarios for every way the Pet Store is served: its own handlers (state-rules.e2e.test.ts), and the generic engine
 * with the contract's rule file (petstore-rules.e2e.test.ts, issue 34).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryItem, Order, Pet } from '../../src/types.js';
import type { MockOptions } from '../server.js';
import type { ContractClient } from './contract-client.js';
import { expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from './harness.js';

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
}
