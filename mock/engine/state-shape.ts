/**
 * The shape of a state as `GET /__mock/state` exports it and `PUT /__mock/state` takes it, where the overlay names one
 * (its `state:`). Without it a state is `{ "<collection path>": { "<scope>": [records] } }` (admin.ts); with it, each
 * member the overlay names holds one top-level collection's records, and a member of counters holds the next number
 * of each integer sequence, so an export imported back never issues an id issued before:
 *
 *   state:
 *     categories: /categories
 *     pets: /pets
 *     inventory: { collection: /store/inventory, omit: [status] }   # a derived field, left out; a load hook restores it
 *     nextIds: { counters: { category: /categories, pet: /pets } }
 *
 * An import in that shape is checked as a whole before any store holds it (the first problems, each with a pointer
 * into the body): members known and present, each record valid for its schema, ids and references that JSON carries
 * exactly (at most 2^53-1), no id twice, what the stated rules keep true at all times, read with each field a record
 * leaves out at its documented default (x-mock-references: a record that would have kept its target from being deleted
 * names one that exists; x-mock-unique: no two records share what is unique; x-mock-states with initial states: a
 * record is in one a record can reach; behaviour/held-state.ts), and counters from 1 to 2^53-1. The shape is
 * checked against the document when the mock starts: a collection it does not keep, or a field its records lack, is
 * RULES_INVALID naming the spot.
 */
import { KitError } from '../../src/kit-error.js';
import type { CompiledContract, Diagnostic } from '../../src/schema/index.js';
import { wholeStateProblems, withDefaults } from '../behaviour/held-state.js';
import type { ReferenceRule, Rule } from '../behaviour/rules.js';
import type { Resource, ResourceMap } from './infer.js';
import { isObject, mergeAllOf, propertiesOf, type Schema } from './schemas.js';
import type { GenericState, GenericStore, StoredRecord } from './store.js';

export interface StateMember {
  readonly name: string;
  readonly resource: Resource;
  /** Fields of the records the state leaves out (derived ones: a behaviour module's `load` hook restores them). */
  readonly omit: readonly string[];
  /** The record schema without the omitted fields: what an imported record is checked against. */
  readonly schema: Schema | undefined;
}

export interface StateShape {
  readonly members: readonly StateMember[];
  /** The member that holds the counters, and which collection's sequence each of its names is. */
  readonly counters?: { readonly name: string; readonly of: ReadonlyMap<string, Resource> };
}

/** An import that passed every check: the records by collection, and the number each sequence starts past. */
export type ShapedImport =
  | { readonly ok: true; readonly state: GenericState; readonly floors: ReadonlyMap<string, number>; readonly loaded: Readonly<Record<string, number>> }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** How many problems a refused import names. */
const PROBLEMS_SHOWN = 5;

/** The overlay's `state:`, checked against the inferred collections; undefined when the overlay names none. */
export function readStateShape(stated: Readonly<Record<string, unknown>> | undefined, map: ResourceMap): StateShape | undefined {
  if (stated === undefined) return undefined;
  const where = 'the overlay, state';
  const collection = (value: unknown, at: string): Resource => {
    const found = typeof value === 'string' ? map.resources.find((r) => r.collectionPath === value || r.itemPath === value) : undefined;
    if (!found) fail(at, `${JSON.stringify(value)} is not a collection the mock keeps records of (it keeps ${map.resources.map((r) => r.collectionPath).join(', ') || 'none'})`);
    if (found.scopeParams.length > 0) fail(at, `${found.collectionPath} lives under another record; a state member holds a top-level collection`);
    return found;
  };
  const members: StateMember[] = [];
  let counters: StateShape['counters'];
  const taken = new Set<string>();
  for (const [name, value] of Object.entries(stated)) {
    const at = `${where}/${name}`;
    if (isObject(value) && value['counters'] !== undefined) {
      if (counters) fail(at, `the counters are in ${counters.name} already`);
      const stray = Object.keys(value).find((key) => key !== 'counters');
      if (stray !== undefined) fail(`${at}/${stray}`, 'is not a word of a counters member; it takes counters');
      if (!isObject(value['counters'])) fail(`${at}/counters`, 'must map each counter name to the collection whose next id it holds');
      const of = new Map<string, Resource>();
      for (const [counter, path] of Object.entries(value['counters'])) {
        const resource = collection(path, `${at}/counters/${counter}`);
        if (resource.idKind !== 'integer') fail(`${at}/counters/${counter}`, `${resource.collectionPath}'s ids are not integers, so it has no counter`);
        of.set(counter, resource);
      }
      counters = { name, of };
      continue;
    }
    const spec = typeof value === 'string' ? { collection: value } : isObject(value) ? value : fail(at, 'must be a collection path, { collection, omit }, or { counters: { NAME: COLLECTION } }');
    const stray = Object.keys(spec).find((key) => key !== 'collection' && key !== 'omit');
    if (stray !== undefined) fail(`${at}/${stray}`, 'is not a word of a state member; it takes collection, omit');
    const resource = collection(spec['collection'], `${at}/collection`);
    if (taken.has(resource.key)) fail(`${at}/collection`, `${resource.collectionPath} is another member's already`);
    taken.add(resource.key);
    const omitted = spec['omit'] ?? [];
    if (!Array.isArray(omitted) || !omitted.every((field): field is string => typeof field === 'string')) return fail(`${at}/omit`, 'must be a list of fields');
    const fields = resource.recordSchema ? propertiesOf(resource.recordSchema) : new Map<string, Schema>();
    omitted.forEach((field, i) => {
      if (!fields.has(field)) fail(`${at}/omit/${i}`, `${resource.collectionPath}'s records have no field ${field} (they have ${[...fields.keys()].join(', ') || 'none'})`);
      if (field === resource.idField) fail(`${at}/omit/${i}`, `${field} is the records' id; it cannot be left out`);
    });
    members.push({ name, resource, omit: omitted, schema: resource.recordSchema && omitted.length > 0 ? without(resource.recordSchema, omitted) : resource.recordSchema });
  }
  if (members.length === 0) fail(where, 'names no collection; give it NAME: COLLECTION for each collection a state holds');
  return { members, ...(counters ? { counters } : {}) };
}

/** The store's state in the shape: each member's records without what it omits, and the next number of each counter. */
export function exportShaped(shape: StateShape, store: GenericStore): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, resource, omit } of shape.members) {
    const records = [...store.records(resource.key, '')];
    out[name] = omit.length === 0 ? records : records.map((record) => Object.fromEntries(Object.entries(record).filter(([field]) => !omit.includes(field))));
  }
  if (shape.counters) out[shape.counters.name] = Object.fromEntries([...shape.counters.of].map(([counter, resource]) => [counter, store.sequence(resource.key) + 1]));
  return out;
}

/**
 * An imported value checked against the shape, the document and the stated rules; `current` is the store it
 * replaces, whose sequences an import never takes back (an older export loaded after a delete must not reissue its id).
 */
export function importShaped(shape: StateShape, value: unknown, compiled: CompiledContract, rules: readonly Rule[], current: GenericStore): ShapedImport {
  const references = rules.filter((rule): rule is ReferenceRule => rule.kind === 'reference');
  const problems: Diagnostic[] = [];
  const full = (): boolean => problems.length >= PROBLEMS_SHOWN;
  const refuse = (): ShapedImport => ({ ok: false, diagnostics: problems.slice(0, PROBLEMS_SHOWN) });
  const names = [...shape.members.map((m) => m.name), ...(shape.counters ? [shape.counters.name] : [])];
  if (!isObject(value)) {
    problems.push({ pointer: '/body', keyword: 'type', message: `must be an object of ${names.join(', ')}, as GET /__mock/state exports it` });
    return refuse();
  }
  for (const key of Object.keys(value)) if (!names.includes(key)) problems.push({ pointer: `/body/${pointer(key)}`, keyword: 'additionalProperties', message: `is not a member of the state; it holds ${names.join(', ')}` });
  for (const { name } of shape.members) if (!Object.hasOwn(value, name)) problems.push({ pointer: `/body/${pointer(name)}`, keyword: 'required', message: `is required: the records of ${name} (an empty list for none)` });
  const floors = new Map<string, number>();
  if (shape.counters && Object.hasOwn(value, shape.counters.name)) counterProblems(shape.counters, value[shape.counters.name], problems, floors);
  if (problems.length > 0) return refuse();

  for (const member of shape.members) {
    const at = `/body/${pointer(member.name)}`;
    const records = value[member.name];
    if (!Array.isArray(records)) {
      problems.push({ pointer: at, keyword: 'type', message: 'must be a list of records' });
      continue;
    }
    const seen = new Set<string>();
    const { idField } = member.resource;
    for (const [index, record] of records.entries()) {
      if (full()) return refuse();
      const here = `${at}/${index}`;
      if (!isObject(record)) {
        problems.push({ pointer: here, keyword: 'type', message: 'must be an object' });
        continue;
      }
      if (member.schema) problems.push(...compiled.validate(member.schema, record, 'response', here).slice(0, PROBLEMS_SHOWN));
      // Ids and references must survive JSON: past 2^53-1 a number is rounded, and two such ids would be one.
      const exact = [idField, ...references.filter((rule) => rule.resource === member.resource).map((rule) => rule.field)];
      for (const field of exact) {
        const id = field === undefined ? undefined : record[field];
        if (typeof id === 'number' && !Number.isSafeInteger(id)) {
          problems.push({ pointer: `${here}/${pointer(field!)}`, keyword: 'maximum', message: `must be at most ${Number.MAX_SAFE_INTEGER} (2^53-1): larger integers lose their exact value in JSON numbers (RFC 8259 §6)`, expected: Number.MAX_SAFE_INTEGER, actual: id });
        }
      }
      const id = idField === undefined ? undefined : record[idField];
      if (typeof id === 'string' || typeof id === 'number') {
        if (seen.has(String(id))) problems.push({ pointer: `${here}/${pointer(idField!)}`, keyword: 'uniqueItems', message: `${String(id)} is the id of an earlier record of ${member.name}` });
        seen.add(String(id));
      }
    }
  }
  if (problems.length > 0) return refuse();

  // Each record as the mock will hold it: a field it leaves out takes its documented default before a rule reads it (an
  // order without `complete` is an open one, which its rules hold), as a create takes it (held-state.ts withDefaults).
  const members = new Map(shape.members.map((member) => [member.resource.key, member]));
  const given: Record<string, Record<string, readonly StoredRecord[]>> = {};
  for (const member of shape.members) given[member.resource.key] = { '': withDefaults(value[member.name] as StoredRecord[], member.resource.recordSchema, member.omit) };
  // A new target never takes an id a record still names (a complete order of a deleted pet).
  for (const rule of references) {
    if (!members.has(rule.target.key)) continue;
    for (const record of given[rule.resource.key]?.[''] ?? []) {
      const named = record[rule.field];
      if (typeof named === 'number') floors.set(rule.target.key, Math.max(floors.get(rule.target.key) ?? 0, named));
    }
  }
  // What the stated rules keep true at all times: references, uniqueness, reachable states (held-state.ts).
  const memberName = (resource: Resource): string => members.get(resource.key)!.name;
  const words = { place: (resource: Resource, _scope: string, index: number) => `/body/${pointer(memberName(resource))}/${index}`, nameOf: memberName, limit: PROBLEMS_SHOWN };
  for (const { resource: _resource, ...problem } of wholeStateProblems(given, rules, words)) problems.push(problem);
  if (problems.length > 0) return refuse();

  const state: Record<string, Record<string, readonly StoredRecord[]>> = { ...current.snapshot() };
  const loaded: Record<string, number> = {};
  for (const { name, resource } of shape.members) {
    const records = oldestFirst(given[resource.key]![''] as StoredRecord[], resource.idField);
    state[resource.key] = { '': records };
    loaded[name] = records.length;
    floors.set(resource.key, Math.max(floors.get(resource.key) ?? 0, current.sequence(resource.key)));
  }
  return { ok: true, state, floors, loaded };
}

/**
 * The records in the order of their ids where every id is a number (ids the mock issues one after another: the larger,
 * the newer), so that a list is oldest first whatever order the import gave them in, as the Pet Store's own store kept
 * them (its list of pets is "oldest first", openapi.yaml); otherwise in the order given.
 */
function oldestFirst(records: StoredRecord[], idField: string | undefined): StoredRecord[] {
  if (idField === undefined || !records.every((record) => typeof record[idField] === 'number')) return records;
  for (let i = 1; i < records.length; i++) {
    if ((records[i - 1]![idField] as number) > (records[i]![idField] as number)) return [...records].sort((a, b) => (a[idField] as number) - (b[idField] as number));
  }
  return records;
}

/** The counters member: an object of the shape's counter names, each an integer from 1 to 2^53-1 (the next id). */
function counterProblems(counters: NonNullable<StateShape['counters']>, value: unknown, problems: Diagnostic[], floors: Map<string, number>): void {
  const at = `/body/${pointer(counters.name)}`;
  if (!isObject(value)) {
    problems.push({ pointer: at, keyword: 'type', message: `must be an object of ${[...counters.of.keys()].join(', ')}` });
    return;
  }
  for (const key of Object.keys(value)) if (!counters.of.has(key)) problems.push({ pointer: `${at}/${pointer(key)}`, keyword: 'additionalProperties', message: `is not a counter; they are ${[...counters.of.keys()].join(', ')}` });
  for (const [name, resource] of counters.of) {
    const next = value[name];
    const here = `${at}/${pointer(name)}`;
    if (next === undefined) problems.push({ pointer: here, keyword: 'required', message: `is required: the next id of ${resource.collectionPath}` });
    else if (typeof next !== 'number' || !Number.isInteger(next)) problems.push({ pointer: here, keyword: 'type', message: 'must be an integer', actual: next });
    else if (next < 1) problems.push({ pointer: here, keyword: 'minimum', message: 'must be at least 1', expected: 1, actual: next });
    else if (!Number.isSafeInteger(next)) problems.push({ pointer: here, keyword: 'maximum', message: `must be at most ${Number.MAX_SAFE_INTEGER} (2^53-1)`, expected: Number.MAX_SAFE_INTEGER, actual: next });
    else floors.set(resource.key, next - 1);
  }
}

/** A record schema without some fields: neither required nor described. */
function without(schema: Schema, omit: readonly string[]): Schema {
  const merged = mergeAllOf(schema);
  const properties = Object.fromEntries(Object.entries(merged.properties ?? {}).filter(([name]) => !omit.includes(name)));
  return { ...merged, properties, ...(merged.required ? { required: merged.required.filter((name) => !omit.includes(name)) } : {}) } as Schema;
}

/** RFC 6901: `~` and `/` escaped. */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function fail(where: string, message: string): never {
  throw new KitError('RULES_INVALID', `${where}: ${message}.`, { pointer: where, reason: message });
}
