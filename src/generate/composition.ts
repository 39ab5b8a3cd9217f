/**
 * Schema composition resolved in one place (architecture, "Growing it"): `allOf` folded into one schema, the
 * branches of `oneOf`/`anyOf`, the properties a value may carry through all three, and the types a schema names.
 * Every consumer asks here (generation in both halves of the kit, the generic mock's identity and parent lookups,
 * the runner's comparisons and bodies), so none walks composition by hand. The document is dereferenced when
 * loaded (src/contract/load.ts): `$ref` is already resolved, and a schema may contain itself; nothing here
 * recurses along a cycle. Nothing here touches Node, so the mock's core still bundles for a browser.
 */
import type { OpenAPIV3 } from 'openapi-types';

export type Schema = OpenAPIV3.SchemaObject;
export type JsonObject = Record<string, unknown>;

/** A schema position as the dereferenced document holds it; JSON Schema 2020-12's `true`/`false` (and nothing) read as `{}`. */
export function asSchema(value: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | boolean | undefined): Schema {
  return (typeof value === 'object' && value !== null ? value : {}) as Schema;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const merged = new WeakMap<Schema, Schema>();
/** The if/then/else of every part of a folded schema (more than one may apply: each part's must hold). */
const foldedConditions = new WeakMap<Schema, readonly Condition[]>();

/** One `if` with its `then` and `else` (JSON Schema 2020-12 §10.2.2); a missing `then` or `else` allows anything. */
export interface Condition {
  readonly if: unknown;
  readonly then: unknown;
  readonly else: unknown;
}
/** The schemas being folded right now: an `allOf` that contains itself (legal, if pointless) is folded once. */
const folding = new Set<Schema>();

/**
 * `allOf` folded into one schema (JSON Schema 2020-12 §10.2.1.1: an instance must satisfy every part).
 * Properties and required lists are united; a property two parts declare becomes `{allOf: [a, b]}`, folded only
 * when read, so a cyclic schema never recurses here; lower bounds take the higher value and upper bounds the lower;
 * enums are intersected; `additionalProperties: false`, `readOnly` and `writeOnly` from any part hold for the
 * whole; `nullable` only when every typed part allows null. Other keywords: the first part that says one wins
 * (what cannot be merged, such as two patterns, keeps the first; the validator still judges the result).
 * Memoized by identity: dereferenced documents share schema objects.
 */
export function mergeAllOf(s: Schema): Schema {
  if (!Array.isArray(s.allOf) || s.allOf.length === 0) return s;
  const known = merged.get(s);
  if (known) return known;
  if (folding.has(s)) {
    const { allOf: _cycle, ...own } = s;
    return own;
  }
  folding.add(s);
  try {
    const { allOf, ...own } = s;
    const parts = [own as Schema, ...allOf.map((part) => mergeAllOf(asSchema(part)))];
    const out: Record<string, unknown> = {};
    for (const part of [...parts].reverse()) Object.assign(out, part);
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const part of parts) {
      for (const name of part.required ?? []) if (!required.includes(name)) required.push(name);
      for (const [name, property] of Object.entries(part.properties ?? {})) {
        const earlier = Object.hasOwn(properties, name) ? properties[name] : undefined;
        define(properties, name, earlier ? { allOf: [earlier, asSchema(property)] } : asSchema(property));
      }
    }
    tighten(out, parts, ['minimum', 'minLength', 'minItems', 'minProperties'], Math.max);
    tighten(out, parts, ['maximum', 'maxLength', 'maxItems', 'maxProperties'], Math.min);
    const enums = parts.map((part) => part.enum).filter((values): values is unknown[] => Array.isArray(values));
    if (enums.length > 1) out['enum'] = enums.reduce((kept, values) => kept.filter((v) => values.some((w) => JSON.stringify(w) === JSON.stringify(v))));
    // An enum beside a type from another part holds only the values of that type (both must hold).
    const types = parts.flatMap((part) => (typeof part.type === 'string' ? [part.type] : []));
    if (Array.isArray(out['enum']) && types.length > 0) out['enum'] = (out['enum'] as unknown[]).filter((v) => types.every((type) => isOfType(v, type) || (v === null && parts.some((part) => part.nullable === true))));
    if (parts.some((part) => part.additionalProperties === false)) out['additionalProperties'] = false;
    for (const flag of ['readOnly', 'writeOnly'] as const) if (parts.some((part) => part[flag])) out[flag] = true;
    if (parts.some((part) => part.nullable !== undefined)) out['nullable'] = parts.every((part) => part.nullable === true || part.type === undefined);
    if (Object.keys(properties).length > 0) out['properties'] = properties;
    if (required.length > 0) out['required'] = required;
    // Every part's `not` holds: a value fails each, so it fails their anyOf. Every part's `if` holds too (kept apart).
    const nots = parts.map((part) => part.not).filter((not) => not !== undefined);
    if (nots.length > 1) out['not'] = { anyOf: nots };
    const conditions = parts.flatMap((part) => conditionsOf(part));
    for (const keyword of ['if', 'then', 'else']) delete out[keyword];
    delete out['allOf'];
    const result = out as Schema;
    if (conditions.length > 0) foldedConditions.set(result, conditions);
    merged.set(s, result);
    return result;
  } finally {
    folding.delete(s);
  }
}

/** The if/then/else that apply to a schema: its own, or, folded (mergeAllOf), those of each of its parts. */
export function conditionsOf(s: Schema): readonly Condition[] {
  const folded = foldedConditions.get(s);
  if (folded) return folded;
  if (!('if' in s)) return [];
  const { if: condition, then, else: otherwise } = s as { if?: unknown; then?: unknown; else?: unknown };
  return [{ if: condition, then, else: otherwise }];
}

function tighten(out: Record<string, unknown>, parts: readonly Schema[], keys: readonly (keyof Schema)[], pick: (...values: number[]) => number): void {
  for (const key of keys) {
    const values = parts.map((part) => part[key]).filter((v): v is number => typeof v === 'number');
    if (values.length > 0) out[key] = pick(...values);
  }
}

/** Sets a member by definition, so a name such as `__proto__` is a member like any other, never the prototype. */
export function define(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

/** The branches a value may take: `oneOf` then `anyOf` (either, when a schema has both, is a branch to try first). */
export function branchesOf(s: Schema): readonly Schema[] {
  return [...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((branch) => asSchema(branch));
}

/** A branch with the keywords beside `oneOf`/`anyOf` (`type`, `properties`, ...) applying to it too. */
export function withBranch(s: Schema, branch: Schema): Schema {
  const { oneOf: _oneOf, anyOf: _anyOf, ...beside } = s;
  return mergeAllOf({ allOf: [beside as Schema, branch] });
}

/**
 * Every property a value of this schema may carry, looked up through `allOf`, `oneOf` and `anyOf` (the first
 * declaration of a name wins): a field named in a part (`NewOrder: allOf: [OrderBase, {required: [petId]}]`) is
 * as much the value's as a top-level one, and a polymorphic record (`oneOf: [Cat, Dog]`, both with `id`) has an
 * `id` all the same. Branches are followed four levels deep at most.
 */
export function propertiesOf(raw: Schema, depth = 0): ReadonlyMap<string, Schema> {
  const out = new Map<string, Schema>();
  if (depth > 4) return out;
  const s = mergeAllOf(raw);
  for (const [name, p] of Object.entries(s.properties ?? {})) out.set(name, asSchema(p));
  for (const branch of branchesOf(s)) {
    for (const [name, p] of propertiesOf(branch, depth + 1)) if (!out.has(name)) out.set(name, p);
  }
  return out;
}

/**
 * The types a schema names: `type: x` (OpenAPI 3.0), or `type: [x, 'null']` (OpenAPI 3.1 §4.8.24, JSON Schema
 * 2020-12 validation §6.1.1), empty when it names none.
 */
export function typesOf(raw: Schema): readonly string[] {
  const type: unknown = mergeAllOf(raw).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Whether `null` is a value of the schema: 3.0's `nullable: true`, 3.1's `type: [x, 'null']` or `const: null`, or an enum holding null. */
export function allowsNull(raw: Schema): boolean {
  const s = mergeAllOf(raw);
  return s.nullable === true || typesOf(s).includes('null') || ('const' in s && (s as { const?: unknown }).const === null) || (Array.isArray(s.enum) && s.enum.includes(null));
}

/**
 * The type a schema asks for, or the one its keywords imply (`properties` → object, `items` → array). Of a 3.1
 * type list, the first that is not `null`: the one a generated value takes.
 */
export function typeOf(raw: Schema, depth = 0): string | undefined {
  const s = mergeAllOf(raw);
  const types = typesOf(s);
  if (types.length > 0) return types.find((t) => t !== 'null') ?? 'null';
  if (s.properties || s.additionalProperties !== undefined) return 'object';
  if (('items' in s && s.items !== undefined) || 'prefixItems' in s) return 'array';
  if ('const' in s) return jsonTypeOf((s as { const?: unknown }).const);
  // Branches are followed four levels deep at most: a branch may be the schema itself (`A: oneOf: [A, ...]`).
  if (depth >= 4) return undefined;
  for (const branch of branchesOf(s)) {
    const type = typeOf(branch, depth + 1);
    if (type !== undefined) return type;
  }
  return undefined;
}

/**
 * The type a generated value takes: typeOf(), else the one the keywords of a type imply (`required` or
 * `minProperties` → object, `minItems` → array, `minimum` → number, `minLength` or `pattern` → string).
 */
export function generatedTypeOf(s: Schema): string | undefined {
  const declared = typeOf(s);
  if (declared !== undefined) return declared;
  if (s.required !== undefined || s.minProperties !== undefined || s.maxProperties !== undefined) return 'object';
  if (s.minItems !== undefined || s.maxItems !== undefined || s.uniqueItems !== undefined) return 'array';
  const numeric: unknown[] = [s.minimum, s.maximum, s.multipleOf, s.exclusiveMinimum, s.exclusiveMaximum];
  if (numeric.some((value) => typeof value === 'number')) return 'number';
  return undefined;
}

/**
 * Whether a value the document gives (an example, a default, an enum member) is of a type the schema names: Vimeo's
 * `content_filter` is `type: array` with an enum of strings and `example: drugs`, so neither gives a value of it (no
 * value at all, as an enum of the wrong type can never be met). Any value where no type is named.
 */
export function ofNamedType(s: Schema, value: unknown): boolean {
  const types = typesOf(s);
  return types.length === 0 || types.some((type) => isOfType(value, type)) || (value === null && allowsNull(s));
}

/** Whether a JSON value is of a JSON Schema type (JSON Schema 2020-12 validation §6.1.1: an integer is a number). */
export function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return typeof value === type;
  }
}

/** The JSON Schema type of a JSON value (`integer` for a whole number). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A 3.1 array schema's `prefixItems` (JSON Schema 2020-12 §10.3.1.1), empty where it has none. */
export function prefixItemsOf(s: Schema): readonly Schema[] {
  const prefix: unknown = (s as { prefixItems?: unknown }).prefixItems;
  return Array.isArray(prefix) ? prefix.map((item) => asSchema(item as Schema)) : [];
}

/** The schema of the items after the prefix; `false` when none may follow (2020-12 `items: false`). */
export function restItemsOf(s: Schema): Schema | false {
  const rest: unknown = 'items' in s ? s.items : undefined;
  if (rest === false) return false;
  return asSchema(rest === true ? undefined : (rest as Schema | undefined));
}

/** A 3.1 schema's `examples` list (JSON Schema 2020-12 meta-data §9.5): its first entry. */
export function firstExample(s: Schema): unknown {
  const examples: unknown = (s as { examples?: unknown }).examples;
  return Array.isArray(examples) ? (examples[0] as unknown) : undefined;
}

/** A 3.1 `const` (2020-12 §6.1.3), told apart from a schema without one. */
export function constOf(s: Schema): { readonly value: unknown } | undefined {
  return 'const' in s ? { value: (s as { const?: unknown }).const } : undefined;
}

/**
 * The schema a JSON pointer into a value of `schema` names (`/items/0/amount`): through properties (allOf folded,
 * then oneOf/anyOf branches, propertiesOf), additionalProperties and items; undefined where the walk loses it.
 */
export function schemaAtPointer(schema: Schema | undefined, pointer: string): Schema | undefined {
  let at = schema;
  for (const raw of pointer.split('/').slice(1)) {
    if (at === undefined) return undefined;
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const merged = mergeAllOf(at);
    const items = typeOf(merged) === 'array' && 'items' in merged ? asSchema(merged.items as Schema) : undefined;
    if (items !== undefined && /^\d+$/.test(segment)) {
      at = items;
      continue;
    }
    const additional: unknown = merged.additionalProperties;
    at = propertiesOf(merged).get(segment) ?? (isObject(additional) ? asSchema(additional as Schema) : undefined);
  }
  return at === undefined ? undefined : mergeAllOf(at);
}
