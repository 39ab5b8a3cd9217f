/**
 * Inputs derived from the document: valid bodies from its examples (the
 * schemas fill gaps, faker the free values), and invalid mutations of them
 * from the schemas' own constraints. Nothing here knows a field of the Pet
 * Store: a document with other shapes gets other inputs.
 *
 * Faker is a private instance seeded with --seed (`new Faker({locale, seed})`),
 * never the global one, so two runs with one seed send the same values
 * (apart from the run tag that keeps their records apart).
 */
import { Faker, en } from '@faker-js/faker';
import type { OpenAPIV3 } from 'openapi-types';
import type { MediaTypeSpec, Operation, ParameterSpec } from '../src/contract/index.js';
import { isJsonMediaType } from '../src/schema/index.js';

export type Schema = OpenAPIV3.SchemaObject;
export type JsonObject = Record<string, unknown>;

/** The document is dereferenced when loaded (src/contract/load.ts), so every schema position holds a schema. */
export function schema(value: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | undefined): Schema {
  return (value ?? {}) as Schema;
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

export class Generator {
  readonly faker: Faker;
  private counter = 0;

  constructor(
    readonly seed: number,
    /** Short and unique per run, so records of two runs (or other data already there) never collide. */
    readonly runTag: string,
    /** Tells apart the generators of one run (one per check), so their tags never collide either. */
    private readonly label = '',
  ) {
    this.faker = new Faker({ locale: [en], seed });
  }

  /** A fresh suffix for one record's free-text fields. */
  nextTag(): string {
    this.counter += 1;
    return `${this.runTag}-${this.label}${this.counter}`;
  }

  /**
   * A valid body for the operation: its preferred example, with fields
   * named like a producer's parameter bound to records the run owns, and
   * free-text fields made unique. Undefined when there is nothing to start from.
   */
  validBody(operation: Operation, bindings: Readonly<Record<string, unknown>>, exampleIndex = 0): unknown {
    const media = jsonBodyOf(operation);
    if (!media) return undefined;
    const bodySchema = schema(media.schema);
    const examples = preferredExamples(media);
    const base = examples.length > 0 ? structuredClone(examples[exampleIndex % examples.length]) : this.sample(bodySchema, 0);
    if (!isObject(base)) return base;
    const properties = bodySchema.properties ?? {};
    for (const [name, value] of Object.entries(bindings)) {
      if (name in properties || name in base) base[name] = value;
    }
    // A required field the example lacks (a document whose example is partial) is filled from its schema.
    for (const name of bodySchema.required ?? []) {
      if (!(name in base) && properties[name]) base[name] = this.sample(schema(properties[name]), 1);
    }
    return this.uniquify(base, bodySchema);
  }

  /** Makes every free-text string of an object unique to this run, within its maxLength. */
  uniquify(value: JsonObject, objectSchema: Schema): JsonObject {
    const tag = this.nextTag();
    for (const [name, propertySchema] of Object.entries(objectSchema.properties ?? {})) {
      const s = schema(propertySchema);
      if (s.type !== 'string' || s.enum || s.format || s.pattern) continue;
      if (!(name in value) && !(objectSchema.required ?? []).includes(name)) continue;
      const current = typeof value[name] === 'string' && value[name] !== '' ? (value[name] as string) : this.faker.word.noun();
      const max = s.maxLength ?? 200;
      const suffix = ` ${tag}`;
      value[name] = `${current.slice(0, Math.max(1, max - suffix.length))}${suffix}`.slice(0, max);
    }
    return value;
  }

  /** A value valid for a schema, from its example, enum, default or bounds; faker for free text. */
  sample(s: Schema, depth: number): unknown {
    if (s.example !== undefined) return structuredClone(s.example as unknown);
    if (s.enum && s.enum.length > 0) return s.enum[0];
    if (s.default !== undefined) return s.default as unknown;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => this.sample(schema(part), depth)).filter(isObject));
    if (s.oneOf?.[0] ?? s.anyOf?.[0]) return this.sample(schema(s.oneOf?.[0] ?? s.anyOf?.[0]), depth);
    switch (s.type) {
      case 'integer':
        return Math.max(typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum ? 1 : 0) : 1, 1);
      case 'number':
        return typeof s.minimum === 'number' ? s.minimum + 1 : 1;
      case 'boolean':
        return false;
      case 'array':
        return depth > 3 ? [] : Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => this.sample(schema((s as OpenAPIV3.ArraySchemaObject).items), depth + 1));
      case 'object': {
        const out: JsonObject = {};
        if (depth > 3) return out;
        for (const name of s.required ?? []) out[name] = this.sample(schema(s.properties?.[name]), depth + 1);
        return out;
      }
      case 'string':
      default:
        return this.sampleString(s);
    }
  }

  private sampleString(s: Schema): string {
    switch (s.format) {
      case 'date-time':
        return this.faker.date.soon({ days: 30, refDate: '2030-01-01T00:00:00Z' }).toISOString().replace(/\.\d{3}Z$/, 'Z');
      case 'date':
        return this.faker.date.soon({ days: 30, refDate: '2030-01-01T00:00:00Z' }).toISOString().slice(0, 10);
      case 'uri':
      case 'uri-reference':
        return `https://example.com/${this.faker.string.alphanumeric(8)}`;
      case 'email':
        return this.faker.internet.email();
      case 'uuid':
        return this.faker.string.uuid();
      default: {
        const text = this.faker.word.noun();
        const min = s.minLength ?? 1;
        return text.length >= min ? text.slice(0, s.maxLength ?? text.length) : text.padEnd(min, 'x');
      }
    }
  }
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
export function bodyMutations(bodySchema: Schema, valid: unknown): BodyMutation[] {
  const out: BodyMutation[] = [];
  if (!isObject(valid) || bodySchema.type !== 'object') return out;
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
    const p = schema(raw);
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
      // As a JSON number 2^63 loses its last digits and lands on a value Ajv's int64 accepts: the exact-bytes re-validation skips it.
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to 2^63, one past int64`, value: withValue(name, Number(TWO_TO_63)) });
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

/** A valid text for a parameter when the run has no record of its own to name: its example, default or a sample. */
export function sampleParameterText(parameter: ParameterSpec, generator: Generator): string {
  const value = parameter.example ?? parameter.schema.example ?? parameter.schema.default ?? generator.sample(parameter.schema, 0);
  return Array.isArray(value) ? String(value[0]) : String(value);
}
