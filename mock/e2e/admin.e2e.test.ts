/**
 * The /__mock/ control plane: health, export, import (validated against the
 * document and the state rules), reset. Outside the contract, but its errors
 * use the Error shape (the contract client checks that much).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreSnapshot } from '../behaviour/petstore/domain.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

const json = { 'content-type': 'application/json' };

describe('admin', () => {
  it('GET /__mock/health reports the contract and kit versions', async () => {
    const answer = await t.client.get('/__mock/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'ok', contract: { title: 'Pet Store API', version: '1.0.0' }, kit: { name: 'petstore-kit' } });
    expect((answer.body as { contract: { sha256: string } }).contract.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('exports a session’s state and imports it into another: the same data, and ids continue after it', async () => {
    const from = sessionName('export');
    const to = sessionName('import');
    const a = t.client.session(from);
    const category = await newCategory(a, 'Exported');
    const pet = await newPet(a, category.id);
    await newOrder(a, pet.id);
    const exported = (await t.client.state(from)) as StoreSnapshot;
    expect(exported.categories.some((c) => c.name === 'Exported')).toBe(true);

    const imported = await t.client.send('PUT', '/__mock/state', { query: { session: to }, json: exported });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ loaded: { categories: exported.categories.length, pets: exported.pets.length, orders: exported.orders.length, inventory: exported.inventory.length }, session: to });
    expect(await t.client.state(to)).toEqual(exported);

    // The imported store behaves: the pet has its open order, and new ids follow the imported ones.
    const b = t.client.session(to);
    expectError(await b.post('/store/orders', { petId: pet.id, quantity: 1 }), 409, 'PET_HAS_OPEN_ORDER');
    const next = await newPet(b, category.id);
    expect(next.id).toBe(Math.max(...exported.pets.map((p) => p.id)) + 1);
  });

  it('imports into the default store and resets it back to the initial data', async () => {
    const initial = await t.client.state();
    const empty = { categories: [], pets: [], orders: [], inventory: [] };
    expect((await t.client.send('PUT', '/__mock/state', { json: empty })).status).toBe(200);
    expect((await t.client.get('/pets')).headers['x-total-count']).toBe('0');
    await t.client.send('POST', '/__mock/reset');
    expect(await t.client.state()).toEqual(initial);
  });

  it.each([
    ['a missing collection', { categories: [], pets: [], orders: [] }, '/body/inventory'],
    ['an unknown collection', { categories: [], pets: [], orders: [], inventory: [], owners: [] }, '/body/owners'],
    ['a pet of the wrong shape', { categories: [{ id: 1, name: 'C' }], pets: [{ id: 'one', name: 'P', categoryId: 1 }], orders: [], inventory: [] }, '/body/pets/0/id'],
    ['a pet in a missing category', { categories: [], pets: [{ id: 1, name: 'P', categoryId: 9, status: 'available' }], orders: [], inventory: [{ petId: 1, quantity: 1 }] }, '/body/pets/0/categoryId'],
    // What the former store's snapshot validator refused (its validateSnapshot), now asked of the engine.
    ['not an object', 'pets', '/body'],
    ['a misspelt collection', { categories: [], pets: [], orders: [], inventory: [], pet: [] }, '/body/pet'],
  ])('refuses %s with a 400 whose details point into the body; nothing changes', async (_label, state, pointer) => {
    const name = sessionName('bad-import');
    const answer = await expectUnchanged(t.client, name, () => t.client.send('PUT', '/__mock/state', { query: { session: name }, json: state }));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toContain(pointer);
  });

  it('lists a bounded number of problems, however many the state has', async () => {
    const name = sessionName('bad-import-many');
    const pets = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: 'Ghost', categoryId: 9, status: 'available' }));
    const state = { categories: [], pets, orders: [], inventory: pets.map((p) => ({ petId: p.id, quantity: 1 })) };
    const answer = await expectUnchanged(t.client, name, () => t.client.send('PUT', '/__mock/state', { query: { session: name }, json: state }));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)[0]).toBe('/body/pets/0/categoryId');
    expect(detailPaths(answer).length).toBeLessThanOrEqual(51);
  });

  it('takes a state a live store can reach though fixtures may not hold it: a sold pet listed again, a pet gone whose orders are complete', async () => {
    const name = sessionName('reachable');
    const state = {
      categories: [{ id: 1, name: 'Dogs' }],
      pets: [{ id: 1, name: 'Back again', categoryId: 1, status: 'available' }],
      orders: [
        { id: 1, petId: 1, quantity: 1, complete: true },
        { id: 2, petId: 2, quantity: 1, complete: true },
      ],
      inventory: [{ petId: 1, quantity: 1 }],
    };
    const answer = await t.client.send('PUT', '/__mock/state', { query: { session: name }, json: state });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it('refuses a body that is not JSON, or not sent as JSON', async () => {
    const name = sessionName('bad-import-body');
    expectError(await expectUnchanged(t.client, name, () => t.client.send('PUT', `/__mock/state?session=${name}`, { body: '{"categories":', headers: json })), 400, 'MALFORMED_JSON');
    expectError(await expectUnchanged(t.client, name, () => t.client.send('PUT', `/__mock/state?session=${name}`, { body: '{}', headers: { 'content-type': 'text/plain' } })), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await expectUnchanged(t.client, name, () => t.client.send('PUT', `/__mock/state?session=${name}`)), 400, 'VALIDATION_FAILED');
  });

  it('answers 404 for an unknown admin path and 405 with Allow for a wrong method', async () => {
    expectError(await t.client.get('/__mock/nope'), 404, 'ROUTE_NOT_FOUND');
    const wrong = await t.client.send('DELETE', '/__mock/state');
    expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers['allow']).toBe('GET, PUT');
    expectError(await t.client.get('/__mock/reset'), 405, 'METHOD_NOT_ALLOWED');
  });
});
