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
import { isObject, jsonMedia, responseFor, successStatus } from './schemas.js';
import type { GenericState, StoredRecord } from './store.js';

/** File name (without `.json`) → its parsed JSON: an array of records, or for a nested collection `{ "<parent ids>": [...] }`. */
export type FixtureFiles = Readonly<Record<string, unknown>>;

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
  if (fixtures !== undefined && fixtures !== 'none') checkFixtureNames(fixtures, map);
  const state: Record<string, Record<string, StoredRecord[]>> = {};
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
      if (!isObject(byScope)) throw fixturesInvalid(resource, 'a nested collection takes an object of parent ids ("1" or "1/7") → records');
      for (const [scope, records] of Object.entries(byScope)) {
        if (!Array.isArray(records)) throw fixturesInvalid(resource, `expected an array of records${scope ? ` under "${scope}"` : ''}`);
        scopes[scope] = withIds(resource, records, makeRecord);
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
      scopes[scope] = withIds(resource, inputs, makeRecord);
    }
  }
  return { state, idOf };
}

/** Records with unique ids: the id they carry when it is free and of the right kind, else the next in sequence. */
function withIds(resource: Resource, inputs: readonly unknown[], makeRecord: MakeRecord): StoredRecord[] {
  const taken = new Set<string>();
  const out: StoredRecord[] = [];
  let next = 1;
  for (const input of inputs) {
    const given = resource.idField && isObject(input) ? input[resource.idField] : undefined;
    let id = typeof given === 'string' || typeof given === 'number' ? String(given) : undefined;
    // An integer id given as a number needs no pattern read (a million generated records at start-up).
    const integral = typeof given === 'number' ? Number.isInteger(given) && Math.abs(given) < 1e21 : /^-?\d+$/.test(id ?? '');
    const fits = id !== undefined && !taken.has(id) && (resource.idKind !== 'integer' || integral) && (resource.idKind !== 'uuid' || /^[0-9a-f-]{36}$/i.test(id));
    if (!fits) {
      while (taken.has(String(next))) next += 1;
      id = resource.idKind === 'uuid' ? uuidFrom(resource.key, next) : String(next);
    }
    taken.add(id!);
    out.push(makeRecord(resource, input, id!));
  }
  return out;
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

/** A fixtures file that names no collection is refused, so a misspelt name is not silently ignored. */
function checkFixtureNames(fixtures: FixtureFiles, map: ResourceMap): void {
  const names = new Set(map.resources.map((r) => r.name));
  for (const name of Object.keys(fixtures)) {
    if (!names.has(name)) {
      throw new KitError('FIXTURES_INVALID', `${name}.json names no collection of this document; the collections are ${[...names].join(', ') || 'none'}. Rename or remove it.`, { file: `${name}.json`, reason: 'unknown collection' });
    }
  }
}

function fixturesInvalid(resource: Resource, reason: string): KitError {
  return new KitError('FIXTURES_INVALID', `${resource.name}.json: ${reason}.`, { file: `${resource.name}.json`, pointer: '', reason });
}
