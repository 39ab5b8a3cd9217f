/**
 * Whether a generated value meets a schema, for the two places the generator must know it rather than build to
 * it (review 1, finding 13): a value must fail a `not`, and an `if` decides whether `then` or `else` applies
 * (JSON Schema 2020-12 §10.2.1.4, §10.2.2). Three answers: true, false, or undefined where the schema says
 * what is not judged here; a value the generator cannot judge is never handed out as if it were valid.
 *
 * The keywords judged are the common ones, with their JSON Schema meaning (each applies to its own type only):
 * type (and 3.0's nullable), enum, const, format (by the very checks of ajv-formats the validators use; a format
 * it does not name is unknown), the numeric bounds of either dialect and multipleOf (by Ajv's own
 * test), string lengths in code points and pattern (by RE2, as the validators run it), required, properties,
 * additionalProperties, member counts, items, item counts, uniqueItems, and allOf, anyOf, oneOf, not over them.
 * Anything else (if, patternProperties, contains, propertyNames, …) is unknown; unjudged() names it before any value is
 * made, so the mock and the runner can say at start-up that such a schema is not generated.
 */
import type { Format } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { compileSafePattern } from '../schema/safe-pattern.js';
import { constOf, isObject, isOfType, typesOf, type Schema } from './composition.js';
import { isMultipleAsAjv } from './numbers.js';
import type { View } from './walker.js';

/** Keywords that say nothing about validity (OpenAPI 3.0.3 §4.7.24, JSON Schema 2020-12 meta-data §9), and `x-` extensions. */
export function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith('x-');
}

const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'discriminator', '$comment', '$id', '$schema', '$anchor', 'contentMediaType', 'contentEncoding']);
const JUDGED = new Set([
  'type', 'nullable', 'enum', 'const', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern',
  'required', 'properties', 'additionalProperties', 'minProperties', 'maxProperties',
  'items', 'minItems', 'maxItems', 'uniqueItems',
  'allOf', 'anyOf', 'oneOf', 'not',
  // JSON Schema 2020-12 §10.2.2: `if` picks whether `then` or `else` applies; either alone holds nothing.
  'if', 'then', 'else',
]);
/** Nesting judged at most: past it, unknown. */
const MAX_DEPTH = 32;

export type Verdict = boolean | undefined;

/** The first keyword of `schema` (or of a schema inside it) that is not judged here, or undefined when all are. */
export function unjudged(raw: unknown, depth = 0): string | undefined {
  if (raw === true || raw === false || raw === undefined) return undefined;
  if (!isObject(raw)) return undefined;
  if (depth > MAX_DEPTH) return 'nesting';
  for (const [keyword, value] of Object.entries(raw)) {
    if (value === undefined || isAnnotation(keyword)) continue;
    if (!JUDGED.has(keyword)) return keyword;
    const inner =
      keyword === 'properties' && isObject(value) ? Object.values(value)
      : keyword === 'allOf' || keyword === 'anyOf' || keyword === 'oneOf' ? (Array.isArray(value) ? value : [])
      : keyword === 'not' || keyword === 'items' || keyword === 'additionalProperties' || keyword === 'if' || keyword === 'then' || keyword === 'else' ? [value]
      : [];
    if (keyword === 'items' && Array.isArray(value)) return 'items (a tuple)';
    for (const part of inner) {
      const found = unjudged(part, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Whether `value` meets `schema`: true, false, or undefined where that is not known here. */
export interface JudgeOptions {
  /** The side of the document the value is for: `required` is read as the validators read it for that view. */
  readonly view?: View;
  /**
   * A keyword not judged here is taken as met (the generator built the value to it) rather than unknown: for the
   * schemas a value was made from, where what must be known is whether a fold of them lost a keyword judged here.
   */
  readonly trustUnknown?: boolean;
}

export function judge(value: unknown, raw: unknown, options: JudgeOptions = {}, depth = 0): Verdict {
  if (raw === true || raw === undefined) return true;
  if (raw === false) return false;
  if (!isObject(raw) || depth > MAX_DEPTH) return undefined;
  const s = raw as Schema;
  const verdicts: Verdict[] = [];
  for (const [keyword, given] of Object.entries(s)) {
    if (given === undefined || isAnnotation(keyword) || keyword === 'nullable') continue;
    // An unknown keyword makes the verdict unknown, unless a keyword judged here already fails the value.
    if (!JUDGED.has(keyword)) {
      if (options.trustUnknown !== true) verdicts.push(undefined);
      continue;
    }
    // `then` and `else` are judged with their `if`, and hold nothing without one.
    if (keyword === 'then' || keyword === 'else') continue;
    verdicts.push(keyword === 'if' ? judgeConditional(value, s, options, depth) : judgeKeyword(value, s, keyword, options, depth));
    if (verdicts[verdicts.length - 1] === false) return false;
  }
  return every(verdicts);
}

/** The branch an `if` picks, judged (JSON Schema 2020-12 §10.2.2): a missing `then` or `else` allows anything; unknown where the `if` is. */
function judgeConditional(value: unknown, s: Schema, options: JudgeOptions, depth: number): Verdict {
  const { if: condition, then, else: otherwise } = s as { if?: unknown; then?: unknown; else?: unknown };
  if (then === undefined && otherwise === undefined) return true;
  const met = judge(value, condition, options, depth + 1);
  if (met === undefined) return undefined;
  const applies = met ? then : otherwise;
  return applies === undefined ? true : judge(value, applies, options, depth + 1);
}

function every(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes(false)) return false;
  return verdicts.includes(undefined) ? undefined : true;
}

function some(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes(true)) return true;
  return verdicts.includes(undefined) ? undefined : false;
}

/** JSON's value, compared as JSON (RFC 8259): objects by members, whatever their order. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => same(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function judgeKeyword(value: unknown, s: Schema, keyword: string, options: JudgeOptions, depth: number): Verdict {
  const get = (name: string): unknown => Reflect.get(s, name);
  const number = typeof value === 'number' ? value : undefined;
  const text = typeof value === 'string' ? value : undefined;
  const object = isObject(value) ? value : undefined;
  const array = Array.isArray(value) ? (value as unknown[]) : undefined;
  switch (keyword) {
    case 'type': {
      const types = typesOf(s);
      return (s.nullable === true && value === null) || types.some((type) => isOfType(value, type));
    }
    case 'enum':
      return Array.isArray(s.enum) ? s.enum.some((option) => same(option, value)) : undefined;
    case 'const':
      return same(constOf(s)?.value, value);
    case 'minimum':
    case 'maximum': {
      if (number === undefined || typeof get(keyword) !== 'number') return true;
      const bound = get(keyword) as number;
      // 3.0: a boolean exclusive flag beside it (3.1's numeric exclusive bounds are keywords of their own).
      const exclusive = get(keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum') === true;
      return keyword === 'minimum' ? (exclusive ? number > bound : number >= bound) : exclusive ? number < bound : number <= bound;
    }
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const bound = get(keyword);
      if (number === undefined || typeof bound !== 'number') return true;
      return keyword === 'exclusiveMinimum' ? number > bound : number < bound;
    }
    case 'multipleOf':
      return number === undefined || typeof s.multipleOf !== 'number' || isMultipleAsAjv(number, s.multipleOf);
    case 'format':
      return typeof s.format === 'string' ? judgeFormat(value, s.format) : true;
    case 'minLength':
      return text === undefined || [...text].length >= (s.minLength ?? 0);
    case 'maxLength':
      return text === undefined || [...text].length <= (s.maxLength ?? Number.POSITIVE_INFINITY);
    case 'pattern': {
      if (text === undefined || typeof s.pattern !== 'string') return true;
      const compiled = compileSafePattern(s.pattern);
      return compiled.ok ? compiled.pattern.test(text) : undefined;
    }
    case 'required': {
      if (object === undefined) return true;
      // A member its own properties mark readOnly is not required in a request, nor a writeOnly one in an answer
      // (OpenAPI 3.0.3 §4.7.24), as the validators read `required` for each view (oas-to-json-schema.ts).
      const hidden = options.view === 'request' ? 'readOnly' : options.view === 'response' ? 'writeOnly' : undefined;
      const properties: Record<string, unknown> = s.properties ?? {};
      const shown = (name: string): boolean => hidden === undefined || !Object.hasOwn(properties, name) || !isObject(properties[name]) || properties[name][hidden] !== true;
      return (s.required ?? []).filter(shown).every((name) => Object.hasOwn(object, name));
    }
    case 'properties':
      return object === undefined ? true : every(Object.entries(s.properties ?? {}).map(([name, property]) => (Object.hasOwn(object, name) ? judge(object[name], property, options, depth + 1) : true)));
    case 'additionalProperties': {
      if (object === undefined) return true;
      const declared = s.properties ?? {};
      const extra = Object.keys(object).filter((name) => !Object.hasOwn(declared, name));
      return every(extra.map((name) => judge(object[name], s.additionalProperties, options, depth + 1)));
    }
    case 'minProperties':
      return object === undefined || Object.keys(object).length >= (s.minProperties ?? 0);
    case 'maxProperties':
      return object === undefined || Object.keys(object).length <= (s.maxProperties ?? Number.POSITIVE_INFINITY);
    case 'items':
      return array === undefined ? true : Array.isArray(get('items')) ? undefined : every(array.map((item) => judge(item, get('items'), options, depth + 1)));
    case 'minItems':
      return array === undefined || array.length >= (s.minItems ?? 0);
    case 'maxItems':
      return array === undefined || array.length <= (s.maxItems ?? Number.POSITIVE_INFINITY);
    case 'uniqueItems':
      return array === undefined || s.uniqueItems !== true || array.every((item, i) => array.findIndex((other) => same(other, item)) === i);
    case 'allOf':
      return every((s.allOf ?? []).map((part) => judge(value, part, options, depth + 1)));
    case 'anyOf':
      return some((s.anyOf ?? []).map((part) => judge(value, part, options, depth + 1)));
    case 'oneOf': {
      const verdicts = (s.oneOf ?? []).map((part) => judge(value, part, options, depth + 1));
      if (verdicts.includes(undefined)) return undefined;
      return verdicts.filter((verdict) => verdict === true).length === 1;
    }
    case 'not': {
      const verdict = judge(value, s.not, options, depth + 1);
      return verdict === undefined ? undefined : !verdict;
    }
    default:
      return undefined;
  }
}

/**
 * A format as the validators check it (src/schema/ajv.ts adds ajv-formats' full formats): only a value of the
 * format's own type is checked (a string, or a number for int32 and the like).
 */
function judgeFormat(value: unknown, name: string): Verdict {
  if (!Object.hasOwn(fullFormats, name)) return undefined;
  const format: Format = fullFormats[name as keyof typeof fullFormats];
  if (format === true) return true;
  const definition = typeof format === 'object' && !(format instanceof RegExp) ? format : undefined;
  const type = definition?.type ?? 'string';
  if (typeof value !== type) return true;
  const check = definition ? definition.validate : format;
  if (check instanceof RegExp) return typeof value === 'string' && check.test(value);
  if (typeof check !== 'function') return undefined;
  const verdict: unknown = (check as (data: unknown) => unknown)(value);
  return typeof verdict === 'boolean' ? verdict : undefined;
}
