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
  StoreRegistry,
  StoreSnapshot,
} from './domain.js';
import { IdTable, KeyedIds, PetIndex, SortedIds } from './indexes.js';
import { checkConsistency, foldName } from './store-consistency.js';
import type { ApiErrorCode } from '../src/api-error-codes.js';
import { KitError } from '../src/kit-error.js';
import type { Category, InventoryItem, NewCategory, NewOrder, NewPet, Order, OrderUpdate, Pet, PetStatus } from '../src/types.js';

/** The largest Stock the document allows (int32); returning stock on cancel never pushes past it. */
const MAX_STOCK = 2_147_483_647;

/** A pet as reads return it: frozen, with the status every stored pet has. */
type StoredPet = Readonly<Pet> & { readonly status: PetStatus };

interface PetRecord {
  /** Replaced, never edited, on every change of name, category or status. */
  pet: StoredPet;
  /** The inventory entry's quantity: one entry per pet, living and dying with it (rule 1, "Details"). */
  stock: number;
}

type CategoryRecord = Readonly<Category>;

/** An order as reads return it: frozen, with the fields every stored order has. */
type OrderRecord = Readonly<Order> & { readonly id: number; readonly petId: number; readonly quantity: number; readonly complete: boolean };

interface State {
  readonly pets: IdTable<PetRecord>;
  readonly petIndex: PetIndex;
  readonly categories: IdTable<CategoryRecord>;
  readonly categoryIds: SortedIds;
  /** Folded name → category id: the case-insensitive uniqueness rule in O(1). */
  readonly categoryByName: Map<string, number>;
  readonly orders: IdTable<OrderRecord>;
  readonly orderIds: SortedIds;
  readonly ordersByComplete: KeyedIds<boolean>;
  /** Pet id → its order ids, ascending. A pet has few orders, so a small array beats a SortedIds each. */
  readonly ordersByPet: IdTable<number[]>;
  /** Pet id → its one open order (rule 2: one open order per pet; rule 5: such a pet cannot be deleted). */
  readonly openOrderByPet: Map<number, number>;
  /** The next id per collection: sequential, starting after the largest id of the initial data, never reused. */
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
  return createStoreCell(buildState(assertHoldable(initial))).store;
}

/** How many session stores a registry keeps by default (`--max-sessions`). */
export const DEFAULT_MAX_SESSIONS = 100;

export interface StoreRegistryOptions {
  /**
   * At most this many session stores at once (default 100). Each holds a whole
   * copy of the initial data, so without a bound a client looping over fresh
   * session names would exhaust memory (a million generated pets are ~400 MB a
   * copy). Past it the least recently used session is dropped.
   */
  readonly maxSessions?: number;
  /** Told the name of each session dropped to make room, for the log. */
  readonly onDrop?: (session: string) => void;
}

/**
 * The default store plus one per session name, each a copy of `initial`.
 * Session stores are created on first use. `reset(name)` restores that
 * session in place; `reset()` restores the default store in place and drops
 * every session (freeing its memory): the next use of a name creates it
 * afresh from `initial`, which is the same data. A session dropped to stay
 * within `maxSessions` likewise starts afresh on its next use.
 */
export function createStoreRegistry(initial: StoreSnapshot, options: StoreRegistryOptions = {}): StoreRegistry {
  assertHoldable(initial);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) throw new KitError('USAGE', `The number of sessions kept must be a whole number >= 1; got ${maxSessions}.`);
  const fallback = createStoreCell(buildState(initial));
  // A Map, not an object: a session named `__proto__` is just a name. Its order is the order of last use (a
  // used session is moved to the end), so the first entry is always the least recently used.
  const sessions = new Map<string, StoreCell>();

  const cellFor = (session: string | undefined): StoreCell => {
    if (session === undefined) return fallback;
    let cell = sessions.get(session);
    if (cell !== undefined) {
      sessions.delete(session);
    } else {
      // Make room first, so no more than maxSessions copies of the data are ever held, not even while building one.
      for (const oldest of sessions.keys()) {
        if (sessions.size < maxSessions) break;
        sessions.delete(oldest);
        options.onDrop?.(oldest);
      }
      cell = createStoreCell(buildState(initial));
    }
    sessions.set(session, cell);
    return cell;
  };

  return {
    get: (session) => cellFor(session).store,
    reset(session) {
      if (session === undefined) {
        fallback.replace(buildState(initial));
        sessions.clear();
      } else {
        // In place, so a caller holding this session's store sees the reset too; an unknown name stays unknown.
        sessions.get(session)?.replace(buildState(initial));
      }
    },
    load(snapshot, session) {
      const problems = checkConsistency(snapshot, 'reachable');
      if (problems.length > 0) {
        const listed = problems.slice(0, 5).map((p) => `${p.pointer}: ${p.message}`).join('; ');
        const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
        return fail('VALIDATION_FAILED', `The state cannot be loaded: ${listed}${more}. Nothing was changed.`);
      }
      cellFor(session).replace(buildState(snapshot));
      return done;
    },
    sessions: () => [...sessions.keys()],
  };
}

function assertHoldable(snapshot: StoreSnapshot): StoreSnapshot {
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

function buildState(snapshot: StoreSnapshot): State {
  const state: State = {
    pets: new IdTable(),
    petIndex: new PetIndex(),
    categories: new IdTable(),
    categoryIds: new SortedIds(),
    categoryByName: new Map(),
    orders: new IdTable(),
    orderIds: new SortedIds(),
    ordersByComplete: new KeyedIds(),
    ordersByPet: new IdTable(),
    openOrderByPet: new Map(),
    next: { pet: 1, category: 1, order: 1 },
  };

  // Sorted once here, so every index below is filled by appends (its fast path) and lists come out oldest first.
  for (const category of byId(snapshot.categories)) {
    state.categories.set(category.id, freezeCategory(category.id, category));
    state.categoryIds.add(category.id);
    state.categoryByName.set(foldName(category.name), category.id);
    state.next.category = Math.max(state.next.category, category.id + 1);
  }

  const stock = new IdTable<number>();
  for (const item of snapshot.inventory) stock.set(item.petId, item.quantity);
  for (const pet of byId(snapshot.pets)) {
    const record: PetRecord = { pet: freezePet(pet.id, pet, pet.status ?? 'available'), stock: stock.get(pet.id) ?? 0 };
    state.pets.set(pet.id, record);
    state.petIndex.add(pet.id, record.pet);
    state.next.pet = Math.max(state.next.pet, pet.id + 1);
  }

  // checkConsistency guarantees every order has an id, a petId and a quantity.
  for (const order of byId(snapshot.orders)) {
    if (order.petId === undefined || order.quantity === undefined) continue;
    addOrder(state, freezeOrder(order.id, order.petId, order.quantity, order.shipDate, order.complete ?? false));
    state.next.order = Math.max(state.next.order, order.id + 1);
  }
  return state;
}

function byId<T extends { readonly id?: number | undefined }>(records: readonly T[]): (T & { readonly id: number })[] {
  const withIds = records.filter((record): record is T & { readonly id: number } => record.id !== undefined);
  // Fixtures and exports are usually in order already; skip the sort then (a million pets at start-up).
  for (let i = 1; i < withIds.length; i++) {
    if (withIds[i - 1]!.id > withIds[i]!.id) return withIds.sort((a, b) => a.id - b.id);
  }
  return withIds;
}

function addOrder(state: State, order: OrderRecord): void {
  state.orders.set(order.id, order);
  state.orderIds.add(order.id);
  state.ordersByComplete.add(order.complete, order.id);
  // Orders are added in ascending id, so a push keeps each pet's list ascending.
  const ofPet = state.ordersByPet.get(order.petId);
  if (ofPet) ofPet.push(order.id);
  else state.ordersByPet.set(order.petId, [order.id]);
  if (!order.complete) state.openOrderByPet.set(order.petId, order.id);
}

/** A store whose whole state can be swapped (registry reset and load) while callers keep the same object. */
interface StoreCell {
  readonly store: Store;
  replace(state: State): void;
}

function createStoreCell(initialState: State): StoreCell {
  let state = initialState;

  /** Replaces a pet with a changed copy, keeping the indexes in step (rule 6 follows: inventory reads the pet's status). */
  const replacePetRecord = (record: PetRecord, next: StoredPet): void => {
    const before = record.pet;
    record.pet = next;
    state.petIndex.move(next.id, before, next);
  };

  const setStatus = (record: PetRecord, status: PetStatus): void => {
    if (record.pet.status !== status) replacePetRecord(record, freezePet(record.pet.id, record.pet, status));
  };

  const replaceOrder = (order: OrderRecord, changes: { shipDate: string | undefined; complete: boolean }): OrderRecord => {
    const next = freezeOrder(order.id, order.petId, order.quantity, changes.shipDate, changes.complete);
    state.orders.set(order.id, next);
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
          .map((id) => pets.get(id)?.pet)
          .filter((pet): pet is StoredPet => pet !== undefined && (filter.status === undefined || pet.status === filter.status) && (filter.categoryId === undefined || pet.categoryId === filter.categoryId));
        return { items: window(matching, page), total: matching.length };
      }
      const ids = state.petIndex.select(filter);
      return { items: ids.slice(page.offset, page.limit).map((id) => pets.get(id)!.pet), total: ids.size };
    },

    getPet(id) {
      const record = state.pets.get(id);
      return record ? ok(record.pet) : petNotFound(id);
    },

    createPet(input: NewPet) {
      if (!state.categories.has(input.categoryId)) return unknownCategory(input.categoryId);
      // Rule 1: available unless the body says otherwise, with an inventory entry of quantity 1.
      const pet = freezePet(state.next.pet++, input, input.status ?? 'available');
      state.pets.set(pet.id, { pet, stock: 1 });
      state.petIndex.add(pet.id, pet);
      return ok(pet);
    },

    replacePet(id, input: NewPet) {
      const record = state.pets.get(id);
      if (!record) return petNotFound(id);
      if (!state.categories.has(input.categoryId)) return unknownCategory(input.categoryId);
      // "Details": a replace that omits status keeps the current one.
      replacePetRecord(record, freezePet(id, input, input.status ?? record.pet.status));
      return ok(record.pet);
    },

    deletePet(id) {
      const record = state.pets.get(id);
      if (!record) return petNotFound(id);
      const open = state.openOrderByPet.get(id);
      if (open !== undefined) return fail('PET_HAS_OPEN_ORDER', `Pet ${id} has the open order ${open}; complete or cancel it first.`);
      // The inventory entry lives on the record, so it goes with the pet ("Details": a later read is a 404).
      state.pets.delete(id);
      state.petIndex.remove(id, record.pet);
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
      const record = state.pets.get(input.petId);
      if (!record) return fail('UNKNOWN_PET', `No pet has id ${input.petId}.`);
      const { pet } = record;
      // Rule 2, checked in the order that tells the client most: the open order explains a pending pet.
      const open = state.openOrderByPet.get(pet.id);
      if (open !== undefined) return fail('PET_HAS_OPEN_ORDER', `Pet ${pet.id} has the open order ${open}; complete or cancel it first.`);
      if (pet.status !== 'available') return fail('PET_NOT_AVAILABLE', `Pet ${pet.id} is ${pet.status}; only available pets can be ordered.`);
      if (record.stock < input.quantity) return fail('INSUFFICIENT_STOCK', `Pet ${pet.id} has ${record.stock} in stock; ${input.quantity} ${input.quantity === 1 ? 'was' : 'were'} ordered.`);

      const order = freezeOrder(state.next.order++, pet.id, input.quantity, input.shipDate, input.complete ?? false);
      // The quantity is reserved at placement and stays consumed when the order completes.
      record.stock -= order.quantity;
      addOrder(state, order);
      // "Details": complete at placement means placed and fulfilled at once, so the pet goes straight to sold.
      setStatus(record, order.complete ? 'sold' : 'pending');
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
        const record = state.pets.get(order.petId);
        if (record) setStatus(record, 'sold');
      }
      return ok(next);
    },

    cancelOrder(id) {
      const order = state.orders.get(id);
      if (!order) return orderNotFound(id);
      if (order.complete) return alreadyComplete(id);
      // Rule 4: the stock comes back and the pet is available again; the order is gone (a later read is a 404).
      const record = state.pets.get(order.petId);
      if (record) {
        record.stock = Math.min(MAX_STOCK, record.stock + order.quantity);
        setStatus(record, 'available');
      }
      state.orders.delete(id);
      state.orderIds.delete(id);
      state.ordersByComplete.delete(false, id);
      const ofPet = state.ordersByPet.get(order.petId) ?? [];
      const remaining = ofPet.filter((other) => other !== id);
      if (remaining.length > 0) state.ordersByPet.set(order.petId, remaining);
      else state.ordersByPet.delete(order.petId);
      state.openOrderByPet.delete(order.petId);
      return done;
    },

    listInventory(filter: InventoryFilter, page) {
      // One entry per pet, by pet id, with the pet's status (rule 6): the pet index answers it directly.
      const ids = state.petIndex.select({ status: filter.status });
      return { items: ids.slice(page.offset, page.limit).map((id) => toInventoryItem(state.pets.get(id)!)), total: ids.size };
    },

    getInventoryItem(petId) {
      const record = state.pets.get(petId);
      return record ? ok(toInventoryItem(record)) : inventoryNotFound(petId);
    },

    updateInventory(petId, quantity) {
      const record = state.pets.get(petId);
      if (!record) return inventoryNotFound(petId);
      record.stock = quantity;
      return ok(toInventoryItem(record));
    },

    snapshot(): StoreSnapshot {
      const categories = [...state.categoryIds.values()].map((id) => state.categories.get(id)!);
      const petRecords = [...state.petIndex.all.values()].map((id) => state.pets.get(id)!);
      const orders = [...state.orderIds.values()].map((id) => state.orders.get(id)!);
      return {
        categories,
        pets: petRecords.map((record) => record.pet),
        orders,
        inventory: petRecords.map((record) => ({ petId: record.pet.id, quantity: record.stock })),
      };
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

/** A fresh entry each time: its quantity lives on the pet's record and changes in place. */
function toInventoryItem(record: PetRecord): InventoryItem {
  return { petId: record.pet.id, quantity: record.stock, status: record.pet.status };
}
