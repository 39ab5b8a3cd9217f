/**
 * Regression (issue 20, point 6d): after an export and an import of the state
 * the mock issued again an id it had issued before, since the next-id counters
 * were not carried and were derived from the records alone. An id deleted
 * before the export (or after it, when an older export is loaded back) came
 * back for a new record: a client holding the old id would now read another
 * record. Now the export carries the counters (`nextIds`), the import checks
 * them, and no import takes a store's counters back, for every collection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreSnapshot } from '../behaviour/petstore/domain.js';
import { expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;

beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

type Exported = StoreSnapshot & { nextIds: { pet: number; category: number; order: number } };

/** A created order's id (the schema marks it readOnly, so the type has it optional). */
function idOf(order: { readonly id?: number | undefined }): number {
  if (order.id === undefined) throw new Error('the created order has no id');
  return order.id;
}

/** Creates a category, a pet and an order in the session, then deletes all three: the newest id of each collection. */
async function createThenDelete(session: string): Promise<{ category: number; pet: number; order: number }> {
  const api = t.client.session(session);
  const category = await newCategory(api);
  const pet = await newPet(api, category.id);
  const order = await newOrder(api, pet.id);
  expect((await api.delete(`/store/orders/${order.id}`)).status).toBe(204);
  expect((await api.delete(`/pets/${pet.id}`)).status).toBe(204);
  expect((await api.delete(`/categories/${category.id}`)).status).toBe(204);
  return { category: category.id, pet: pet.id, order: idOf(order) };
}

/** A new record of each collection in the session: the ids it issues now. */
async function issued(session: string): Promise<{ category: number; pet: number; order: number }> {
  const api = t.client.session(session);
  const category = await newCategory(api);
  const pet = await newPet(api, category.id);
  const order = await newOrder(api, pet.id);
  return { category: category.id, pet: pet.id, order: idOf(order) };
}

async function importInto(session: string, state: unknown): Promise<void> {
  const answer = await t.client.send('PUT', '/__mock/state', { query: { session }, json: state });
  expect(answer.status, answer.text).toBe(200);
}

describe('ids are never issued twice across export and import (issue 20, point 6d)', () => {
  it('the export carries the next id of each collection', async () => {
    const from = sessionName('ids-counters');
    const deleted = await createThenDelete(from);
    const exported = (await t.client.state(from)) as Exported;
    expect(exported.nextIds).toEqual({ category: deleted.category + 1, pet: deleted.pet + 1, order: deleted.order + 1 });
  });

  it('create, delete, export, import elsewhere, create: the deleted ids are not issued again', async () => {
    const from = sessionName('ids-from');
    const to = sessionName('ids-to');
    const deleted = await createThenDelete(from);
    await importInto(to, await t.client.state(from));
    const fresh = await issued(to);
    expect(fresh.category).toBeGreaterThan(deleted.category);
    expect(fresh.pet).toBeGreaterThan(deleted.pet);
    expect(fresh.order).toBeGreaterThan(deleted.order);
  });

  it('export, create, delete, import that older export back, create: the deleted ids are not issued again', async () => {
    const session = sessionName('ids-older');
    await issued(session);
    const older = await t.client.state(session);
    const deleted = await createThenDelete(session);
    await importInto(session, older);
    const fresh = await issued(session);
    expect(fresh.category).toBeGreaterThan(deleted.category);
    expect(fresh.pet).toBeGreaterThan(deleted.pet);
    expect(fresh.order).toBeGreaterThan(deleted.order);
  });

  it('an export without counters (an older one, or fixtures) still imports', async () => {
    const session = sessionName('ids-without');
    const { nextIds: _dropped, ...records } = (await t.client.state(session)) as Exported;
    await importInto(session, records);
  });

  it.each([
    ['a counter below 1', { pet: 0, category: 1, order: 1 }, '/body/nextIds/pet'],
    ['a counter past 2^53-1', { pet: 1, category: 2 ** 60, order: 1 }, '/body/nextIds/category'],
    ['a missing counter', { pet: 1, category: 1 }, '/body/nextIds/order'],
    ['an unknown counter', { pet: 1, category: 1, order: 1, user: 1 }, '/body/nextIds/user'],
  ])('refuses %s with a 400 pointing at it; nothing changes', async (_label, nextIds, pointer) => {
    const session = sessionName('ids-bad');
    const state = { ...((await t.client.state(session)) as Exported), nextIds };
    const answer = await expectUnchanged(t.client, session, () => t.client.send('PUT', '/__mock/state', { query: { session }, json: state }));
    const body = expectError(answer, 400, 'VALIDATION_FAILED');
    expect((body['details'] as { path: string }[]).map((d) => d.path)).toContain(pointer);
  });
});
