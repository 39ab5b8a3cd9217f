/**
 * The stated rules (rules.ts) at work: each write the generic engine makes (a create, an update, a delete) is an
 * event; `before` refuses it when it would break a uniqueness, a reference or a state machine, and `after` carries
 * out what it does to other records (effects, cascading deletes), or refuses it there (a counter out of its bounds, a
 * condition the other record does not meet). The engine runs both inside the store's transaction
 * (store.ts `atomically`), so a refusal at any point leaves the store as it was.
 *
 * Checks look records up by an index each store keeps (store.ts lookup): a uniqueness by its fields' values, what
 * still names a record by the id it names; neither reads a whole collection.
 */
import type { Operation } from '../../src/contract/index.js';
import { askedFor } from '../conveniences/forced-messages.js';
import { copiedFields, emptyRecord, fieldCount, immutableFresh } from '../engine/json.js';
import { singularOf, type Resource } from '../engine/infer.js';
import { isObject } from '../engine/schemas.js';
import type { GenericStore, RecordIndex, StoredRecord } from '../engine/store.js';
import type { Conditions, EffectRule, ReferenceRule, Rule, RuleAnswer, StateRule, UniqueRule, WriteKind } from './rules.js';

export interface WriteEvent {
  readonly kind: WriteKind;
  readonly resource: Resource;
  readonly scope: string;
  readonly id: string;
  /** The record as it was (update, delete). */
  readonly before?: StoredRecord;
  /** The record as written (create, update). */
  readonly after?: StoredRecord;
}

/** A refused write: the status and the plain Error the answer guard fits into the operation's documented error. */
export interface Refusal {
  readonly status: number;
  readonly body: { readonly code: string; readonly message: string; readonly status: number };
}

export interface RuleBook {
  readonly rules: readonly Rule[];
  before(event: WriteEvent, store: GenericStore, operation: Operation): Refusal | undefined;
  after(event: WriteEvent, store: GenericStore, operation: Operation): Refusal | undefined;
  /**
   * What an Error of `code` forced with `Prefer: code=` says about record `id`, in the words of the reference rule whose
   * refused delete has that code, about the records the store holds (`Pet 7 has the open order 3`), or, where none
   * names it, the rule's `none` words; undefined where no rule says it (the example's words are kept).
   */
  forcedMessage(code: string, id: string, status: number, store: GenericStore): string | undefined;
}

/** How deep deletes may cascade: records that name records that name records … (a cycle ends here). */
const MAX_CASCADE = 16;
/** The statuses a kind of refusal prefers, the first the operation documents (RFC 9110 §15.5.10, RFC 4918 §11.2). */
const CONFLICT = [409, 422, 400];
const MISSING = [422, 404, 409, 400];

export function createRuleBook(rules: readonly Rule[]): RuleBook {
  const unique = rules.filter((r): r is UniqueRule => r.kind === 'unique');
  const references = rules.filter((r): r is ReferenceRule => r.kind === 'reference');
  const states = rules.filter((r): r is StateRule => r.kind === 'states');
  const effects = rules.filter((r): r is EffectRule => r.kind === 'effect');
  // Each event meets only the rules of its own collection: looked up once per collection (and kind, for effects), in
  // the order the rules were stated, rather than every rule of the book filtered on every write (issue 34, point 1).
  const byResource = <R extends Rule>(list: readonly R[], of: (rule: R) => Resource): Map<Resource, R[]> => {
    const out = new Map<Resource, R[]>();
    for (const rule of list) {
      const held = out.get(of(rule));
      if (held) held.push(rule);
      else out.set(of(rule), [rule]);
    }
    return out;
  };
  const referencesFrom = byResource(references, (r) => r.resource);
  const referencesTo = byResource(references, (r) => r.target);
  const uniqueOf = byResource(unique, (r) => r.resource);
  const statesOf = byResource(states, (r) => r.resource);
  const effectsOf = new Map<WriteKind, Map<Resource, EffectRule[]>>((['create', 'update', 'delete'] as const).map((kind) => [kind, byResource(effects.filter((r) => r.on.has(kind)), (r) => r.resource)]));
  const NONE: readonly never[] = [];

  const before = (event: WriteEvent, store: GenericStore, operation: Operation): Refusal | undefined => {
    const record = event.after;
    if (record) {
      // What a record names must exist before anything else is said of it (an unknown pet, then its open order).
      for (const rule of referencesFrom.get(event.resource) ?? NONE) {
        const value = record[rule.field];
        if (value === undefined || value === null || (event.before && event.before[rule.field] === value)) continue;
        if (!store.get(rule.target.key, '', String(value))) return refuse(operation, MISSING, rule.missing, 'UNKNOWN_REFERENCE', `No record of ${rule.target.collectionPath} has id ${show(value)}; ${rule.field} must name one.`, { record, id: event.id });
      }
      for (const rule of uniqueOf.get(event.resource) ?? NONE) {
        if (!matches(record, rule.when)) continue;
        const other = clash(rule, event, store);
        if (other) return refuse(operation, CONFLICT, rule.answer, 'DUPLICATE', `${singularName(rule.resource)} with ${rule.fields.map((f) => `${f} ${show(record[f])}`).join(' and ')} exists already (${other.id}).`, { record, id: event.id, other: other.record, otherId: other.id });
      }
    }
    for (const rule of statesOf.get(event.resource) ?? NONE) {
      const refused = transition(rule, event);
      if (refused) return refuse(operation, CONFLICT, rule.answer, 'TRANSITION_NOT_ALLOWED', refused, { record: event.after ?? event.before ?? {}, id: event.id });
    }
    if (event.kind === 'delete' && event.before) {
      for (const rule of referencesTo.get(event.resource) ?? NONE) {
        if (rule.onDelete !== 'restrict') continue;
        const naming = namedBy(rule, event.id, store);
        const [first] = naming;
        if (first) return refuse(operation, CONFLICT, rule.inUse, 'IN_USE', `${singularName(event.resource)} ${event.id} is still named by ${naming.length} record${naming.length === 1 ? '' : 's'} of ${rule.resource.collectionPath} (${rule.field}); delete or change ${naming.length === 1 ? 'it' : 'them'} first.`, { record: event.before, id: event.id, count: naming.length, other: first.record, otherId: first.id });
      }
    }
    return undefined;
  };

  const after = (event: WriteEvent, store: GenericStore, operation: Operation, depth = 0): Refusal | undefined => {
    for (const rule of effectsOf.get(event.kind)!.get(event.resource) ?? NONE) {
      const record = event.kind === 'delete' ? event.before : event.after;
      if (!record || !matches(record, rule.when)) continue;
      if (rule.was.length > 0 && (!event.before || event.kind === 'create' || !matches(event.before, rule.was))) continue;
      const refused = effect(rule, record, event.id, store, operation);
      if (refused) return refused;
    }
    if (event.kind === 'delete') {
      for (const rule of referencesTo.get(event.resource) ?? NONE) {
        if (rule.onDelete !== 'cascade') continue;
        if (depth >= MAX_CASCADE) return refuse(operation, CONFLICT, rule.inUse, 'IN_USE', `deleting ${singularName(event.resource)} ${event.id} cascades more than ${MAX_CASCADE} levels deep; the references form a cycle.`, { record: event.before ?? {}, id: event.id });
        for (const { scope, id, record } of namedBy(rule, event.id, store)) {
          const child: WriteEvent = { kind: 'delete', resource: rule.resource, scope, id, before: record };
          const refused = before(child, store, operation);
          if (refused) return refused;
          store.remove(rule.resource.key, scope, id);
          const later = after(child, store, operation, depth + 1);
          if (later) return later;
        }
      }
    }
    return undefined;
  };

  const forcedMessage = (code: string, id: string, status: number, store: GenericStore): string | undefined => {
    for (const rule of references) {
      if (rule.onDelete !== 'restrict' || rule.inUse.code !== code || rule.inUse.message === undefined) continue;
      const naming = namedBy(rule, id, store);
      const record = store.get(rule.target.key, '', id) ?? {};
      const [first] = naming;
      if (first) return render(rule.inUse.message, { record, id, count: naming.length, other: first.record, otherId: first.id });
      if (rule.inUse.none !== undefined) return `${render(rule.inUse.none, { record, id, count: 0 })}; ${askedFor(status)}`;
    }
    return undefined;
  };

  return { rules, before, after: (event, store, operation) => after(event, store, operation), forcedMessage };
}

/**
 * The index each store keeps for a rule (store.ts lookup), one per rule: made on the rule's first lookup, by `make`
 * (called then only, so a lookup after it makes no function).
 */
const ruleIndexes = new WeakMap<Rule, RecordIndex>();
function indexFor(rule: Rule, make: () => RecordIndex['keyOf']): RecordIndex {
  let index = ruleIndexes.get(rule);
  if (!index) ruleIndexes.set(rule, (index = { keyOf: make() }));
  return index;
}

/**
 * A uniqueness's index: the text it compares (its fields' values, lower-cased where it ignores case), so a clash is
 * looked up, not searched for among every record of the collection.
 */
function uniqueIndexOf(rule: UniqueRule): RecordIndex {
  if (rule.fields.length === 1) {
    // One field (most uniquenesses): the same text as below, `[value]`, without the array made on every write.
    const [field] = rule.fields as readonly [string];
    return indexFor(rule, () => (r) => {
      const value = r[field];
      if (value === undefined || value === null) return undefined;
      // A finite number's JSON is its text, and has no case: no JSON.stringify on every write (the order cycle's petId).
      if (typeof value === 'number' && Number.isFinite(value)) return `[${value}]`;
      const text = `[${JSON.stringify(value)}]`;
      return rule.ignoreCase ? text.toLowerCase() : text;
    });
  }
  return indexFor(rule, () => (r) => {
    const values = rule.fields.map((f) => r[f]);
    if (values.some((v) => v === undefined || v === null)) return undefined;
    const text = JSON.stringify(values);
    return rule.ignoreCase ? text.toLowerCase() : text;
  });
}

/** The record of the same scope that already holds the rule's fields (compared ignoring case where it says so). */
function clash(rule: UniqueRule, event: WriteEvent, store: GenericStore): { readonly id: string; readonly record: StoredRecord } | undefined {
  const index = uniqueIndexOf(rule);
  const wanted = index.keyOf(event.after!);
  if (wanted === undefined) return undefined;
  const idField = rule.resource.idField;
  // In the order they were indexed: the collection's own, but for a record whose fields changed since (met last).
  for (const key of store.lookup(rule.resource.key, event.scope, index, wanted)) {
    const other = store.get(rule.resource.key, event.scope, key)!;
    const otherId = idField !== undefined ? String(other[idField]) : undefined;
    if (otherId === event.id || other === event.before) continue;
    if (matches(other, rule.when)) return { id: otherId ?? '?', record: other };
  }
  return undefined;
}

/** Why a write breaks the state machine, or undefined when it keeps to it. */
function transition(rule: StateRule, event: WriteEvent): string | undefined {
  const { field } = rule;
  if (event.kind === 'create' && event.after && rule.initial && !includes(rule.initial, event.after[field])) {
    return `a record of ${rule.resource.collectionPath} is created with ${field} ${rule.initial.map(show).join(' or ')}, not ${show(event.after[field])}.`;
  }
  if (event.kind === 'delete' && event.before && rule.deletable && !includes(rule.deletable, event.before[field])) {
    return `${singularName(rule.resource)} ${event.id} is ${show(event.before[field])}; only one whose ${field} is ${rule.deletable.map(show).join(' or ')} can be deleted.`;
  }
  if (event.kind === 'update' && event.before && event.after) {
    const from = event.before[field];
    const to = event.after[field];
    if (from === to || to === undefined) return undefined;
    const allowed = rule.transitions.get(JSON.stringify(from)) ?? [];
    if (!includes(allowed, to)) return `${field} cannot go from ${show(from)} to ${show(to)}; from ${show(from)} it ${allowed.length === 0 ? 'goes nowhere' : `may go to ${allowed.map(show).join(' or ')}`}.`;
  }
  return undefined;
}

/** Carries out one effect on the record `by` names: its conditions, its sets and its sums; a refusal when it cannot. */
function effect(rule: EffectRule, record: StoredRecord, id: string, store: GenericStore, operation: Operation): Refusal | undefined {
  const targetId = record[rule.by];
  if (targetId === undefined || targetId === null) return undefined;
  const target = store.get(rule.target.key, '', String(targetId));
  if (!target) {
    if (rule.require.length === 0) return undefined;
    return refuse(operation, MISSING, rule.answer, 'UNKNOWN_REFERENCE', `No record of ${rule.target.collectionPath} has id ${show(targetId)}; ${rule.by} must name one.`, { record, id });
  }
  // The words of a refusal are made only for one: a spread, or a function, made on every effect was most of an
  // effect's cost (CPU profiles of the order cycle).
  for (const [field, allowed] of rule.require) {
    if (!includes(allowed, target[field])) return refuse(operation, CONFLICT, rule.answer, 'NOT_ALLOWED', `${singularName(rule.target)} ${show(targetId)} has ${field} ${show(target[field])}; it must be ${allowed.map(show).join(' or ')}.`, { record, id, other: target, otherId: String(targetId) });
  }
  // Copied field by field: a spread's copy is slow to freeze (mock/engine/json.ts copiedFields), and this one is stored frozen.
  const next = copiedFields(target, emptyRecord(fieldCount(target)));
  for (const [field, value] of rule.set) next[field] = value;
  for (const [field, amount] of rule.add) {
    const current = typeof target[field] === 'number' ? target[field] : 0;
    const by = typeof amount === 'number' ? amount : amount.sign * (typeof record[amount.field] === 'number' ? (record[amount.field] as number) : 0);
    next[field] = rule.cap ? withinBounds(rule, field, current + by) : current + by;
  }
  const bounds = outOfBounds(rule, next);
  if (bounds) return refuse(operation, CONFLICT, rule.answer, 'NOT_ALLOWED', `${singularName(rule.target)} ${show(targetId)} has ${bounds.field} ${show(target[bounds.field])}; this would make it ${show(next[bounds.field])}, ${bounds.why}.`, { record, id, other: target, otherId: String(targetId) });
  if (rule.set.length > 0 || rule.add.length > 0) store.set(rule.target.key, '', String(targetId), immutableFresh(next));
  return undefined;
}

/** A sum of a capped effect (`cap: true`), stopped at its field's documented minimum or maximum. */
function withinBounds(rule: EffectRule, field: string, value: number): number {
  const schema = (rule.target.recordSchema?.properties ?? {})[field];
  if (!isObject(schema)) return value;
  const { minimum, maximum } = schema as { minimum?: unknown; maximum?: unknown };
  if (typeof maximum === 'number' && value > maximum) return maximum;
  if (typeof minimum === 'number' && value < minimum) return minimum;
  return value;
}

/** A sum taken past its field's documented bounds (`minimum: 0` for a stock): which field, and why. */
function outOfBounds(rule: EffectRule, next: Readonly<Record<string, unknown>>): { readonly field: string; readonly why: string } | undefined {
  const properties = rule.target.recordSchema?.properties ?? {};
  for (const [field] of rule.add) {
    const schema = properties[field];
    const value = next[field];
    if (!isObject(schema) || typeof value !== 'number') continue;
    const { minimum, maximum } = schema as { minimum?: unknown; maximum?: unknown };
    if (typeof minimum === 'number' && value < minimum) return { field, why: `below its minimum ${minimum}` };
    if (typeof maximum === 'number' && value > maximum) return { field, why: `above its maximum ${maximum}` };
  }
  return undefined;
}

/** A reference's reverse index: each record by the text of the id its field names. */
function referenceIndexOf(rule: ReferenceRule): RecordIndex {
  return indexFor(rule, () => (record) => {
    const value = record[rule.field];
    return value === undefined || value === null ? undefined : String(value);
  });
}

/**
 * The records of the rule's collection, in every scope, whose field names `id` (and that match the rule's condition),
 * looked up by the reference's reverse index rather than read one by one (a category deleted among a million pets).
 */
function namedBy(rule: ReferenceRule, id: string, store: GenericStore): { readonly scope: string; readonly id: string; readonly record: StoredRecord }[] {
  const out: { scope: string; id: string; record: StoredRecord }[] = [];
  const idField = rule.resource.idField;
  const index = referenceIndexOf(rule);
  for (const scope of store.scopes(rule.resource.key)) {
    for (const key of store.lookup(rule.resource.key, scope, index, id)) {
      const record = store.get(rule.resource.key, scope, key)!;
      if (matches(record, rule.when)) out.push({ scope, id: idField !== undefined ? String(record[idField]) : '?', record });
    }
  }
  return out;
}

/** Whether a record meets a rule's conditions: each field holds one of its values. */
export function matches(record: StoredRecord, conditions: Conditions): boolean {
  for (let i = 0; i < conditions.length; i += 1) {
    const [field, allowed] = conditions[i]!;
    if (!includes(allowed, record[field])) return false;
  }
  return true;
}

function includes(values: readonly unknown[], value: unknown): boolean {
  for (let i = 0; i < values.length; i += 1) {
    const candidate = values[i];
    if (candidate === value || (typeof candidate === 'object' && JSON.stringify(candidate) === JSON.stringify(value))) return true;
  }
  return false;
}

/** `Category` for `/categories`: how a message names one record of a collection. */
function singularName(resource: Resource): string {
  const singular = singularOf(resource.name);
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'nothing';
}

interface Words {
  readonly record: Readonly<Record<string, unknown>>;
  readonly id: string;
  readonly count?: number;
  readonly other?: Readonly<Record<string, unknown>>;
  readonly otherId?: string;
}

/**
 * The refusal: the stated status, else the first of `preferred` the operation documents (else the first); the stated
 * code and message, else the rule's own words. `{field}`, `{id}`, `{count}`, `{other.field}` and `{other.id}` in a
 * stated message are the records' values.
 */
function refuse(operation: Operation, preferred: readonly number[], answer: RuleAnswer, code: string, message: string, words: Words): Refusal {
  const status = answer.status ?? preferred.find((s) => operation.responses.has(String(s))) ?? preferred[0]!;
  const text = answer.message === undefined ? message.charAt(0).toUpperCase() + message.slice(1) : render(answer.message, words);
  return { status, body: { code: answer.code ?? code, message: text, status } };
}

/**
 * A stated message with its words put in: `{id}`, `{count}`, `{field}`, `{other.field}`; `{count|pet|pets}` is the first
 * word where the value is 1, else the second (`{count} {count|pet|pets}`: "1 pet", "2 pets").
 */
function render(template: string, words: Words): string {
  return template.replace(/\{([A-Za-z0-9_.$-]+)(?:\|([^{}|]*)\|([^{}|]*))?\}/g, (whole, name: string, one: string | undefined, other: string | undefined) => {
    const value = wordOf(name, words);
    if (value === undefined) return whole;
    if (one !== undefined && other !== undefined) return Number(value) === 1 ? one : other;
    return show(value);
  });
}

function wordOf(name: string, words: Words): unknown {
  if (name === 'id') return words.id;
  if (name === 'count') return words.count;
  if (name === 'other.id') return words.otherId;
  const [scope, field] = name.startsWith('other.') ? [words.other, name.slice('other.'.length)] : [words.record, name];
  return scope?.[field];
}
