import type { OpenAPIV3 } from 'openapi-types';

/**
 * Parameters and headers arrive as text; their schemas speak of integers,
 * booleans and arrays. This turns text into the typed value the schema
 * describes, strictly: `"1e3"`, `" 12"`, `"0x10"` and `"+5"` are not
 * integers (Ajv's own coercion would accept some of them), and an int64 is
 * checked against 2^63-1 on the digits themselves, before JavaScript rounds it.
 *
 * Returns the value, or `{ error }` with a message saying what was expected.
 */
export type Coerced = { ok: true; value: unknown } | { ok: false; message: string; expected: string };

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
// JSON's number grammar (RFC 8259 §6).
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export function coerceText(raw: string | readonly string[], schema: OpenAPIV3.SchemaObject): Coerced {
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as OpenAPIV3.SchemaObject;
    const values = typeof raw === 'string' ? [raw] : raw;
    const out: unknown[] = [];
    for (const value of values) {
      const item = coerceScalar(value, items);
      if (!item.ok) return item;
      out.push(item.value);
    }
    return { ok: true, value: out };
  }
  // A scalar parameter given several times: the last one would silently win
  // in many frameworks; say so instead.
  if (typeof raw !== 'string') {
    if (raw.length === 1) return coerceScalar(raw[0] as string, schema);
    return { ok: false, message: 'must be given once', expected: 'a single value' };
  }
  return coerceScalar(raw, schema);
}

function coerceScalar(raw: string, schema: OpenAPIV3.SchemaObject): Coerced {
  switch (schema.type) {
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
    default:
      return { ok: true, value: raw };
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
