/**
 * The mock's data and the contract's state rules (contract.md, "State rules"
 * 1-6 and "Details"), with no HTTP: the handlers turn a DomainError into an
 * Error response using the document's x-error-codes.
 *
 * Records are built field by field from typed inputs, never by spreading or
 * assigning a client's object, so keys such as `__proto__` or `constructor`
 * can neither pollute a prototype nor slip into stored data.
 *
 * Every record that leaves the store is frozen, and a change replaces the
 * record rather than editing it. So reads share records instead of copying
 * them, nothing a caller does can change the store, and a record's JSON text
 * can be kept by identity for as long as the record lives (json.ts; issue 5).
 */
import type {
  InventoryFilter,
  OrderFilter,
  Page,
  PageOf,
  PetFilter,
  Result,
  Store,
  StoreSnapshot,
} from './domain.js';
import { IdTable, KeyedIds, PetIndex, SharedMap, SortedIds, type Meter } from './indexes.js';
import { checkConsistency, foldName } from './store-consistency.js';
import type { ApiErrorCode } from '../src/api-error-codes.js';
import { KitError } from '../src/kit-error.js';
import type { Category, InventoryItem, NewCategory, NewOrder, NewPet, Order, OrderUpdate, Pet, PetStatus } from '../src/types.js';

/** The largest Stock the document allows (int32); returning stock on cancel never pushes past it. */
const MAX_STOCK = 2_147_483_647;

/**
 * What one written record costs a session, roughly: the frozen object, its
 * strings, and its slots in the tables and sets that file it. The copies of
 * shared pieces are counted exactly by indexes.ts; this covers the rest.
 */
export const RECORD_BYTES = 160;

/** A pet as reads return it: frozen, with the status every stored pet has. */
type StoredPet = Readonly<Pet> & { readonly status: PetStatus };

type CategoryRecord = Readonly<Category>;

/** An order as reads return it: frozen, with the fields every stored order has. */
type OrderRecord = Readonly<Order> & { readonly id: number; readonly petId: number; readonly quantity: number; readonly complete: boolean };

/**
 * One store's data. Every structure is copy-on-write (indexes.ts): a session
 * is `forkState(template)`, sharing the initial data until it writes, and a
 * reset swaps in a fresh fork, dropping exactly what the session wrote.
 */
export interface State {
  /** Told what this state's own writes cost (a session's memory bound). */
  readonly meter: Meter | undefined;
  readonly pets: IdTable<StoredPet>;
  /** Pet id → its inventory quantity: one entry per pet, living and dying with it (rule 1, "Details"). */
  readonly stock: IdTable<number>;
  readonly petIndex: PetIndex;
  readonly categories: IdTable<CategoryRecord>;
  readonly categoryIds: SortedIds;
  /** Folded name → category id: the case-insensitive uniqueness rule in O(1). */
  readonly categoryByName: SharedMap<string, number>;
  readonly orders: IdTable<OrderRecord>;
  readonly orderIds: SortedIds;
  readonly ordersByComplete: KeyedIds<boolean>;
  /** Pet id → its order ids, ascending; each list is replaced, never edited, so forks can share it. */
  readonly ordersByPet: IdTable<readonly number[]>;
  /** Pet id → its one open order (rule 2: one open order per pet; rule 5: such a pet cannot be deleted). */
  readonly openOrderByPet: IdTable<number>;
  /** The next id per collection: sequential, past every id the data mentions, never reused. */
  readonly next: { pet: number; category: number; order: number };
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const done: Result<void> = Object.freeze({ ok: true, value: undefined });
const fail = <T>(code: ApiErrorCode, message: string): Result<T> => ({ ok: false, error: { code, message } });

/**
 * A store holding a copy of `initial`. Throws a FIXTURES_INVALID KitError when
 * the data breaks a rule the store relies on (duplicate ids, a pet in a
 * missing category, two open orders for one pet, …); validate fixtures with
 * seed.ts's validateSnapshot first to get every problem with its file.
 */
export function createStore(initial: StoreSnapshot): Store {
  return createStoreCell(buildState(assertHoldable(initial), undefined)).store;
}

/** `snapshot` itself, or a FIXTURES_INVALID KitError naming the first rule it breaks that the store relies on. */
export function assertHoldable(snapshot: StoreSnapshot): StoreSnapshot {
  const problems = checkConsistency(snapshot, 'reachable');
  const first = problems[0];
  if (first !== undefined) {
    throw new KitError('FIXTURES_INVALID', `The initial data cannot be held by the mock: at ${first.pointer}, ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}.`, {
      pointer: first.pointer,
      reason: first.message,
    });
  }
  return snapshot;
}

/**
 * A state sharing everything with `base`, in O(1) whatever the data size.
 * Either may be written afterwards: each copies a shared piece before it
 * changes it (indexes.ts), so neither ever sees the other's writes.
 */
export function forkState(base: State, meter: Meter | undefined): State {
  return {
    meter,
    pets: base.pets.fork(meter),
    stock: base.stock.fork(meter),
    petIndex: base.petIndex.fork(meter),
    categories: base.categories.fork(meter),
    categoryIds: base.categoryIds.fork(meter),
    categoryByName: base.categoryByName.fork(meter),
    orders: base.orders.fork(meter),
    orderIds: base.orderIds.fork(meter),
    ordersByComplete: base.ordersByComplete.fork(meter),
    ordersByPet: base.ordersByPet.fork(meter),
    openOrderByPet: base.openOrderByPet.fork(meter),
    next: { ...base.next },
  };
}

/** A state holding `snapshot`, built from scratch (start-up, imports); `meter` is told what its later writes cost. */
export function buildState(snapshot: StoreSnapshot, meter: Meter | undefined): State {
  const state: State = {
    meter,
    pets: new IdTable(),
    stock: new IdTable(),
    petIndex: new PetIndex(),
    categories: new IdTable(),
    categoryIds: new SortedIds(),
    categoryByName: new SharedMap(),
    orders: new IdTable(),
    orderIds: new SortedIds(),
    ordersByComplete: new KeyedIds(),
    ordersByPet: new IdTable(),
    openOrderByPet: new IdTable(),
    next: nextIds(snapshot),
  };

  // Sorted once here, so every index below is filled by appends (its fast path) and lists come out oldest first.
  for (const category of byId(snapshot.categories)) {
    state.categories.set(category.id, freezeCategory(category.id, category));
    state.categoryIds.add(category.id);
    state.categoryByName.set(foldName(category.name), category.id);
  }

  const stock = new IdTable<number>();
  for (const item of snapshot.inventory) stock.set(item.petId, item.quantity);
  for (const pet of byId(snapshot.pets)) {
    const stored = freezePet(pet.id, pet, pet.status ?? 'available');
    state.pets.set(pet.id, stored);
    state.stock.set(pet.id, stock.get(pet.id) ?? 0);
    state.petIndex.add(pet.id, stored);
  }

  // checkConsistency guarantees every order has an id, a petId and a quantity.
  for (const order of byId(snapshot.orders)) {
    if (order.petId === undefined || order.quantity === undefined) continue;
    addOrder(state, freezeOrder(order.id, order.petId, order.quantity, order.shipDate, order.complete ?? false));
  }
  return state;
}

/**
 * The first free id of each collection: past every id the data mentions, not
 * only the records' own (issue 12, finding 5). A complete order may point at
 * a pet deleted before the export; a new pet taking that id would inherit the
 * order's history.
 */
function nextIds(snapshot: StoreSnapshot): State['next'] {
  let pet = 0;
  let category = 0;
  let order = 0;
  for (const c of snapshot.categories) category = Math.max(category, c.id ?? 0);
  for (const p of snapshot.pets) {
    pet = Math.max(pet, p.id ?? 0);
    category = Math.max(category, p.categoryId);
  }
  for (const o of snapshot.orders) {
    order = Math.max(order, o.id ?? 0);
    pet = Math.max(pet, o.petId ?? 0);
  }
  for (const item of snapshot.inventory) pet = Math.max(pet, item.petId);
  // An export's own counters (issue 20, point 6d): ids issued and deleted before the export are past every id above.
  const carried = snapshot.nextIds;
  return { pet: Math.max(pet + 1, carried?.pet ?? 0), category: Math.max(category + 1, carried?.category ?? 0), order: Math.max(order + 1, carried?.order ?? 0) };
}

function byId<T extends { readonly id?: number | undefined }>(records: readonly T[]): (T & { readonly id: number })[] {
  const withIds = records.filter((record): record is T & { readonly id: number } => record.id !== undefined);
  // Fixtures and exports are usually in order already; skip the sort then (a million pets at start-up).
  for (let i = 1; i < withIds.length; i++) {
    if (withIds[i - 1]!.id > withIds[i]!.id) return withIds.sort((a, b) => a.id - b.id);
  }
  return withIds;
}

/** Orders are added in ascending id, so appending keeps each pet's list ascending. */
function addOrder(state: State, order: OrderRecord): void {
  state.orders.set(order.id, order);
  state.orderIds.add(order.id);
  state.ordersByComplete.add(order.complete, order.id);
  const ofPet = state.ordersByPet.get(order.petId);
  // A new list rather than a push: the old one may be shared with other forks.
  state.ordersByPet.set(order.petId, ofPet === undefined ? [order.id] : [...ofPet, order.id]);
  if (!order.complete) state.openOrderByPet.set(order.petId, order.id);
}

/** A store whose whole state can be swapped (registry reset and load) while callers keep the same object. */
export interface StoreCell {
  readonly store: Store;
  replace(state: State): void;
}

/** The store over `initialState`: every record operation and state rule, no HTTP. */
export function createStoreCell(initialState: State): StoreCell {
  let state = initialState;

  /** Every record a store writes is counted against its session's memory (indexes.ts counts the copies). */
  const wrote = (): void => state.meter?.add(RECORD_BYTES);

  /** Replaces a pet with a changed copy, keeping the indexes in step (rule 6 follows: inventory reads the pet's status). */
  const replacePetRecord = (before: StoredPet, next: StoredPet): StoredPet => {
    state.pets.set(next.id, next);
    state.petIndex.move(next.id, before, next);
    wrote();
    return next;
  };

  const setStatus = (pet: StoredPet, status: PetStatus): void => {
    if (pet.status !== status) replacePetRecord(pet, freezePet(pet.id, pet, status));
  };

  const setStock = (petId: number, quantity: number): void => {
    state.stock.set(petId, quantity);
  };

  const replaceOrder = (order: OrderRecord, changes: { shipDate: string | undefined; complete: boolean }): OrderRecord => {
    const next = freezeOrder(order.id, order.petId, order.quantity, changes.shipDate, changes.complete);
    state.orders.set(order.id, next);
    wrote();
    if (next.complete !== order.complete) {
      state.ordersByComplete.delete(order.complete, order.id);
      state.ordersByComplete.add(next.complete, order.id);
      if (next.complete && state.openOrderByPet.get(order.petId) === order.id) state.openOrderByPet.delete(order.petId);
    }
    return next;
  };

  const store: Store = {
    listPets(filter: PetFilter, page: Page): PageOf<Pet> {
      const { pets } = state;
      if (filter.ids !== undefined) {
        // The id filter is answered by direct lookups (at most 100 ids), never by walking an index.
        const matching = [...new Set(filter.ids)]
          .sort((a, b) => a - b)
          .map((id) => pets.get(id))
          .filter((pet): pet is StoredPet => pet !== undefined && (filter.status === undefined || pet.status === filter.status) && (filter.categoryId === undefined || pet.categoryId === filter.categoryId));
        return { items: window(matching, page), total: matching.length };
      }
      const ids = state.petIndex.select(filter);
      return { items: ids.slice(page.offset, page.limit).map((id) => pets.get(id)!), total: ids.size };
    },

    getPet(id) {
      const pet = state.pets.get(id);
      return pet ? ok(pet) : petNotFound(id);
    },

    createPet(input: NewPet) {
      if (!state.categories.has(input.categoryId)) return unknownCategory(input.categoryId);
      // Rule 1: available unless the body says otherwise, with an inventory entry of quantity 1.
      const pet = freezePet(state.next.pet++, input, input.status ?? 'available');
      state.pets.set(pet.id, pet);
      setStock(pet.id, 1);
      state.petIndex.add(pet.id, pet);
      wrote();
      return ok(pet);
    },

    replacePet(id, input: NewPet) {
      const pet = state.pets.get(id);
      if (!pet) return petNotFound(id);
      if (!state.categories.has(input.categoryId)) return unknownCategory(input.categoryId);
      // "Details": a replace that omits status keeps the current one.
      return ok(replacePetRecord(pet, freezePet(id, input, input.status ?? pet.status)));
    },

    deletePet(id) {
      const pet = state.pets.get(id);
      if (!pet) return petNotFound(id);
      const open = state.openOrderByPet.get(id);
      if (open !== undefined) return fail('PET_HAS_OPEN_ORDER', `Pet ${id} has the open order ${open}; complete or cancel it first.`);
      // The inventory entry goes with the pet ("Details": a later read is a 404).
      state.pets.delete(id);
      state.stock.delete(id);
      state.petIndex.remove(id, pet);
      wrote();
      return done;
    },

    listCategories(page) {
      const { categoryIds, categories } = state;
      return { items: categoryIds.slice(page.offset, page.limit).map((id) => categories.get(id)!), total: categoryIds.size };
    },

    getCategory(id) {
      const category = state.categories.get(id);
      return category ? ok(category) : categoryNotFound(id);
    },

    createCategory(input: NewCategory) {
      const taken = nameTaken(state, input.name, undefined);
      if (taken) return taken;
      const category = freezeCategory(state.next.category++, input);
      state.categories.set(category.id, category);
      state.categoryIds.add(category.id);
      state.categoryByName.set(foldName(category.name), category.id);
      wrote();
      return ok(category);
    },

    replaceCategory(id, input: NewCategory) {
      const category = state.categories.get(id);
      if (!category) return categoryNotFound(id);
      const taken = nameTaken(state, input.name, id);
      if (taken) return taken;
      // A replace without description removes it (replaceCategory's description in the document).
      const next = freezeCategory(id, input);
      state.categories.set(id, next);
      state.categoryByName.delete(foldName(category.name));
      state.categoryByName.set(foldName(next.name), id);
      wrote();
      return ok(next);
    },

    deleteCategory(id) {
      const category = state.categories.get(id);
      if (!category) return categoryNotFound(id);
      const pets = state.petIndex.select({ categoryId: id }).size;
      // Rule 5: a category with pets cannot be deleted.
      if (pets > 0) return fail('CATEGORY_IN_USE', `Category ${id} still has ${pets} ${pets === 1 ? 'pet' : 'pets'}; move or delete ${pets === 1 ? 'it' : 'them'} first.`);
      state.categories.delete(id);
      state.categoryIds.delete(id);
      state.categoryByName.delete(foldName(category.name));
      wrote();
      return done;
    },

    listOrders(filter: OrderFilter, page) {
      const { orders } = state;
      if (filter.petId !== undefined) {
        // A pet has few orders (at most one open), so filtering its list is cheap.
        const ofPet = state.ordersByPet.get(filter.petId) ?? [];
        const matching = filter.complete === undefined ? ofPet : ofPet.filter((id) => orders.get(id)!.complete === filter.complete);
        return { items: window(matching, page).map((id) => orders.get(id)!), total: matching.length };
      }
      const ids = filter.complete === undefined ? state.orderIds : state.ordersByComplete.get(filter.complete);
      return { items: ids.slice(page.offset, page.limit).map((id) => orders.get(id)!), total: ids.size };
    },

    getOrder(id) {
      const order = state.orders.get(id);
      return order ? ok(order) : orderNotFound(id);
    },

    placeOrder(input: NewOrder) {
      const pet = state.pets.get(input.petId);
      if (!pet) return fail('UNKNOWN_PET', `No pet has id ${input.petId}.`);
      // Rule 2, checked in the order that tells the client most: the open order explains a pending pet.
      const open = state.openOrderByPet.get(pet.id);
      if (open !== undefined) return fail('PET_HAS_OPEN_ORDER', `Pet ${pet.id} has the open order ${open}; complete or cancel it first.`);
      if (pet.status !== 'available') return fail('PET_NOT_AVAILABLE', `Pet ${pet.id} is ${pet.status}; only available pets can be ordered.`);
      const stock = state.stock.get(pet.id) ?? 0;
      if (stock < input.quantity) return fail('INSUFFICIENT_STOCK', `Pet ${pet.id} has ${stock} in stock; ${input.quantity} ${input.quantity === 1 ? 'was' : 'were'} ordered.`);

      const order = freezeOrder(state.next.order++, pet.id, input.quantity, input.shipDate, input.complete ?? false);
      // The quantity is reserved at placement and stays consumed when the order completes.
      setStock(pet.id, stock - order.quantity);
      addOrder(state, order);
      wrote();
      // "Details": complete at placement means placed and fulfilled at once, so the pet goes straight to sold.
      setStatus(pet, order.complete ? 'sold' : 'pending');
      return ok(order);
    },

    updateOrder(id, change: OrderUpdate) {
      const order = state.orders.get(id);
      if (!order) return orderNotFound(id);
      // Rule 4: a complete order cannot be reopened. Checked before anything changes, so a refused update changes nothing.
      if (order.complete && change.complete === false) return alreadyComplete(id);
      const completing = change.complete === true && !order.complete;
      const next = replaceOrder(order, { shipDate: change.shipDate ?? order.shipDate, complete: order.complete || completing });
      if (completing) {
        // Rule 3: completing an order sells its pet. An open order's pet always exists (rule 5).
        const pet = state.pets.get(order.petId);
        if (pet) setStatus(pet, 'sold');
      }
      return ok(next);
    },

    cancelOrder(id) {
      const order = state.orders.get(id);
      if (!order) return orderNotFound(id);
      if (order.complete) return alreadyComplete(id);
      // Rule 4: the stock comes back and the pet is available again; the order is gone (a later read is a 404).
      const pet = state.pets.get(order.petId);
      if (pet) {
        setStock(pet.id, Math.min(MAX_STOCK, (state.stock.get(pet.id) ?? 0) + order.quantity));
        setStatus(pet, 'available');
      }
      state.orders.delete(id);
      state.orderIds.delete(id);
      state.ordersByComplete.delete(false, id);
      const remaining = (state.ordersByPet.get(order.petId) ?? []).filter((other) => other !== id);
      if (remaining.length > 0) state.ordersByPet.set(order.petId, remaining);
      else state.ordersByPet.delete(order.petId);
      state.openOrderByPet.delete(order.petId);
      wrote();
      return done;
    },

    listInventory(filter: InventoryFilter, page) {
      // One entry per pet, by pet id, with the pet's status (rule 6): the pet index answers it directly.
      const ids = state.petIndex.select({ status: filter.status });
      return { items: ids.slice(page.offset, page.limit).map((id) => inventoryItem(state, state.pets.get(id)!)), total: ids.size };
    },

    getInventoryItem(petId) {
      const pet = state.pets.get(petId);
      return pet ? ok(inventoryItem(state, pet)) : inventoryNotFound(petId);
    },

    updateInventory(petId, quantity) {
      const pet = state.pets.get(petId);
      if (!pet) return inventoryNotFound(petId);
      setStock(petId, quantity);
      wrote();
      return ok(inventoryItem(state, pet));
    },

    snapshot(): StoreSnapshot {
      const categories = [...state.categoryIds.values()].map((id) => state.categories.get(id)!);
      const pets = [...state.petIndex.all.values()].map((id) => state.pets.get(id)!);
      const orders = [...state.orderIds.values()].map((id) => state.orders.get(id)!);
      return {
        categories,
        pets,
        orders,
        inventory: pets.map((pet) => ({ petId: pet.id, quantity: state.stock.get(pet.id) ?? 0 })),
      };
    },

    nextIds() {
      return { ...state.next };
    },
  };

  return {
    store,
    replace(next) {
      state = next;
    },
  };
}

function nameTaken(state: State, name: string, self: number | undefined): Result<never> | undefined {
  const holder = state.categoryByName.get(foldName(name));
  if (holder === undefined || holder === self) return undefined;
  const existing = state.categories.get(holder)!;
  return fail('CATEGORY_NAME_TAKEN', `A category named ${existing.name} exists already (id ${holder}).`);
}

function window<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.offset, page.offset + page.limit);
}

const petNotFound = <T>(id: number): Result<T> => fail('PET_NOT_FOUND', `No pet has id ${id}.`);
const categoryNotFound = <T>(id: number): Result<T> => fail('CATEGORY_NOT_FOUND', `No category has id ${id}.`);
const orderNotFound = <T>(id: number): Result<T> => fail('ORDER_NOT_FOUND', `No order has id ${id}.`);
const inventoryNotFound = <T>(petId: number): Result<T> => fail('INVENTORY_ITEM_NOT_FOUND', `No inventory entry for pet ${petId}.`);
const unknownCategory = <T>(id: number): Result<T> => fail('UNKNOWN_CATEGORY', `No category has id ${id}; create it first or pick another.`);
const alreadyComplete = <T>(id: number): Result<T> => fail('ORDER_ALREADY_COMPLETE', `Order ${id} is complete; it cannot be reopened or cancelled.`);

// Records built field by field and frozen: they carry only the document's fields, in the document's order,
// and what leaves the store cannot change it.
function freezePet(id: number, from: { readonly name: string; readonly categoryId: number }, status: PetStatus): StoredPet {
  return Object.freeze({ id, name: from.name, categoryId: from.categoryId, status });
}

function freezeCategory(id: number, from: { readonly name: string; readonly description?: string | undefined }): CategoryRecord {
  return Object.freeze(from.description === undefined ? { id, name: from.name } : { id, name: from.name, description: from.description });
}

function freezeOrder(id: number, petId: number, quantity: number, shipDate: string | undefined, complete: boolean): OrderRecord {
  return Object.freeze(shipDate === undefined ? { id, petId, quantity, complete } : { id, petId, quantity, shipDate, complete });
}

/** A fresh entry each time, built from the pet and its stock (rule 6: the status is always the pet's). */
function inventoryItem(state: State, pet: StoredPet): InventoryItem {
  return { petId: pet.id, quantity: state.stock.get(pet.id) ?? 0, status: pet.status };
}
