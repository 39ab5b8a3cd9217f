/**
 * Fitting a value to a schema of the document: what the generic engine does to a record before it stores it
 * (a create body is `NewThing`, the record is `Thing`), and to an answer before it leaves. Keeps every field the
 * value has that the schema allows, drops what `additionalProperties: false` forbids, fills a missing required
 * field from the schema, replaces a value of the wrong type; the caller validates the result (the document has
 * the last word) and falls back to a generated value when a repair is not enough.
 */
import { literalPrefix, setApart } from '../../src/generate/index.js';
import { prefixItemsOf, type ValueGenerator, type View } from './generate.js';
import { setField } from './json.js';
import { allowsNull, asSchema, isObject, jsonTypeOf, mergeAllOf, typeOf, typesOf, type JsonObject, type Schema } from './schemas.js';

const MAX_DEPTH = 10;

export function repair(value: unknown, raw: Schema, generator: ValueGenerator, view: View, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  const s = mergeAllOf(raw);
  if (value === null) return allowsNull(s) || typeOf(s) === undefined ? value : generator.value(s, view, 0, depth);
  if (s.oneOf || s.anyOf || s.not) return value;
  if ('const' in s) return structuredClone((s as { const?: unknown }).const);
  if (s.enum && !s.enum.some((option) => option === value)) return generator.value(s, view, 0, depth);
  // A 3.1 type list (`[string, integer]`): the value's own type when the list names it, else the first.
  const own = jsonTypeOf(value);
  const listed = typesOf(s);
  const type = listed.includes(own) ? own : own === 'integer' && listed.includes('number') ? 'number' : typeOf(s);
  switch (type) {
    case 'object':
      return isObject(value) ? repairObject(value, s, generator, view, depth) : generator.value(s, view, 0, depth);
    case 'array': {
      if (!Array.isArray(value)) return generator.value(s, view, 0, depth);
      return value.map((item: unknown, index) => repair(item, itemAt(s, index), generator, view, depth + 1));
    }
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : generator.value(s, view, 0, depth);
    case 'number':
      return typeof value === 'number' ? value : generator.value(s, view, 0, depth);
    case 'boolean':
      return typeof value === 'boolean' ? value : generator.value(s, view, 0, depth);
    case 'string':
      return typeof value === 'string' ? value : generator.value(s, view, 0, depth);
    default:
      return value;
  }
}

function repairObject(value: JsonObject, s: Schema, generator: ValueGenerator, view: View, depth: number): JsonObject {
  const properties = s.properties ?? {};
  const out: JsonObject = {};
  for (const [name, field] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, name) ? mergeAllOf(asSchema(properties[name])) : undefined;
    if (!declared) {
      // 3.1's `unevaluatedProperties: false` (2020-12 §11.3) forbids them as well, once allOf is folded in.
      if (s.additionalProperties === false || (s as { unevaluatedProperties?: unknown }).unevaluatedProperties === false) continue;
      out[name] = isObject(s.additionalProperties) ? repair(field, asSchema(s.additionalProperties), generator, view, depth + 1) : field;
      continue;
    }
    // OpenAPI 3.0.3 §4.7.24: an answer never carries writeOnly fields, a request never readOnly ones.
    if (view === 'response' ? declared.writeOnly : declared.readOnly) continue;
    out[name] = repair(field, declared, generator, view, depth + 1);
  }
  for (const name of s.required ?? []) {
    if (Object.hasOwn(out, name) || !Object.hasOwn(properties, name)) continue;
    const declared = mergeAllOf(asSchema(properties[name]));
    if (view === 'response' ? declared.writeOnly : declared.readOnly) continue;
    // Left out when no value fits the generation budget: the check that follows notes it.
    const value = generator.value(declared, view, 0, depth + 1, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Whether `fitTo` gives back every value the schema's validator passes unchanged (an equal value): no `oneOf`/`anyOf`
 * at the root (a value is fitted to the branch that keeps most of it), and nowhere `repair` walks (members, additional
 * members, items) a member this view never carries (`writeOnly` in an answer, `readOnly` in a request), which `repair`
 * drops although the validator lets it be. Worked out once per schema and view. The generic engine then validates a
 * record once and keeps it as it is when it passes, rather than repairing a copy of it first (engine.ts makeRecord).
 */
export function keptWhenValid(schema: Schema, view: View): boolean {
  const memo = view === 'response' ? keptInAnswers : keptInRequests;
  let known = memo.get(schema);
  if (known === undefined) {
    const root = mergeAllOf(schema);
    memo.set(schema, (known = !((root.oneOf?.length ?? 0) > 0 || (root.anyOf?.length ?? 0) > 0) && repairKeeps(schema, view, new Set())));
  }
  return known;
}
const keptInAnswers = new WeakMap<Schema, boolean>();
const keptInRequests = new WeakMap<Schema, boolean>();

/** Whether `repair` leaves every valid value of `raw` as it is (repair's own walk, read without a value). */
function repairKeeps(raw: Schema, view: View, seen: Set<Schema>): boolean {
  if (seen.has(raw)) return true;
  seen.add(raw);
  const s = mergeAllOf(raw);
  if (s.oneOf || s.anyOf || s.not || 'const' in s) return true;
  const properties = s.properties ?? {};
  for (const name of Object.keys(properties)) {
    const declared = mergeAllOf(asSchema(properties[name]));
    if (view === 'response' ? declared.writeOnly : declared.readOnly) return false;
    if (!repairKeeps(asSchema(properties[name]), view, seen)) return false;
  }
  if (isObject(s.additionalProperties) && !repairKeeps(asSchema(s.additionalProperties), view, seen)) return false;
  const items = (s as { items?: unknown }).items;
  if (isObject(items) && !repairKeeps(asSchema(items as Schema), view, seen)) return false;
  for (const prefix of prefixItemsOf(s)) if (isObject(prefix) && !repairKeeps(asSchema(prefix as Schema), view, seen)) return false;
  return true;
}

/** Says what is wrong with a value for a schema: Diagnostic-like pointers (`/items/0/amount`), none when it is valid. */
export type Problems = (schema: Schema, value: unknown) => readonly { readonly pointer: string }[];

/**
 * The work one fit may do, counted across its whole recursion (validations and regenerations; each nested
 * oneOf/anyOf fit shares it). Without a shared bound the cost multiplies per level: a branch's fit regenerates each
 * pointer the validator names, which fits the branches below it, for every branch × round × pointer, up to
 * MAX_BRANCH_FITS deep. Meilisearch's `Settings_Unchecked` (oneOf inside anyOf inside oneOf, with an example to fit)
 * never finished: start-up looped for minutes in one synchronous call, so not even SIGTERM's handler could run.
 * Far above what ordinary fits take (the generic mock's tests: at most 8 units each; a tree of branches six levels
 * deep, nested-branches.e2e.test.ts: about 400), and a spent budget costs tens of milliseconds, not minutes.
 */
export const FIT_WORK = 1_000;

/** Thrown when a fit has spent its work; caught by the fit that began it (fitTo), never seen by a caller. */
class FitWorkSpent extends Error {}

/** What is left of one fit's work (FIT_WORK), shared by everything that fit does. */
interface Work {
  left: number;
  /**
   * Members already fitted to their branches in this fit, by schema and value text: the parent's branches each hold
   * the same member (a oneOf of two kinds, each with the same `child`), which is fitted once, not once per branch of
   * every level above it.
   */
  readonly fitted: Map<Schema, Map<string, unknown>>;
}

function spend(work: Work): void {
  work.left -= 1;
  if (work.left < 0) throw new FitWorkSpent();
}

/**
 * `repair`, then the validator's word: each value it still points at (a `format`, a `pattern`, a bound that a
 * type-only repair cannot see, such as an example's `"/Date(1573755038314)/"` for a `date-time`) is generated
 * afresh from the schema at that place, for a few rounds; what is left is returned as it is, for the caller to note.
 * Bounded by FIT_WORK: past it, the fallback's plain generation (fallback()); what still does not fit is left to the
 * caller's check, which answers as for any value that does not fit (answer-guard.ts: the proved answer for the
 * status, else a documented 5xx, else 501 CANNOT_GENERATE naming the spot).
 */
export function fitTo(value: unknown, schema: Schema, generator: ValueGenerator, view: View, problems: Problems): unknown {
  const work: Work = { left: FIT_WORK, fitted: new Map() };
  const counted: Problems = (s, v) => {
    spend(work);
    return problems(s, v);
  };
  let fitted: unknown;
  try {
    fitted = fit(value, schema, generator, view, counted, work);
  } catch (error) {
    if (!(error instanceof FitWorkSpent)) throw error;
    fitted = fallback(value, schema, generator, view, problems);
  }
  return withUnmakeableLeftOut(withMembersKept(value, fitted, schema, view, problems), schema, problems);
}

/** Rounds of leaving out members at most: each drops every optional member a problem still points into. */
const LEAVE_OUT_ROUNDS = 4;

/**
 * The fitted object without the optional top-level members no fit could make valid, where leaving them out leaves
 * fewer problems: a record whose optional `value` requires a readOnly member no value meets (an `enum` the member's
 * own type cannot hold) was stored invalid, and every answer of it was then drawn afresh by the answer guard, with
 * another id and name than the client's, and a list of one invented record (a hostile document, 2026-11-28). A
 * member a schema leaves optional may be left out (OpenAPI 3.0.3 §4.7.24: only `required` ones must be there).
 */
function withUnmakeableLeftOut(fitted: unknown, schema: Schema, problems: Problems): unknown {
  if (!isObject(fitted)) return fitted;
  const required = new Set(mergeAllOf(schema).required ?? []);
  let current: JsonObject = fitted;
  let found = problems(schema, current);
  for (let round = 0; round < LEAVE_OUT_ROUNDS && found.length > 0; round += 1) {
    const names = new Set<string>();
    for (const { pointer } of found) {
      const name = unescape(pointer.split('/')[1] ?? '');
      if (name !== '' && Object.hasOwn(current, name) && !required.has(name)) names.add(name);
    }
    if (names.size === 0) break;
    const candidate: JsonObject = {};
    for (const key of Object.keys(current)) if (!names.has(key)) setField(candidate, key, current[key]);
    const left = problems(schema, candidate);
    if (left.length >= found.length) break;
    current = candidate;
    found = left;
  }
  return current;
}

/** How many changed members a fit puts back at most (one validation each). */
const MAX_KEPT_MEMBERS = 64;

/**
 * The fitted value with each top-level member the fit changed put back as it was, where the whole stays valid with it:
 * a fit that regenerated the whole value (Clerk's SAML connection: `oneOf` at its root, fitted by drawing afresh)
 * answered a new `id` for a record kept under another, and invented values for what the client had sent.
 */
function withMembersKept(original: unknown, fitted: unknown, schema: Schema, view: View, problems: Problems): unknown {
  if (!isObject(original) || !isObject(fitted) || original === fitted) return fitted;
  let out: JsonObject = fitted;
  const budget = { tries: MAX_KEPT_MEMBERS };
  // The members at the top, then those of a record in an envelope (Lago's `{ payment: { lago_id, ... } }`).
  for (const [name, was] of Object.entries(original)) {
    if (budget.tries <= 0) break;
    // A member the fit left out is put back too where the schema declares it for this view: a value drawn afresh
    // leaves out optional members (Clerk's deprecated `domain`, sent by the client, gone from one answer in seven).
    if (Object.hasOwn(out, name) ? sameJson(out[name], was) : !declaredFor(schema, name, view)) continue;
    budget.tries -= 1;
    const candidate = { ...out, [name]: was };
    if (problems(schema, candidate).length === 0) {
      out = candidate;
      continue;
    }
    const inner = out[name];
    if (!isObject(was) || !isObject(inner)) continue;
    for (const [member, wasInner] of Object.entries(was)) {
      if (budget.tries <= 0) break;
      const current = out[name] as JsonObject;
      if (!Object.hasOwn(current, member) || sameJson(current[member], wasInner)) continue;
      budget.tries -= 1;
      const nested = { ...out, [name]: { ...current, [member]: wasInner } };
      if (problems(schema, nested).length === 0) out = nested;
    }
  }
  return out;
}

/** Whether the schema declares a member of that name that this view may carry (OpenAPI 3.0.3 §4.7.24). */
function declaredFor(schema: Schema, name: string, view: View): boolean {
  const properties = mergeAllOf(schema).properties ?? {};
  if (!Object.hasOwn(properties, name)) return false;
  const declared = mergeAllOf(asSchema(properties[name]));
  return !(view === 'response' ? declared.writeOnly : declared.readOnly);
}

/** Two JSON values with the same text (a member JSON.stringify refuses, a bigint, counts as changed). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    // A member JSON.stringify refuses (a bigint): told apart as changed, so its echo is tried and checked.
    return false;
  }
}

/**
 * What a fit that spent its work answers, for a few validations more: the value as repaired, with each top-level
 * member the validator still points into generated plain from its schema (no branch weighed), so what was valid stays
 * (a record's id, the other fields its client sent); else a value generated plain from the whole schema; else the
 * repaired value, for the caller's check to note.
 */
function fallback(value: unknown, schema: Schema, generator: ValueGenerator, view: View, problems: Problems): unknown {
  const repaired = repair(value, schema, generator, view);
  const found = problems(schema, repaired);
  if (found.length === 0) return repaired;
  const s = mergeAllOf(schema);
  // Past its listing limit the validator adds one entry more ('truncated', at the root): it names no member.
  const named = found.filter((problem) => (problem as { keyword?: string }).keyword !== 'truncated');
  const members = new Set(named.map(({ pointer }) => unescape(pointer.split('/')[1] ?? '')));
  if (isObject(repaired) && !s.oneOf && !s.anyOf && !members.has('')) {
    const properties = s.properties ?? {};
    const out: JsonObject = { ...repaired };
    for (const name of members) {
      const property = Object.hasOwn(properties, name) ? asSchema(properties[name]) : isObject(s.additionalProperties) ? asSchema(s.additionalProperties) : undefined;
      const generated = property ? generator.value(mergeAllOf(property), view, 0, 1, name) : undefined;
      if (generated === undefined) delete out[name];
      else out[name] = generated;
    }
    if (problems(schema, out).length === 0) return out;
  }
  const generated = generator.value(s, view, 0);
  if (generated !== undefined && problems(schema, generated).length === 0) return generated;
  return repaired;
}

/**
 * The schema of each branch with what the schema says beside its branches: made once per schema and kept, so the
 * validator (which compiles once per schema object) compiles each of them once, not on every fit.
 */
const composedBranches = new WeakMap<Schema, readonly Schema[]>();
function branchWholes(s: Schema, branches: readonly unknown[]): readonly Schema[] {
  let known = composedBranches.get(s);
  if (!known) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...beside } = s;
    known = branches.map((branch) => ({ allOf: [beside, asSchema(branch as Schema)] }) as Schema);
    composedBranches.set(s, known);
  }
  return known;
}

function fit(value: unknown, schema: Schema, generator: ValueGenerator, view: View, problems: Problems, work: Work): unknown {
  const s = mergeAllOf(schema);
  const branches = s.oneOf ?? s.anyOf;
  if (!branches || branches.length === 0) return fitFlat(value, schema, generator, view, problems, work);
  // A value of a oneOf/anyOf is fitted to the branch that keeps most of it (ReadMe's branch `{ base: "v1" }` and its
  // version `{ base: {...} }`): fitting to the first branch alone replaced what the client sent with invented values,
  // and two answers of one record, each fitted afresh, disagreed.
  // A member the branch pins to listed values (`method: { enum: [payment-card] }`, a `const`) says which branch the
  // value is: a branch that must change it is the wrong one, however many other members it keeps (Rebilly's tokens:
  // a payment-card token was answered as a `cash` one, which kept its instrument as an unknown member).
  let best: { fitted: unknown; kept: number; pinnedChanged: number } | undefined;
  const wholes = branchWholes(s, branches);
  for (const [index, whole] of wholes.entries()) {
    let fitted = fitFlat(value, whole, generator, view, problems, work);
    if (problems(schema, fitted).length > 0) {
      // A value of this branch that another branch of a oneOf takes too is set apart by a member (set-apart.ts).
      if (!s.oneOf || problems(whole, fitted).length > 0) continue;
      const apart = setApart(fitted, wholes, index, (candidate, part) => problems(part, candidate).length === 0);
      if (!apart.ok || problems(schema, apart.value).length > 0) continue;
      fitted = apart.value;
    }
    const kept = keptMembers(value, fitted);
    const pinnedChanged = pinnedMembersChanged(value, fitted, whole);
    if (!best || pinnedChanged < best.pinnedChanged || (pinnedChanged === best.pinnedChanged && kept > best.kept)) best = { fitted, kept, pinnedChanged };
  }
  return best ? best.fitted : fitFlat(value, schema, generator, view, problems, work);
}

/** How many of a value's own members that the schema pins to listed values (`enum`, `const`) the fitted value changed. */
function pinnedMembersChanged(value: unknown, fitted: unknown, schema: Schema): number {
  if (!isObject(value) || !isObject(fitted)) return 0;
  const properties = mergeAllOf(schema).properties ?? {};
  let changed = 0;
  for (const [name, member] of Object.entries(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    const declared = mergeAllOf(asSchema(properties[name]));
    if (declared.enum === undefined && !('const' in declared)) continue;
    if (JSON.stringify(fitted[name]) !== JSON.stringify(member)) changed += 1;
  }
  return changed;
}

/** How many of a value's own members a fitted value keeps as they were. */
function keptMembers(value: unknown, fitted: unknown): number {
  if (!isObject(value) || !isObject(fitted)) return value === fitted ? 1 : 0;
  let kept = 0;
  for (const [name, member] of Object.entries(value)) if (Object.hasOwn(fitted, name) && JSON.stringify(fitted[name]) === JSON.stringify(member)) kept += 1;
  return kept;
}

/** `repair`, then regenerate what the validator still points at, for a few rounds. */
function fitFlat(value: unknown, schema: Schema, generator: ValueGenerator, view: View, problems: Problems, work: Work): unknown {
  let current = repair(value, schema, generator, view);
  for (let round = 0; round < 3; round += 1) {
    const found = problems(schema, current);
    if (found.length === 0) return current;
    // A member fitted whole to its branches this round (regenerateAt) answers every other pointer inside it: fitting
    // it again for each would multiply the work by the pointers, at every level of branches inside branches.
    const whole: string[] = [];
    for (const { pointer } of found.slice(0, 50)) {
      if (whole.some((prefix) => pointer === prefix || pointer.startsWith(`${prefix}/`))) continue;
      spend(work);
      const path = pointer.split('/').slice(1).map(unescape);
      current = regenerateAt(current, schema, path, generator, view, problems, work, (left) => whole.push(pointer.split('/').slice(0, path.length - left + 1).join('/')));
    }
  }
  return current;
}

/** The schema of an array's item at `index`: 3.1's `prefixItems` for the first ones, `items` for the rest. */
function itemAt(s: Schema, index: number): Schema {
  const prefix = prefixItemsOf(s);
  if (index < prefix.length) return prefix[index]!;
  const rest: unknown = 'items' in s ? s.items : undefined;
  return isObject(rest) ? asSchema(rest as Schema) : {};
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** How deep fits of oneOf/anyOf members nest inside one another at most (regenerateAt). */
const MAX_BRANCH_FITS = 4;
let branchFits = 0;

/** The value with the part at `path` generated afresh from the schema there (the nearest part whose schema is known). */
function regenerateAt(value: unknown, raw: Schema, path: readonly string[], generator: ValueGenerator, view: View, problems: Problems, work: Work, fittedWhole: (left: number) => void): unknown {
  const s = mergeAllOf(raw);
  // A member of a oneOf/anyOf (Box's `accessible_by`: a user or a group) is fitted to the branch that keeps what it
  // says (`type: user`), as a whole value is (fitTo), not drawn afresh from any branch.
  // Whatever the pointer inside it: a branch's own complaint (`/accessible_by/type` is not `group`) says nothing the
  // whole member's fit does not weigh.
  if (branchFits < MAX_BRANCH_FITS && isObject(value) && ((s.oneOf?.length ?? 0) > 0 || (s.anyOf?.length ?? 0) > 0)) {
    // Bounded: a oneOf that holds itself (`A: oneOf: [A, ...]`) would fit the same value again and again.
    branchFits += 1;
    fittedWhole(path.length);
    try {
      let known = work.fitted.get(raw);
      if (!known) work.fitted.set(raw, (known = new Map()));
      const text = JSON.stringify(value);
      if (known.has(text)) return known.get(text);
      const fitted = fit(value, raw, generator, view, problems, work);
      known.set(text, fitted);
      return fitted;
    } finally {
      branchFits -= 1;
    }
  }
  if (path.length === 0) return prefixed(value, s, problems) ?? (isObject(value) ? completed(value, s, generator, view, problems) : undefined) ?? generator.value(s, view, 1);
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value) && /^\d+$/.test(head)) {
    const items = 'items' in s || 'prefixItems' in s ? itemAt(s, Number(head)) : undefined;
    if (!items) return generator.value(s, view, 1);
    const copy = [...value];
    copy[Number(head)] = regenerateAt(copy[Number(head)], items, rest, generator, view, problems, work, fittedWhole);
    return copy;
  }
  if (isObject(value)) {
    const properties = s.properties ?? {};
    const property = Object.hasOwn(properties, head) ? asSchema(properties[head]) : isObject(s.additionalProperties) ? asSchema(s.additionalProperties) : undefined;
    // A keyword on the object itself (`required`, `additionalProperties`) points here: the members it lacks added, else
    // the whole regenerated.
    if (!property || !Object.hasOwn(value, head)) return completed(value, s, generator, view, problems) ?? generator.value(s, view, 1);
    return { ...value, [head]: regenerateAt(value[head], property, rest, generator, view, problems, work, fittedWhole) };
  }
  return generator.value(s, view, 1);
}

/** Tries per missing required member: a generator's first variants, each checked against the member's schema. */
const MEMBER_VARIANTS = 4;

/**
 * The object with the required members it lacks generated, each checked against its own schema, where that makes the
 * whole valid; undefined otherwise. An item of a list whose readOnly required member the answer must carry (a line's
 * server-made `status`, a `oneOf` whose first draw failed) was drawn afresh whole, and the client's own members of it
 * (`a`, `c`) were answered as other, invented values.
 */
function completed(value: JsonObject, s: Schema, generator: ValueGenerator, view: View, problems: Problems): JsonObject | undefined {
  const properties = s.properties ?? {};
  const missing = (s.required ?? []).filter((name) => !Object.hasOwn(value, name) && Object.hasOwn(properties, name));
  if (missing.length === 0) return undefined;
  const out: JsonObject = { ...value };
  for (const name of missing) {
    const declared = asSchema(properties[name]);
    for (let variant = 0; variant < MEMBER_VARIANTS; variant += 1) {
      const member = generator.value(declared, view, variant, 1, name);
      if (member === undefined || problems(declared, member).length > 0) continue;
      // A required `__proto__` stays an own member (setField).
      setField(out, name, member);
      break;
    }
  }
  return problems(s, out).length === 0 ? out : undefined;
}

/**
 * A text its pattern refuses only for want of the pattern's fixed start (`mycompany` where `^custom:[a-zA-Z0-9_-]+$`
 * is asked), with that start put before it: a server that types its keys prefixes the client's word (Supabase's
 * custom providers), and the record keeps what its client named instead of an invented text.
 */
function prefixed(value: unknown, s: Schema, problems: Problems): string | undefined {
  if (typeof value !== 'string' || typeof s.pattern !== 'string') return undefined;
  const prefix = literalPrefix(s.pattern);
  if (prefix === '' || value.startsWith(prefix)) return undefined;
  const candidate = `${prefix}${value}`;
  return problems(s, candidate).length === 0 ? candidate : undefined;
}
