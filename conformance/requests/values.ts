/**
 * A parameter's value as the runner holds it before it is written as text
 * (serialize.ts writes it by its style), and the one rule that says whether
 * a value needs its style at all.
 */
import type { ParameterSpec } from '../../src/contract/index.js';
import { isObject } from '../generate.js';

/** A parameter's value before it is written as text; a bigint is an int64 id past 2^53, written digit for digit; objects and arrays are written by the parameter's style (serialize.ts). */
export type ParamValue = string | number | bigint | boolean | readonly (string | number | bigint | boolean)[] | ParamObject;
export type ParamObject = { readonly [key: string]: string | number | boolean };

/**
 * Whether a value needs its parameter's style to be written (serialize.ts)
 * rather than a plain `name=value` per item: an object, an array of a
 * parameter that is not exploded form (nor an array schema in a path), a
 * label or matrix path value. The rest goes out as it always did.
 */
export function needsStyle(spec: ParameterSpec, value: ParamValue): boolean {
  const style = spec.style ?? (spec.in === 'query' || spec.in === 'cookie' ? 'form' : 'simple');
  if (isObject(value)) return true;
  if (spec.in === 'path') return style !== 'simple' || (Array.isArray(value) && spec.schema.type === 'array');
  return Array.isArray(value) && !(style === 'form' && spec.explode);
}

/** A generated value as a parameter value: primitives and arrays of them as they are, an object's entries as texts. */
export function toParamValue(value: unknown): ParamValue {
  if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint' ? item : String(item)));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]));
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? value : String(value);
}
