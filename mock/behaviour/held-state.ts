/**
 * What the stated rules (rules.ts) keep true of a whole state, for the states the mock takes whole rather than write
 * by write (rule-book.ts holds each write): an import (`PUT /__mock/state` in the overlay's shape, state-shape.ts), the
 * fixtures it starts from (`--fixtures DIR`), and the data it makes itself (the document's examples, generated records).
 *
 * - `wholeStateProblems`: a reference that would restrict or cascade the delete of its target names a record that
 *   exists (among the records its `when` picks); no two records of a scope share what `x-mock-unique` says is unique
 *   (among those its `when` picks); a record of a state machine that states its `initial` states is in one a record can
 *   reach from them. Imports and fixtures are refused where they break one, naming where.
 * - `withDefaults`: the documented `default` of each field a record leaves out, as a create takes it, so that the
 *   conditions above read the record as the mock will hold it (an order without `complete` is an open one).
 * - `keptToRules`: the mock's own data made to keep the rules instead, since a start must not fail for what the mock
 *   made up: a reference pointed at a record that exists (else left out where the schema lets it, else the record
 *   dropped), a later duplicate dropped, a state no record could reach set to the first initial one, and the records
 *   under a parent that went with it.
 */
import type { Diagnostic } from '../../src/schema/index.js';
import { immutableJson } from '../engine/json.js';
import { parentOf, type Resource, type ResourceMap } from '../engine/infer.js';
import { mergeAllOf, propertiesOf, type Schema } from '../engine/schemas.js';
import { createGenericRegistry, type GenericState, type StoredRecord } from '../engine/store.js';
import { matches } from './rule-book.js';
import type { ReferenceRule, Rule, StateRule, UniqueRule } from './rules.js';

/** A problem of a whole state: where (a pointer the caller's `place` began), and the collection it is in. */
export interface HeldProblem extends Diagnostic {
  readonly resource: Resource;
}

export interface WholeStateWords {
  /** The pointer of a record: `/body/pets/4` for an import, `/4` in a fixtures file. */
  readonly place: (resource: Resource, scope: string, index: number) => string;
  /** How a message names a collection: the import's member, a fixtures file's name. */
  readonly nameOf: (resource: Resource) => string;
  /** How many problems to find at most. */
  readonly limit: number;
}

/**
 * The problems of a state (collection key → scope → records) with the rules: references first, then uniqueness, then
 * states. A reference is checked only where the state holds its target's collection (an import's shape may leave it out).
 */
export function wholeStateProblems(state: GenericState, rules: readonly Rule[], words: WholeStateWords): HeldProblem[] {
  const problems: HeldProblem[] = [];
  const full = (): boolean => problems.length >= words.limit;
  const ids = new Map<Resource, ReadonlySet<string>>();
  const idsOf = (resource: Resource): ReadonlySet<string> => {
    let known = ids.get(resource);
    if (!known) ids.set(resource, (known = new Set((state[resource.key]?.[''] ?? []).map((record, index) => idOf(resource, record, index)))));
    return known;
  };
  for (const rule of rules) {
    if (rule.kind !== 'reference' || rule.onDelete === 'keep' || state[rule.target.key] === undefined) continue;
    const targets = idsOf(rule.target);
    each(state, rule.resource, (record, scope, index) => {
      const named = record[rule.field];
      if (full() || named === undefined || named === null || !matches(record, rule.when) || targets.has(String(named))) return;
      problems.push({ resource: rule.resource, pointer: `${words.place(rule.resource, scope, index)}/${pointer(rule.field)}`, keyword: 'reference', message: `names ${String(named)}, which no record of ${words.nameOf(rule.target)} has` });
    });
  }
  for (const rule of rules) {
    if (rule.kind !== 'unique') continue;
    const firsts = new Map<string, number>();
    let scopeNow: string | undefined;
    each(state, rule.resource, (record, scope, index) => {
      if (scope !== scopeNow) {
        firsts.clear();
        scopeNow = scope;
      }
      const key = uniqueKey(rule, record);
      if (full() || key === undefined) return;
      const earlier = firsts.get(key);
      if (earlier === undefined) firsts.set(key, index);
      else {
        const values = rule.fields.map((field) => JSON.stringify(record[field])).join(' + ');
        problems.push({ resource: rule.resource, pointer: `${words.place(rule.resource, scope, index)}/${pointer(rule.fields[0]!)}`, keyword: 'unique', message: `${rule.fields.join(' + ')} ${values} is ${words.place(rule.resource, scope, earlier)}'s already${rule.ignoreCase ? ' (case aside)' : ''}; no two records share it` });
      }
    });
  }
  for (const rule of rules) {
    if (rule.kind !== 'states' || rule.initial === undefined) continue;
    const reachable = reachableStates(rule);
    each(state, rule.resource, (record, scope, index) => {
      const value = record[rule.field];
      if (full() || value === undefined || reachable.has(JSON.stringify(value))) return;
      problems.push({ resource: rule.resource, pointer: `${words.place(rule.resource, scope, index)}/${pointer(rule.field)}`, keyword: 'state', message: `is ${JSON.stringify(value)}, a state no record reaches: records are created ${rule.initial!.map((v) => JSON.stringify(v)).join(' or ')} and move only as ${rule.where} says` });
    });
  }
  return problems;
}

/**
 * The first problem with the rules a behaviour's `load` hook left in the state it completed (`after`), among the
 * collections `keys` (those held to the rules before it ran, so that what breaks one now is what the hook wrote or
 * removed), said as the hook's (`where`: its module): `the load hook of rules.mjs left /books/0/authorId: names 9, …`.
 */
export function loadHookProblem(after: GenericState, keys: Iterable<string>, rules: readonly Rule[], where: string): Diagnostic | undefined {
  // Each record read with its documented defaults, as the import and the fixtures were (a book the hook writes without
  // a status is a draft, which its reference holds).
  const schemas = new Map<string, Schema | undefined>(rules.map((rule) => [rule.resource.key, rule.resource.recordSchema]));
  const checked: Record<string, Readonly<Record<string, readonly StoredRecord[]>>> = {};
  for (const key of keys) {
    const scopes = after[key];
    if (scopes === undefined) continue;
    const schema = schemas.get(key);
    checked[key] = schema === undefined ? scopes : Object.fromEntries(Object.entries(scopes).map(([scope, records]) => [scope, withDefaults(records, schema)]));
  }
  const words: WholeStateWords = {
    place: (resource, scope, index) => `${resource.collectionPath}${scope === '' ? '' : `/${pointer(scope)}`}/${index}`,
    nameOf: (resource) => resource.collectionPath,
    limit: 1,
  };
  const [first] = wholeStateProblems(checked, rules, words);
  if (!first) return undefined;
  return { pointer: first.pointer, keyword: first.keyword, message: `the load hook of ${where} left ${first.pointer}: ${first.message}, which the stated rules do not allow` };
}

/** Each record of a collection in the state, scope by scope. */
function each(state: GenericState, resource: Resource, visit: (record: StoredRecord, scope: string, index: number) => void): void {
  for (const [scope, records] of Object.entries(state[resource.key] ?? {})) records.forEach((record, index) => visit(record, scope, index));
}

/** A record's id as the store keeps it: its id field's value, else its place (initial.ts idOf). */
function idOf(resource: Resource, record: StoredRecord, index: number): string {
  const value = resource.idField === undefined ? undefined : record[resource.idField];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : String(index + 1);
}

/** What a uniqueness compares of a record (case aside where it says so), or undefined where it does not hold it. */
function uniqueKey(rule: UniqueRule, record: StoredRecord): string | undefined {
  if (!matches(record, rule.when)) return undefined;
  const values = rule.fields.map((field) => record[field]);
  if (values.some((value) => value === undefined || value === null)) return undefined;
  const text = JSON.stringify(values);
  return rule.ignoreCase ? text.toLowerCase() : text;
}

/** The states (as JSON text) a record of a state machine can be in: its initial states and where they lead. */
function reachableStates(rule: StateRule): ReadonlySet<string> {
  const reached = new Set((rule.initial ?? []).map((value) => JSON.stringify(value)));
  for (const from of reached) for (const to of rule.transitions.get(from) ?? []) reached.add(JSON.stringify(to));
  return reached;
}

/** The documented defaults of a record schema's fields, but those left out (`omit`), by field. */
const defaultsKept = new WeakMap<Schema, readonly (readonly [string, unknown])[]>();
function defaultsOf(schema: Schema): readonly (readonly [string, unknown])[] {
  let known = defaultsKept.get(schema);
  if (!known) {
    known = [...propertiesOf(schema)].map(([name, property]) => [name, mergeAllOf(property).default] as const).filter(([, value]) => value !== undefined && value !== null);
    defaultsKept.set(schema, known);
  }
  return known;
}

/**
 * The records with the documented `default` of each field they leave out (OAS 3.0.3 §4.7.24: what the server assumes),
 * as a create takes it (engine.ts makeRecord); the fields in `omit` are a load hook's to give. The records as they are
 * where none lacks one.
 */
export function withDefaults(records: readonly StoredRecord[], schema: Schema | undefined, omit: readonly string[] = []): readonly StoredRecord[] {
  const defaults = schema ? defaultsOf(schema).filter(([field]) => !omit.includes(field)) : [];
  if (defaults.length === 0) return records;
  let out: StoredRecord[] | undefined;
  records.forEach((record, index) => {
    const missing = defaults.filter(([field]) => !Object.hasOwn(record, field));
    if (missing.length === 0) return;
    const completed: Record<string, unknown> = { ...record };
    for (const [field, value] of missing) completed[field] = typeof value === 'object' ? structuredClone(value) : value;
    (out ??= [...records])[index] = completed;
  });
  return out ?? records;
}

/** How many targets a reference of the mock's own data tries before it leaves the field out. */
const TARGETS_TRIED = 8;

/**
 * The mock's own initial data (examples, generated records) made to keep the rules: see the top of this file. `valid`
 * says whether a record its schema passes; `idOfRecord` is the id a store keeps a record under (initial.ts idOf).
 * The state as it was where it keeps them already.
 */
export function keptToRules(state: GenericState, rules: readonly Rule[], map: ResourceMap, idOfRecord: (resource: string, record: StoredRecord, index: number) => string, valid: (schema: Schema, value: unknown) => boolean): GenericState {
  if (rules.length === 0) return state;
  const store = createGenericRegistry(state, idOfRecord).get();
  let changed = false;
  /** The records of a collection in a scope, each with its id. */
  const held = (resource: Resource, scope: string): [string, StoredRecord][] => [...store.records(resource.key, scope)].map((record, index) => [idOfRecord(resource.key, record, index), record]);
  const put = (resource: Resource, scope: string, id: string, record: StoredRecord | undefined): void => {
    if (record === undefined) store.remove(resource.key, scope, id);
    else store.set(resource.key, scope, id, immutableJson(record));
    changed = true;
  };
  /** The record changed as asked where its schema takes it, else undefined. */
  const fitting = (resource: Resource, record: StoredRecord, field: string, value: unknown): StoredRecord | undefined => {
    const next: Record<string, unknown> = { ...record };
    if (value === undefined) delete next[field];
    else next[field] = value;
    return !resource.recordSchema || valid(resource.recordSchema, next) ? next : undefined;
  };
  for (let again = true; again; ) {
    again = false;
    for (const rule of rules) {
      if (rule.kind === 'reference') again = kept(rule) || again;
      else if (rule.kind === 'unique') again = unique(rule) || again;
      else if (rule.kind === 'states') again = states(rule) || again;
    }
    again = orphans() || again;
  }
  return changed ? store.handOver() : state;

  /** Every reference names a record that exists (a create would have it so, whatever the rule's `when`); true where a record went. */
  function kept(rule: ReferenceRule): boolean {
    let dropped = false;
    const targets = held(rule.target, '');
    for (const scope of [...store.scopes(rule.resource.key)]) {
      held(rule.resource, scope).forEach(([id, record], index) => {
        const named = record[rule.field];
        if (named === undefined || named === null || store.get(rule.target.key, '', String(named))) return;
        let next: StoredRecord | undefined;
        for (let i = 0; i < Math.min(targets.length, TARGETS_TRIED) && !next; i += 1) {
          const [targetId, target] = targets[(index + i) % targets.length]!;
          next = fitting(rule.resource, record, rule.field, rule.target.idField !== undefined ? target[rule.target.idField] : targetId);
        }
        next ??= fitting(rule.resource, record, rule.field, undefined);
        put(rule.resource, scope, id, next);
        if (!next) dropped = true;
      });
    }
    return dropped;
  }

  /** A later record sharing what is unique goes; true where one did. */
  function unique(rule: UniqueRule): boolean {
    let dropped = false;
    for (const scope of [...store.scopes(rule.resource.key)]) {
      const seen = new Set<string>();
      for (const [id, record] of held(rule.resource, scope)) {
        const key = uniqueKey(rule, record);
        if (key === undefined) continue;
        if (!seen.has(key)) seen.add(key);
        else {
          put(rule.resource, scope, id, undefined);
          dropped = true;
        }
      }
    }
    return dropped;
  }

  /** A state no record could reach is the first initial one, else the record goes; true where one did. */
  function states(rule: StateRule): boolean {
    if (rule.initial === undefined || rule.initial.length === 0) return false;
    const reachable = reachableStates(rule);
    let dropped = false;
    for (const scope of [...store.scopes(rule.resource.key)]) {
      for (const [id, record] of held(rule.resource, scope)) {
        const value = record[rule.field];
        if (value === undefined || reachable.has(JSON.stringify(value))) continue;
        const next = fitting(rule.resource, record, rule.field, rule.initial[0]);
        put(rule.resource, scope, id, next);
        if (!next) dropped = true;
      }
    }
    return dropped;
  }

  /** The records under a parent that is gone go too; true where any did. */
  function orphans(): boolean {
    let dropped = false;
    for (const resource of map.resources) {
      const parent = resource.scopeParams.length > 0 ? parentOf(resource, map.resources) : undefined;
      if (!parent) continue;
      for (const scope of [...store.scopes(resource.key)]) {
        const cut = scope.lastIndexOf('/');
        if (store.get(parent.key, cut < 0 ? '' : scope.slice(0, cut), scope.slice(cut + 1))) continue;
        for (const [id] of held(resource, scope)) {
          put(resource, scope, id, undefined);
          dropped = true;
        }
      }
    }
    return dropped;
  }
}

/** RFC 6901: `~` and `/` escaped. */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
