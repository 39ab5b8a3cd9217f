import type { OpenAPIV3 } from 'openapi-types';
import type { ParameterText } from './parameter-text.js';
import { typesOfSchema, type JsonType } from './schema-types.js';

/**
 * Parameters and headers arrive as text; their schemas speak of integers,
 * booleans and arrays. This turns text into the typed value the schema
 * describes, strictly: `"1e3"`, `" 12"`, `"0x10"` and `"+5"` are not
 * integers (Ajv's own coercion would accept some of them), and an int64 is
 * checked against 2^63-1 on the digits themselves, before JavaScript rounds it.
 * The types are the schema's own (schema-types.ts): a 3.1 `[integer, 'null']`,
 * an `enum` of numbers, a `oneOf` of an integer and a string.
 *
 * Returns the value, or `{ error }` with a message saying what was expected.
 */
export type Coerced = { ok: true; value: unknown } | { ok: false; message: string; expected: string };

type Schema = OpenAPIV3.SchemaObject;

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
// JSON's number grammar (RFC 8259 §6).
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export function coerceText(raw: string | readonly string[], schema: Schema): Coerced {
  const types = typesOfSchema(schema);
  if (types?.includes('array') && !types.some((type) => type !== 'array' && type !== 'null')) {
    return coerceItems(typeof raw === 'string' ? [raw] : raw, schema);
  }
  // A scalar parameter given several times: the last one would silently win
  // in many frameworks; say so instead.
  if (typeof raw !== 'string') {
    if (raw.length === 1) return coerceScalar(raw[0] as string, schema);
    return { ok: false, message: 'must be given once', expected: 'a single value' };
  }
  return coerceScalar(raw, schema);
}

/** A parameter read by its style (parameter-text.ts), typed by its schema. */
export function coerceParameter(text: ParameterText, schema: Schema): Coerced {
  switch (text.kind) {
    case 'absent':
      return { ok: true, value: undefined };
    case 'primitive':
      return coerceText(text.text, schema);
    case 'array':
      return coerceItems(text.items, schema);
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text.text) as unknown };
      } catch {
        return { ok: false, message: 'must be JSON text, as the parameter\'s content says', expected: 'JSON' };
      }
    case 'object': {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [name, value] of text.entries) {
        const coerced = coerceScalar(value, memberSchema(schema, name));
        if (!coerced.ok) return { ok: false, message: `${name} ${coerced.message}`, expected: coerced.expected };
        out[name] = coerced.value;
      }
      // A plain object, so Ajv and the handlers see an ordinary value (the null prototype kept `__proto__` a name only).
      return { ok: true, value: { ...out } };
    }
  }
}

function coerceItems(values: readonly string[], schema: Schema): Coerced {
  const items = ((schema as { items?: unknown }).items ?? {}) as Schema;
  const out: unknown[] = [];
  for (const value of values) {
    const item = coerceScalar(value, items);
    if (!item.ok) return item;
    out.push(item.value);
  }
  return { ok: true, value: out };
}

function memberSchema(schema: Schema, name: string): Schema {
  const properties = schema.properties ?? {};
  if (Object.hasOwn(properties, name)) return properties[name] as Schema;
  for (const part of schema.allOf ?? []) {
    const found = (part as Schema).properties?.[name];
    if (found) return found as Schema;
  }
  return typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : {};
}

/** The text as the first of the schema's types it reads as; a schema silent on its type keeps the text. */
function coerceScalar(raw: string, schema: Schema): Coerced {
  const types = typesOfSchema(schema);
  if (types === undefined || types.length === 0) return { ok: true, value: raw };
  let failure: Coerced | undefined;
  for (const type of ORDER) {
    if (!types.includes(type)) continue;
    const coerced = as(type, raw);
    if (coerced.ok) return coerced;
    failure ??= coerced;
  }
  return failure ?? { ok: true, value: raw };
}

/** Numbers before strings: `"12"` for `[integer, string]` is the integer; `null` only as the word itself. */
const ORDER: readonly JsonType[] = ['integer', 'number', 'boolean', 'null', 'string'];

function as(type: JsonType, raw: string): Coerced {
  switch (type) {
    case 'integer': {
      if (!INTEGER.test(raw)) return { ok: false, message: `must be an integer, got "${truncate(raw)}"`, expected: 'integer' };
      // Up to 15 characters no integer reaches 2^53, let alone int64's bounds: only longer digits need BigInt
      // (a BigInt per request cost getPet's petId about 40 ns, issue 14).
      if (raw.length > 15) {
        const big = BigInt(raw);
        if (big > INT64_MAX) return { ok: false, message: 'must be <= 9223372036854775807 (2^63-1)', expected: 'int64' };
        if (big < INT64_MIN) return { ok: false, message: 'must be >= -9223372036854775808 (-2^63)', expected: 'int64' };
      }
      return { ok: true, value: Number(raw) };
    }
    case 'number':
      if (!NUMBER.test(raw)) return { ok: false, message: `must be a number, got "${truncate(raw)}"`, expected: 'number' };
      return { ok: true, value: Number(raw) };
    case 'boolean':
      if (raw === 'true') return { ok: true, value: true };
      if (raw === 'false') return { ok: true, value: false };
      return { ok: false, message: `must be true or false, got "${truncate(raw)}"`, expected: 'boolean' };
    case 'null':
      return raw === 'null' ? { ok: true, value: null } : { ok: false, message: `must be null, got "${truncate(raw)}"`, expected: 'null' };
    default:
      return { ok: true, value: raw };
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
