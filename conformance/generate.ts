/**
 * Inputs derived from the document: valid bodies from its examples (the
 * schemas fill gaps, faker the free values), and invalid mutations of them
 * from the schemas' own constraints. Nothing here knows a field of the Pet
 * Store: a document with other shapes gets other inputs.
 *
 * Faker is a private instance seeded with --seed (`createEnglishFaker(seed)`),
 * never the global one, so two runs with one seed send the same values
 * (apart from the run tag that keeps their records apart).
 */
import type { Faker } from '@faker-js/faker';
import { createEnglishFaker } from '../src/english-faker.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { MediaTypeSpec, Operation, ParameterSpec } from '../src/contract/index.js';
import { sampleFromPattern } from '../src/pattern-sample.js';
import { isJsonMediaType, type Diagnostic } from '../src/schema/index.js';
import { parseJson, plainJson, stringifyJson } from './json.js';

export type Schema = OpenAPIV3.SchemaObject;
export type JsonObject = Record<string, unknown>;

/** The document is dereferenced when loaded (src/contract/load.ts), so every schema position holds a schema. */
export function schema(value: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | boolean | undefined): Schema {
  // JSON Schema 2020-12 (OpenAPI 3.1) allows `true`/`false` as a schema (`items: false`): read as one without keywords.
  return (typeof value === 'object' && value !== null ? value : {}) as Schema;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonBodyOf(operation: Operation): MediaTypeSpec | undefined {
  return operation.requestBody?.content.find((media) => isJsonMediaType(media.mediaType));
}

/** A body mutation: what the report shows as CheckResult.mutation, plus the value sent. */
export interface BodyMutation {
  readonly kind: 'missing-required' | 'wrong-type' | 'enum' | 'unknown-field' | 'out-of-range' | 'format' | 'min-properties';
  /** Where in the body, as a JSON pointer (`/name`; `` for the whole body). */
  readonly pointer: string;
  readonly description: string;
  readonly value: unknown;
}

export interface ParameterMutation {
  readonly kind: 'wrong-type' | 'enum' | 'out-of-range';
  readonly location: 'path' | 'query';
  readonly name: string;
  readonly pointer: string;
  readonly description: string;
  /** The exact text sent. */
  readonly text: string | readonly string[];
}

/** An integer that no implementation would have handed out, yet valid for an int64 id: a valid but absent id. */
export const ABSENT_ID = Number.MAX_SAFE_INTEGER;
/** 2^63, one past int64: as text it stays exact; as a JSON number it rounds to a value Ajv's int64 accepts. */
const TWO_TO_63 = '9223372036854775808';
/** Words that no sane enum contains, tried in order. `adopted` is the classic wrong PetStatus. */
const NOT_IN_ENUM = ['adopted', 'unknown-value', 'x-not-in-enum'];


/** Says why a body is not valid for an operation (the compiled request validator, src/schema), or [] when it is. */
export type BodyValidator = (operation: Operation, value: unknown) => readonly Diagnostic[];

export type ValidBody = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reason: string };

/**
 * Text generated data never holds: mixed case, multi-byte UTF-8 (two-, three- and four-byte characters),
 * quotes, HTML and SQL metacharacters, a backslash. Cut from the end to fit a maxLength.
 */
const DIVERSE_TEXT = 'Zoë ÅNGSTRÖM "Rex" O\'Brien <b>&amp;</b> 名前 🐕 \\ 50% x; DROP TABLE pets;--';

/** Schema samples tried after the examples, each taking other branches of oneOf/anyOf. */
const SAMPLE_VARIANTS = 3;

export class Generator {
  readonly faker: Faker;
  private counter = 0;

  constructor(
    readonly seed: number,
    /** Short and unique per run, so records of two runs (or other data already there) never collide. */
    readonly runTag: string,
    /** Tells apart the generators of one run (one per check), so their tags never collide either. */
    private readonly label = '',
    /** The gate every body passes before it is called valid; without one (unit tests) every candidate passes. */
    private readonly validate: BodyValidator = () => [],
  ) {
    this.faker = createEnglishFaker(seed);
  }

  /** A fresh suffix for one record's free-text fields. */
  nextTag(): string {
    this.counter += 1;
    return `${this.runTag}-${this.label}${this.counter}`;
  }

  /** A valid body for the operation, or undefined (validBodyOrReason says why). */
  validBody(operation: Operation, bindings: Readonly<Record<string, unknown>>): unknown {
    const outcome = this.validBodyOrReason(operation, bindings);
    return outcome.ok ? outcome.body : undefined;
  }

  /**
   * A valid body for the operation: its preferred examples first, then
   * samples of its schema, each with fields named like a producer's parameter
   * bound to records the run owns and free-text fields made unique. The first
   * candidate whose exact JSON text the operation's request validator accepts
   * wins; when none does, the reason says what the last one broke, and the
   * check that wanted it skips rather than fails (issue 9, point 1).
   */
  validBodyOrReason(operation: Operation, bindings: Readonly<Record<string, unknown>>): ValidBody {
    const media = jsonBodyOf(operation);
    if (!media) return { ok: false, reason: `${operation.operationId} takes no JSON body` };
    const bodySchema = schema(media.schema);
    const candidates: (() => unknown)[] = [
      ...preferredExamples(media).map((example) => () => structuredClone(example)),
      ...Array.from({ length: SAMPLE_VARIANTS }, (_, variant) => () => this.sample(bodySchema, 0, variant)),
    ];
    let reason = `no example and no sample of ${operation.operationId}'s body schema`;
    for (const candidate of candidates) {
      const base = candidate();
      const body = isObject(base) ? this.fill(base, bodySchema, bindings) : base;
      const problems = this.validate(operation, asSent(body));
      if (problems.length === 0) return { ok: true, body };
      reason = `the generator's best body for ${operation.operationId} breaks the document at ${problems[0]!.pointer}: ${problems[0]!.message}`;
    }
    return { ok: false, reason };
  }

  /** Binds producer fields, fills required fields an example lacks, and makes free text unique. */
  private fill(base: JsonObject, bodySchema: Schema, bindings: Readonly<Record<string, unknown>>): JsonObject {
    const merged = mergeAllOf(bodySchema);
    const properties = merged.properties ?? {};
    for (const [name, value] of Object.entries(bindings)) {
      if (name in properties || name in base) base[name] = value;
    }
    // A required field the example lacks (a document whose example is partial) is filled from its schema.
    for (const name of merged.required ?? []) {
      const property = properties[name];
      if (!(name in base) && property && !schema(property).readOnly) base[name] = this.sample(schema(property), 1);
    }
    // A bound field names a record the run owns (`merchantId: "119"`): a tag on it would name no record, and two
    // records bound to one parent would no longer share it (list-contains-created filters by it).
    return this.uniquify(base, merged, new Set(Object.keys(bindings)));
  }

  /**
   * The body with every optional writable property filled and every free-text
   * string made of what generated data never holds (issue 19: non-ASCII and
   * multi-byte UTF-8, mixed case, quotes, HTML and SQL metacharacters), the
   * run's tag kept at its end so the clean-up still knows the record. What
   * the server stores of it must read back exactly; a server that drops an
   * optional field, or mangles text it did not expect, shows only here.
   */
  enrich(base: JsonObject, bodySchema: Schema, keep: ReadonlySet<string> = new Set()): JsonObject {
    const out: JsonObject = { ...base };
    for (const [name, raw] of Object.entries(propertiesOf(bodySchema))) {
      const p = mergeAllOf(raw);
      if (p.readOnly || keep.has(name)) continue;
      if (!(name in out)) out[name] = this.sample(p, 1);
      const value = out[name];
      if (typeof value !== 'string' || typeOf(p) !== 'string' || p.enum || p.format || p.pattern || !value.includes(this.runTag)) continue;
      const tag = value.slice(value.indexOf(this.runTag));
      const max = p.maxLength ?? 200;
      const room = max - [...tag].length - 1;
      if (room < 4) continue;
      out[name] = `${[...DIVERSE_TEXT].slice(0, room).join('').trimEnd()} ${tag}`;
    }
    return out;
  }

  /** Makes every free-text string of an object unique to this run, within its maxLength; the fields in `keep` stay as they are. */
  uniquify(value: JsonObject, objectSchema: Schema, keep: ReadonlySet<string> = new Set()): JsonObject {
    const tag = this.nextTag();
    const merged = mergeAllOf(objectSchema);
    for (const [name, propertySchema] of Object.entries(merged.properties ?? {})) {
      if (keep.has(name)) continue;
      const s = mergeAllOf(schema(propertySchema));
      if (s.type !== 'string' || s.enum || s.format || s.pattern) continue;
      if (!(name in value) && !(merged.required ?? []).includes(name)) continue;
      const current = typeof value[name] === 'string' && value[name] !== '' ? (value[name] as string) : this.faker.word.noun();
      const max = s.maxLength ?? 200;
      const suffix = ` ${tag}`;
      value[name] = `${current.slice(0, Math.max(1, max - suffix.length))}${suffix}`.slice(0, max);
    }
    return value;
  }

  /**
   * A value for a schema in the request view (OpenAPI 3.0.3 §4.7.24:
   * readOnly properties are not sent): its example, enum, default, or one
   * built from its type and bounds; `allOf` parts are merged first, and
   * `variant` picks among the branches of `oneOf`/`anyOf` (the validator
   * decides which candidate is valid). One small function per construct.
   */
  sample(raw: Schema, depth: number, variant = 0): unknown {
    const s = mergeAllOf(raw);
    // OpenAPI 3.1 (JSON Schema 2020-12): `const` allows one value; `examples` is a list.
    const { const: constant, examples } = s as { const?: unknown; examples?: unknown };
    if (constant !== undefined) return structuredClone(constant);
    if (s.example !== undefined && variant === 0) return structuredClone(s.example as unknown);
    if (Array.isArray(examples) && examples.length > 0 && variant === 0) return structuredClone(examples[0] as unknown);
    const values = (s.enum ?? []).filter((v) => v !== null);
    if (values.length > 0) return values[variant % values.length];
    if (s.default !== undefined && s.default !== null && variant === 0) return structuredClone(s.default as unknown);
    const branches = s.oneOf ?? s.anyOf;
    if (branches && branches.length > 0) {
      const { oneOf: _one, anyOf: _any, ...rest } = s;
      return this.sample(mergeAllOf({ allOf: [rest, schema(branches[variant % branches.length])] }), depth, variant);
    }
    switch (typeOf(s)) {
      case 'integer':
        return sampleInteger(s);
      case 'number':
        return sampleNumber(s);
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array':
        return this.sampleArray(s, depth, variant);
      case 'object':
        return this.sampleObject(s, depth, variant);
      default:
        return this.sampleString(s);
    }
  }

  private sampleArray(s: Schema, depth: number, variant: number): unknown[] {
    const items = schema((s as OpenAPIV3.ArraySchemaObject).items);
    // OpenAPI 3.1 tuples: `prefixItems` fixes the first items, each by its own schema.
    const { prefixItems } = s as { prefixItems?: unknown };
    if (Array.isArray(prefixItems)) return prefixItems.map((item: OpenAPIV3.SchemaObject, i) => this.sample(schema(item), depth + 1, variant + i));
    const length = depth > 3 ? (s.minItems ?? 0) : Math.min(Math.max(1, s.minItems ?? 1), s.maxItems ?? Number.POSITIVE_INFINITY);
    const out: unknown[] = [];
    for (let i = 0; i < length; i += 1) out.push(this.sample(items, depth + 1, s.uniqueItems ? variant + i : variant));
    return out;
  }

  private sampleObject(s: Schema, depth: number, variant: number): JsonObject {
    const out: JsonObject = {};
    const properties = s.properties ?? {};
    const writable = Object.keys(properties).filter((name) => !schema(properties[name]).readOnly);
    const wanted = new Set((s.required ?? []).filter((name) => !schema(properties[name]).readOnly));
    // minProperties: add optional writable properties until there are enough.
    for (const name of writable) if (wanted.size < (s.minProperties ?? 0)) wanted.add(name);
    for (const name of wanted) out[name] = depth > 6 ? {} : this.sample(schema(properties[name]), depth + 1, variant);
    return out;
  }

  private sampleString(s: Schema): string {
    if (s.pattern) return fitLength(this.fromPattern(s.pattern), s);
    switch (s.format) {
      case 'date-time':
        return this.faker.date.soon({ days: 30, refDate: '2030-01-01T00:00:00Z' }).toISOString().replace(/\.\d{3}Z$/, 'Z');
      case 'date':
        return this.faker.date.soon({ days: 30, refDate: '2030-01-01T00:00:00Z' }).toISOString().slice(0, 10);
      case 'time':
        return '09:30:00Z';
      case 'uri':
      case 'url':
        return `https://example.com/${this.faker.string.alphanumeric(8)}`;
      case 'uri-reference':
        return `/${this.faker.string.alphanumeric(8)}`;
      case 'email':
        return this.faker.internet.email();
      case 'uuid':
        return this.faker.string.uuid();
      case 'hostname':
        return 'example.com';
      case 'ipv4':
        return '192.0.2.1';
      case 'ipv6':
        return '2001:db8::1';
      case 'byte':
        return fitLength(Buffer.from(this.faker.word.noun()).toString('base64'), s);
      default:
        return fitLength(this.faker.word.noun(), s);
    }
  }

  /** A string matching the pattern (randexp, src/pattern-sample.ts), drawn from this generator's seeded faker; a plain word when none does. */
  private fromPattern(pattern: string): string {
    return sampleFromPattern(pattern, (from, to) => this.faker.number.int({ min: from, max: to })) ?? this.faker.word.noun();
  }
}

/** The exact JSON text of a body, read back as the validators read a request (json.ts): what is validated is what is sent. */
export function asSent(body: unknown): unknown {
  return body === undefined ? undefined : plainJson(parseJson(stringifyJson(body)));
}

/** The type a schema asks for, or the one its keywords imply (`properties` → object). */
function typeOf(s: Schema): string | undefined {
  // OpenAPI 3.1 type lists (`[string, "null"]`): the first type that is not null, so a value is built.
  const types: unknown = s.type;
  if (Array.isArray(types)) return types.find((type: unknown): type is string => typeof type === 'string' && type !== 'null') ?? (types.includes('null') ? 'null' : undefined);
  if (s.type) return s.type;
  if (s.properties || s.required || s.additionalProperties !== undefined) return 'object';
  if ('items' in s) return 'array';
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number') return 'number';
  return undefined;
}

/** The smallest integer in bounds, preferring 1 (ids start there); a multiple of multipleOf. */
function sampleInteger(s: Schema): number {
  const min = typeof s.minimum === 'number' ? (s.exclusiveMinimum === true ? Math.floor(s.minimum) + 1 : Math.ceil(s.minimum)) : undefined;
  const max = typeof s.maximum === 'number' ? (s.exclusiveMaximum === true ? Math.ceil(s.maximum) - 1 : Math.floor(s.maximum)) : undefined;
  let value = min !== undefined ? Math.max(min, 1) : 1;
  if (max !== undefined && value > max) value = min ?? max;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (step !== undefined) value = Math.ceil(value / step) * step;
  return value;
}

function sampleNumber(s: Schema): number {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) return (min + max) / 2;
  if (min !== undefined) return min + 1;
  if (max !== undefined) return max - 1;
  return 1;
}

/** Pads or cuts a string into [minLength, maxLength]. */
function fitLength(text: string, s: Schema): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Number.POSITIVE_INFINITY;
  const padded = text.length >= min ? text : text.padEnd(min, 'x');
  return padded.length > max ? padded.slice(0, max) : padded;
}

/**
 * Every property an object of this schema may carry, with its schema, found
 * through composition: `allOf` parts merged, and the branches of
 * `oneOf`/`anyOf` united (any branch may be the one sent). A field named in
 * a part (`NewOrder: allOf: [OrderBase, {required: [petId]}]`) is as much the
 * body's as a top-level one: looking only at `properties` missed the parent
 * record a body needs, so the runner sent ids it did not own (issue 19).
 */
export function propertiesOf(raw: Schema | OpenAPIV3.ReferenceObject | undefined, depth = 0): Record<string, Schema> {
  const s = mergeAllOf(schema(raw));
  const out: Record<string, Schema> = {};
  for (const [name, p] of Object.entries(s.properties ?? {})) out[name] = schema(p);
  if (depth < 4) {
    for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
      for (const [name, p] of Object.entries(propertiesOf(schema(branch), depth + 1))) out[name] ??= p;
    }
  }
  return out;
}

/**
 * A schema with its `allOf` parts folded in (JSON Schema §10.2.1.1: an
 * instance must satisfy every part): properties and required lists are
 * united, a property two parts declare becomes the allOf of both, bounds take
 * the tighter value, `additionalProperties: false` from any part holds, and
 * `nullable` only when every part allows null. What cannot be merged
 * (two patterns) keeps the first; the validator still judges the result.
 */
export function mergeAllOf(s: Schema): Schema {
  if (!s.allOf || s.allOf.length === 0) return s;
  const { allOf, ...rest } = s;
  let out: Schema = { ...rest };
  for (const part of allOf) out = mergeTwo(out, mergeAllOf(schema(part)));
  return out;
}

function mergeTwo(a: Schema, b: Schema): Schema {
  const out: Record<string, unknown> = { ...b, ...a };
  if (a.properties || b.properties) {
    const properties: Record<string, Schema> = {};
    for (const [name, p] of Object.entries(b.properties ?? {})) properties[name] = schema(p);
    for (const [name, p] of Object.entries(a.properties ?? {})) properties[name] = properties[name] ? { allOf: [schema(p), properties[name]!] } : schema(p);
    out['properties'] = properties;
  }
  if (a.required || b.required) out['required'] = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  const tighter = (key: 'minimum' | 'minLength' | 'minItems' | 'minProperties', pick: (x: number, y: number) => number): void => {
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') out[key] = pick(x, y);
  };
  tighter('minimum', Math.max);
  tighter('minLength', Math.max);
  tighter('minItems', Math.max);
  tighter('minProperties', Math.max);
  for (const key of ['maximum', 'maxLength', 'maxItems', 'maxProperties'] as const) {
    const x = a[key];
    const y = b[key];
    if (typeof x === 'number' && typeof y === 'number') out[key] = Math.min(x, y);
  }
  if (a.enum && b.enum) out['enum'] = a.enum.filter((v) => b.enum!.includes(v));
  if (a.additionalProperties === false || b.additionalProperties === false) out['additionalProperties'] = false;
  if (a.nullable !== undefined || b.nullable !== undefined) out['nullable'] = a.nullable === true && b.nullable === true;
  if (a.readOnly || b.readOnly) out['readOnly'] = true;
  if (a.writeOnly || b.writeOnly) out['writeOnly'] = true;
  return out as Schema;
}

/**
 * The examples in the order the generator prefers them: examples whose
 * boolean flags are all false first, since a `true` flag in an example
 * (`complete: true`) usually triggers a state transition that cannot be
 * undone (a complete order cannot be cancelled), and the run must be able
 * to clean up after itself.
 */
function preferredExamples(media: MediaTypeSpec): unknown[] {
  const values = [...media.examples.values()];
  const hasTrueFlag = (value: unknown): boolean => isObject(value) && Object.values(value).some((v) => v === true);
  return [...values.filter((v) => !hasTrueFlag(v)), ...values.filter(hasTrueFlag)];
}

/** A value of a different JSON type than the schema asks for. */
function wrongType(s: Schema): { value: unknown; label: string } {
  switch (s.type) {
    case 'string':
      return { value: 12345, label: 'a number instead of a string' };
    case 'integer':
    case 'number':
      return { value: '12345', label: `a string instead of ${s.type === 'integer' ? 'an integer' : 'a number'}` };
    case 'boolean':
      return { value: 'true', label: 'the string "true" instead of a boolean' };
    case 'array':
      return { value: 'x', label: 'a string instead of an array' };
    case 'object':
      return { value: 'x', label: 'a string instead of an object' };
    default:
      return { value: [], label: 'an array' };
  }
}

function notInEnum(values: readonly unknown[]): string {
  return NOT_IN_ENUM.find((word) => !values.includes(word)) ?? `${String(values[0])}-x`;
}

/**
 * Invalid variants of a valid body, each breaking one constraint of the
 * schema: each required field removed, wrong types, enum violations,
 * an unknown field on a closed shape, values out of range, bad formats.
 * Nested objects are walked too (to a small depth).
 */
export function bodyMutations(rawSchema: Schema, valid: unknown): BodyMutation[] {
  const out: BodyMutation[] = [];
  // An allOf body (a base and a part that adds `required`) is one object schema: mutate the merged view.
  const bodySchema = mergeAllOf(rawSchema);
  if (!isObject(valid) || typeOf(bodySchema) !== 'object') return out;
  out.push({ kind: 'wrong-type', pointer: '', description: 'the body is a JSON array instead of an object', value: [] });
  walkObject(bodySchema, valid, '', out, 0);
  return out;
}

function walkObject(s: Schema, valid: JsonObject, pointer: string, out: BodyMutation[], depth: number): void {
  const at = (name: string): string => `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const withValue = (name: string, value: unknown): JsonObject => setAt(valid, pointer, name, value);
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);

  for (const name of required) {
    out.push({ kind: 'missing-required', pointer: at(name), description: `required field ${at(name)} removed`, value: setAt(valid, pointer, name, undefined) });
  }
  for (const [name, raw] of Object.entries(properties)) {
    const p = mergeAllOf(schema(raw));
    if (p.readOnly) continue;
    const wrong = wrongType(p);
    out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to ${wrong.label}`, value: withValue(name, wrong.value) });
    if (required.has(name) && !p.nullable) out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to null`, value: withValue(name, null) });
    if (p.type === 'integer') out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to a fraction (1.5) instead of an integer`, value: withValue(name, 1.5) });
    if (p.enum) {
      const word = notInEnum(p.enum);
      out.push({ kind: 'enum', pointer: at(name), description: `${at(name)} set to "${word}", not one of ${p.enum.join(', ')}`, value: withValue(name, word) });
    }
    if (typeof p.minimum === 'number') {
      const below = p.exclusiveMinimum === true ? p.minimum : p.type === 'integer' ? p.minimum - 1 : p.minimum - 0.5;
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${below}, below its minimum ${p.minimum}`, value: withValue(name, below) });
    }
    if (typeof p.maximum === 'number') {
      const above = p.exclusiveMaximum === true ? p.maximum : p.type === 'integer' ? p.maximum + 1 : p.maximum + 0.5;
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${above}, above its maximum ${p.maximum}`, value: withValue(name, above) });
    }
    if (p.type === 'integer' && p.format === 'int64') {
      // A bigint, written digit for digit by stringifyJson: as a double 2^63 would round onto a value Ajv's int64 accepts.
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to 2^63, one past int64`, value: withValue(name, BigInt(TWO_TO_63)) });
    }
    if (p.type === 'string' && typeof p.minLength === 'number' && p.minLength > 0) {
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to "" (minLength ${p.minLength})`, value: withValue(name, '') });
    }
    if (p.type === 'string' && typeof p.maxLength === 'number') {
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${p.maxLength + 1} characters (maxLength ${p.maxLength})`, value: withValue(name, 'x'.repeat(p.maxLength + 1)) });
    }
    if (p.type === 'string' && p.format && ['date-time', 'date', 'uri', 'email', 'uuid'].includes(p.format)) {
      out.push({ kind: 'format', pointer: at(name), description: `${at(name)} set to "not-a-${p.format}" (format ${p.format})`, value: withValue(name, `not-a-${p.format}`) });
    }
    const nested = valid[name];
    if (p.type === 'object' && isObject(nested) && depth < 3) walkObject(p, valid, at(name), out, depth + 1);
  }
  if (s.additionalProperties === false) {
    const name = 'unexpectedField';
    out.push({ kind: 'unknown-field', pointer: at(name), description: `unknown field ${at(name)} added to a closed shape`, value: withValue(name, 'x') });
  }
  if (typeof s.minProperties === 'number' && s.minProperties > 0 && depth === 0) {
    out.push({ kind: 'min-properties', pointer: pointer || '', description: `an empty object (minProperties ${s.minProperties})`, value: {} });
  }
}

/** A deep copy of `root` with the field `name` of the object at `pointer` set (or removed when value is undefined). */
function setAt(root: JsonObject, pointer: string, name: string, value: unknown): JsonObject {
  const copy = structuredClone(root);
  let target: JsonObject = copy;
  for (const segment of pointer.split('/').slice(1)) {
    const next = target[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!isObject(next)) return copy;
    target = next;
  }
  if (value === undefined) delete target[name];
  else target[name] = value;
  return copy;
}

/**
 * Invalid texts for one parameter, from its schema: not a number, a
 * fraction, below the minimum, above the maximum, past int64, outside the
 * enum, not a boolean. `validText` is a valid value of the same parameter,
 * from which a fraction is made (`<own id>.5`), so a server that rounds it
 * lands on a record the run owns.
 */
export function parameterMutations(parameter: ParameterSpec, validText: string): ParameterMutation[] {
  if (parameter.in !== 'path' && parameter.in !== 'query') return [];
  const location = parameter.in;
  const pointer = `/${location}/${parameter.name}`;
  const out: ParameterMutation[] = [];
  const add = (kind: ParameterMutation['kind'], text: string | readonly string[], description: string): void => {
    out.push({ kind, location, name: parameter.name, pointer, description: `${parameter.name}=${Array.isArray(text) ? text.join('&') : String(text)}: ${description}`, text });
  };
  const s = parameter.schema;
  const isArray = s.type === 'array';
  const item = isArray ? schema((s as OpenAPIV3.ArraySchemaObject).items) : s;
  const wrap = (text: string): string | readonly string[] => (isArray ? [text] : text);
  switch (item.type) {
    case 'integer': {
      add('wrong-type', wrap('abc'), 'not a number');
      add('wrong-type', wrap(/^-?\d+$/.test(validText) ? `${validText}.5` : '1.5'), 'a fraction');
      if (typeof item.minimum === 'number') {
        add('out-of-range', wrap(String(item.minimum - 1)), `below the minimum ${item.minimum}`);
        if (item.minimum - 1 > -1) add('out-of-range', wrap('-1'), 'negative');
      }
      if (typeof item.maximum === 'number') add('out-of-range', wrap(String(item.maximum + 1)), `above the maximum ${item.maximum}`);
      if (item.format === 'int64') add('out-of-range', wrap(TWO_TO_63), '2^63, one past int64');
      break;
    }
    case 'number':
      add('wrong-type', wrap('abc'), 'not a number');
      if (typeof item.minimum === 'number') add('out-of-range', wrap(String(item.minimum - 1)), `below the minimum ${item.minimum}`);
      if (typeof item.maximum === 'number') add('out-of-range', wrap(String(item.maximum + 1)), `above the maximum ${item.maximum}`);
      break;
    case 'boolean':
      add('wrong-type', wrap('yes'), 'not true or false');
      break;
    case 'string':
      if (item.enum) add('enum', wrap(notInEnum(item.enum)), `not one of ${item.enum.join(', ')}`);
      if (typeof item.minLength === 'number' && item.minLength > 0) add('out-of-range', wrap(''), `shorter than minLength ${item.minLength}`);
      break;
    default:
      break;
  }
  if (isArray && typeof s.maxItems === 'number' && s.maxItems < 1000 && /^-?\d+$/.test(validText)) {
    add('out-of-range', Array.from({ length: s.maxItems + 1 }, () => validText), `${s.maxItems + 1} values (maxItems ${s.maxItems})`);
  }
  return out;
}

/** A version-4 uuid no implementation hands out by chance (all its random bits set): valid for `format: uuid`, naming nothing. */
export const ABSENT_UUID = 'ffffffff-ffff-4fff-bfff-ffffffffffff';

/**
 * Candidates for a valid id that names no record, for one path parameter's
 * schema (issue 11, point 4): an integer for an integer id (ABSENT_ID, or the
 * schema's maximum when it is lower), a uuid for a uuid, a string of the
 * run's own tag for any other string (a pattern's sample when it has one).
 * The caller sends the first the parameter's validator accepts, so that
 * 404 is the only right answer.
 */
export function absentIdCandidates(parameter: ParameterSpec, generator: Generator): string[] {
  const s = mergeAllOf(parameter.schema);
  if (s.type === 'integer' || s.type === 'number') {
    const max = typeof s.maximum === 'number' ? (s.exclusiveMaximum === true ? s.maximum - 1 : s.maximum) : undefined;
    return [String(max !== undefined && max < ABSENT_ID ? Math.floor(max) : ABSENT_ID)];
  }
  if (s.format === 'uuid') return [ABSENT_UUID];
  const out: string[] = [];
  const tag = `absent-${generator.runTag}`;
  // The run's tag first, pattern or not: the caller keeps the first candidate the schema accepts, and a pattern as
  // open as Svix's `^[a-zA-Z0-9\-_.]+$` takes it.
  out.push(typeof s.maxLength === 'number' ? tag.slice(0, Math.max(s.minLength ?? 1, s.maxLength)) : tag);
  // Never the document's own example or default: a mock seeded from the examples (ours, Prism's) holds that very record.
  const documented = new Set([parameter.example, s.example, s.default].filter((v) => v !== undefined && v !== null).map(String));
  for (let i = 0; i < 3; i += 1) {
    const sample = String(generator.sample(s, 0, i));
    if (!documented.has(sample)) out.push(sample);
  }
  return out;
}

/**
 * Typed values to try for a parameter, best first: its example, its schema's
 * example or default, then samples. An array gets two items where its
 * schema allows (so a serialization that keeps only the first is caught);
 * the caller sends the first its validator accepts (issue 11, point 3).
 */
export function parameterCandidates(parameter: ParameterSpec, generator: Generator): unknown[] {
  const s = mergeAllOf(parameter.schema);
  const out: unknown[] = [parameter.example, s.example, s.default].filter((v) => v !== undefined && v !== null).map((v) => structuredClone(v));
  for (let variant = 0; variant < SAMPLE_VARIANTS; variant += 1) {
    const value = generator.sample(s, 1, variant);
    if (Array.isArray(value) && value.length === 1 && (s.maxItems ?? 2) >= 2) {
      const second = generator.sample(schema((s as OpenAPIV3.ArraySchemaObject).items), 2, variant + 1);
      out.push(s.uniqueItems && JSON.stringify(second) === JSON.stringify(value[0]) ? value : [...value, second]);
    } else {
      out.push(value);
    }
  }
  return out;
}

/** Values to try for a request body of a media type that is not JSON (a form, a text): its examples, then samples of its schema. */
export function bodyCandidates(media: MediaTypeSpec, generator: Generator): unknown[] {
  const bodySchema = schema(media.schema);
  return [...preferredExamples(media).map((example) => structuredClone(example)), ...Array.from({ length: SAMPLE_VARIANTS }, (_, variant) => generator.sample(bodySchema, 0, variant))];
}

/** A valid text for a parameter when the run has no record of its own to name: its example, default or a sample. */
export function sampleParameterText(parameter: ParameterSpec, generator: Generator): string {
  const value = parameter.example ?? parameter.schema.example ?? parameter.schema.default ?? generator.sample(parameter.schema, 0);
  return Array.isArray(value) ? String(value[0]) : String(value);
}
