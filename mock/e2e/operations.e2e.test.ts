/**
 * Every operation's success path and each of its documented error paths,
 * against the real server, every answer checked against openapi.yaml by the
 * contract client. The last test asserts that, between them, these tests saw
 * every status each operation documents (500 aside: reaching it takes a bug;
 * it is served in examples.e2e.test.ts through `Prefer: code=500`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, InventoryItem, Order, Pet } from '../../src/types.js';
import type { ContractClient } from '../test-support/contract-client.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

function session(label: string): { name: string; api: ContractClient } {
  const name = sessionName(label);
  return { name, api: t.client.session(name) };
}

describe('pets', () => {
  it('listPets pages, filters by status, categoryId and repeated id, and counts matches before paging', async () => {
    const { api } = session('listPets');
    const category = await newCategory(api);
    const a = await newPet(api, category.id);
    const b = await newPet(api, category.id, { status: 'sold' });
    const c = await newPet(api, category.id);

    const all = await api.get('/pets', { query: { categoryId: category.id } });
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    expect((all.body as Pet[]).map((p) => p.id)).toEqual([a.id, b.id, c.id]);

    const page = await api.get('/pets', { query: { categoryId: category.id, limit: 1, offset: 1 } });
    expect(page.headers['x-total-count']).toBe('3');
    expect((page.body as Pet[]).map((p) => p.id)).toEqual([b.id]);

    const sold = await api.get('/pets', { query: { categoryId: category.id, status: 'sold' } });
    expect((sold.body as Pet[]).map((p) => p.id)).toEqual([b.id]);
    expect(sold.headers['x-total-count']).toBe('1');

    const byIds = await api.get('/pets', { query: { id: [c.id, a.id] } });
    expect((byIds.body as Pet[]).map((p) => p.id)).toEqual([a.id, c.id]);
    expect(byIds.headers['x-total-count']).toBe('2');

    const beyond = await api.get('/pets', { query: { categoryId: category.id, offset: 10 } });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('3');

    const defaults = await api.get('/pets');
    expect((defaults.body as Pet[]).length).toBeLessThanOrEqual(20);
  });

  it('listPets: 400 for every bad filter and paging value, all listed at once', async () => {
    const { api } = session('listPets-400');
    const answer = await api.get('/pets', { query: { limit: 0, offset: -1, status: 'lost', categoryId: 'x', id: ['1', 'two'] } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer).sort()).toEqual(['/query/categoryId', '/query/id', '/query/limit', '/query/offset', '/query/status']);
    expectError(await api.get('/pets', { query: { limit: 101 } }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets', { query: { limit: 1.5 } }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets', { query: { id: Array.from({ length: 101 }, (_, i) => i + 1) } }), 400, 'VALIDATION_FAILED');
  });

  it('createPet: 201 with Location, available by default, stock 1; a status in the body is kept', async () => {
    const { api } = session('createPet');
    const category = await newCategory(api);
    const answer = await api.post('/pets', { name: 'Rex', categoryId: category.id });
    expect(answer.status).toBe(201);
    const pet = answer.body as Pet;
    expect(pet).toMatchObject({ name: 'Rex', categoryId: category.id, status: 'available' });
    expect(answer.headers['location']).toBe(`/pets/${pet.id}`);
    const read = await api.get(answer.headers['location']!);
    expect(read.body).toEqual(pet);
    expect((await api.get(`/store/inventory/${pet.id}`)).body).toEqual({ petId: pet.id, quantity: 1, status: 'available' });

    const pending = await newPet(api, category.id, { status: 'pending' });
    expect(pending.status).toBe('pending');
  });

  it('createPet: 400 lists every problem; 422 for an unknown category; nothing changes', async () => {
    const { name, api } = session('createPet-errors');
    const bad = await expectUnchanged(t.client, name, () => api.post('/pets', { name: '', categoryId: 0, status: 'lost', colour: 'red' }));
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(detailPaths(bad).sort()).toEqual(['/body/categoryId', '/body/colour', '/body/name', '/body/status']);
    const missing = await expectUnchanged(t.client, name, () => api.post('/pets', {}));
    expect(detailPaths(missing).sort()).toEqual(['/body/categoryId', '/body/name']);
    expectError(await expectUnchanged(t.client, name, () => api.post('/pets', { name: 'Ghost', categoryId: 999_999 })), 422, 'UNKNOWN_CATEGORY');
    expectError(await expectUnchanged(t.client, name, () => api.send('POST', '/pets')), 400, 'VALIDATION_FAILED');
  });

  it('getPet: 200, 404 for an unknown id, 400 for an id that is not a positive int64', async () => {
    const { api } = session('getPet');
    const category = await newCategory(api);
    const pet = await newPet(api, category.id);
    expect((await api.get(`/pets/${pet.id}`)).body).toEqual(pet);
    expectError(await api.get('/pets/999999'), 404, 'PET_NOT_FOUND');
    for (const id of ['0', '-1', 'abc', '1.5', '1e3', '9223372036854775808', '%20', '0x10']) {
      const answer = await api.get(`/pets/${id}`);
      expectError(answer, 400, 'VALIDATION_FAILED');
      expect(detailPaths(answer)).toEqual(['/path/petId']);
    }
    // The largest int64 is a valid id that no pet has.
    expectError(await api.get('/pets/9223372036854775807'), 404, 'PET_NOT_FOUND');
  });

  it('replacePet: 200; a body without status keeps it; 404; 422; 400', async () => {
    const { name, api } = session('replacePet');
    const dogs = await newCategory(api);
    const cats = await newCategory(api);
    const pet = await newPet(api, dogs.id, { status: 'pending' });
    const replaced = await api.put(`/pets/${pet.id}`, { name: 'Renamed', categoryId: cats.id });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: pet.id, name: 'Renamed', categoryId: cats.id, status: 'pending' });
    expect((await api.put(`/pets/${pet.id}`, { name: 'Renamed', categoryId: cats.id, status: 'sold' })).body).toMatchObject({ status: 'sold' });
    expectError(await api.put('/pets/999999', { name: 'X', categoryId: dogs.id }), 404, 'PET_NOT_FOUND');
    expectError(await expectUnchanged(t.client, name, () => api.put(`/pets/${pet.id}`, { name: 'X', categoryId: 999_999 })), 422, 'UNKNOWN_CATEGORY');
    expectError(await expectUnchanged(t.client, name, () => api.put(`/pets/${pet.id}`, { name: 'X' })), 400, 'VALIDATION_FAILED');
    expectError(await expectUnchanged(t.client, name, () => api.put('/pets/zero', { name: 'X', categoryId: dogs.id })), 400, 'VALIDATION_FAILED');
  });

  it('deletePet: 204 removes the pet and its inventory entry; 404; 409 with an open order', async () => {
    const { name, api } = session('deletePet');
    const category = await newCategory(api);
    const pet = await newPet(api, category.id);
    const deleted = await api.delete(`/pets/${pet.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await api.get(`/pets/${pet.id}`), 404, 'PET_NOT_FOUND');
    expectError(await api.get(`/store/inventory/${pet.id}`), 404, 'INVENTORY_ITEM_NOT_FOUND');
    expectError(await api.delete(`/pets/${pet.id}`), 404, 'PET_NOT_FOUND');

    const ordered = await newPet(api, category.id);
    await newOrder(api, ordered.id);
    expectError(await expectUnchanged(t.client, name, () => api.delete(`/pets/${ordered.id}`)), 409, 'PET_HAS_OPEN_ORDER');
    expectError(await api.delete('/pets/nope'), 400, 'VALIDATION_FAILED');
  });
});

describe('categories', () => {
  it('listCategories pages with X-Total-Count; 400 for bad paging', async () => {
    const { api } = session('listCategories');
    const first = await api.get('/categories', { query: { limit: 100 } });
    const total = Number(first.headers['x-total-count']);
    const created = await newCategory(api);
    const after = await api.get('/categories', { query: { limit: 1, offset: total } });
    expect(after.headers['x-total-count']).toBe(String(total + 1));
    expect(after.body).toEqual([created]);
    expectError(await api.get('/categories', { query: { limit: 'many' } }), 400, 'VALIDATION_FAILED');
  });

  it('createCategory: 201 with Location; 409 for a name taken, compared case-insensitively; 400', async () => {
    const { name, api } = session('createCategory');
    const answer = await api.post('/categories', { name: 'Birds of Prey', description: 'Sharp' });
    expect(answer.status).toBe(201);
    const category = answer.body as Category;
    expect(category).toMatchObject({ name: 'Birds of Prey', description: 'Sharp' });
    expect(answer.headers['location']).toBe(`/categories/${category.id}`);
    expect((await api.get(answer.headers['location']!)).body).toEqual(category);
    expectError(await expectUnchanged(t.client, name, () => api.post('/categories', { name: 'BIRDS OF PREY' })), 409, 'CATEGORY_NAME_TAKEN');
    expectError(await expectUnchanged(t.client, name, () => api.post('/categories', { name: 'x'.repeat(101) })), 400, 'VALIDATION_FAILED');
    expectError(await expectUnchanged(t.client, name, () => api.post('/categories', { description: 'no name' })), 400, 'VALIDATION_FAILED');
  });

  it('getCategory: 200, 404, 400', async () => {
    const { api } = session('getCategory');
    const category = await newCategory(api);
    expect((await api.get(`/categories/${category.id}`)).body).toEqual(category);
    expectError(await api.get('/categories/999999'), 404, 'CATEGORY_NOT_FOUND');
    expectError(await api.get('/categories/0'), 400, 'VALIDATION_FAILED');
  });

  it('replaceCategory: 200, a body without description removes it; 404; 409; 400', async () => {
    const { name, api } = session('replaceCategory');
    const a = await api.post('/categories', { name: 'Alpha', description: 'first' });
    const b = await newCategory(api);
    const id = (a.body as Category).id;
    const replaced = await api.put(`/categories/${id}`, { name: 'Alpha Two' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, name: 'Alpha Two' });
    // Renaming to its own name in another case is not a conflict with itself.
    expect((await api.put(`/categories/${id}`, { name: 'ALPHA TWO' })).status).toBe(200);
    expectError(await api.put('/categories/999999', { name: 'Nope' }), 404, 'CATEGORY_NOT_FOUND');
    expectError(await expectUnchanged(t.client, name, () => api.put(`/categories/${id}`, { name: b.name })), 409, 'CATEGORY_NAME_TAKEN');
    expectError(await expectUnchanged(t.client, name, () => api.put(`/categories/${id}`, { name: 'X', id: 7 })), 400, 'VALIDATION_FAILED');
  });

  it('deleteCategory: 204; 404; 409 while it has pets', async () => {
    const { name, api } = session('deleteCategory');
    const empty = await newCategory(api);
    expect((await api.delete(`/categories/${empty.id}`)).status).toBe(204);
    expectError(await api.get(`/categories/${empty.id}`), 404, 'CATEGORY_NOT_FOUND');
    expectError(await api.delete(`/categories/${empty.id}`), 404, 'CATEGORY_NOT_FOUND');
    const used = await newCategory(api);
    await newPet(api, used.id);
    expectError(await expectUnchanged(t.client, name, () => api.delete(`/categories/${used.id}`)), 409, 'CATEGORY_IN_USE');
    expectError(await api.delete('/categories/-3'), 400, 'VALIDATION_FAILED');
  });
});

describe('orders', () => {
  it('listOrders filters by petId and complete and counts before paging; 400', async () => {
    const { api } = session('listOrders');
    const category = await newCategory(api);
    const p1 = await newPet(api, category.id);
    const p2 = await newPet(api, category.id);
    const open = await newOrder(api, p1.id);
    const done = await newOrder(api, p2.id, { complete: true });
    const ofP1 = await api.get('/store/orders', { query: { petId: p1.id } });
    expect(ofP1.body).toEqual([open]);
    expect(ofP1.headers['x-total-count']).toBe('1');
    const complete = await api.get('/store/orders', { query: { complete: true, limit: 100 } });
    expect((complete.body as Order[]).some((o) => o.id === done.id)).toBe(true);
    expect((complete.body as Order[]).every((o) => o.complete === true)).toBe(true);
    const openOnly = await api.get('/store/orders', { query: { complete: false, petId: p2.id } });
    expect(openOnly.body).toEqual([]);
    expect(openOnly.headers['x-total-count']).toBe('0');
    expectError(await api.get('/store/orders', { query: { complete: 'yes' } }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/store/orders', { query: { petId: 0 } }), 400, 'VALIDATION_FAILED');
  });

  it('placeOrder: 201 with Location; 409s; 422; 400 (id is not accepted, quantity >= 1)', async () => {
    const { name, api } = session('placeOrder');
    const category = await newCategory(api);
    const pet = await newPet(api, category.id);
    const answer = await api.post('/store/orders', { petId: pet.id, quantity: 1, shipDate: '2026-12-01T09:00:00Z' });
    expect(answer.status).toBe(201);
    const order = answer.body as Order;
    expect(order).toMatchObject({ petId: pet.id, quantity: 1, shipDate: '2026-12-01T09:00:00Z', complete: false });
    expect(answer.headers['location']).toBe(`/store/orders/${order.id}`);
    expect((await api.get(answer.headers['location']!)).body).toEqual(order);

    expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: pet.id, quantity: 1 })), 409, 'PET_HAS_OPEN_ORDER');
    const sold = await newPet(api, category.id, { status: 'sold' });
    expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: sold.id, quantity: 1 })), 409, 'PET_NOT_AVAILABLE');
    const scarce = await newPet(api, category.id);
    expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: scarce.id, quantity: 2 })), 409, 'INSUFFICIENT_STOCK');
    expectError(await expectUnchanged(t.client, name, () => api.post('/store/orders', { petId: 999_999, quantity: 1 })), 422, 'UNKNOWN_PET');
    const bad = await expectUnchanged(t.client, name, () => api.post('/store/orders', { id: 5, petId: scarce.id, quantity: 0, shipDate: 'tomorrow' }));
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(detailPaths(bad).sort()).toEqual(['/body/id', '/body/quantity', '/body/shipDate']);
  });

  it('getOrder: 200, 404, 400', async () => {
    const { api } = session('getOrder');
    const category = await newCategory(api);
    const order = await newOrder(api, (await newPet(api, category.id)).id);
    expect((await api.get(`/store/orders/${order.id}`)).body).toEqual(order);
    expectError(await api.get('/store/orders/999999'), 404, 'ORDER_NOT_FOUND');
    expectError(await api.get('/store/orders/first'), 400, 'VALIDATION_FAILED');
  });

  it('updateOrder: 200 for shipDate and complete; 409 reopening; 404; 400 for other fields or an empty body', async () => {
    const { name, api } = session('updateOrder');
    const category = await newCategory(api);
    const order = await newOrder(api, (await newPet(api, category.id)).id);
    const moved = await api.patch(`/store/orders/${order.id}`, { shipDate: '2026-12-03T15:00:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: order.id, shipDate: '2026-12-03T15:00:00Z', complete: false });
    const completed = await api.patch(`/store/orders/${order.id}`, { complete: true });
    expect(completed.body).toMatchObject({ complete: true });
    expectError(await expectUnchanged(t.client, name, () => api.patch(`/store/orders/${order.id}`, { complete: false })), 409, 'ORDER_ALREADY_COMPLETE');
    expectError(await api.patch('/store/orders/999999', { complete: true }), 404, 'ORDER_NOT_FOUND');
    expectError(await expectUnchanged(t.client, name, () => api.patch(`/store/orders/${order.id}`, { quantity: 3 })), 400, 'VALIDATION_FAILED');
    expectError(await expectUnchanged(t.client, name, () => api.patch(`/store/orders/${order.id}`, {})), 400, 'VALIDATION_FAILED');
  });

  it('cancelOrder: 204 deletes it; 404; 409 for a complete order', async () => {
    const { name, api } = session('cancelOrder');
    const category = await newCategory(api);
    const order = await newOrder(api, (await newPet(api, category.id)).id);
    const cancelled = await api.delete(`/store/orders/${order.id}`);
    expect(cancelled.status).toBe(204);
    expectError(await api.get(`/store/orders/${order.id}`), 404, 'ORDER_NOT_FOUND');
    expectError(await api.delete(`/store/orders/${order.id}`), 404, 'ORDER_NOT_FOUND');
    const done = await newOrder(api, (await newPet(api, category.id)).id, { complete: true });
    expectError(await expectUnchanged(t.client, name, () => api.delete(`/store/orders/${done.id}`)), 409, 'ORDER_ALREADY_COMPLETE');
    expectError(await api.delete('/store/orders/1.0'), 400, 'VALIDATION_FAILED');
  });
});

describe('inventory', () => {
  it('listInventory: one entry per pet with its status, filtered by status, X-Total-Count; 400', async () => {
    const { api } = session('listInventory');
    const all = await api.get('/store/inventory', { query: { limit: 100 } });
    const pets = await api.get('/pets', { query: { limit: 100 } });
    expect(all.headers['x-total-count']).toBe(pets.headers['x-total-count']);
    const statusOf = new Map((pets.body as Pet[]).map((p) => [p.id, p.status]));
    for (const item of all.body as InventoryItem[]) expect(item.status).toBe(statusOf.get(item.petId));
    const sold = await api.get('/store/inventory', { query: { status: 'sold', limit: 100 } });
    expect((sold.body as InventoryItem[]).every((i) => i.status === 'sold')).toBe(true);
    expect(sold.headers['x-total-count']).toBe((await api.get('/pets', { query: { status: 'sold' } })).headers['x-total-count']);
    expectError(await api.get('/store/inventory', { query: { status: 'gone' } }), 400, 'VALIDATION_FAILED');
  });

  it('getInventoryItem: 200, 404, 400', async () => {
    const { api } = session('getInventoryItem');
    const pet = await newPet(api, (await newCategory(api)).id);
    expect((await api.get(`/store/inventory/${pet.id}`)).body).toEqual({ petId: pet.id, quantity: 1, status: 'available' });
    expectError(await api.get('/store/inventory/999999'), 404, 'INVENTORY_ITEM_NOT_FOUND');
    expectError(await api.get('/store/inventory/x'), 400, 'VALIDATION_FAILED');
  });

  it('updateInventory: 200 sets the stock; 404; 400 for a negative or fractional quantity', async () => {
    const { name, api } = session('updateInventory');
    const pet = await newPet(api, (await newCategory(api)).id);
    const updated = await api.put(`/store/inventory/${pet.id}`, { quantity: 3 });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ petId: pet.id, quantity: 3, status: 'available' });
    expect((await api.put(`/store/inventory/${pet.id}`, { quantity: 0 })).body).toMatchObject({ quantity: 0 });
    expectError(await api.put('/store/inventory/999999', { quantity: 1 }), 404, 'INVENTORY_ITEM_NOT_FOUND');
    for (const quantity of [-1, 1.5, '3', null, 2 ** 31]) {
      expectError(await expectUnchanged(t.client, name, () => api.put(`/store/inventory/${pet.id}`, { quantity })), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('what every operation may answer', () => {
  const ops = [
    ['GET', '/pets'],
    ['POST', '/pets'],
    ['GET', '/pets/1'],
    ['PUT', '/pets/1'],
    ['DELETE', '/pets/1'],
    ['GET', '/categories'],
    ['POST', '/categories'],
    ['GET', '/categories/1'],
    ['PUT', '/categories/1'],
    ['DELETE', '/categories/1'],
    ['GET', '/store/orders'],
    ['POST', '/store/orders'],
    ['GET', '/store/orders/1'],
    ['PATCH', '/store/orders/1'],
    ['DELETE', '/store/orders/1'],
    ['GET', '/store/inventory'],
    ['GET', '/store/inventory/1'],
    ['PUT', '/store/inventory/1'],
  ] as const;

  it.each(ops)('%s %s: 406 when Accept excludes JSON, 413 over 1 MiB, unchanged state', async (method, path) => {
    const { name, api } = session(`common-${method}`);
    for (const accept of ['text/html', 'application/json;q=0, */*', 'application/xml, text/*;q=0.5']) {
      expectError(await expectUnchanged(t.client, name, () => api.send(method, path, { headers: { accept } })), 406, 'NOT_ACCEPTABLE');
    }
    const big = new Uint8Array(1024 * 1024 + 1).fill(0x20);
    expectError(await expectUnchanged(t.client, name, () => api.send(method, path, { body: big, headers: { 'content-type': 'application/json' } })), 413, 'PAYLOAD_TOO_LARGE');
    // JSON in other words still passes content negotiation.
    for (const accept of ['application/json', 'application/*', '*/*', 'text/html, application/json;q=0.1']) {
      const answer = await api.send(method, path, { headers: { accept } });
      expect(answer.status, `${accept}: ${answer.text}`).not.toBe(406);
    }
  });

  it.each(ops.filter(([method]) => method === 'POST' || method === 'PUT' || method === 'PATCH'))('%s %s: 415 for a body that is not JSON or is encoded', async (method, path) => {
    const { name, api } = session(`415-${method}`);
    const cases: Record<string, string>[] = [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, { 'content-type': 'application/json; charset=latin1' }];
    for (const headers of cases) {
      expectError(await expectUnchanged(t.client, name, () => api.send(method, path, { body: '{"name":"X","categoryId":1,"quantity":1}', headers })), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('405 with Allow listing exactly the documented methods, in the document\'s order; 404 for an unknown path', async () => {
    const api = t.client;
    for (const [method, path, allow] of [
      ['PATCH', '/pets', 'GET, POST'],
      ['POST', '/pets/1', 'GET, PUT, DELETE'],
      ['PUT', '/store/orders/1', 'GET, PATCH, DELETE'],
      ['DELETE', '/store/inventory/1', 'GET, PUT'],
      ['OPTIONS', '/categories', 'GET, POST'],
    ] as const) {
      const answer = await api.send(method, path);
      expectError(answer, 405, 'METHOD_NOT_ALLOWED');
      // In the order the document lists them (regression: PATCH after DELETE, the order of HTTP_METHODS).
      expect(answer.headers['allow']).toBe(allow);
    }
    for (const path of ['/petz', '/pets/1/extra', '/', '/store', '/pets/', '//pets', '/PETS']) expectError(await api.get(path), 404, 'ROUTE_NOT_FOUND');
  });

  it('HEAD is GET without a body', async () => {
    const answer = await t.client.send('HEAD', '/pets');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(answer.headers['x-total-count']).toMatch(/^[0-9]+$/);
  });

  it('getPet answers 410 after its sunset (the clock set per request)', async () => {
    expectError(await t.client.get('/pets/1', { headers: { 'x-mock-now': '2027-07-01T00:00:00Z' } }), 410, 'OPERATION_SUNSET');
  });

  it('between them, these tests saw every status each operation documents (500 aside)', () => {
    const observed = t.client.observed();
    const missing: string[] = [];
    for (const operation of t.compiled.contract.operations) {
      for (const key of operation.responses.keys()) {
        if (key === '500') continue;
        if (!observed.get(operation.operationId)?.has(Number(key))) missing.push(`${operation.operationId} ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
