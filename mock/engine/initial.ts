/**
 * The records a foreign document's mock starts with (issue 22, point 4): the `<collection>.json` fixtures given
 * (`--fixtures DIR`), else the document's own examples (a list answer's example, else an item's), else a few
 * records generated from the record schema with the seed. Nested collections get records under the first
 * records of their parent. Every record is fitted to the record schema and carries a unique id.
 */
import type { Contract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import type { ValueGenerator } from './generate.js';
import { parentOf, type Resource, type ResourceMap } from './infer.js';
import { keptToRules, loadHookProblem, pointer, wholeStateProblems } from '../behaviour/held-state.js';
import { loadRefusalOf, type LoadPlace, type LoadSource } from '../behaviour/hooks.js';
import type { StateShape } from './state-shape.js';
import type { Diagnostic } from '../../src/schema/index.js';
import type { Rule } from '../behaviour/rules.js';
import { isObject, jsonMedia, responseFor, successStatus, type Schema } from './schemas.js';
import { immutableJson } from './json.js';
import { DenseList, type SharedList } from './overlay-list.js';
import { keyOf, withBuiltLists, type GenericState, type ListKey, type Lists, type StoredRecord } from './store.js';

/** File name (without `.json`) → its parsed JSON: an array of records, or for a nested collection `{ "<parent ids>": [...] }`. */
export type FixtureFiles = Readonly<Record<string, unknown>>;

/** Where fixtures files were read from (files.ts readFixtureFiles): each file's path by its name, as a refusal names it. */
const readFrom = new WeakMap<FixtureFiles, (name: string) => string>();

/**
 * `files`, noted as read from a folder: a refusal then names each file by its path (`/data/pets.json`), as the Pet
 * Store's own store did, where fixtures given as objects (createMswMock, a test) are named `pets.json`. Kept beside the
 * files rather than in them: this module bundles for a browser, and names no path of its own.
 */
export function fixturesReadFrom(files: FixtureFiles, pathOf: (name: string) => string): FixtureFiles {
  readFrom.set(files, pathOf);
  return files;
}

/** A fixtures record that gives an id another record of its collection (in the same scope) gave first. */
interface GivenTwice {
  readonly resource: Resource;
  readonly scope: string;
  readonly index: number;
  readonly first: number;
  readonly id: string | number;
}

/** What buildInitialState saw of the fixtures it was given, for heldInitialState to refuse by (the engine hands over the state alone). */
const seen = new WeakMap<
  GenericState,
  {
    readonly fileOf: (resource: Resource) => string;
    readonly twice: readonly GivenTwice[];
    /** Each collection's records as the files gave them, by scope, before any was fitted to its schema. */
    readonly given: ReadonlyMap<Resource, ReadonlyMap<string, readonly unknown[]>>;
  }
>();

const GENERATED_PER_COLLECTION = 3;
const GENERATED_PER_PARENT = 2;
const PARENTS_FILLED = 2;

export type MakeRecord = (resource: Resource, input: unknown, id: string) => StoredRecord;

export function buildInitialState(
  contract: Contract,
  map: ResourceMap,
  fixtures: FixtureFiles | 'none' | undefined,
  generator: ValueGenerator,
  makeRecord: MakeRecord,
): { state: GenericState; idOf: (resource: string, record: StoredRecord, index: number) => string } {
  const byKey = new Map(map.resources.map((r) => [r.key, r]));
  const idOf = (key: string, record: StoredRecord, index: number): string => {
    const field = byKey.get(key)?.idField;
    const value = field === undefined ? undefined : record[field];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : String(index + 1);
  };
  const pathOf = fixtures !== undefined && fixtures !== 'none' ? readFrom.get(fixtures) : undefined;
  const fileOf = (resource: Resource): string => (pathOf ? pathOf(resource.name) : `${resource.name}.json`);
  if (fixtures !== undefined && fixtures !== 'none') checkFixtureNames(fixtures, map, pathOf);
  // Fixtures records that give an id taken in their collection already: renumbered here as the mock's own data is, and
  // refused by heldInitialState where they are the user's files (the first few; each found by a scan, and rare).
  const twice: GivenTwice[] = [];
  const given = new Map<Resource, Map<string, readonly unknown[]>>();
  const state: Record<string, Record<string, StoredRecord[]>> = {};
  // Each list of records with the list the store keeps it in and its highest integer id (withIds).
  const built = new Map<readonly StoredRecord[], Built>();
  const withIds = (resource: Resource, inputs: readonly unknown[], scope?: string): StoredRecord[] => {
    const onTwice = scope === undefined || twice.length >= PROBLEMS_NAMED ? undefined : (index: number, first: number, id: string | number) => void twice.push({ resource, scope, index, first, id });
    const list = listWithIds(resource, inputs, makeRecord, onTwice);
    built.set(list.records, list);
    return list.records;
  };
  // Parents first (a shorter collection path), so a nested collection knows its parents' ids.
  const ordered = [...map.resources].sort((a, b) => a.scopeParams.length - b.scopeParams.length);
  for (const resource of ordered) {
    const scopes: Record<string, StoredRecord[]> = {};
    state[resource.key] = scopes;
    if (fixtures === 'none') continue;
    const file = fixtures?.[resource.name];
    if (fixtures !== undefined) {
      if (file === undefined) continue;
      const byScope = resource.scopeParams.length === 0 ? { '': file } : file;
      if (!isObject(byScope)) throw fixturesInvalid(fileOf(resource), 'a nested collection takes an object of parent ids ("1" or "1/7") → records');
      for (const [scope, records] of Object.entries(byScope)) {
        if (!Array.isArray(records)) throw fixturesInvalid(fileOf(resource), `expected an array of records${scope ? ` under "${scope}"` : ''}`);
        scopes[scope] = withIds(resource, records, scope);
        let byGiven = given.get(resource);
        if (!byGiven) given.set(resource, (byGiven = new Map()));
        byGiven.set(scope, records);
      }
      continue;
    }
    const parentScopes = resource.scopeParams.length === 0 ? [''] : parentScopesOf(resource, map, state);
    const examples = resource.scopeParams.length === 0 ? examplesOf(contract, resource) : [];
    for (const scope of parentScopes) {
      const count = resource.scopeParams.length === 0 ? GENERATED_PER_COLLECTION : GENERATED_PER_PARENT;
      // Generated records take their ids from the sequence (1, 2, 3), not from the generator: ids a person can type.
      // A record that cannot be generated within the budget is left out (start-up said why: unmakeable.ts).
      const generated = (variant: number): unknown => (resource.recordSchema ? generator.value(resource.recordSchema, 'response', variant) : {});
      const inputs = examples.length > 0 ? examples : Array.from({ length: count }, (_, variant) => generated(variant)).filter((value) => value !== undefined).map((value) => withoutId(value, resource.idField));
      scopes[scope] = withIds(resource, inputs);
    }
  }
  // The lists as the store would build them from the state (store.ts buildLists): resources and scopes in the order
  // the state lists them, each resource's sequence past its highest integer id in any scope.
  const lists: Lists = new Map();
  const highest = new Map<string, number>();
  for (const [key, scopes] of Object.entries(state)) {
    let top = 0;
    for (const [scope, records] of Object.entries(scopes)) {
      const list = built.get(records)!;
      let byScope = lists.get(key);
      if (!byScope) lists.set(key, (byScope = new Map()));
      byScope.set(scope, list.list);
      if (list.highest > top) top = list.highest;
    }
    highest.set(key, top);
  }
  const held = withBuiltLists(state, lists, highest);
  if (fixtures !== undefined && fixtures !== 'none') seen.set(held, { fileOf, twice, given });
  return { state: held, idOf };
}

interface Built {
  readonly records: StoredRecord[];
  /** The records by the key of the id `idOf` reads from each (store.ts keyOf), in their order. */
  readonly list: SharedList;
  /** The highest safe integer id among them, 0 if none is higher. */
  readonly highest: number;
}

/** `keyOf(String(n))`, without writing the text for a whole number of up to 15 digits (its own key). */
function numberKey(n: number): ListKey {
  return Number.isInteger(n) && n >= 0 && n < 1e15 ? n : keyOf(String(n));
}

/** The key of the id buildInitialState's `idOf` reads from a record: its id field's value, else its place in the list. */
function storedKey(resource: Resource, record: StoredRecord, index: number): ListKey {
  const value = resource.idField === undefined ? undefined : record[resource.idField];
  if (typeof value === 'string') return keyOf(value);
  return numberKey(typeof value === 'number' ? value : index + 1);
}

/**
 * Records with unique ids: the id they carry when it is free and of the right kind, else the next in sequence. Each is
 * put in the list the store keeps (by the id read back from the record made, as buildLists reads it), and that list is
 * what tells an id taken while every record made holds the id it was given: one map of a million ids at start-up, not
 * a set of their texts as well (--pets 1000000). A record made under another id than it was given (a fit that changed
 * it) starts a set of the ids given, as before.
 */
function listWithIds(resource: Resource, inputs: readonly unknown[], makeRecord: MakeRecord, onTwice?: (index: number, first: number, id: string | number) => void): Built {
  const records: StoredRecord[] = [];
  // While the records are kept under consecutive numbers in their order (`first`, `first + 1`, ...: generated data),
  // no map: the list is their array (overlay-list.ts DenseList). Built from them at the first that is not.
  let list: Map<ListKey, StoredRecord> | undefined;
  let first = 0;
  const inList = (key: ListKey): boolean => (list !== undefined ? list.has(key) : typeof key === 'number' && key >= first && key < first + records.length);
  let taken: Set<ListKey> | undefined;
  // The highest number among the keys given and kept so far: a number above it is free without a lookup, as each id of
  // generated data is (1, 2, 3, ...), where a miss in a map of a million costs a cache miss or two.
  let top = -1;
  const isTaken = (key: ListKey): boolean => (typeof key === 'number' && key > top ? false : taken === undefined ? inList(key) : taken.has(key));
  let next = 1;
  let highest = 0;
  let told = 0;
  for (const input of inputs) {
    const given = resource.idField && isObject(input) ? input[resource.idField] : undefined;
    let id = typeof given === 'string' || typeof given === 'number' ? String(given) : undefined;
    // An integer id given as a number needs no pattern read (a million generated records at start-up).
    const integral = typeof given === 'number' ? Number.isInteger(given) && Math.abs(given) < 1e21 : /^-?\d+$/.test(id ?? '');
    let key = typeof given === 'number' ? numberKey(given) : id === undefined ? undefined : keyOf(id);
    const fits = key !== undefined && !isTaken(key) && (resource.idKind !== 'integer' || integral) && (resource.idKind !== 'uuid' || /^[0-9a-f-]{36}$/i.test(id!));
    if (!fits) {
      // An id another record gave first (not one the mock gave a record whose own id did not fit): told, then renumbered.
      if (onTwice && told < TWICE_TOLD && key !== undefined && isTaken(key)) {
        told += 1;
        const first = firstGiving(resource, inputs, records.length, key);
        if (first !== undefined) onTwice(records.length, first, given as string | number);
      }
      while (isTaken(numberKey(next))) next += 1;
      id = resource.idKind === 'uuid' ? uuidFrom(resource.key, next) : String(next);
      key = keyOf(id);
    }
    // As buildLists took it (a record made is one already).
    const record = immutableJson(makeRecord(resource, input, id!));
    const stored = storedKey(resource, record, records.length);
    if (list === undefined) {
      if (records.length === 0 && typeof stored === 'number') first = stored;
      if (typeof stored !== 'number' || stored !== first + records.length) list = new Map(records.map((held, index) => [first + index, held]));
    }
    records.push(record);
    if (taken === undefined && stored !== key) taken = new Set(list !== undefined ? list.keys() : records.slice(0, -1).map((_, index) => first + index));
    taken?.add(key!);
    list?.set(stored, record);
    if (typeof key === 'number' && key > top) top = key;
    if (typeof stored === 'number' && stored > top) top = stored;
    const numeric = typeof stored === 'number' ? stored : Number(stored);
    if (Number.isSafeInteger(numeric) && numeric > highest) highest = numeric;
  }
  return { records, list: list ?? new DenseList(records, first), highest };
}

/** How many ids given twice a list tells of at most: each is found by a scan of the records before it. */
const TWICE_TOLD = 6;

/** The key of the id an input gives, as listWithIds reads it. */
function givenKey(resource: Resource, input: unknown): ListKey | undefined {
  const given = resource.idField && isObject(input) ? input[resource.idField] : undefined;
  return typeof given === 'number' ? numberKey(given) : typeof given === 'string' ? keyOf(given) : undefined;
}

/** The first of the inputs before `end` that gives the id of key `key`, if one does. */
function firstGiving(resource: Resource, inputs: readonly unknown[], end: number, key: ListKey): number | undefined {
  for (let index = 0; index < end; index += 1) if (givenKey(resource, inputs[index]) === key) return index;
  return undefined;
}

function withoutId(value: unknown, field: string | undefined): unknown {
  if (!isObject(value) || field === undefined) return value;
  const { [field]: _id, ...rest } = value;
  return rest;
}

/** A deterministic uuid (version 4 layout) from a resource and a number: the same data on every start. */
function uuidFrom(key: string, n: number): string {
  let h = 0x811c9dc5;
  for (const char of `${key}#${n}`) h = Math.imul(h ^ char.charCodeAt(0), 16777619) >>> 0;
  const hex = (h.toString(16).padStart(8, '0') + n.toString(16).padStart(12, '0')).slice(0, 20).padEnd(20, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${n.toString(16).padStart(12, '0').slice(-12)}`;
}

function parentScopesOf(resource: Resource, map: ResourceMap, state: Readonly<Record<string, Readonly<Record<string, readonly StoredRecord[]>>>>): string[] {
  const parent = parentOf(resource, map.resources);
  if (!parent) return [];
  const out: string[] = [];
  for (const [scope, records] of Object.entries(state[parent.key] ?? {})) {
    records.slice(0, PARENTS_FILLED).forEach((record, index) => {
      const field = parent.idField;
      const id = field !== undefined && (typeof record[field] === 'string' || typeof record[field] === 'number') ? String(record[field]) : String(index + 1);
      out.push(scope === '' ? id : `${scope}/${id}`);
    });
  }
  return out;
}

/** The document's own examples of a collection: its list answer's example, else its item answer's. */
export function examplesOf(contract: Contract, resource: Resource): unknown[] {
  const listId = resource.roles.list;
  const list = listId ? contract.operationsById.get(listId) : undefined;
  if (list) {
    const media = jsonMedia(responseFor(list, successStatus(list, [200]) ?? 200)?.content ?? []);
    for (const example of media?.examples.values() ?? []) {
      const shape = resource.list?.shape;
      const items = Array.isArray(example) ? example : shape?.kind === 'envelope' && isObject(example) ? example[shape.itemsKey] : undefined;
      if (Array.isArray(items) && items.length > 0 && items.every(isObject)) return items;
    }
  }
  const read = resource.roles.read ? contract.operationsById.get(resource.roles.read) : undefined;
  const media = read ? jsonMedia(responseFor(read, 200)?.content ?? []) : undefined;
  for (const example of media?.examples.values() ?? []) {
    // `{ Items: [ {...} ] }`: the records an item answer carries in its array member.
    const batch = resource.batchKey && isObject(example) ? example[resource.batchKey] : undefined;
    if (Array.isArray(batch) && batch.length > 0 && batch.every(isObject)) return batch;
    const record = resource.itemEnvelope && isObject(example) ? example[resource.itemEnvelope] : example;
    if (isObject(record)) return [record];
  }
  return [];
}

/** Where initial data came from: fixtures files, the kit's own generator (valid by construction), or the mock itself. */
export type InitialSource = 'files' | 'kit' | 'own';

/** How many problems of a fixtures folder a refusal names. */
const PROBLEMS_NAMED = 6;

/**
 * The initial data held to the stated rules before any store holds it (behaviour/held-state.ts), then completed by the
 * behaviour's `load` hook (`complete`). Fixtures files that break a rule are refused as an import is (FIXTURES_INVALID
 * naming the file and the place in it, as the Pet Store's own store refused them); so is a state the load hook throws
 * on. The mock's own data (examples, generated records) is made to keep the rules instead: a start never fails for
 * what the mock made up. The kit's generator's data (`--seed N --pets K`) keeps them by construction, and is not read
 * again (a million pets).
 */
export function heldInitialState(
  state: GenericState,
  source: InitialSource,
  options: {
    readonly rules: readonly Rule[];
    readonly map: ResourceMap;
    readonly idOf: (resource: string, record: StoredRecord, index: number) => string;
    readonly valid: (schema: Schema, value: unknown) => boolean;
    /** Every problem of a value with a schema (pointers from the value's root): a fixtures record its schema refuses is refused. */
    readonly problems?: (schema: Schema, value: unknown) => readonly Diagnostic[];
    /** The shape an exported state has (state-shape.ts): a fixtures record may leave out the fields it omits, as an export does. */
    readonly shape?: StateShape | undefined;
    readonly complete?: ((state: GenericState, source: LoadSource) => GenericState) | undefined;
    /** The behaviour module, named where its `load` hook throws on the mock's own data. */
    readonly behaviourFile?: string | undefined;
  },
): GenericState {
  let held = state;
  if (source === 'files') {
    // The file each collection was read from: its path where it was read from a folder (files.ts), as the Pet Store's
    // own store named it.
    const fileOf = seen.get(state)?.fileOf ?? ((resource: Resource) => `${resource.name}.json`);
    const place = (scope: string, index: number): string => `${scope === '' ? '' : `/${pointer(scope)}`}/${index}`;
    // An id given twice first (the Pet Store's store refused it so: FIXTURES_INVALID, "ids must be unique"), then the rules.
    const twice = (seen.get(state)?.twice ?? []).map(({ resource, scope, index, first, id }) => ({
      file: fileOf(resource),
      pointer: `${place(scope, index)}/${pointer(resource.idField!)}`,
      reason: `${resource.idField!} ${JSON.stringify(id)} is used by ${place(scope, first)} already; ids must be unique`,
    }));
    // Each record as the file gave it against its record schema first, as the Pet Store's own store held its fixtures
    // (the mock fits its own data to the schema; a user's file that breaks it is refused, in the schema's words).
    const unfit = options.problems ? schemaProblems(state, options.map, options.problems, options.shape, (resource, scope, index) => ({ file: fileOf(resource), place: place(scope, index) })) : [];
    const words = { place: (_resource: Resource, scope: string, index: number) => place(scope, index), nameOf: (resource: Resource) => `${resource.name}.json`, limit: PROBLEMS_NAMED };
    const broken = unfit.length > 0 ? [] : wholeStateProblems(state, options.rules, words).map((problem) => ({ file: fileOf(problem.resource), pointer: problem.pointer, reason: `${problem.message}; the stated rules do not allow it` }));
    const [first, ...others] = [...twice, ...unfit, ...broken].slice(0, PROBLEMS_NAMED);
    if (first) {
      const also = others.length > 0 ? ` Also: ${others.map((other) => `${other.file} at ${other.pointer}: ${other.reason}`).join('; ')}.` : '';
      throw new KitError('FIXTURES_INVALID', `${first.file} at ${first.pointer}: ${first.reason}.${also}`, first);
    }
  } else if (source === 'own') held = keptToRules(state, options.rules, options.map, options.idOf, options.valid);
  if (!options.complete) return held;
  const where = options.behaviourFile ?? 'the behaviour module';
  let completed: GenericState;
  try {
    completed = options.complete(held, source === 'files' ? 'fixtures' : 'generated');
  } catch (error) {
    const reason = (error as Error).message;
    // A refusal names a record: the file it was read from and its place there.
    const refusal = source === 'files' ? loadRefusalOf(error) : undefined;
    const at = refusal ? placeOf(held, refusal.place, options.map, options.idOf) : undefined;
    if (refusal && at) {
      const file = (seen.get(state)?.fileOf ?? ((resource: Resource) => `${resource.name}.json`))(at.resource);
      const where = `${at.scope === '' ? '' : `/${pointer(at.scope)}`}/${at.index}${refusal.place.field === undefined ? '' : `/${pointer(refusal.place.field)}`}`;
      throw new KitError('FIXTURES_INVALID', `${file} at ${where}: ${refusal.message}.`, { file, pointer: where, reason: refusal.message });
    }
    if (source === 'files') throw new KitError('FIXTURES_INVALID', `The fixtures cannot be held: ${reason}.`, { reason });
    throw new KitError('RULES_INVALID', `${reason} on the initial data.`, { ...(options.behaviourFile !== undefined ? { file: options.behaviourFile } : {}), reason });
  }
  // What the hook wrote or removed is held to the rules too: the state kept them before it ran (fixtures checked above,
  // the mock's own data made to keep them), so a problem now is the hook's, said as its module's (RULES_INVALID). The
  // kit's generator's data is left as it is: its hook is the Pet Store's own, and a million pets are not read again.
  if (source !== 'kit') {
    const problem = loadHookProblem(completed, Object.keys(completed), options.rules, where);
    if (problem) throw new KitError('RULES_INVALID', `${problem.message} on the initial data.`, { ...(options.behaviourFile !== undefined ? { file: options.behaviourFile } : {}), pointer: problem.pointer, reason: problem.message });
  }
  return completed;
}

/**
 * The first problems of the fixtures records with their record schemas (the shape's, where an exported state leaves
 * fields out), each as the record was given with the id the mock gave it where it gave none; `locate` is the file and
 * the place of a record.
 */
function schemaProblems(
  state: GenericState,
  map: ResourceMap,
  problems: (schema: Schema, value: unknown) => readonly Diagnostic[],
  shape: StateShape | undefined,
  locate: (resource: Resource, scope: string, index: number) => { readonly file: string; readonly place: string },
): { file: string; pointer: string; reason: string }[] {
  const given = seen.get(state)?.given;
  const out: { file: string; pointer: string; reason: string }[] = [];
  if (!given) return out;
  for (const resource of map.resources) {
    const schema = shape?.members.find((member) => member.resource === resource)?.schema ?? resource.recordSchema;
    if (!schema) continue;
    for (const [scope, records] of given.get(resource) ?? []) {
      const held = state[resource.key]?.[scope] ?? [];
      for (const [index, record] of records.entries()) {
        if (out.length >= PROBLEMS_NAMED) return out;
        const { idField } = resource;
        const value = idField !== undefined && isObject(record) && !Object.hasOwn(record, idField) && held[index] ? { ...record, [idField]: held[index][idField] } : record;
        for (const problem of problems(schema, value).slice(0, PROBLEMS_NAMED - out.length)) {
          const { file, place } = locate(resource, scope, index);
          const words = problem.expected === undefined ? problem.message : `${problem.message} (${JSON.stringify(problem.expected)})`;
          out.push({ file, pointer: `${place}${problem.pointer}`, reason: `${words}, as its schema says` });
        }
      }
    }
  }
  return out;
}

/** Where a `load` hook's refusal points: the record's collection, scope and place in the state it was given. */
function placeOf(state: GenericState, place: LoadPlace, map: ResourceMap, idOf: (resource: string, record: StoredRecord, index: number) => string): { resource: Resource; scope: string; index: number } | undefined {
  const resource = map.resources.find((r) => r.collectionPath === place.collection);
  if (!resource) return undefined;
  const scope = place.scope ?? '';
  const index = (state[resource.key]?.[scope] ?? []).findIndex((record, i) => idOf(resource.key, record, i) === String(place.id));
  return index < 0 ? undefined : { resource, scope, index };
}

/** A fixtures file that names no collection is refused, so a misspelt name is not silently ignored. */
function checkFixtureNames(fixtures: FixtureFiles, map: ResourceMap, pathOf: ((name: string) => string) | undefined): void {
  const names = new Set(map.resources.map((r) => r.name));
  for (const name of Object.keys(fixtures)) {
    if (!names.has(name)) {
      const file = pathOf ? pathOf(name) : `${name}.json`;
      throw new KitError('FIXTURES_INVALID', `${file} names no collection of this document; the collections are ${[...names].join(', ') || 'none'}. Rename or remove it.`, { file, pointer: '', reason: 'unknown collection' });
    }
  }
}

function fixturesInvalid(file: string, reason: string): KitError {
  return new KitError('FIXTURES_INVALID', `${file}: ${reason}.`, { file, pointer: '', reason });
}
