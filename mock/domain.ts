/**
 * The contract between the mock's pure domain (store.ts: records, indexes,
 * state rules; no HTTP) and its transport-free HTTP core (app.ts, handlers/).
 * Shapes come from the generated types, never restated by hand.
 */
import type { ApiErrorCode } from '../src/api-error-codes.js';
import type { Category, InventoryItem, NewCategory, NewOrder, NewPet, Order, OrderUpdate, Pet, PetStatus } from '../src/types.js';

/** A state rule refused the change. The HTTP status comes from the document's x-error-codes, not from here. */
export interface DomainError {
  readonly code: ApiErrorCode;
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError };

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

/** One page and the number of records matching the filters before paging (X-Total-Count). */
export interface PageOf<T> {
  readonly items: readonly Readonly<T>[];
  readonly total: number;
}

export interface PetFilter {
  readonly status?: PetStatus;
  readonly categoryId?: number;
  readonly ids?: readonly number[];
}

export interface OrderFilter {
  readonly petId?: number;
  readonly complete?: boolean;
}

export interface InventoryFilter {
  readonly status?: PetStatus;
}

/** The id each collection issues next: ids are sequential and never issued twice. */
export interface NextIds {
  readonly pet: number;
  readonly category: number;
  readonly order: number;
}

/** Everything a store holds, as plain JSON: what /__mock/state exports and imports, and what fixtures contain. */
export interface StoreSnapshot {
  readonly categories: readonly Readonly<Category>[];
  readonly pets: readonly Readonly<Pet>[];
  readonly orders: readonly Readonly<Order>[];
  /** Stock per pet; an entry's status is always derived from its pet (state rule 6), so it is not stored. */
  readonly inventory: readonly { readonly petId: number; readonly quantity: number }[];
  /**
   * The counters an export carries (GET /__mock/state): a store built from the snapshot issues no id below them,
   * so an id deleted before the export is not issued again after the import. Absent in fixtures and older exports.
   */
  readonly nextIds?: NextIds;
}

/**
 * One isolated data set. Every method is synchronous, so on Node's single
 * thread a read-check-write can never interleave with another request: no
 * lost or duplicated writes without locks. Returned pets, categories and
 * orders are frozen and shared (a change replaces them); inventory items are
 * fresh objects.
 */
export interface Store {
  listPets(filter: PetFilter, page: Page): PageOf<Pet>;
  getPet(id: number): Result<Readonly<Pet>>;
  createPet(input: NewPet): Result<Readonly<Pet>>;
  replacePet(id: number, input: NewPet): Result<Readonly<Pet>>;
  deletePet(id: number): Result<void>;

  listCategories(page: Page): PageOf<Category>;
  getCategory(id: number): Result<Readonly<Category>>;
  createCategory(input: NewCategory): Result<Readonly<Category>>;
  replaceCategory(id: number, input: NewCategory): Result<Readonly<Category>>;
  deleteCategory(id: number): Result<void>;

  listOrders(filter: OrderFilter, page: Page): PageOf<Order>;
  getOrder(id: number): Result<Readonly<Order>>;
  placeOrder(input: NewOrder): Result<Readonly<Order>>;
  updateOrder(id: number, change: OrderUpdate): Result<Readonly<Order>>;
  cancelOrder(id: number): Result<void>;

  listInventory(filter: InventoryFilter, page: Page): PageOf<InventoryItem>;
  getInventoryItem(petId: number): Result<InventoryItem>;
  updateInventory(petId: number, quantity: number): Result<InventoryItem>;

  /** The whole state as plain JSON. */
  snapshot(): StoreSnapshot;
  /** The id each collection issues next (what an export carries, so an import never issues an id again). */
  nextIds(): NextIds;
}

/** Which bound dropped a session: `--max-sessions` (count) or `--max-session-memory` (bytes). */
export type SessionDropReason = 'max-sessions' | 'max-session-memory';

/**
 * The stores of one mock process: the default one, plus one per
 * `X-Mock-Session` name, each created from the initial data on first use.
 */
export interface StoreRegistry {
  /** The store for a session name; undefined means the default store. */
  get(session?: string): Store;
  /** Back to the initial data: one session, or every store when session is undefined. */
  reset(session?: string): void;
  /** Replaces one store's state (validated by the caller against the document first). */
  load(snapshot: StoreSnapshot, session?: string): Result<void>;
  /** Names of the sessions held now, least recently used first. */
  sessions(): readonly string[];
  /**
   * Why the session of this name was dropped, if it was and has since started
   * afresh (its next `get`); answered once, so only the first request after the
   * drop tells the client.
   */
  dropNotice(session: string): SessionDropReason | undefined;
  /** The bytes (estimated) all sessions hold beyond the shared initial data. */
  sessionMemory(): number;
}
