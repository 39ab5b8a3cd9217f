/**
 * JSON as the runner reads and writes it: integers beyond 2^53 stay exact.
 *
 * RFC 8259 §6 leaves number precision to the implementation, and the
 * document's ids are int64 (Java `long`, snowflake ids): `JSON.parse` rounds
 * 4590224790122085204 to 4590224790122085000, and the runner would then read
 * `/pets/4590224790122085000`. So every body the runner parses keeps such
 * integers as `bigint` (lossless-json with a number parser of ours); a bigint is a
 * primitive, so `===`, `Set` and `String()` work on ids as they do on numbers,
 * and `stringifyJson` writes them back digit for digit into bodies and paths.
 *
 * Validation is the one reader that needs plain numbers: Ajv's `integer`
 * tests `typeof value === 'number'`. The choice: the checks keep the lossless
 * value; the validators see `plainJson(value)`, the same value with each
 * bigint as the nearest double, which is exactly what `JSON.parse` would have
 * given, so a body valid to a client using plain JSON is valid here. When a
 * body holds no bigint (nearly always) both are one object: no copy.
 *
 * Speed and depth: lossless-json parses by recursion and is slower than V8's
 * iterative `JSON.parse`, so it is used only when the text holds an integer
 * literal of 16 digits or more (outside strings); a 100,000-deep body of small
 * numbers never reaches it, and one it cannot take (too deep for its stack, a
 * duplicate key) falls back to `JSON.parse` rather than being called "not JSON".
 */
import { parse, stringify } from 'lossless-json';
import { hasLongDigitRun } from '../src/long-integers.js';

/**
 * A number literal whose value is an integer past 2^53 becomes a bigint,
 * whatever its form (`4590224790122085204`, `…204.0`, `4590224790122085204e0`:
 * one JSON number, RFC 8259 §6); every other number is what JSON.parse makes of it.
 */
function parseNumber(text: string): number | bigint {
  const value = Number(text);
  if (Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
  const digits = integerDigits(text);
  return digits === undefined ? value : BigInt(digits);
}

/** The exact decimal digits of a number literal whose value is an integer; undefined when it has a fraction. */
function integerDigits(text: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  if (Math.abs(exponent) > 400) return undefined; // far outside int64 anyway: leave it to the double
  let digits = whole + fraction;
  if (exponent >= 0) digits += '0'.repeat(exponent);
  else {
    const dropped = digits.slice(exponent);
    if (!/^0*$/.test(dropped)) return undefined;
    digits = digits.slice(0, exponent);
  }
  return `${sign}${digits.replace(/^0+(?=\d)/, '')}`;
}

/**
 * How deep the runner reads JSON: an answer nested deeper is refused before it
 * is parsed (RFC 8259 §9: "An implementation may set limits on the maximum
 * depth of nesting"). A record of any real API is a few levels deep; a hostile
 * target's 400,000 nested arrays cost 190 ms of CPU an exchange to parse and
 * collect (80 s a run, issue 20 point 6b), for nothing any check can judge.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over
 * the characters, brackets inside strings not counted. Text shorter than `max`
 * cannot (each level takes a character), so a small body costs nothing.
 */
export function nestedDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** A SyntaxError, as JSON.parse throws for text it does not take, for text nested past MAX_JSON_DEPTH. */
function tooDeep(): SyntaxError {
  return new SyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels, too deep to judge: the runner does not parse it (RFC 8259 §9 lets a reader limit the depth)`);
}

/** Parses JSON text; integers beyond Number.MAX_SAFE_INTEGER come back as bigint. Throws SyntaxError as JSON.parse does. */
export function parseJson(text: string): unknown {
  if (!hasLongDigitRun(text)) return JSON.parse(text) as unknown;
  const strict = JSON.parse(text) as unknown; // the same SyntaxError as everywhere else for text that is not JSON
  try {
    return parse(text, null, parseNumber);
  } catch {
    // JSON.parse took it, lossless-json did not: deeper than its recursion allows, or a duplicate key with two
    // values (RFC 8259 §4 only says names SHOULD be unique). The rounded value beats calling valid JSON invalid.
    return strict;
  }
}

/**
 * A response body both ways: `value` lossless, `plain` for the validators.
 * When the text took the fast path nothing in it can be a bigint, so `plain`
 * is `value` without walking it (a 1 MiB body is 350,000 objects to walk).
 * Text nested past MAX_JSON_DEPTH is refused with a SyntaxError before it is
 * parsed: the body is then "not JSON the runner reads", one bounded finding.
 */
export function parseJsonBody(text: string): { readonly value: unknown; readonly plain: unknown } {
  if (nestedDeeperThan(text)) throw tooDeep();
  if (!hasLongDigitRun(text)) {
    const value = JSON.parse(text) as unknown;
    return { value, plain: value };
  }
  const value = parseJson(text);
  return { value, plain: plainJson(value) };
}

/**
 * JSON text of a value that may hold bigints, each written digit for digit as
 * a plain JSON number (JSON.stringify throws on a bigint). Without one it is
 * JSON.stringify's output byte for byte. The one writer of the runner: bodies,
 * paths, queries and messages. `undefined` (or a function) has no JSON text;
 * a message still needs a word for it, so it is written `undefined`.
 */
export function stringifyJson(value: unknown): string {
  const text: string | undefined = containsBigInt(value) ? stringify(value) : JSON.stringify(value);
  return text ?? 'undefined';
}

/** The value as the validators must see it: each bigint as a number (what JSON.parse gives). The same object when there is none. */
export function plainJson(value: unknown): unknown {
  if (!containsBigInt(value)) return value;
  return mapLeaves(value, (leaf) => (typeof leaf === 'bigint' ? Number(leaf) : leaf));
}

/** Iterative: any depth. */
export function containsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'bigint') return true;
    if (typeof current !== 'object' || current === null) continue;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'bigint') return true;
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/** A copy of a JSON value with every leaf passed through `fn` (and every object key through `keyFn`); iterative, so any depth. */
export function mapLeaves(value: unknown, fn: (leaf: unknown) => unknown, keyFn: (key: string) => string = (key) => key): unknown {
  if (typeof value !== 'object' || value === null) return fn(value);
  const root: unknown[] | Record<string, unknown> = Array.isArray(value) ? [] : {};
  const stack: { source: object; target: unknown[] | Record<string, unknown> }[] = [{ source: value, target: root }];
  while (stack.length > 0) {
    const { source, target } = stack.pop()!;
    for (const [key, child] of Object.entries(source)) {
      let out: unknown;
      if (typeof child === 'object' && child !== null) {
        const copy: unknown[] | Record<string, unknown> = Array.isArray(child) ? [] : {};
        stack.push({ source: child, target: copy });
        out = copy;
      } else {
        out = fn(child);
      }
      if (Array.isArray(target)) target[Number(key)] = out;
      else Object.defineProperty(target, keyFn(key), { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/** A short text of a value for a message: JSON (bigints exact), clipped; never throws, whatever the depth. */
export function excerptJson(value: unknown, max = 200): string {
  let text: string;
  try {
    text = stringifyJson(value);
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Past these, a value in a finding is cut: a report holds evidence, not a hostile target's whole answer. */
const MAX_REPORTED_NODES = 200;
const MAX_REPORTED_DEPTH = 12;

/**
 * A value as a report may hold it: JSON-safe (a bigint becomes its exact
 * digits as a string, since JSON.stringify cannot write a bigint) and bounded
 * in size and depth (what lies past the bound becomes a clipped excerpt).
 */
export function reportableJson(value: unknown): unknown {
  let nodes = 0;
  const leaf = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : typeof v === 'string' && v.length > 500 ? `${v.slice(0, 500)}…` : v);
  if (typeof value !== 'object' || value === null) return leaf(value);
  const root: unknown[] | Record<string, unknown> = Array.isArray(value) ? [] : {};
  const stack: { source: object; target: unknown[] | Record<string, unknown>; depth: number }[] = [{ source: value, target: root, depth: 0 }];
  while (stack.length > 0) {
    const { source, target, depth } = stack.pop()!;
    for (const [key, child] of Object.entries(source)) {
      nodes += 1;
      let out: unknown;
      if (nodes > MAX_REPORTED_NODES) out = '…';
      else if (typeof child === 'object' && child !== null) {
        if (depth + 1 >= MAX_REPORTED_DEPTH) out = excerptJson(child, 100);
        else {
          const copy: unknown[] | Record<string, unknown> = Array.isArray(child) ? [] : {};
          stack.push({ source: child, target: copy, depth: depth + 1 });
          out = copy;
        }
      } else out = leaf(child);
      if (Array.isArray(target)) target[Number(key)] = out;
      else Object.defineProperty(target, key, { value: out, enumerable: true, writable: true, configurable: true });
      if (nodes > MAX_REPORTED_NODES) break;
    }
  }
  return root;
}
