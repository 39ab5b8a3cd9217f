/**
 * Business rules stated beside a document, not coded (issue 34, point 2): a small vocabulary of `x-mock-*` extensions
 * on a collection's path item, in the document or in the `--mock-overlay` file (its `paths`, in the same words):
 *
 * - `x-mock-unique`: a field, or a combination of fields, that no two records share (optionally only among records
 *   that match a condition, and ignoring case): a write that would break it is refused (409, or the operation's
 *   documented conflict answer).
 * - `x-mock-references`: a field that names a record of another collection: a create or update naming none is refused
 *   (the operation's 422 or 404); deleting a record still named is refused (`onDelete: restrict`), takes the records
 *   naming it with it (`cascade`), or leaves them (`keep`).
 * - `x-mock-states`: a state machine on a field: the values a record may be created with, the transitions a write may
 *   make, the values a record may be deleted in; any other is refused (409).
 * - `x-mock-effects`: what a create, update or delete of a record does to the record another of its fields names:
 *   fields set, numbers added to (a counter, kept inside its schema's bounds), conditions required of it.
 *
 * And one statement of words rather than a rule: `x-mock-not-found` (`{ code, message }`, the message naming `{id}`),
 * what a request for a record of the collection that does not exist is answered with, in place of the engine's plain
 * words (readNotFound).
 *
 * Every rule is checked against the document when the mock starts (rules.ts): a collection, a field or a value the
 * document does not have is a RULES_INVALID kit error naming the spot. rule-book.ts runs them, inside the store's
 * transaction, so a refused write changes nothing.
 */
import type { CompiledContract } from '../../src/schema/index.js';
import { KitError } from '../../src/kit-error.js';
import type { MockOverlay, Resource, ResourceMap } from '../engine/infer.js';
import { extension, isObject, mergeAllOf, propertiesOf, typeOf, type Schema } from '../engine/schemas.js';

/** What a refused write is answered with; a field left out takes the operation's documented answer and a plain word. */
export interface RuleAnswer {
  readonly status?: number;
  readonly code?: string;
  /** A message with `{field}` for the record's fields, `{id}`, `{count}` and `{other.field}` for the other record. */
  readonly message?: string;
  /**
   * A reference's `inUse` only: what this code forced with `Prefer: code=` says where no record names the target
   * (`Pet {id} has no open order`); the mock adds that the answer was asked for. Without it, the example's words.
   */
  readonly none?: string;
}

/** Fields and the values they must have (one value, or one of a list). */
export type Conditions = readonly (readonly [field: string, allowed: readonly unknown[]])[];

export interface UniqueRule {
  readonly kind: 'unique';
  readonly resource: Resource;
  readonly fields: readonly string[];
  readonly ignoreCase: boolean;
  readonly when: Conditions;
  readonly answer: RuleAnswer;
  readonly where: string;
}

export interface ReferenceRule {
  readonly kind: 'reference';
  readonly resource: Resource;
  readonly field: string;
  readonly target: Resource;
  readonly onDelete: 'restrict' | 'cascade' | 'keep';
  /** Only records that match this name their target in a way that restricts its deletion (an open order, not a complete one). */
  readonly when: Conditions;
  readonly missing: RuleAnswer;
  readonly inUse: RuleAnswer;
  readonly where: string;
}

export interface StateRule {
  readonly kind: 'states';
  readonly resource: Resource;
  readonly field: string;
  /** The values a record may be created with; any when absent. */
  readonly initial: readonly unknown[] | undefined;
  /** A value (as JSON text) → the values a write may move it to. A value not listed moves nowhere. */
  readonly transitions: ReadonlyMap<string, readonly unknown[]>;
  /** The values a record may be deleted in; any when absent. */
  readonly deletable: readonly unknown[] | undefined;
  readonly answer: RuleAnswer;
  readonly where: string;
}

export type WriteKind = 'create' | 'update' | 'delete';

export interface EffectRule {
  readonly kind: 'effect';
  readonly resource: Resource;
  readonly on: ReadonlySet<WriteKind>;
  /** Conditions on the record as written (as it was, for a delete). */
  readonly when: Conditions;
  /** Conditions on the record before an update or delete: a create never meets them. */
  readonly was: Conditions;
  readonly target: Resource;
  /** The field of the record that holds the target's id. */
  readonly by: string;
  /** Conditions the target must meet, else the write is refused. */
  readonly require: Conditions;
  /** Target fields set to these values. */
  readonly set: readonly (readonly [field: string, value: unknown])[];
  /** Target fields a number is added to: a constant, or a field of the record (negated with a leading `-`). */
  readonly add: readonly (readonly [field: string, amount: number | { readonly field: string; readonly sign: 1 | -1 }])[];
  /** A sum past the field's documented minimum or maximum stops there (`cap: true`: stock given back) instead of refusing the write. */
  readonly cap?: boolean;
  readonly answer: RuleAnswer;
  readonly where: string;
}

export type Rule = UniqueRule | ReferenceRule | StateRule | EffectRule;

export const RULE_EXTENSIONS = ['x-mock-unique', 'x-mock-references', 'x-mock-states', 'x-mock-effects'] as const;

/**
 * The rules stated on the document's path items and the overlay's, checked against the inferred resources and their
 * record schemas. Throws a RULES_INVALID KitError naming the first spot that names something the document lacks.
 */
export function readRules(compiled: CompiledContract, map: ResourceMap, overlay: MockOverlay = {}): readonly Rule[] {
  const rules: Rule[] = [];
  eachStated(compiled, map, overlay, RULE_EXTENSIONS, (name, stated, reader) => rules.push(...reader.read(name, stated)));
  return rules;
}

/** The words a 404 of a collection's record takes (`x-mock-not-found`), by resource key: `{id}` is the id asked for. */
export interface NotFoundWords {
  readonly code?: string;
  readonly message?: string;
}

/** The `x-mock-not-found` statements of the document's path items and the overlay's, checked as the rules are. */
export function readNotFound(compiled: CompiledContract, map: ResourceMap, overlay: MockOverlay = {}): ReadonlyMap<string, NotFoundWords> {
  const words = new Map<string, NotFoundWords>();
  eachStated(compiled, map, overlay, ['x-mock-not-found'], (_name, stated, reader, resource) => words.set(resource.key, reader.notFound(stated)));
  return words;
}

/** Calls `visit` with each statement of one of `names` on a collection's path item (the document's, then the overlay's). */
function eachStated<Name extends string>(compiled: CompiledContract, map: ResourceMap, overlay: MockOverlay, names: readonly Name[], visit: (name: Name, stated: unknown, reader: RuleReader, resource: Resource) => void): void {
  const { contract } = compiled;
  const byPath = new Map<string, Resource>();
  for (const resource of map.resources) {
    byPath.set(resource.collectionPath, resource);
    byPath.set(resource.itemPath, resource);
  }
  const templates = new Set([...Object.keys(contract.document.paths ?? {}), ...Object.keys(overlay.paths ?? {})]);
  for (const template of templates) {
    const sources: [string, unknown][] = [
      [`${contract.file}#/paths/${pointer(template)}`, contract.document.paths?.[template]],
      [`the overlay, paths/${template}`, overlay.paths?.[template]],
    ];
    for (const [place, item] of sources) {
      for (const name of names) {
        const stated = extension(item, name);
        if (stated === undefined) continue;
        const where = `${place}/${name}`;
        const resource = byPath.get(template);
        if (!resource) {
          const known = map.resources.map((r) => r.collectionPath).join(', ') || 'none';
          fail(where, `${template} is not a collection the mock keeps records of (it keeps ${known}); state a rule on one of those, or correct the inference with x-mock-id`);
        }
        visit(name, stated, new RuleReader(compiled, map, resource, where), resource);
      }
    }
  }
}

class RuleReader {
  private readonly fields: ReadonlyMap<string, Schema>;

  constructor(
    private readonly compiled: CompiledContract,
    private readonly map: ResourceMap,
    private readonly resource: Resource,
    private readonly where: string,
  ) {
    this.fields = resource.recordSchema ? propertiesOf(resource.recordSchema) : new Map();
  }

  read(name: (typeof RULE_EXTENSIONS)[number], stated: unknown): Rule[] {
    const list = Array.isArray(stated) ? stated : [stated];
    return list.map((one: unknown, index) => {
      const at = `${this.where}/${index}`;
      if (name === 'x-mock-unique') return this.unique(one, at);
      if (name === 'x-mock-references') return this.reference(one, at);
      if (name === 'x-mock-states') return this.states(one, at);
      return this.effect(one, at);
    });
  }

  /** `x-mock-not-found`: a code and a message, which may name `{id}` and nothing else (no record is there to name). */
  notFound(stated: unknown): NotFoundWords {
    const spec = this.object(stated, this.where, ['code', 'message']);
    const words = this.answer(spec, this.where);
    const stray = words.message?.match(/\{(?!id\})[^{}]*\}/)?.[0];
    if (stray !== undefined) fail(`${this.where}/message`, `names ${stray}, but a record that does not exist has only the {id} it was asked for`);
    return { ...(words.code !== undefined ? { code: words.code } : {}), ...(words.message !== undefined ? { message: words.message } : {}) };
  }

  private unique(stated: unknown, at: string): UniqueRule {
    // `x-mock-unique: name`, `[name, parentId]` as a shorthand for `{ fields: ... }`.
    const spec = typeof stated === 'string' || Array.isArray(stated) ? { fields: stated } : this.object(stated, at, ['fields', 'ignoreCase', 'when', 'status', 'code', 'message']);
    const raw = spec['fields'];
    const fields = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.length > 0 && raw.every((f) => typeof f === 'string') ? (raw as string[]) : fail(`${at}/fields`, 'must name a field, or a list of fields that no two records share');
    fields.forEach((field, i) => this.field(field, `${at}/fields/${i}`));
    return { kind: 'unique', resource: this.resource, fields, ignoreCase: this.flag(spec['ignoreCase'], `${at}/ignoreCase`), when: this.conditions(spec['when'], this.resource, `${at}/when`), answer: this.answer(spec, at), where: at };
  }

  private reference(stated: unknown, at: string): ReferenceRule {
    const spec = this.object(stated, at, ['field', 'to', 'onDelete', 'when', 'missing', 'inUse']);
    const field = this.text(spec['field'], `${at}/field`, 'the field that holds the other record\'s id');
    this.field(field, `${at}/field`);
    const target = this.collection(spec['to'], `${at}/to`);
    if (target.scopeParams.length > 0) fail(`${at}/to`, `${target.collectionPath} lives under another record; a reference names a top-level collection`);
    const onDelete = spec['onDelete'] ?? 'restrict';
    if (onDelete !== 'restrict' && onDelete !== 'cascade' && onDelete !== 'keep') fail(`${at}/onDelete`, `must be restrict, cascade or keep, not ${JSON.stringify(onDelete)}`);
    return {
      kind: 'reference',
      resource: this.resource,
      field,
      target,
      onDelete,
      when: this.conditions(spec['when'], this.resource, `${at}/when`),
      missing: this.answer(spec['missing'] ?? {}, `${at}/missing`),
      inUse: this.answer(spec['inUse'] ?? {}, `${at}/inUse`),
      where: at,
    };
  }

  private states(stated: unknown, at: string): StateRule {
    const spec = this.object(stated, at, ['field', 'initial', 'transitions', 'deletable', 'status', 'code', 'message']);
    const field = this.text(spec['field'], `${at}/field`, 'the field whose values are the states');
    const schema = this.field(field, `${at}/field`);
    const transitions = spec['transitions'];
    if (!isObject(transitions)) fail(`${at}/transitions`, 'must map each state to the states a write may move it to, e.g. { placed: [approved, cancelled] }');
    const states = new Map<string, unknown[]>();
    for (const [from, to] of Object.entries(transitions)) {
      const value = this.stateValue(from, schema, `${at}/transitions/${pointer(from)}`);
      const targets = Array.isArray(to) ? to : fail(`${at}/transitions/${pointer(from)}`, 'must be a list of states (empty for none)');
      states.set(JSON.stringify(value), targets.map((target: unknown, i) => this.value(target, schema, `${at}/transitions/${pointer(from)}/${i}`)));
    }
    const list = (key: 'initial' | 'deletable'): unknown[] | undefined => {
      const raw = spec[key];
      if (raw === undefined) return undefined;
      if (!Array.isArray(raw)) fail(`${at}/${key}`, 'must be a list of states');
      return raw.map((value: unknown, i) => this.value(value, schema, `${at}/${key}/${i}`));
    };
    return { kind: 'states', resource: this.resource, field, initial: list('initial'), transitions: states, deletable: list('deletable'), answer: this.answer(spec, at), where: at };
  }

  private effect(stated: unknown, at: string): EffectRule {
    const spec = this.object(stated, at, ['on', 'when', 'was', 'target', 'require', 'set', 'add', 'cap', 'status', 'code', 'message']);
    const on = spec['on'] === undefined ? ['create', 'update', 'delete'] : Array.isArray(spec['on']) ? spec['on'] : [spec['on']];
    for (const [i, kind] of on.entries()) if (kind !== 'create' && kind !== 'update' && kind !== 'delete') fail(`${at}/on/${i}`, `must be create, update or delete, not ${JSON.stringify(kind)}`);
    const targetSpec = this.object(spec['target'], `${at}/target`, ['collection', 'by']);
    const target = this.collection(targetSpec['collection'], `${at}/target/collection`);
    if (target.scopeParams.length > 0) fail(`${at}/target/collection`, `${target.collectionPath} lives under another record; an effect reaches a top-level collection`);
    const by = this.text(targetSpec['by'], `${at}/target/by`, "the field of this record that holds the other record's id");
    this.field(by, `${at}/target/by`);
    const targetFields = target.recordSchema ? propertiesOf(target.recordSchema) : new Map<string, Schema>();
    const targetField = (field: string, where: string): Schema => targetFields.get(field) ?? fail(where, `${target.collectionPath}'s records have no field ${field} (they have ${[...targetFields.keys()].join(', ') || 'none'})`);
    const set = isObject(spec['set']) ? Object.entries(spec['set']).map(([field, value]) => [field, this.value(value, targetField(field, `${at}/set/${pointer(field)}`), `${at}/set/${pointer(field)}`)] as const) : spec['set'] === undefined ? [] : fail(`${at}/set`, 'must map fields of the other record to values');
    const add = isObject(spec['add'])
      ? Object.entries(spec['add']).map(([field, amount]) => {
          const where = `${at}/add/${pointer(field)}`;
          if (!isNumeric(targetField(field, where))) fail(where, `${target.collectionPath}'s ${field} is not a number, so nothing can be added to it`);
          if (typeof amount === 'number' && Number.isFinite(amount)) return [field, amount] as const;
          if (typeof amount !== 'string') return fail(where, 'must be a number, or a field of this record (with a leading - to take it away)');
          const sign: 1 | -1 = amount.startsWith('-') ? -1 : 1;
          const source = amount.replace(/^[-+]/, '');
          if (!isNumeric(this.field(source, where))) fail(where, `${this.resource.collectionPath}'s ${source} is not a number`);
          return [field, { field: source, sign }] as const;
        })
      : spec['add'] === undefined
        ? []
        : fail(`${at}/add`, 'must map number fields of the other record to amounts');
    if (set.length === 0 && add.length === 0 && spec['require'] === undefined) fail(at, 'does nothing: give it set, add or require');
    if (spec['cap'] !== undefined && typeof spec['cap'] !== 'boolean') fail(`${at}/cap`, 'must be true (a sum stops at the field\'s bounds) or false (it refuses the write)');
    if (spec['cap'] === true && add.length === 0) fail(`${at}/cap`, 'caps the sums of add, and this effect adds nothing');
    return {
      kind: 'effect',
      resource: this.resource,
      on: new Set(on as WriteKind[]),
      when: this.conditions(spec['when'], this.resource, `${at}/when`),
      was: this.conditions(spec['was'], this.resource, `${at}/was`),
      target,
      by,
      require: this.conditions(spec['require'], target, `${at}/require`),
      set,
      add,
      ...(spec['cap'] === true ? { cap: true } : {}),
      answer: this.answer(spec, at),
      where: at,
    };
  }

  /** A field of this resource's records, with its schema; a field the record schema does not declare is an error. */
  private field(name: string, at: string): Schema {
    return this.fields.get(name) ?? fail(at, `${this.resource.collectionPath}'s records have no field ${name} (they have ${[...this.fields.keys()].join(', ') || 'none'})`);
  }

  private collection(stated: unknown, at: string): Resource {
    const text = this.text(stated, at, 'a collection path the mock keeps records of');
    const found = this.map.resources.find((r) => r.collectionPath === text || r.itemPath === text);
    return found ?? fail(at, `${text} is not a collection the mock keeps records of (it keeps ${this.map.resources.map((r) => r.collectionPath).join(', ') || 'none'})`);
  }

  private conditions(stated: unknown, of: Resource, at: string): Conditions {
    if (stated === undefined) return [];
    if (!isObject(stated)) fail(at, 'must map fields to the value they must have (or a list of values, one of which)');
    const fields = of.recordSchema ? propertiesOf(of.recordSchema) : new Map<string, Schema>();
    return Object.entries(stated).map(([field, wanted]) => {
      const where = `${at}/${pointer(field)}`;
      const schema = fields.get(field) ?? fail(where, `${of.collectionPath}'s records have no field ${field} (they have ${[...fields.keys()].join(', ') || 'none'})`);
      const values = Array.isArray(wanted) && typeOf(schema) !== 'array' ? wanted : [wanted];
      return [field, values.map((value: unknown, i) => this.value(value, schema, values === wanted ? `${where}/${i}` : where))] as const;
    });
  }

  /** A value the field's schema allows, else an error naming it: a state or a condition the records can never have. */
  private value(value: unknown, schema: Schema, at: string): unknown {
    const problems = this.compiled.validate(schema, value, 'response');
    if (problems.length > 0) fail(at, `${JSON.stringify(value)} is not a value the field can have (${problems[0]!.message}${mergeAllOf(schema).enum ? `; it takes ${JSON.stringify(mergeAllOf(schema).enum)}` : ''})`);
    return value;
  }

  /** A state written as an object key (always text): the field's own value of that text (`true`, `3`, `placed`). */
  private stateValue(key: string, schema: Schema, at: string): unknown {
    for (const candidate of [key, key === 'true' ? true : key === 'false' ? false : undefined, key.trim() !== '' && Number.isFinite(Number(key)) ? Number(key) : undefined]) {
      if (candidate !== undefined && this.compiled.validate(schema, candidate, 'response').length === 0) return candidate;
    }
    return this.value(key, schema, at);
  }

  private answer(stated: unknown, at: string): RuleAnswer {
    const spec = this.object(stated, at, undefined);
    const status = spec['status'];
    if (status !== undefined && !(typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 499)) fail(`${at}/status`, `must be a 4xx status, not ${JSON.stringify(status)}`);
    const code = spec['code'];
    const message = spec['message'];
    const none = spec['none'];
    if (code !== undefined && typeof code !== 'string') fail(`${at}/code`, 'must be text');
    if (message !== undefined && typeof message !== 'string') fail(`${at}/message`, 'must be text');
    if (none !== undefined && typeof none !== 'string') fail(`${at}/none`, 'must be text');
    return { ...(typeof status === 'number' ? { status } : {}), ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message } : {}), ...(typeof none === 'string' ? { none } : {}) };
  }

  private object(stated: unknown, at: string, allowed: readonly string[] | undefined): Record<string, unknown> {
    if (!isObject(stated)) return fail(at, 'must be an object');
    const stray = allowed ? Object.keys(stated).find((key) => !allowed.includes(key)) : undefined;
    if (stray !== undefined) fail(`${at}/${pointer(stray)}`, `is not a word of this rule; it takes ${allowed!.join(', ')}`);
    return stated;
  }

  private text(stated: unknown, at: string, what: string): string {
    return typeof stated === 'string' && stated !== '' ? stated : fail(at, `must be ${what}`);
  }

  private flag(stated: unknown, at: string): boolean {
    if (stated === undefined) return false;
    return typeof stated === 'boolean' ? stated : fail(at, 'must be true or false');
  }
}

function isNumeric(schema: Schema): boolean {
  const type = typeOf(schema);
  return type === 'integer' || type === 'number';
}

/** One rule in a line: its kind, where it holds and what it says (`GET /__mock/resources`, the start-up log). */
export function describeRule(rule: Rule): { readonly rule: string; readonly collection: string; readonly says: string; readonly where: string } {
  const says =
    rule.kind === 'unique'
      ? `${rule.fields.join(' + ')} unique${rule.ignoreCase ? ' (case aside)' : ''}`
      : rule.kind === 'reference'
        ? `${rule.field} names a record of ${rule.target.collectionPath} (on delete: ${rule.onDelete})`
        : rule.kind === 'states'
          ? `${rule.field} moves ${[...rule.transitions].map(([from, to]) => `${from} -> ${to.length === 0 ? 'nothing' : to.map((v) => JSON.stringify(v)).join('|')}`).join(', ')}`
          : `on ${[...rule.on].join('/')}: ${rule.target.collectionPath} by ${rule.by}${rule.set.length > 0 ? ` set ${rule.set.map(([f, v]) => `${f}=${JSON.stringify(v)}`).join(', ')}` : ''}${rule.add.length > 0 ? ` add ${rule.add.map(([f, a]) => `${f} ${typeof a === 'number' ? a : `${a.sign < 0 ? '-' : '+'}${a.field}`}`).join(', ')}` : ''}`;
  return { rule: `x-mock-${rule.kind === 'reference' ? 'references' : rule.kind === 'effect' ? 'effects' : rule.kind}`, collection: rule.resource.collectionPath, says, where: rule.where };
}

/** RFC 6901: `~` and `/` escaped. */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function fail(where: string, message: string): never {
  throw new KitError('RULES_INVALID', `${where}: ${message}.`, { pointer: where, reason: message });
}
