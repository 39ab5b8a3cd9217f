/**
 * Issue 3, point 6: concurrent requests never lose or duplicate a write. The
 * requests really overlap on the wire (up to 100 in flight on 100 sockets);
 * every answer is still checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryItem, Order, Pet } from '../../src/types.js';
import type { Exchange } from '../test-support/contract-client.js';
import { newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock({}, 100);
});
afterAll(async () => {
  await t?.close();
});

/** Runs `count` tasks with at most `inFlight` at once; resolves with the results in task order. */
async function pool<T>(count: number, inFlight: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  let peak = 0;
  let running = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      running++;
      peak = Math.max(peak, running);
      results[index] = await task(index);
      running--;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  expect(peak).toBe(Math.min(inFlight, count));
  return results;
}

describe('concurrency', () => {
  it('2,000 creates with 100 in flight give 2,000 distinct ids, all readable, none lost', async () => {
    const api = t.client.session(sessionName('creates'));
    const category = await newCategory(api);
    const answers = await pool(2_000, 100, (i) => api.post('/pets', { name: `Pet ${i}`, categoryId: category.id }));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const ids = answers.map((a) => (a.body as Pet).id);
    expect(new Set(ids).size).toBe(2_000);
    expect(new Set(answers.map((a) => a.headers['location'])).size).toBe(2_000);
    // Each answer names the pet it created.
    answers.forEach((a, i) => expect((a.body as Pet).name).toBe(`Pet ${i}`));
    const listed = await api.get('/pets', { query: { categoryId: category.id, limit: 1 } });
    expect(listed.headers['x-total-count']).toBe('2000');
    const inventory = await api.get('/store/inventory', { query: { limit: 1 } });
    expect(Number(inventory.headers['x-total-count'])).toBeGreaterThanOrEqual(2_000);
  });

  it('50 simultaneous orders for one available pet: exactly one 201, the rest 409, the stock reserved once', async () => {
    const api = t.client.session(sessionName('orders'));
    const category = await newCategory(api);
    const pet = await newPet(api, category.id);
    await api.put(`/store/inventory/${pet.id}`, { quantity: 50 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/store/orders', { petId: pet.id, quantity: 1 })));
    const created = answers.filter((a) => a.status === 201);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    for (const answer of conflicts) expect((answer.body as { code: string }).code).toMatch(/^(PET_HAS_OPEN_ORDER|PET_NOT_AVAILABLE)$/);
    expect((await api.get(`/store/inventory/${pet.id}`)).body).toEqual({ petId: pet.id, quantity: 49, status: 'pending' });
    expect((await api.get('/store/orders', { query: { petId: pet.id } })).headers['x-total-count']).toBe('1');
  });

  it('orders, cancellations and stock changes racing over 20 pets never take the stock below zero', async () => {
    const api = t.client.session(sessionName('stock'));
    const category = await newCategory(api);
    const pets = await pool(20, 20, () => newPet(api, category.id));
    await pool(20, 20, (i) => api.put(`/store/inventory/${pets[i]!.id}`, { quantity: 3 }));

    // 300 operations: orders of 1-4 (4 is more than any stock), stock resets to 0..2, cancels of whatever order a pet has.
    const outcomes = await pool(300, 100, async (i): Promise<Exchange> => {
      const pet = pets[i % pets.length]!;
      switch (i % 3) {
        case 0:
          return api.post('/store/orders', { petId: pet.id, quantity: 1 + (i % 4) });
        case 1:
          return api.put(`/store/inventory/${pet.id}`, { quantity: i % 3 });
        default: {
          const orders = (await api.get('/store/orders', { query: { petId: pet.id, complete: false } })).body as Order[];
          const open = orders[0];
          return open ? api.delete(`/store/orders/${open.id}`) : api.get(`/store/inventory/${pet.id}`);
        }
      }
    });
    for (const answer of outcomes) expect([200, 201, 204, 404, 409]).toContain(answer.status);

    const items = (await api.get('/store/inventory', { query: { limit: 100 } })).body as InventoryItem[];
    const ours = items.filter((item) => pets.some((p) => p.id === item.petId));
    expect(ours).toHaveLength(20);
    for (const item of ours) expect(item.quantity).toBeGreaterThanOrEqual(0);
    // Rule 6 still holds, and a pet is pending exactly when it has an open order.
    for (const pet of pets) {
      const current = ((await api.get('/pets', { query: { id: pet.id } })).body as Pet[])[0]!;
      const item = ours.find((i) => i.petId === pet.id)!;
      expect(item.status).toBe(current.status);
      const open = (await api.get('/store/orders', { query: { petId: pet.id, complete: false } })).headers['x-total-count'];
      expect(current.status === 'pending').toBe(open === '1');
    }
  });
});
