/**
 * Integer literals in a request body that a JavaScript number cannot hold.
 *
 * RFC 8259 §6 leaves number precision to implementations, and JSON.parse
 * rounds every integer past 2^53-1 to the nearest double: a `petId` of
 * 9223372036854775808 (2^63, outside int64) became 9223372036854775808 as a
 * double, passed the schema as an integer, and came back as "No pet has id
 * 9223372036854776000." The contract's ids are int64 (openapi.yaml: format
 * int64, ids 1..2^63-1); the mock holds ids up to 2^53-1 only. So:
 * - a literal outside int64 is no value of any field of the contract: 400;
 * - a literal inside int64 but past 2^53-1 is a valid id of no record the
 *   mock can hold: the handler's answer (422 unknown record, say) stands, but
 *   a message must name the id as sent, never the rounded double.
 *
 * Only text with a run of 16 or more digits outside strings can hold such a
 * literal (2^53 has 16 digits), so nearly every body costs one cheap scan.
 */
import { hasLongDigitRun } from '../../src/long-integers.js';
import type { Diagnostic } from '../../src/schema/index.js';

export interface LongInteger {
  /** JSON pointer into the body, `/petId`. */
  readonly pointer: string;
  /** The literal as sent, digit for digit. */
  readonly literal: string;
  /** Whether the value fits int64 (-2^63..2^63-1, the range of OpenAPI's `format: int64`). */
  readonly inInt64: boolean;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** As many as an Error's details list (src/schema/diagnostics.ts, MAX_DIAGNOSTICS): a body of a million long ids is refused on the first. */
const MAX_FOUND = 50;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Integer literals of `text` (valid JSON: JSON.parse took it) past ±(2^53-1), with where they stand; [] for nearly every body. */
export function longIntegers(text: string): LongInteger[] {
  if (!hasLongDigitRun(text)) return [];
  return scan(text);
}

/** Where the scan stands: the index in an array, or the raw key text (quotes included) in an object. */
type Frame = { kind: 'array'; index: number } | { kind: 'object'; key: string; expectKey: boolean };

/**
 * One iterative pass over valid JSON text (any depth) that keeps the path to
 * the current value, and records each plain integer literal (`-?digits`,
 * RFC 8259 §6 `int`) whose value is not a safe integer.
 */
function scan(text: string): LongInteger[] {
  const found: LongInteger[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < text.length && found.length < MAX_FOUND; i++) {
    const code = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (code === 0x7b) stack.push({ kind: 'object', key: '', expectKey: true });
    else if (code === 0x5b) stack.push({ kind: 'array', index: 0 });
    else if (code === 0x7d || code === 0x5d) stack.pop();
    else if (code === 0x2c) {
      if (top?.kind === 'array') top.index++;
      else if (top?.kind === 'object') top.expectKey = true;
    } else if (code === QUOTE) {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        top.key = text.slice(i, end + 1);
        top.expectKey = false;
      }
      i = end;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let end = i + 1;
      while (end < text.length && /[0-9eE.+-]/.test(text[end]!)) end++;
      const literal = text.slice(i, end);
      if (/^-?\d{16,}$/.test(literal)) {
        const value = BigInt(literal);
        if (value > SAFE_MAX || value < -SAFE_MAX) found.push({ pointer: pointerOf(stack), literal, inInt64: value >= INT64_MIN && value <= INT64_MAX });
      }
      i = end - 1;
    }
  }
  return found;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return i;
  }
  return text.length - 1;
}

/** RFC 6901: each key decoded from its JSON text, then `~` as `~0` and `/` as `~1`. */
function pointerOf(stack: readonly Frame[]): string {
  let pointer = '';
  for (const frame of stack) {
    const segment = frame.kind === 'array' ? String(frame.index) : (JSON.parse(frame.key) as string);
    pointer += `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  return pointer;
}

/**
 * Why a body with integers outside int64 is refused (400 VALIDATION_FAILED), or undefined when it has none.
 * The message names the first; the details name each, under `/body`.
 */
export function outsideInt64(found: readonly LongInteger[], allowedBeyond: (pointer: string) => boolean = () => false): { readonly message: string; readonly details: Diagnostic[] } | undefined {
  const outside = found.filter((f) => !f.inInt64 && !allowedBeyond(f.pointer));
  const first = outside[0];
  if (first === undefined) return undefined;
  const details = outside.map((f) => ({
    pointer: `/body${f.pointer}`,
    keyword: 'format',
    message: `${f.literal} is outside int64 (-2^63..2^63-1); the contract's ids are integers from 1 to 2^63-1 (9223372036854775807), and this mock holds ids up to 2^53-1 (9007199254740991)`,
    expected: 'int64',
    actual: f.literal,
  }));
  return { message: `The request does not match the contract: /body${first.pointer} is ${first.literal}, an integer outside int64; the contract's ids are 1 to 2^63-1. See details.`, details };
}

/**
 * A handler's message with each rounded long integer of the body written back as sent: the handler saw the
 * double JSON.parse made (9223372036854775807 became 9223372036854775808, printed 9223372036854776000).
 */
export function withIntegersAsSent(message: string, found: readonly LongInteger[]): string {
  let out = message;
  for (const { literal } of found) {
    const rounded = String(Number(literal));
    if (rounded !== literal) out = out.split(rounded).join(literal);
  }
  return out;
}

/** An error body whose `message` names each long integer as sent (withIntegersAsSent); any other body as it is. */
export function withMessageAsSent(body: unknown, found: readonly LongInteger[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const message = (body as Record<string, unknown>)['message'];
  if (typeof message !== 'string') return body;
  const written = withIntegersAsSent(message, found);
  return written === message ? body : { ...body, message: written };
}

/** int64's bounds as doubles: a schema bound past them says its integers may lie outside int64. */
const INT64_MAX_DOUBLE = 2 ** 63;
const INT64_MIN_DOUBLE = -(2 ** 63);

/**
 * Whether the schema a body pointer names says its integers may lie outside int64: a `maximum` or `minimum` past
 * int64's bounds (Nomad's `CreateIndex`, a uint64: `maximum: 18446744073709551615`, no format). There the
 * document's validation judges the value; everywhere else an integer outside int64 is refused as before (a
 * `format: int64` field, the Pet Store's ids). `schemaAt` walks the request body's schema to the pointer.
 */
export function boundBeyondInt64(schema: { readonly maximum?: unknown; readonly minimum?: unknown } | undefined): boolean {
  if (schema === undefined) return false;
  return (typeof schema.maximum === 'number' && schema.maximum >= INT64_MAX_DOUBLE) || (typeof schema.minimum === 'number' && schema.minimum <= INT64_MIN_DOUBLE - 1);
}
