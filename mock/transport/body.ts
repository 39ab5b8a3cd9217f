/**
 * From the bytes of a request body to a JSON value, or the reason it cannot
 * be one, in the order the contract's conventions give (openapi.yaml,
 * info.description): 413 over the limit, 415 for a body that is not JSON or
 * is encoded, 400 MALFORMED_JSON for bytes that are not UTF-8 or not JSON.
 *
 * JSON.parse is safe against prototype pollution: a `"__proto__"` key becomes
 * an own data property, never the prototype (ECMA-262 §25.5.1 uses
 * CreateDataProperty). Nothing downstream merges the parsed value into another
 * object; the handlers read the declared fields by name. V8's JSON.parse is
 * iterative, so 10,000 nested arrays do not overflow the stack.
 */
import { isJsonMediaType, type Diagnostic } from '../../src/schema/index.js';
import type { ApiErrorCode } from '../../src/api-error-codes.js';
import { longIntegers, outsideInt64, type LongInteger } from './body-integers.js';
import { headerValue, type HeaderMap, type RequestBody } from '../engine/message.js';

/** The contract's body limit when a document declares none: 1 MiB (contract.md; openapi.yaml, info.description). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * The request body limit in bytes: the document's root `x-max-body-bytes`
 * when it is a positive integer (openapi.yaml declares 1048576), else 1 MiB.
 * The conformance runner reads the same extension (payload-too-large-413), so
 * for this document the mock and the runner share one number, written once.
 * The runner also honours a 413 response's own `x-max-body-bytes` (a document
 * from elsewhere may limit one operation differently); this mock reads the
 * body before it knows the operation, so it applies the root value only.
 */
export function bodyLimitOf(document: object): number {
  const declared: unknown = 'x-max-body-bytes' in document ? document['x-max-body-bytes'] : undefined;
  return typeof declared === 'number' && Number.isSafeInteger(declared) && declared > 0 ? declared : BODY_LIMIT;
}

export type BodyOutcome =
  /** `longIntegers`: ids past 2^53-1 inside int64, which `value` holds rounded (body-integers.ts); absent when none. */
  | { readonly ok: true; readonly value: unknown; readonly longIntegers?: readonly LongInteger[] }
  | { readonly ok: false; readonly code: ApiErrorCode; readonly message: string; readonly details?: readonly Diagnostic[] };

const NO_BODY: BodyOutcome = { ok: true, value: undefined };

/**
 * How deep a request body may nest (RFC 8259 §9 lets a parser limit it): what the mock keeps is copied, frozen and
 * written as JSON by walks that recurse, and 200,000 nested arrays in 400 KB broke the stack (issue 31, point 3).
 * The runner refuses answers past the same depth (conformance/json.ts).
 */
export const MAX_BODY_DEPTH = 1000;
// fatal: invalid UTF-8 throws instead of becoming U+FFFD (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8).
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `expectsBody`: the operation documents a request body. An operation that
 * documents none ignores whatever was sent, but the size limit holds for all.
 * `maxDepth`: refuse (400) text nesting deeper, before parsing it (see nestsDeeperThan).
 */
export function readJsonBody(body: RequestBody | undefined, headers: HeaderMap, expectsBody: boolean, maxDepth?: number, allowedBeyondInt64?: (pointer: string) => boolean): BodyOutcome {
  if (body === undefined) return NO_BODY;
  if (body.kind === 'too-large') return { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `The body is larger than ${body.limit} bytes; send at most ${body.limit}.` };
  if (!expectsBody) return NO_BODY;
  if (body.kind === 'bytes' && body.bytes.byteLength === 0) return NO_BODY;

  const encoding = headerValue(headers, 'content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Send the body uncompressed; Content-Encoding ${clip(encoding)} is not supported.` };
  }
  const refusal = mediaTypeRefusal(headerValue(headers, 'content-type'));
  if (refusal !== undefined) return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: refusal };
  if (body.kind === 'json') return { ok: true, value: body.value };

  // Nesting deeper than maxDepth takes more than maxDepth bytes: a smaller body (nearly every one) needs no scan.
  if (maxDepth !== undefined && body.bytes.byteLength > maxDepth && nestsDeeperThan(body.bytes, maxDepth)) {
    return { ok: false, code: 'VALIDATION_FAILED', message: `The body nests arrays and objects deeper than ${maxDepth} levels, which this endpoint does not read; send a flatter document.` };
  }
  let text: string;
  try {
    text = utf8.decode(body.bytes);
  } catch {
    return { ok: false, code: 'MALFORMED_JSON', message: 'The body is not valid UTF-8; encode the JSON text as UTF-8.' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    return { ok: false, code: 'MALFORMED_JSON', message: `The body is not valid JSON: ${clip(reason)}.` };
  }
  // JSON.parse rounds integers past 2^53-1: refuse those outside int64, and note the others so no answer shows them rounded.
  const found = longIntegers(text);
  // `allowedBeyondInt64`: where the operation's schema bounds an integer past int64 (body-integers.ts boundBeyondInt64).
  const outside = outsideInt64(found, allowedBeyondInt64);
  if (outside !== undefined) return { ok: false, code: 'VALIDATION_FAILED', message: outside.message, details: outside.details };
  return found.length > 0 ? { ok: true, value, longIntegers: found } : { ok: true, value };
}

/**
 * Whether JSON text nests `[`/`{` deeper than `max`, found in one pass over the bytes without parsing.
 * JSON.parse of 8 MiB of `[[[…]]]` builds four million arrays (about 300 MB and a second of a blocked event
 * loop); this scan refuses it in milliseconds. Brackets inside strings are skipped (RFC 8259 §7: a string is
 * `"` … `"` with `\` escapes); text that is not JSON is left for JSON.parse to name.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const verdicts = new Map<string, string>();
/** Clients send a handful of distinct Content-Types; bound the memo so hostile ones cannot grow it. */
const VERDICT_LIMIT = 256;

/** Why a Content-Type is refused (415), or undefined for JSON in UTF-8; memoized, as the same few values repeat. */
function mediaTypeRefusal(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return 'Send the body as application/json; got no Content-Type.';
  // One lookup: '' stands for a Content-Type that is fine (every refusal is a sentence).
  const known = verdicts.get(contentType);
  if (known !== undefined) return known === '' ? undefined : known;
  let verdict: string | undefined;
  if (!isJsonMediaType(contentType)) {
    verdict = `Send the body as application/json; got ${clip(contentType)}.`;
  } else {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8') verdict = `Send the body as UTF-8 JSON; charset ${clip(charset)} is not supported.`;
  }
  if (verdicts.size >= VERDICT_LIMIT) verdicts.clear();
  verdicts.set(contentType, verdict ?? '');
  return verdict;
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
