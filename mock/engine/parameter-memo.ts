/**
 * Parameter checks that passed, remembered by the values they read (issue 22, point 8). A front end reads the same
 * record again and again (`GET /v1/Services/MG…`, `GET /pets/1`): each time its path value was coerced and checked
 * against its schema (a pattern, a length) to the same verdict. A check reads only the operation's declared
 * parameters (OAS 3.0.3 §4.7.12: path, query, header; a cookie is not read), so the same text in each gives the same
 * result: it is kept per operation and given again, frozen, so no handler can change what the next request gets.
 *
 * Only a passed check is kept, and only when every value read is one string or absent (a repeated query parameter,
 * or a typed value that is not a primitive, is checked each time). Bounded per operation: a client walking through
 * many ids starts the memo over rather than growing it. Kept the second time its values are seen, as matches are
 * (match-memo.ts): an id seen once, such as an order cancelled right after it was placed, costs no freezing.
 */
import type { ParameterSpec } from '../../src/contract/index.js';
import { shapeOfSchema } from '../../src/schema/schema-types.js';
import type { ParametersResult, ParsedParameters, RawParameters } from '../../src/schema/index.js';

/** How many passed checks an operation keeps (distinct ids read in turn); past it the memo starts over. */
const KEPT_PER_OPERATION = 64;

type Passed = { readonly ok: true; readonly values: ParsedParameters };

export type ParameterCheck = (raw: RawParameters) => ParametersResult;

/** `check` with its passes remembered; the same function when the operation takes no parameters (nothing to save). */
export function rememberParameterPasses(specs: readonly ParameterSpec[], check: ParameterCheck): ParameterCheck {
  const read: readonly Read[] = specs
    .filter((spec) => spec.in === 'path' || spec.in === 'query' || spec.in === 'header')
    .map((spec) => ({ from: spec.in === 'path' ? 'path' : spec.in === 'query' ? 'query' : 'headers', key: spec.in === 'header' ? spec.name.toLowerCase() : spec.name }));
  // An object in the query travels under names of its own (`color[R]=1`, or its members' names): the key below would
  // not see them, so such an operation's checks are not remembered.
  if (read.length === 0 || specs.some((spec) => spec.in === 'query' && spec.mediaType === undefined && shapeOfSchema(spec.schema) === 'object')) return check;
  const kept = new Map<string, Passed | typeof SEEN_ONCE>();
  // One parameter sent without a value (an optional query parameter left out): kept apart, since any text is a value.
  let absent: Passed | typeof SEEN_ONCE | undefined;
  return (raw) => {
    const key = keyOf(read, raw);
    if (key === undefined) return check(raw);
    const known = key === ABSENT ? absent : kept.get(key);
    if (known !== undefined && known !== SEEN_ONCE) return known;
    const result = check(raw);
    if (!result.ok || !primitivesOnly(result.values)) return result;
    if (known === undefined) {
      if (key === ABSENT) absent = SEEN_ONCE;
      else {
        if (kept.size >= KEPT_PER_OPERATION) kept.clear();
        kept.set(key, SEEN_ONCE);
      }
      return result;
    }
    const passed: Passed = Object.freeze({ ok: true as const, values: Object.freeze({ path: Object.freeze(result.values.path), query: Object.freeze(result.values.query), header: Object.freeze(result.values.header) }) });
    if (key === ABSENT) {
      absent = passed;
    } else {
      if (kept.size >= KEPT_PER_OPERATION) kept.clear();
      kept.set(key, passed);
    }
    return passed;
  };
}

interface Read {
  readonly from: 'path' | 'query' | 'headers';
  readonly key: string;
}

/**
 * The values a check reads, as one key: each as its length, a colon and its text, or `!` when absent (no two
 * different lists of values give one key). Undefined when a value is not one string (a repeated parameter).
 */
function keyOf(read: readonly Read[], raw: RawParameters): string | typeof ABSENT | undefined {
  if (read.length === 1) {
    // The common case, one path id: its own text is the key, no string built.
    const value = raw[read[0]!.from][read[0]!.key];
    return typeof value === 'string' ? value : value === undefined ? ABSENT : undefined;
  }
  let key = '';
  for (const { from, key: name } of read) {
    const value = raw[from][name];
    if (value === undefined) key += '!';
    else if (typeof value === 'string') key += `${value.length}:${value}`;
    else return undefined;
  }
  return key;
}

/** Values that passed once: the next pass with them is kept. */
const SEEN_ONCE = 0;

/** A single parameter sent without a value: not a string, since a key of one value is that value's own text. */
const ABSENT: unique symbol = Symbol('absent');

function primitivesOnly(values: ParsedParameters): boolean {
  for (const group of [values.path, values.query, values.header]) {
    for (const name in group) {
      const value = group[name];
      if (typeof value === 'object' && value !== null) return false;
    }
  }
  return true;
}
