/**
 * What PUT /__mock/state checks before any store holds the state it was sent,
 * with every cost bounded by what the mock already holds (issue 12, findings 1
 * and 5): the body's size and depth, the first schema problem rather than all
 * of them, ids JSON can carry exactly, then the store's own consistency rules.
 * An export carries the next-id counters (`nextIds`), checked here too: the
 * store built from it issues no id below them (issue 20, point 6d).
 */
import type { ValidateFunction } from 'ajv';
import { createAjv, MAX_DIAGNOSTICS, toDiagnostics, toJsonSchema, type CompiledContract, type Diagnostic } from '../src/schema/index.js';
import type { NextIds, Store, StoreSnapshot } from './domain.js';
import { snapshotSchema } from './snapshot.js';
import { checkConsistency } from './store-consistency.js';

/** An exported state nests three levels (`{"pets":[{…}]}`); open records may nest more, but not this much. */
export const IMPORT_MAX_DEPTH = 64;
/** The smallest import limit: about 90,000 pets with their inventory, whatever the mock holds now. */
export const IMPORT_FLOOR_BYTES = 8 * 1024 * 1024;
/** An exported record is 30 to 90 bytes of JSON (a pet about 60, its inventory entry 30): room for longer names and extra fields. */
const BYTES_PER_RECORD = 256;

export type ImportVerdict = { readonly ok: true; readonly snapshot: StoreSnapshot } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * How large an import body may be: sized to the data the default store holds
 * (the state an export gives back), never less than the floor. A fixed 64 MiB
 * let one request of `{"pets":[0,0,…]}` take the mock past 4 GB.
 */
export function importBodyLimit(store: Store): number {
  const one = { limit: 1, offset: 0 };
  const pets = store.listPets({}, one).total;
  // A pet is two records: itself and its inventory entry.
  const records = store.listCategories(one).total + 2 * pets + store.listOrders({}, one).total;
  return importLimitFor(records);
}

/** The import limit for a mock holding `records` records (the generic engine's admin too: generic/admin.ts). */
export function importLimitFor(records: number): number {
  return Math.max(IMPORT_FLOOR_BYTES, records * BYTES_PER_RECORD);
}

/**
 * The function that checks one imported state. Its schema is compiled on the first import, once per compiled
 * contract: most mocks never receive one, and every mock of a process that shares a contract shares it (a mock's
 * start-up paid 50 ms for it).
 */
export function createStateImport(compiled: CompiledContract): (value: unknown) => ImportVerdict {
  return (value) => {
    const { validate, validateNextIds } = importValidators(compiled);
    // The counters beside the records: the records' schema (closed at the top, seed.ts) stays the fixtures' own.
    const { nextIds, records } = splitNextIds(value);
    if (nextIds !== undefined && !validateNextIds(nextIds)) {
      const diagnostics = toDiagnostics(validateNextIds.errors, '/nextIds');
      validateNextIds.errors = null;
      return { ok: false, diagnostics };
    }
    if (!validate(records) || !isSnapshot(records)) {
      const diagnostics = toDiagnostics(validate.errors, '');
      // Ajv keeps the last errors on the function, with the failing data (verbose): let a refused import be collected.
      validate.errors = null;
      return { ok: false, diagnostics };
    }
    const unsafe = unsafeIds(records);
    if (unsafe.length > 0) return { ok: false, diagnostics: unsafe };
    const problems = checkConsistency(records, 'reachable');
    if (problems.length > 0) return { ok: false, diagnostics: problems };
    return { ok: true, snapshot: isNextIds(nextIds) ? { ...records, nextIds } : records };
  };
}

interface ImportValidators {
  readonly validate: ValidateFunction;
  readonly validateNextIds: ValidateFunction;
}

const importValidatorsOf = new WeakMap<CompiledContract, ImportValidators>();

function importValidators(compiled: CompiledContract): ImportValidators {
  let validators = importValidatorsOf.get(compiled);
  if (!validators) {
    // A validator of its own without `allErrors`: it stops at the first problem instead of building one error object
    // per bad element (33 million for 63 MiB of `[0,0,…]`). fastify keeps allErrors off for this reason, and CodeQL's
    // js/resource-exhaustion-from-deep-object-traversal flags it on untrusted input.
    const ajv = createAjv({ allErrors: false });
    validators = { validate: ajv.compile(toJsonSchema(snapshotSchema(compiled), 'response')), validateNextIds: ajv.compile(NEXT_IDS_SCHEMA) };
    importValidatorsOf.set(compiled, validators);
  }
  return validators;
}

/** The counters an export carries: each the id its collection issues next, an int64 JSON carries exactly (see unsafeIds). */
const NEXT_IDS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['pet', 'category', 'order'],
  properties: Object.fromEntries(['pet', 'category', 'order'].map((name) => [name, { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }])),
};

/** An imported value without its `nextIds`, and the `nextIds` it had (undefined for fixtures and older exports). */
function splitNextIds(value: unknown): { nextIds: unknown; records: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, 'nextIds')) return { nextIds: undefined, records: value };
  const { nextIds, ...records } = value as Record<string, unknown>;
  return { nextIds, records };
}

/** Narrows after NEXT_IDS_SCHEMA has checked it. */
function isNextIds(value: unknown): value is NextIds {
  return typeof value === 'object' && value !== null && ['pet', 'category', 'order'].every((name) => typeof (value as Record<string, unknown>)[name] === 'number');
}

/** The later of two sets of counters, collection by collection: an import never takes a store's counters back. */
export function laterNextIds(a: NextIds, b: NextIds | undefined): NextIds {
  return b === undefined ? a : { pet: Math.max(a.pet, b.pet), category: Math.max(a.category, b.category), order: Math.max(a.order, b.order) };
}

/**
 * The document's ids are int64 (1 to 2^63-1), but a JSON number past 2^53-1 does not survive a parser that
 * reads numbers as IEEE 754 doubles, which JSON.parse does (RFC 8259 §6: such integers are not interoperable):
 * 9007199254740993 arrives as 9007199254740992, and two such ids collide. So the mock holds only safe
 * integers; the schema has already checked that each id is an integer >= 1.
 */
function unsafeIds(snapshot: StoreSnapshot): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const check = (pointer: string, id: number | undefined): void => {
    if (id === undefined || Number.isSafeInteger(id) || problems.length > MAX_DIAGNOSTICS) return;
    problems.push({
      pointer,
      keyword: 'maximum',
      message: `must be at most ${Number.MAX_SAFE_INTEGER} (2^53-1): larger integers lose their exact value in JSON numbers (RFC 8259 §6)`,
      expected: Number.MAX_SAFE_INTEGER,
      actual: id,
    });
  };
  snapshot.categories.forEach((category, i) => check(`/categories/${i}/id`, category.id));
  snapshot.pets.forEach((pet, i) => {
    check(`/pets/${i}/id`, pet.id);
    check(`/pets/${i}/categoryId`, pet.categoryId);
  });
  snapshot.orders.forEach((order, i) => {
    check(`/orders/${i}/id`, order.id);
    check(`/orders/${i}/petId`, order.petId);
  });
  snapshot.inventory.forEach((item, i) => check(`/inventory/${i}/petId`, item.petId));
  return problems.slice(0, MAX_DIAGNOSTICS);
}

/** Narrows after the schema has checked every record. */
function isSnapshot(value: unknown): value is StoreSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  return ['categories', 'pets', 'orders', 'inventory'].every((name) => Object.hasOwn(value, name) && Array.isArray((value as Record<string, unknown>)[name]));
}
