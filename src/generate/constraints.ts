/**
 * `not` and `if`/`then`/`else` (JSON Schema 2020-12 §10.2.1.4, §10.2.2; `not` is OpenAPI 3.0's too), which the
 * generator ignored: `{type: string, not: {type: string}}` got strings, and an `if` that required a member its
 * `then` named was never met (review 1, finding 13). Neither is built to directly. A value is made for the
 * schema without them, then judged (judge.ts): it must fail the `not`, and its `if` must say what the side it was
 * made for assumes (`then`: the `if` and `then` folded in; `else`: the `else` folded in, the `if` failed).
 *
 * Where that cannot be known, the schema is not generated, and said so before any value is made, as a cap is:
 * a `not` or an `if` that uses a keyword judge.ts does not judge, more than three conditions at once. Simple
 * cases are narrowed first, so the first value made passes: a `not` of types takes a type it allows, a `not` of
 * `required` members leaves one of them out; and what they rule out entirely is reported as no value at all.
 */
import { asSchema, conditionsOf, generatedTypeOf, isObject, mergeAllOf, typesOf, type Condition, type Schema } from './composition.js';
import { isAnnotation, unjudged } from './judge.js';

/** Conditions combined at most (each has two sides: 2^3 schemas to try). */
const MAX_CONDITIONS = 3;
/** The types a value without one may take, in the order the generator prefers them. */
const TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'] as const;

/** A schema to make a value from, and what each condition's `if` must say of that value. */
export interface Candidate {
  readonly schema: Schema;
  readonly verdicts: readonly boolean[];
  /** The `if`s and sides folded into it: a value made from the fold must not break one (a fold may lose a keyword). */
  readonly parts: readonly unknown[];
}

export type Limits =
  | { readonly ok: true; readonly not: unknown; readonly conditions: readonly Condition[]; readonly candidates: readonly Candidate[] }
  | { readonly ok: false; readonly keyword: string; readonly message: string };

const known = new WeakMap<Schema, Limits | null>();

/** The `not` and conditions of a folded schema (mergeAllOf), with the schemas to make values from; undefined without any. */
export function limitsOf(s: Schema): Limits | undefined {
  const memo = known.get(s);
  if (memo !== undefined) return memo ?? undefined;
  const conditions = conditionsOf(s);
  const limits = s.not === undefined && conditions.length === 0 ? undefined : measureLimits(s, conditions);
  known.set(s, limits ?? null);
  return limits;
}

function measureLimits(s: Schema, conditions: readonly Condition[]): Limits {
  const not: unknown = s.not;
  if (conditions.length > MAX_CONDITIONS) return refused('if', `${conditions.length} if/then/else apply here at once, more than the ${MAX_CONDITIONS} the generator combines`);
  for (const condition of conditions) {
    const keyword = unjudged(condition.if);
    if (keyword !== undefined) return refused('if', `whether its then or its else applies depends on ${keyword} in its if, which the generator cannot check a value against`);
  }
  const notKeyword = unjudged(not);
  if (notKeyword !== undefined) return refused('not', `a value must fail its not, and the generator cannot check a value against ${notKeyword} there`);
  const narrowed = narrow(withoutLimits(s), not);
  if ('keyword' in narrowed) return { ok: false, ...narrowed };
  const candidates: Candidate[] = [];
  // Every side of every condition, `then` sides first: a value made for `else` must also fail the `if`, which
  // one with only the required members often does not.
  for (let mask = 0; mask < 2 ** conditions.length; mask += 1) {
    const verdicts = conditions.map((_, i) => (mask & (1 << i)) === 0);
    const parts = conditions.flatMap((condition, i) => (verdicts[i] ? [condition.if, condition.then] : [condition.else]));
    if (parts.some((part) => part === false)) continue;
    const schemaParts = parts.filter((part) => part !== undefined && part !== true).map((part) => asSchema(part as Schema));
    candidates.push({ schema: schemaParts.length === 0 ? narrowed.schema : mergeAllOf({ allOf: [narrowed.schema, ...schemaParts] }), verdicts, parts: [narrowed.schema, ...parts.filter((part) => part !== undefined)] });
  }
  if (candidates.length === 0) return refused('if', 'every side of its if/then/else is false: no value is allowed');
  return { ok: true, not, conditions, candidates };
}

function refused(keyword: string, message: string): Limits {
  return { ok: false, keyword, message: `not generated: ${message}` };
}

function withoutLimits(s: Schema): Schema {
  const { not: _not, ...rest } = s;
  const out: Record<string, unknown> = { ...rest };
  for (const keyword of ['if', 'then', 'else']) delete out[keyword];
  return out as Schema;
}

/** The `not`'s alternatives: itself, or the parts of an anyOf (several parts' nots folded). */
function alternatives(not: unknown): readonly Schema[] {
  if (!isObject(not)) return [];
  const s = mergeAllOf(not as Schema);
  return Array.isArray(s.anyOf) && Object.keys(s).every((key) => key === 'anyOf' || isAnnotation(key)) ? s.anyOf.map((part) => mergeAllOf(asSchema(part))) : [s];
}

/** The keywords of a schema that say something (annotations left out). */
function assertions(s: Schema): string[] {
  return Object.keys(s).filter((key) => !isAnnotation(key));
}

/**
 * The schema narrowed by what its `not` simply rules out: a type (`not: {type: string}`) and a set of members
 * (`not: {required: [a, b]}`: one of them left out), or why nothing is left.
 */
function narrow(free: Schema, not: unknown): { schema: Schema } | { keyword: string; message: string } {
  const excluded = new Set<string>();
  let forbidden: readonly string[] | undefined;
  for (const alternative of alternatives(not)) {
    const keys = assertions(alternative);
    if (keys.every((key) => key === 'type' || key === 'nullable') && keys.includes('type')) {
      for (const type of typesOf(alternative)) excluded.add(type);
      if (alternative.nullable === true) excluded.add('null');
    } else if (keys.length === 1 && keys[0] === 'required' && forbidden === undefined) forbidden = alternative.required ?? [];
  }
  // A number is any number: excluding it excludes the integers too.
  if (excluded.has('number')) excluded.add('integer');
  let schema = free;
  if (excluded.size > 0) {
    const declared = typesOf(free);
    // Without a declared type, the one its keywords imply first (`properties`: an object), then any other.
    const implied = generatedTypeOf(free);
    const left = (declared.length > 0 ? declared : [...(implied !== undefined ? [implied] : []), ...TYPES]).filter((type) => !excluded.has(type));
    if (left.length === 0) return { keyword: 'not', message: `its not excludes its every type (${declared.join(', ')}): no value is allowed` };
    const nullable = free.nullable === true && !excluded.has('null');
    const typed: Record<string, unknown> = { ...schema, type: left.length === 1 || declared.length === 0 ? left[0] : left, ...(free.nullable !== undefined ? { nullable } : {}) };
    schema = typed as Schema;
  }
  if (forbidden !== undefined && forbidden.length > 0) {
    const required = new Set(free.required ?? []);
    const optional = forbidden.find((name) => !required.has(name));
    if (optional === undefined) return { keyword: 'not', message: `its not forbids a value that holds ${forbidden.join(', ')}, and it requires them: no value is allowed` };
    const properties = { ...(free.properties ?? {}) };
    // Not made as a declared member; should an extra member happen to take its name, the judge refuses the value.
    delete properties[optional];
    schema = { ...schema, properties };
  }
  return { schema };
}
