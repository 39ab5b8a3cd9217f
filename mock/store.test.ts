import { afterEach, describe, expect, it } from 'vitest';
import type { DomainError, Result, Store, StoreSnapshot } from './domain.js';
import { createStoreRegistry, sessionMemoryBudget } from './registry.js';
import { createStore } from './store.js';
import type { ApiErrorCode } from '../src/api-error-codes.js';
import { isKitError } from '../src/kit-error.js';
import type { NewPet, Order, Pet, PetStatus } from '../src/types.js';
import { mulberry32 as seeded } from './random.js';
import { SMALL_WORLD } from './test-support/state-rule-scenarios.js';
import { walkWorld } from './test-support/store-scenarios.js';

const ALL = { offset: 0, limit: 100 } as const;
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/**
 * A small world with one pet in each situation the rules care about:
 * 1 available with stock 2, 2 pending with the open order 1, 3 sold with the
 * complete order 2, 4 available with no stock; category 3 has no pets. The
 * same world the HTTP scenarios load (state-rule-scenarios.ts,
 * store-scenarios.ts), which keep this file's promises on both engines.
 */
const BASE: StoreSnapshot = SMALL_WORLD;

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function refusal<T>(result: Result<T>): DomainError {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

const fresh = (): Store => createStore(BASE);

/** A generated world of `pets` pets in 4 categories, with an order for every pet that is not available (the HTTP walks' world). */
const bigWorldOf = (pets: number): StoreSnapshot => walkWorld(pets);
const statusOf = (store: Store, id: number): PetStatus | undefined => value(store.getPet(id)).status;
const stockOf = (store: Store, id: number): number => value(store.getInventoryItem(id)).quantity;

describe('pets', () => {
  it('rule 1: a new pet is available unless the body says otherwise, with an inventory entry of quantity 1', () => {
    const store = fresh();
    const plain = value(store.createPet({ name: 'Bolt', categoryId: 1 }));
    const pending = value(store.createPet({ name: 'Kiwi', categoryId: 3, status: 'pending' }));
    expect(plain).toEqual({ id: 5, name: 'Bolt', categoryId: 1, status: 'available' });
    expect(pending.status).toBe('pending');
    expect(value(store.getInventoryItem(plain.id))).toEqual({ petId: 5, quantity: 1, status: 'available' });
    expect(value(store.getInventoryItem(pending.id))).toEqual({ petId: 6, quantity: 1, status: 'pending' });
    expect(value(store.getPet(5))).toEqual(plain);
  });

  it('assigns ids sequentially after the largest initial id, and never reuses a deleted one', () => {
    const store = createStore({ ...BASE, pets: [...BASE.pets, { id: 40, name: 'Old', categoryId: 3 }], inventory: [...BASE.inventory, { petId: 40, quantity: 1 }] });
    expect(value(store.createPet({ name: 'A', categoryId: 1 })).id).toBe(41);
    value(store.deletePet(41));
    expect(value(store.createPet({ name: 'B', categoryId: 1 })).id).toBe(42);
    expect(value(store.createCategory({ name: 'Fish' })).id).toBe(4);
    expect(value(store.placeOrder({ petId: 1, quantity: 1 })).id).toBe(3);
  });

  it('a replace that omits status keeps the current one; one that gives it sets it', () => {
    const store = fresh();
    expect(value(store.replacePet(3, { name: 'Nemo II', categoryId: 2 }))).toEqual({ id: 3, name: 'Nemo II', categoryId: 2, status: 'sold' });
    expect(value(store.replacePet(3, { name: 'Nemo II', categoryId: 2, status: 'available' })).status).toBe('available');
    expect(value(store.getInventoryItem(3)).status).toBe('available');
    expect(store.listPets({ categoryId: 2 }, ALL).items.map((p) => p.id)).toEqual([2, 3, 4]);
  });

  it('deleting a pet removes its inventory entry; a pet with only complete orders can go', () => {
    const store = fresh();
    value(store.deletePet(3));
    expect(refusal(store.getPet(3)).code).toBe('PET_NOT_FOUND');
    expect(refusal(store.getInventoryItem(3)).code).toBe('INVENTORY_ITEM_NOT_FOUND');
    expect(store.listInventory({}, ALL).items.map((i) => i.petId)).toEqual([1, 2, 4]);
    // The complete order stays as history.
    expect(value(store.getOrder(2)).petId).toBe(3);
  });
});

describe('categories', () => {
  it.each(['Dogs', 'dogs', 'DOGS', 'dOgS'])('names are unique case-insensitively: creating %s is CATEGORY_NAME_TAKEN', (name) => {
    const store = fresh();
    const error = refusal(store.createCategory({ name }));
    expect(error.code).toBe('CATEGORY_NAME_TAKEN');
    expect(error.message).toBe('A category named Dogs exists already (id 1).');
  });

  it('a category may change the case of its own name, but not take another one', () => {
    const store = fresh();
    expect(value(store.replaceCategory(1, { name: 'DOGS' }))).toEqual({ id: 1, name: 'DOGS' });
    expect(refusal(store.replaceCategory(2, { name: 'dogs' })).code).toBe('CATEGORY_NAME_TAKEN');
    // The old name is free again once renamed.
    value(store.replaceCategory(1, { name: 'Hounds' }));
    expect(value(store.createCategory({ name: 'Dogs', description: 'Again' }))).toEqual({ id: 4, name: 'Dogs', description: 'Again' });
  });

  it('a replace without description removes it', () => {
    const store = fresh();
    expect(value(store.replaceCategory(1, { name: 'Dogs' }))).toEqual({ id: 1, name: 'Dogs' });
    expect(value(store.getCategory(1))).not.toHaveProperty('description');
  });

  it('rule 5: a category with pets cannot be deleted; an empty one can', () => {
    const store = fresh();
    const error = refusal(store.deleteCategory(1));
    expect(error).toEqual({ code: 'CATEGORY_IN_USE', message: 'Category 1 still has 2 pets; move or delete them first.' });
    value(store.deleteCategory(3));
    expect(refusal(store.getCategory(3)).code).toBe('CATEGORY_NOT_FOUND');
    // Once its last pet moves away, the category can go.
    value(store.replacePet(1, { name: 'Rex', categoryId: 2 }));
    value(store.deletePet(3));
    value(store.deleteCategory(1));
  });

  it('lists categories oldest first, paged, with the total', () => {
    const page = fresh().listCategories({ offset: 1, limit: 1 });
    expect(page).toEqual({ items: [{ id: 2, name: 'Cats' }], total: 3 });
  });
});

describe('orders', () => {
  it('rule 2: placing an order reserves the stock and moves the pet to pending; complete defaults to false', () => {
    const store = fresh();
    const order = value(store.placeOrder({ petId: 1, quantity: 2, shipDate: '2026-12-01T09:00:00Z' }));
    expect(order).toEqual({ id: 3, petId: 1, quantity: 2, shipDate: '2026-12-01T09:00:00Z', complete: false });
    expect(statusOf(store, 1)).toBe('pending');
    expect(value(store.getInventoryItem(1))).toEqual({ petId: 1, quantity: 0, status: 'pending' });
    expect(store.listOrders({ petId: 1, complete: false }, ALL).items).toEqual([order]);
  });

  it('complete at placement sells the pet at once and keeps the stock consumed', () => {
    const store = fresh();
    const order = value(store.placeOrder({ petId: 1, quantity: 1, complete: true }));
    expect(order.complete).toBe(true);
    expect(statusOf(store, 1)).toBe('sold');
    expect(stockOf(store, 1)).toBe(1);
    // No open order is left behind: the pet can be deleted.
    value(store.deletePet(1));
  });

  it('rule 3: completing an order sells the pet; the stock stays consumed', () => {
    const store = fresh();
    const completed = value(store.updateOrder(1, { complete: true }));
    expect(completed).toEqual({ id: 1, petId: 2, quantity: 1, shipDate: '2026-11-20T10:00:00Z', complete: true });
    expect(statusOf(store, 2)).toBe('sold');
    expect(stockOf(store, 2)).toBe(0);
    expect(store.listOrders({ complete: false }, ALL).total).toBe(0);
  });

  it('updateOrder changes the ship date alone, and completing twice is harmless', () => {
    const store = fresh();
    expect(value(store.updateOrder(1, { shipDate: '2026-12-03T15:00:00Z' })).shipDate).toBe('2026-12-03T15:00:00Z');
    expect(statusOf(store, 2)).toBe('pending');
    expect(value(store.updateOrder(1, { complete: false })).complete).toBe(false);
    expect(value(store.updateOrder(2, { complete: true })).complete).toBe(true);
    expect(value(store.updateOrder(2, { shipDate: '2026-12-04T15:00:00Z' })).shipDate).toBe('2026-12-04T15:00:00Z');
  });

  it('rule 4: cancelling an open order returns the stock, frees the pet and deletes the order', () => {
    const store = fresh();
    value(store.placeOrder({ petId: 1, quantity: 2 }));
    value(store.cancelOrder(3));
    expect(statusOf(store, 1)).toBe('available');
    expect(stockOf(store, 1)).toBe(2);
    expect(refusal(store.getOrder(3)).code).toBe('ORDER_NOT_FOUND');
    expect(store.listOrders({ petId: 1 }, ALL)).toEqual({ items: [], total: 0 });
    // The pet can be ordered again.
    expect(value(store.placeOrder({ petId: 1, quantity: 1 })).id).toBe(4);
  });

  it('returning stock never pushes it past the int32 the document allows', () => {
    const store = fresh();
    value(store.placeOrder({ petId: 1, quantity: 2 }));
    value(store.updateInventory(1, 2_147_483_647));
    value(store.cancelOrder(3));
    expect(stockOf(store, 1)).toBe(2_147_483_647);
  });

  it('lists orders oldest first, filtered by pet and by completion, with totals', () => {
    const store = fresh();
    value(store.placeOrder({ petId: 1, quantity: 1 }));
    const ids = (filter: { petId?: number; complete?: boolean }): number[] => store.listOrders(filter, ALL).items.map((o: Order) => o.id!);
    expect(ids({})).toEqual([1, 2, 3]);
    expect(ids({ complete: false })).toEqual([1, 3]);
    expect(ids({ complete: true })).toEqual([2]);
    expect(ids({ petId: 3 })).toEqual([2]);
    expect(ids({ petId: 3, complete: false })).toEqual([]);
    expect(store.listOrders({}, { offset: 1, limit: 1 })).toEqual({ items: [value(store.getOrder(2))], total: 3 });
  });
});

describe('inventory', () => {
  it('rule 6: an entry always has its pet\'s status, through orders and replaces', () => {
    const store = fresh();
    expect(store.listInventory({}, ALL).items).toEqual([
      { petId: 1, quantity: 2, status: 'available' },
      { petId: 2, quantity: 0, status: 'pending' },
      { petId: 3, quantity: 0, status: 'sold' },
      { petId: 4, quantity: 0, status: 'available' },
    ]);
    value(store.placeOrder({ petId: 1, quantity: 1 }));
    expect(store.listInventory({ status: 'pending' }, ALL)).toEqual({ items: [{ petId: 1, quantity: 1, status: 'pending' }, { petId: 2, quantity: 0, status: 'pending' }], total: 2 });
    value(store.replacePet(4, { name: 'Luna', categoryId: 2, status: 'sold' }));
    expect(store.listInventory({ status: 'sold' }, ALL).items.map((i) => i.petId)).toEqual([3, 4]);
  });

  it('updateInventory sets the quantity and keeps the status', () => {
    const store = fresh();
    expect(value(store.updateInventory(2, 3))).toEqual({ petId: 2, quantity: 3, status: 'pending' });
    expect(value(store.updateInventory(4, 5))).toEqual({ petId: 4, quantity: 5, status: 'available' });
    expect(value(store.placeOrder({ petId: 4, quantity: 5 })).quantity).toBe(5);
    expect(stockOf(store, 4)).toBe(0);
  });
});

describe('every refusal: the code, a message a person can act on, and nothing changed', () => {
  interface Case {
    readonly name: string;
    readonly act: (store: Store) => Result<unknown>;
    readonly code: ApiErrorCode;
    readonly message: string;
    /** Some refusals only arise after a legitimate change (not part of what must stay unchanged). */
    readonly arrange?: (store: Store) => void;
  }
  const cases: readonly Case[] = [
    { name: 'getPet of a missing id', act: (s) => s.getPet(42), code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
    { name: 'createPet in a missing category', act: (s) => s.createPet({ name: 'Ghost', categoryId: 42 }), code: 'UNKNOWN_CATEGORY', message: 'No category has id 42; create it first or pick another.' },
    { name: 'replacePet of a missing pet', act: (s) => s.replacePet(42, { name: 'Ghost', categoryId: 1 }), code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
    { name: 'replacePet into a missing category', act: (s) => s.replacePet(1, { name: 'Rex', categoryId: 42, status: 'sold' }), code: 'UNKNOWN_CATEGORY', message: 'No category has id 42; create it first or pick another.' },
    { name: 'deletePet of a missing pet', act: (s) => s.deletePet(42), code: 'PET_NOT_FOUND', message: 'No pet has id 42.' },
    { name: 'deletePet of a pet with an open order', act: (s) => s.deletePet(2), code: 'PET_HAS_OPEN_ORDER', message: 'Pet 2 has the open order 1; complete or cancel it first.' },
    { name: 'getCategory of a missing id', act: (s) => s.getCategory(42), code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
    { name: 'createCategory with a taken name', act: (s) => s.createCategory({ name: 'cats' }), code: 'CATEGORY_NAME_TAKEN', message: 'A category named Cats exists already (id 2).' },
    { name: 'replaceCategory of a missing id', act: (s) => s.replaceCategory(42, { name: 'Fish' }), code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
    { name: 'replaceCategory to a taken name', act: (s) => s.replaceCategory(3, { name: 'CATS', description: 'x' }), code: 'CATEGORY_NAME_TAKEN', message: 'A category named Cats exists already (id 2).' },
    { name: 'deleteCategory of a missing id', act: (s) => s.deleteCategory(42), code: 'CATEGORY_NOT_FOUND', message: 'No category has id 42.' },
    { name: 'deleteCategory with a pet', act: (s) => s.deleteCategory(2), code: 'CATEGORY_IN_USE', message: 'Category 2 still has 2 pets; move or delete them first.' },
    { name: 'deleteCategory with one pet', arrange: (s) => void value(s.replacePet(4, { name: 'Luna', categoryId: 1 })), act: (s) => s.deleteCategory(2), code: 'CATEGORY_IN_USE', message: 'Category 2 still has 1 pet; move or delete it first.' },
    { name: 'placeOrder for a missing pet', act: (s) => s.placeOrder({ petId: 42, quantity: 1 }), code: 'UNKNOWN_PET', message: 'No pet has id 42.' },
    { name: 'placeOrder for a pet with an open order', act: (s) => s.placeOrder({ petId: 2, quantity: 1 }), code: 'PET_HAS_OPEN_ORDER', message: 'Pet 2 has the open order 1; complete or cancel it first.' },
    {
      name: 'placeOrder for a pet set back to available while its order is open',
      arrange: (s) => void value(s.replacePet(2, { name: 'Tom', categoryId: 2, status: 'available' })),
      act: (s) => s.placeOrder({ petId: 2, quantity: 1 }),
      code: 'PET_HAS_OPEN_ORDER',
      message: 'Pet 2 has the open order 1; complete or cancel it first.',
    },
    { name: 'placeOrder for a sold pet', act: (s) => s.placeOrder({ petId: 3, quantity: 1 }), code: 'PET_NOT_AVAILABLE', message: 'Pet 3 is sold; only available pets can be ordered.' },
    { name: 'placeOrder for a pending pet without an order', arrange: (s) => void value(s.createPet({ name: 'Kiwi', categoryId: 3, status: 'pending' })), act: (s) => s.placeOrder({ petId: 5, quantity: 1 }), code: 'PET_NOT_AVAILABLE', message: 'Pet 5 is pending; only available pets can be ordered.' },
    { name: 'placeOrder beyond the stock', act: (s) => s.placeOrder({ petId: 1, quantity: 3 }), code: 'INSUFFICIENT_STOCK', message: 'Pet 1 has 2 in stock; 3 were ordered.' },
    { name: 'placeOrder with no stock, complete at once', act: (s) => s.placeOrder({ petId: 4, quantity: 1, complete: true }), code: 'INSUFFICIENT_STOCK', message: 'Pet 4 has 0 in stock; 1 was ordered.' },
    { name: 'getOrder of a missing id', act: (s) => s.getOrder(42), code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
    { name: 'updateOrder of a missing id', act: (s) => s.updateOrder(42, { complete: true }), code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
    { name: 'updateOrder reopening a complete order (with a ship date)', act: (s) => s.updateOrder(2, { complete: false, shipDate: '2027-01-01T00:00:00Z' }), code: 'ORDER_ALREADY_COMPLETE', message: 'Order 2 is complete; it cannot be reopened or cancelled.' },
    { name: 'cancelOrder of a missing id', act: (s) => s.cancelOrder(42), code: 'ORDER_NOT_FOUND', message: 'No order has id 42.' },
    { name: 'cancelOrder of a complete order', act: (s) => s.cancelOrder(2), code: 'ORDER_ALREADY_COMPLETE', message: 'Order 2 is complete; it cannot be reopened or cancelled.' },
    { name: 'getInventoryItem of a missing pet', act: (s) => s.getInventoryItem(42), code: 'INVENTORY_ITEM_NOT_FOUND', message: 'No inventory entry for pet 42.' },
    { name: 'updateInventory of a missing pet', act: (s) => s.updateInventory(42, 3), code: 'INVENTORY_ITEM_NOT_FOUND', message: 'No inventory entry for pet 42.' },
  ];

  it.each(cases)('$name → $code', ({ act, arrange, code, message }) => {
    const store = fresh();
    arrange?.(store);
    const before = store.snapshot();
    expect(refusal(act(store))).toEqual({ code, message });
    expect(store.snapshot()).toEqual(before);
  });

  it('covers every state-rule and not-found code the store can answer', () => {
    const covered = new Set(cases.map((c) => c.code));
    const expected: ApiErrorCode[] = [
      'PET_NOT_FOUND', 'CATEGORY_NOT_FOUND', 'ORDER_NOT_FOUND', 'INVENTORY_ITEM_NOT_FOUND', 'CATEGORY_NAME_TAKEN', 'CATEGORY_IN_USE',
      'PET_HAS_OPEN_ORDER', 'PET_NOT_AVAILABLE', 'INSUFFICIENT_STOCK', 'ORDER_ALREADY_COMPLETE', 'UNKNOWN_CATEGORY', 'UNKNOWN_PET',
    ];
    expect([...covered].sort()).toEqual([...expected].sort());
  });
});

describe('listing pets', () => {
  it('is oldest first, with the total before paging', () => {
    const store = fresh();
    expect(store.listPets({}, { offset: 1, limit: 2 })).toEqual({ items: [value(store.getPet(2)), value(store.getPet(3))], total: 4 });
    expect(store.listPets({ status: 'available' }, ALL)).toEqual({ items: [value(store.getPet(1)), value(store.getPet(4))], total: 2 });
    expect(store.listPets({ status: 'sold', categoryId: 2 }, ALL)).toEqual({ items: [], total: 0 });
    expect(store.listPets({}, { offset: 10, limit: 20 })).toEqual({ items: [], total: 4 });
  });

  it('the id filter looks ids up, ignores unknown and repeated ones, sorts, and combines with the others', () => {
    const store = fresh();
    const ids = (filter: { ids: number[]; status?: PetStatus; categoryId?: number }, page: { offset: number; limit: number } = ALL) => {
      const result = store.listPets(filter, page);
      return { ids: result.items.map((p) => p.id), total: result.total };
    };
    expect(ids({ ids: [4, 2, 42, 2] })).toEqual({ ids: [2, 4], total: 2 });
    expect(ids({ ids: [1, 2, 3, 4], status: 'available' })).toEqual({ ids: [1, 4], total: 2 });
    expect(ids({ ids: [1, 2, 3, 4], categoryId: 1, status: 'sold' })).toEqual({ ids: [3], total: 1 });
    expect(ids({ ids: [1, 2, 3, 4] }, { offset: 1, limit: 2 })).toEqual({ ids: [2, 3], total: 4 });
    expect(ids({ ids: [] })).toEqual({ ids: [], total: 0 });
  });

  it('starts oldest first even when the initial data is out of order', () => {
    const store = createStore({ ...BASE, pets: [...BASE.pets].reverse(), orders: [...BASE.orders].reverse(), categories: [...BASE.categories].reverse() });
    expect(store.listPets({}, ALL).items.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(store.listOrders({}, ALL).items.map((o) => o.id)).toEqual([1, 2]);
    expect(store.listCategories(ALL).items.map((c) => c.id)).toEqual([1, 2, 3]);
  });
});

describe('isolation of what goes in and out', () => {
  it('returned pets, categories and orders are frozen: changing one throws and changes nothing', () => {
    const store = fresh();
    const before = store.snapshot();
    // The casts stand for a caller that ignores the read-only types (plain JavaScript, an `as`).
    expect(() => Object.assign(value(store.getPet(1)) as Pet, { name: 'Hacked', status: 'sold' })).toThrow(TypeError);
    expect(() => Object.assign(store.listPets({}, ALL).items[0] as Pet, { name: 'Hacked' })).toThrow(TypeError);
    expect(() => Object.assign(value(store.getCategory(1)), { description: 'Hacked' })).toThrow(TypeError);
    expect(() => Object.assign(value(store.getOrder(1)) as Order, { complete: true })).toThrow(TypeError);
    const snapshot = store.snapshot();
    expect(() => Object.assign(snapshot.categories[0]!, { name: 'Hacked' })).toThrow(TypeError);
    // The lists around them and the inventory entries are fresh objects: changing those is harmless.
    (snapshot.pets as Pet[]).push({ id: 99, name: 'Ghost', categoryId: 1 });
    value(store.getInventoryItem(1)).quantity = 99;
    expect(store.snapshot()).toEqual(before);
  });

  it('a change replaces a record instead of editing it: what a caller read earlier stays as it was', () => {
    const store = fresh();
    const pet = value(store.getPet(1));
    const category = value(store.getCategory(1));
    const order = value(store.getOrder(1));
    value(store.replacePet(1, { name: 'Renamed', categoryId: 2 }));
    value(store.replaceCategory(1, { name: 'Hounds' }));
    value(store.updateOrder(1, { complete: true, shipDate: '2026-12-01T00:00:00Z' }));
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    expect(category).toEqual({ id: 1, name: 'Dogs', description: 'Loyal companions' });
    expect(order).toEqual({ id: 1, petId: 2, quantity: 1, shipDate: '2026-11-20T10:00:00Z', complete: false });
    expect(value(store.getPet(1))).toEqual({ id: 1, name: 'Renamed', categoryId: 2, status: 'available' });
    expect(value(store.getCategory(1))).toEqual({ id: 1, name: 'Hounds' });
    expect(value(store.getOrder(1))).toEqual({ id: 1, petId: 2, quantity: 1, shipDate: '2026-12-01T00:00:00Z', complete: true });
    // The order's pet was replaced too (rule 3), and the earlier read of it still says pending.
    expect(statusOf(store, 2)).toBe('sold');
  });

  it('an unchanged record is the same object on every read, so its JSON can be kept (json.ts)', () => {
    const store = fresh();
    expect(value(store.getPet(1))).toBe(store.listPets({ status: 'available' }, ALL).items[0]);
    expect(value(store.getCategory(2))).toBe(store.listCategories(ALL).items[1]);
    expect(value(store.getOrder(2))).toBe(store.listOrders({ complete: true }, ALL).items[0]);
  });

  it('the initial data is copied: changing it later changes no store', () => {
    const initial = structuredClone(BASE) as { pets: Pet[]; categories: { name: string }[] } & StoreSnapshot;
    const store = createStore(initial);
    initial.pets[0]!.name = 'Hacked';
    initial.pets.push({ id: 9, name: 'Ghost', categoryId: 1 });
    expect(value(store.getPet(1)).name).toBe('Rex');
    expect(refusal(store.getPet(9)).code).toBe('PET_NOT_FOUND');
  });

  it('the input objects are not kept: changing them after a create changes nothing', () => {
    const store = fresh();
    const input: NewPet = { name: 'Bolt', categoryId: 1 };
    const created = value(store.createPet(input));
    input.name = 'Hacked';
    expect(value(store.getPet(created.id)).name).toBe('Bolt');
  });
});

describe('prototype pollution', () => {
  afterEach(() => {
    // If a test ever polluted, clean up so other tests are not affected, after the assertion failed.
    delete (Object.prototype as Record<string, unknown>)['polluted'];
  });

  const hostile = (body: string): NewPet => JSON.parse(body) as NewPet;

  it('a body with __proto__, constructor and prototype keys pollutes nothing and stores only known fields', () => {
    const store = fresh();
    const pet = value(store.createPet(hostile('{"name":"Bolt","categoryId":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},"extra":1}')));
    value(store.replacePet(pet.id, hostile('{"name":"Bolt","categoryId":1,"__proto__":{"status":"sold"}}')));
    value(store.createCategory(JSON.parse('{"name":"Fish","__proto__":{"polluted":true}}') as { name: string }));
    value(store.updateOrder(1, JSON.parse('{"shipDate":"2026-12-01T00:00:00Z","__proto__":{"complete":true}}') as { shipDate: string }));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(value(store.getPet(pet.id))).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    expect(value(store.getPet(pet.id)).status).toBe('available');
    expect(value(store.getOrder(1)).complete).toBe(false);
    expect(Object.keys(value(store.getCategory(4))).sort()).toEqual(['id', 'name']);
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString'])('a category may be named %s, and the name is then taken like any other', (name) => {
    const store = fresh();
    const category = value(store.createCategory({ name }));
    expect(value(store.getCategory(category.id)).name).toBe(name);
    expect(refusal(store.createCategory({ name: name.toUpperCase() })).code).toBe('CATEGORY_NAME_TAKEN');
    expect(value(store.createCategory({ name: `${name}2` })).id).toBe(category.id + 1);
  });
});

describe('registry: a bounded number of sessions', () => {
  it('keeps at most maxSessions, dropping the least recently used and saying which', () => {
    const dropped: string[] = [];
    const registry = createStoreRegistry(BASE, { maxSessions: 2, onDrop: (name) => dropped.push(name) });
    value(registry.get('a').createCategory({ name: 'Kept in a' }));
    value(registry.get('b').createCategory({ name: 'Kept in b' }));
    // Using a makes b the least recently used, so the third session pushes out b, not a.
    registry.get('a');
    registry.get('c');
    expect(dropped).toEqual(['b']);
    expect([...registry.sessions()].sort()).toEqual(['a', 'c']);
    expect(registry.get('a').listCategories(ALL).items.map((c) => c.name)).toContain('Kept in a');
    // A dropped name starts afresh from the initial data, and in turn pushes out the least recently used (c).
    expect(registry.get('b').listCategories(ALL).items.map((c) => c.name)).toEqual(['Dogs', 'Cats', 'Birds']);
    expect(dropped).toEqual(['b', 'c']);
    // The default store is not a session: it is never dropped and never counts.
    value(registry.get().createCategory({ name: 'Default' }));
    registry.get('d');
    expect(registry.get().listCategories(ALL).items.map((c) => c.name)).toContain('Default');
    expect(registry.sessions()).toHaveLength(2);
  });

  it('keeps 100 by default', () => {
    const dropped: string[] = [];
    const registry = createStoreRegistry(BASE, { onDrop: (name) => dropped.push(name) });
    for (let i = 0; i < 101; i++) registry.get(`s${i}`);
    expect(registry.sessions()).toHaveLength(100);
    expect(dropped).toEqual(['s0']);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxSessions %s with a USAGE kit error', (maxSessions) => {
    expect(() => createStoreRegistry(BASE, { maxSessions })).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxSessionMemory %s with a USAGE kit error', (maxSessionMemory) => {
    expect(() => createStoreRegistry(BASE, { maxSessionMemory })).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });

  it('tells a dropped name why, once, and only after it started afresh', () => {
    const registry = createStoreRegistry(BASE, { maxSessions: 1 });
    registry.get('a');
    registry.get('b');
    // a is dropped but not yet back: nothing to tell (a client that never returns is never told).
    expect(registry.dropNotice('a')).toBeUndefined();
    registry.get('a');
    expect(registry.dropNotice('a')).toBe('max-sessions');
    expect(registry.dropNotice('a')).toBeUndefined();
    // A reset of everything is the client's own doing: no notice for what it dropped.
    registry.reset();
    registry.get('b');
    expect(registry.dropNotice('b')).toBeUndefined();
  });
});

describe('registry: sessions bounded by memory (issue 14)', () => {
  /** What one session holds after writing `pets` pets, measured by a registry of its own. */
  function costOf(pets: number): number {
    const registry = createStoreRegistry(BASE);
    const store = registry.get('probe');
    for (let i = 0; i < pets; i++) value(store.createPet({ name: `Probe ${i}`, categoryId: 1 }));
    return registry.sessionMemory();
  }

  it('derives the default budget from the heap: a quarter of its limit, at least 64 MiB', () => {
    expect(sessionMemoryBudget(4 * 1024 ** 3)).toBe(1024 ** 3);
    expect(sessionMemoryBudget(100 * 1024 ** 2)).toBe(64 * 1024 ** 2);
  });

  it('a session costs the same few KiB whatever the data size, and grows with its own writes only', () => {
    const small = createStoreRegistry(BASE);
    const large = createStoreRegistry(bigWorldOf(50_000));
    small.get('s');
    large.get('s');
    expect(large.sessionMemory()).toBe(small.sessionMemory());
    expect(large.sessionMemory()).toBeLessThan(16 * 1024);
    // Reads cost nothing.
    large.get('s').listPets({ status: 'sold' }, { offset: 20_000, limit: 20 });
    value(large.get('s').getPet(40_000));
    expect(large.sessionMemory()).toBe(small.sessionMemory());
    // A write costs its record and the pieces it copied; never a copy of the data (50,000 pets are megabytes).
    value(large.get('s').replacePet(25_000, { name: 'Changed', categoryId: 2, status: 'sold' }));
    const afterOne = large.sessionMemory();
    expect(afterOne).toBeGreaterThan(small.sessionMemory());
    expect(afterOne).toBeLessThan(256 * 1024);
    // The default store, and other sessions, add nothing to the sessions' memory.
    value(large.get().replacePet(1, { name: 'Default', categoryId: 2 }));
    large.get('t');
    expect(large.sessionMemory()).toBe(afterOne + small.sessionMemory());
    // A reset drops what the session wrote; a store held from before no longer counts when written.
    const held = large.get('s');
    large.reset('s');
    expect(large.sessionMemory()).toBe(2 * small.sessionMemory());
    large.reset();
    value(held.createPet({ name: 'Written after the reset of everything', categoryId: 1 }));
    expect(large.sessionMemory()).toBe(0);
  });

  it('past maxSessionMemory the least recently used sessions are dropped first, and each told why', () => {
    const dropped: [string, string][] = [];
    const writes = 50;
    const budget = Math.floor(2.5 * costOf(writes));
    const registry = createStoreRegistry(BASE, { maxSessionMemory: budget, onDrop: (name, reason) => dropped.push([name, reason]) });
    const fill = (name: string): void => {
      for (let i = 0; i < writes; i++) value(registry.get(name).createPet({ name: `${name} ${i}`, categoryId: 1 }));
    };
    fill('a');
    fill('b');
    registry.get('a');
    expect(dropped).toEqual([]);
    // c takes the registry past the budget: b, the least recently used, goes; a (used after b) and c stay.
    fill('c');
    registry.get('c');
    expect(dropped).toEqual([['b', 'max-session-memory']]);
    expect(registry.sessionMemory()).toBeLessThanOrEqual(budget);
    expect(registry.get('a').listPets({}, ALL).total).toBe(4 + writes);
    expect(registry.get('c').listPets({}, ALL).total).toBe(4 + writes);
    expect(registry.get('b').listPets({}, ALL).total).toBe(4);
    expect(registry.dropNotice('b')).toBe('max-session-memory');
    // The default store is never dropped and never counted.
    for (let i = 0; i < 5 * writes; i++) value(registry.get().createPet({ name: `Default ${i}`, categoryId: 1 }));
    registry.get('a');
    expect(dropped).toHaveLength(1);
  });

  it('a session that alone outgrows the budget starts afresh, and is told', () => {
    const registry = createStoreRegistry(BASE, { maxSessionMemory: Math.floor(costOf(30) / 2) });
    for (let i = 0; i < 30; i++) value(registry.get('greedy').createPet({ name: `Greedy ${i}`, categoryId: 1 }));
    expect(registry.get('greedy').listPets({}, ALL).total).toBe(4);
    expect(registry.dropNotice('greedy')).toBe('max-session-memory');
  });

  it('an import into a session larger than the budget is refused and changes nothing', () => {
    const registry = createStoreRegistry(BASE, { maxSessionMemory: 64 * 1024 });
    const error = refusal(registry.load(bigWorldOf(2_000), 'big'));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('--max-session-memory');
    expect(registry.get('big').listPets({}, ALL).total).toBe(4);
    // The default store is not a session: it takes any size.
    value(registry.load(bigWorldOf(2_000)));
    expect(registry.get().listPets({}, ALL).total).toBe(2_000);
  });

  it('creating 400 sessions over 100,000 pets keeps the RSS within 64 MiB (a copy each would be gigabytes)', () => {
    const registry = createStoreRegistry(bigWorldOf(100_000), { maxSessions: 1_000 });
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 400; i++) value(registry.get(`cheap-${i}`).getPet(1 + i));
    expect(registry.sessions()).toHaveLength(400);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('id counters after an import', () => {
  it('issue 12 finding 5: a new pet never reuses an id an old order (or any record) points at', () => {
    const registry = createStoreRegistry(BASE);
    // Pet 40 was deleted before the export; its complete order remains and still names it.
    const imported: StoreSnapshot = { ...BASE, orders: [...BASE.orders, { id: 3, petId: 40, quantity: 1, complete: true }] };
    value(registry.load(imported, 'a'));
    const pet = value(registry.get('a').createPet({ name: 'Newcomer', categoryId: 1 }));
    expect(pet.id).toBe(41);
    expect(registry.get('a').listOrders({ petId: pet.id }, ALL).total).toBe(0);
    // The same at start-up, and for orders past the largest order id.
    const store = createStore(imported);
    expect(value(store.createPet({ name: 'Newcomer', categoryId: 1 })).id).toBe(41);
    expect(value(store.placeOrder({ petId: 1, quantity: 1 })).id).toBe(4);
  });
});

describe('initial data the store cannot hold', () => {
  it.each([
    ['a pet in a missing category', { ...BASE, pets: [...BASE.pets, { id: 5, name: 'Ghost', categoryId: 9 }], inventory: [...BASE.inventory, { petId: 5, quantity: 1 }] }, '/pets/4/categoryId'],
    ['two open orders for one pet', { ...BASE, orders: [...BASE.orders, { id: 3, petId: 2, quantity: 1, complete: false }] }, '/orders/2/complete'],
    ['a duplicate pet id', { ...BASE, pets: [...BASE.pets, { id: 1, name: 'Twin', categoryId: 1 }] }, '/pets/4/id'],
    ['an open order for a missing pet', { ...BASE, orders: [{ id: 1, petId: 9, quantity: 1 }] }, '/orders/0/petId'],
  ] as const)('%s is a FIXTURES_INVALID kit error naming the pointer', (_name, snapshot, pointer) => {
    let thrown: unknown;
    try {
      createStore(snapshot);
    } catch (error) {
      thrown = error;
    }
    expect(isKitError(thrown) && thrown.code).toBe('FIXTURES_INVALID');
    expect(isKitError(thrown) && thrown.details.pointer).toBe(pointer);
  });
});

describe('registry', () => {
  it('gives each session its own copy of the initial data, created on first use', () => {
    const registry = createStoreRegistry(BASE);
    value(registry.get().createPet({ name: 'Default', categoryId: 1 }));
    value(registry.get('a').createPet({ name: 'A', categoryId: 1 }));
    value(registry.get('a').placeOrder({ petId: 1, quantity: 1 }));
    // Created after the default store changed: still the initial data.
    const b = registry.get('b');
    expect(b.listPets({}, ALL).total).toBe(4);
    expect(statusOf(b, 1)).toBe('available');
    expect(value(registry.get().getPet(5)).name).toBe('Default');
    expect(value(registry.get('a').getPet(5)).name).toBe('A');
    expect(statusOf(registry.get(), 1)).toBe('available');
    expect(registry.get('a')).toBe(registry.get('a'));
    expect([...registry.sessions()].sort()).toEqual(['a', 'b']);
  });

  it('a session named __proto__ is a session like any other', () => {
    const registry = createStoreRegistry(BASE);
    value(registry.get('__proto__').deletePet(1));
    expect(registry.get('constructor').getPet(1).ok).toBe(true);
    expect(registry.get().getPet(1).ok).toBe(true);
    expect(registry.get('__proto__').getPet(1).ok).toBe(false);
  });

  it('reset(session) restores that session and leaves the others alone', () => {
    const registry = createStoreRegistry(BASE);
    value(registry.get('a').deletePet(1));
    value(registry.get('b').deletePet(1));
    value(registry.get().deletePet(1));
    const held = registry.get('a');
    registry.reset('a');
    registry.reset('never-used');
    expect(held.getPet(1).ok).toBe(true);
    expect(registry.get('a').getPet(1).ok).toBe(true);
    expect([...registry.sessions()].sort()).toEqual(['a', 'b']);
    expect(registry.get('b').getPet(1).ok).toBe(false);
    expect(registry.get().getPet(1).ok).toBe(false);
    // Ids restart from the initial data too.
    expect(value(registry.get('a').createPet({ name: 'New', categoryId: 1 })).id).toBe(5);
  });

  it('reset() restores every store, the default one included, even through a reference held before', () => {
    const registry = createStoreRegistry(BASE);
    const held = registry.get();
    value(held.deletePet(1));
    value(registry.get('a').deletePet(1));
    registry.reset();
    expect(held.getPet(1).ok).toBe(true);
    expect(registry.get().snapshot()).toEqual(createStore(BASE).snapshot());
    expect(registry.get('a').getPet(1).ok).toBe(true);
  });

  it('load replaces one store; data it cannot hold is refused and changes nothing', () => {
    const registry = createStoreRegistry(BASE);
    const small: StoreSnapshot = { categories: [{ id: 7, name: 'Fish' }], pets: [{ id: 9, name: 'Nemo', categoryId: 7 }], orders: [], inventory: [{ petId: 9, quantity: 4 }] };
    value(registry.load(small, 'a'));
    expect(registry.get('a').snapshot()).toEqual({ ...small, pets: [{ id: 9, name: 'Nemo', categoryId: 7, status: 'available' }] });
    expect(value(registry.get('a').createPet({ name: 'Dory', categoryId: 7 })).id).toBe(10);
    expect(registry.get().listPets({}, ALL).total).toBe(4);

    const before = registry.get().snapshot();
    const error = refusal(registry.load({ ...small, pets: [{ id: 9, name: 'Nemo', categoryId: 8 }] }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('/pets/0/categoryId');
    expect(registry.get().snapshot()).toEqual(before);
  });
});


describe('indexes (issue 5): every filtered list equals the same filter over all pets', () => {
  /** A world big enough that the status indexes span several chunks, so moves land mid-chunk. */
  const bigWorld = bigWorldOf;

  /** The brute-force reference: every pet read one by one (getPet does not use the indexes), then filtered. */
  function reference(store: Store, maxPetId: number, filter: { status?: PetStatus; categoryId?: number }): Pet[] {
    const out: Pet[] = [];
    for (let id = 1; id <= maxPetId; id++) {
      const result = store.getPet(id);
      if (!result.ok) continue;
      const pet = result.value;
      if ((filter.status === undefined || pet.status === filter.status) && (filter.categoryId === undefined || pet.categoryId === filter.categoryId)) out.push(pet);
    }
    return out;
  }

  function checkAgainstReference(store: Store, maxPetId: number, maxOrderId: number, random: () => number): number {
    let compared = 0;
    for (const status of [undefined, ...STATUSES]) {
      for (const categoryId of [undefined, 1, 2, 3, 4, 5]) {
        const filter = { ...(status ? { status } : {}), ...(categoryId ? { categoryId } : {}) };
        const expected = reference(store, maxPetId, filter);
        for (const page of [{ offset: 0, limit: 100 }, { offset: Math.floor(random() * (expected.length + 5)), limit: 1 + Math.floor(random() * 100) }]) {
          expect(store.listPets(filter, page), JSON.stringify({ filter, page })).toEqual({ items: expected.slice(page.offset, page.offset + page.limit), total: expected.length });
          compared++;
        }
        const ids = Array.from({ length: 1 + Math.floor(random() * 30) }, () => 1 + Math.floor(random() * (maxPetId + 3)));
        const wanted = new Set(ids);
        const byIds = expected.filter((p) => wanted.has(p.id));
        expect(store.listPets({ ...filter, ids }, { offset: 1, limit: 5 })).toEqual({ items: byIds.slice(1, 6), total: byIds.length });
        if (categoryId === undefined) {
          const items = expected.map((p) => value(store.getInventoryItem(p.id)));
          expect(store.listInventory(status ? { status } : {}, { offset: 2, limit: 50 })).toEqual({ items: items.slice(2, 52), total: items.length });
          // Rule 6 along the way: an entry's status is its pet's status.
          for (const item of items) expect(item.status).toBe(value(store.getPet(item.petId)).status);
        }
      }
    }
    const orders: Order[] = [];
    for (let id = 1; id <= maxOrderId; id++) {
      const result = store.getOrder(id);
      if (result.ok) orders.push(result.value);
    }
    const openByPet = new Map<number, number>();
    for (const order of orders.filter((o) => !o.complete)) {
      // One open order per pet, and its pet exists (rules 2 and 5).
      expect(openByPet.has(order.petId!)).toBe(false);
      openByPet.set(order.petId!, order.id!);
      expect(store.getPet(order.petId!).ok).toBe(true);
    }
    for (const complete of [undefined, true, false]) {
      const matching = orders.filter((o) => complete === undefined || o.complete === complete);
      expect(store.listOrders(complete === undefined ? {} : { complete }, { offset: 1, limit: 40 })).toEqual({ items: matching.slice(1, 41), total: matching.length });
      const petId = matching[Math.floor(random() * matching.length)]?.petId ?? 1;
      const forPet = matching.filter((o) => o.petId === petId);
      expect(store.listOrders({ petId, ...(complete === undefined ? {} : { complete }) }, ALL)).toEqual({ items: forPet, total: forPet.length });
    }
    return compared;
  }

  /** The ids the random walk aims at: up to a little past the largest so far, so some miss. */
  interface Walk {
    maxPetId: number;
    maxOrderId: number;
    readonly outcomes: Map<string, number>;
  }

  /** One seeded random operation on `store`: creates, replaces, deletes, order transitions, stock and categories. */
  function randomStep(store: Store, walk: Walk, random: () => number, step: number): void {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const anyStatus = (): PetStatus | undefined => (random() < 0.3 ? undefined : pick(STATUSES));
    const petId = 1 + Math.floor(random() * (walk.maxPetId + 2));
    const orderId = 1 + Math.floor(random() * (walk.maxOrderId + 2));
    const categoryId = 1 + Math.floor(random() * 5); // 5 does not exist at first: some creates are refused
    const action = Math.floor(random() * 9);
    let result: Result<unknown>;
    switch (action) {
      case 0:
      case 1: {
        const status = anyStatus();
        result = store.createPet({ name: `New ${step}`, categoryId, ...(status ? { status } : {}) });
        if (result.ok) walk.maxPetId++;
        break;
      }
      case 2: {
        const status = anyStatus();
        result = store.replacePet(petId, { name: `Renamed ${step}`, categoryId, ...(status ? { status } : {}) });
        break;
      }
      case 3:
        result = store.deletePet(petId);
        break;
      case 4:
      case 5:
        result = store.placeOrder({ petId, quantity: 1 + Math.floor(random() * 3), ...(random() < 0.2 ? { complete: true } : {}) });
        if (result.ok) walk.maxOrderId++;
        break;
      case 6:
        result = store.updateOrder(orderId, random() < 0.7 ? { complete: true } : { complete: false });
        break;
      case 7:
        result = store.cancelOrder(orderId);
        break;
      default:
        result = random() < 0.5 ? store.updateInventory(petId, Math.floor(random() * 4)) : step % 50 === 0 ? store.createCategory({ name: `Category ${step}` }) : store.deleteCategory(categoryId);
    }
    const key = `${action}:${result.ok ? 'ok' : result.error.code}`;
    walk.outcomes.set(key, (walk.outcomes.get(key) ?? 0) + 1);
  }

  /** The sequence must have exercised the transitions, not just bounced off refusals. */
  function expectTransitionsExercised(walk: Walk): void {
    const count = (key: string): number => walk.outcomes.get(key) ?? 0;
    for (const key of ['0:ok', '2:ok', '3:ok', '4:ok', '6:ok', '7:ok']) expect(count(key), key).toBeGreaterThan(0);
    for (const key of ['3:PET_HAS_OPEN_ORDER', '4:PET_NOT_AVAILABLE', '7:ORDER_ALREADY_COMPLETE']) expect(count(key), key).toBeGreaterThan(0);
  }

  const startWalk = (store: Store, pets: number): Walk => ({ maxPetId: pets, maxOrderId: store.listOrders({}, ALL).total, outcomes: new Map() });

  it.each([
    { seed: 1, pets: 40, steps: 1_500 },
    { seed: 2, pets: 40, steps: 1_500 },
    { seed: 3, pets: 3_000, steps: 2_500 },
  ])('after seeded random creates, replaces, deletes and order transitions (seed $seed, $pets pets)', ({ seed, pets, steps }) => {
    const random = seeded(seed);
    const store = createStore(bigWorld(pets));
    const walk = startWalk(store, pets);
    let compared = 0;
    for (let step = 1; step <= steps; step++) {
      randomStep(store, walk, random, step);
      if (step % 250 === 0) compared += checkAgainstReference(store, walk.maxPetId, walk.maxOrderId, random);
    }
    compared += checkAgainstReference(store, walk.maxPetId, walk.maxOrderId, random);
    expectTransitionsExercised(walk);
    expect(compared).toBeGreaterThan(0);
  });

  /**
   * Copy-on-write (issue 14): the default store and two sessions share the
   * initial data and take turns at random writes, each with its own seeded
   * sequence. Each must answer exactly as a store of its own that received
   * the same writes (a plain, never-shared createStore: its "shadow"), and
   * its indexes must agree with a filter over its records; a session left
   * alone, and a session reset, must hold exactly the initial data.
   */
  it.each([
    { seed: 11, pets: 40, steps: 900 },
    { seed: 12, pets: 3_000, steps: 1_500 },
  ])('copy-on-write: the default store and sessions writing in turn each equal a private store given the same writes (seed $seed, $pets pets)', ({ seed, pets, steps }) => {
    const world = bigWorld(pets);
    const registry = createStoreRegistry(world);
    const initial = createStore(world).snapshot();
    const names = [undefined, 'one', 'two'] as const;
    const lanes = names.map((name, lane) => ({ name, shadow: createStore(world), walk: startWalk(createStore(world), pets), random: seeded(seed * 10 + lane), shadowRandom: seeded(seed * 10 + lane) }));
    registry.get('idle');
    let compared = 0;
    for (let step = 1; step <= steps; step++) {
      const lane = lanes[step % lanes.length]!;
      // The same seeded sequence drives the shared store and its shadow, with a walk each (they must stay equal).
      const shadowWalk = { ...lane.walk, outcomes: new Map<string, number>() };
      randomStep(registry.get(lane.name), lane.walk, lane.random, step);
      randomStep(lane.shadow, shadowWalk, lane.shadowRandom, step);
      if (step % 300 === 0) {
        for (const each of lanes) {
          const store = registry.get(each.name);
          expect(store.snapshot(), `${each.name ?? 'default'} at step ${step}`).toEqual(each.shadow.snapshot());
          compared += checkAgainstReference(store, each.walk.maxPetId, each.walk.maxOrderId, seeded(step));
        }
        expect(registry.get('idle').snapshot()).toEqual(initial);
      }
    }
    for (const each of lanes) expectTransitionsExercised(each.walk);
    expect(compared).toBeGreaterThan(0);

    // A reset restores exactly the initial data, and touches nothing else.
    registry.reset('one');
    expect(registry.get('one').snapshot()).toEqual(initial);
    expect(registry.get('two').snapshot()).toEqual(lanes[2]!.shadow.snapshot());
    expect(registry.get().snapshot()).toEqual(lanes[0]!.shadow.snapshot());
    // And a reset session writes from the initial data again, sharing it anew.
    value(registry.get('one').createPet({ name: 'After reset', categoryId: 1 }));
    expect(registry.get('one').listPets({}, ALL).total).toBe(pets + 1);
    expect(registry.get('idle').snapshot()).toEqual(initial);
  });
});
