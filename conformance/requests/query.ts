/** A call's query as it goes on the wire: plain `name=value` pairs, and the values their style writes (serialize.ts). */
import type { Operation } from '../../src/contract/index.js';
import { isObject } from '../generate.js';
import { serializeParameter } from './serialize.js';
import { needsStyle, type ParamValue } from './values.js';

/** Query values as texts (an object as its JSON text); an `undefined` value is left out. */
export function queryOf(input: Readonly<Record<string, ParamValue | undefined>> | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(String) : isObject(value) ? JSON.stringify(value) : String(value);
  }
  return out;
}

/**
 * The query of a call: plain values as `name=value` pairs (URLSearchParams
 * encodes them), values that need their parameter's style (a deepObject, a
 * pipe-delimited array, an unexploded form array) already serialized.
 */
export function queryParts(operation: Operation, input: Readonly<Record<string, ParamValue | undefined>> | undefined): { query: Record<string, string | string[]>; rawQuery: (readonly [string, string])[] } {
  const plain: Record<string, ParamValue> = {};
  const rawQuery: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    const spec = operation.parameters.find((p) => p.in === 'query' && p.name === name);
    if (spec && needsStyle(spec, value)) rawQuery.push(...(serializeParameter(spec, value).query ?? []));
    else plain[name] = value;
  }
  return { query: queryOf(plain), rawQuery };
}

/** Query values as texts, one list per name, for a request sent outside a call (the clean-up). */
export function queryTexts(query: Readonly<Record<string, ParamValue>>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));
}

/** A percent-encoded text decoded, or kept as it is when it does not decode. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
