/**
 * Errors for a document that is not ours (issue 22, point 1): it has no `x-error-codes`, so the core's refusals
 * (400, 404, 405, 406, 413, 415, ...) are first built as a plain Error (`code`, `message`, `status`, `details`),
 * with the usual HTTP statuses, and then, for an operation that documents that status, reshaped into the
 * document's own error body (conform.ts): its example, else a value generated from its schema, with the fields
 * that say what went wrong (`message`, `detail`, `title`, `code`, `status`) set where their types allow.
 */
import type { ApiErrorCode } from '../../src/api-error-codes.js';
import type { Contract, Operation } from '../../src/contract/index.js';
import { createErrorFactory, type ErrorFactory } from './errors.js';
import type { ValueGenerator } from './generate.js';
import { isObject, itemsOf, jsonMedia, mergeAllOf, propertiesOf, responseFor, typeOf, type JsonObject, type Schema } from './schemas.js';

/** RFC 9110 §15 statuses for the codes the core answers; a Pet Store state rule never reaches a foreign document. */
const STATUSES: Readonly<Record<ApiErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  PET_NOT_FOUND: 404,
  CATEGORY_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  INVENTORY_ITEM_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  CATEGORY_NAME_TAKEN: 409,
  CATEGORY_IN_USE: 409,
  PET_HAS_OPEN_ORDER: 409,
  PET_NOT_AVAILABLE: 409,
  INSUFFICIENT_STOCK: 409,
  ORDER_ALREADY_COMPLETE: 409,
  REQUEST_TIMEOUT: 408,
  OPERATION_SUNSET: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNKNOWN_CATEGORY: 422,
  UNKNOWN_PET: 422,
  INTERNAL_ERROR: 500,
};

/** The core's one Error builder (errors.ts), given these statuses in place of the `x-error-codes` the document lacks. */
export function createPlainErrorFactory(contract: Contract): ErrorFactory {
  const errorCodes = new Map(Object.entries(STATUSES).map(([code, status]) => [code, { code, status, description: '' }]));
  return createErrorFactory({ ...contract, errorCodes });
}

const MESSAGE_FIELDS = ['message', 'detail', 'details', 'error_description', 'description', 'title', 'error', 'reason', 'msg'];
const CODE_FIELDS = ['code', 'errorCode', 'error_code', 'type'];
const STATUS_FIELDS = ['status', 'statusCode', 'status_code', 'httpStatus'];

/** What a documented error body says, before it is fitted to the document's schema. */
export interface ErrorWords {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/**
 * The operation's own error body for a status: undefined when the status is documented without JSON content
 * (nothing to send), `plain` when it is not documented at all (the caller keeps its plain Error).
 */
export function documentedErrorBody(
  operation: Operation,
  words: ErrorWords,
  generator: ValueGenerator,
  valid: (schema: Schema, value: unknown) => boolean,
): { readonly kind: 'plain' } | { readonly kind: 'body'; readonly body: unknown } {
  const spec = responseFor(operation, words.status);
  if (!spec) return { kind: 'plain' };
  const media = jsonMedia(spec.content);
  if (!media) return { kind: 'body', body: undefined };
  return { kind: 'body', body: errorBodyOf(media.schema ?? {}, [...media.examples.values()], words, generator, valid) };
}

/**
 * An error body of `schema` that says `words` where its fields allow: an example (or a generated value) with the
 * message, code and status filled in; the first valid one, else the first made.
 */
export function errorBodyOf(schema: Schema, examples: readonly unknown[], words: ErrorWords, generator: ValueGenerator, valid: (schema: Schema, value: unknown) => boolean): unknown {
  const bases: unknown[] = [...examples, ...[0, 1, 2].map((variant) => generator.value(schema, 'response', variant)).filter((value) => value !== undefined)];
  for (const base of bases) {
    const filled = isObject(base) ? fill(structuredClone(base), schema, words, 0) : base;
    if (valid(schema, filled)) return filled;
    if (valid(schema, base)) return base;
  }
  return bases[0];
}

/** Says what went wrong in the fields made for it, where their types allow; `{ error: { message } }` too. */
function fill(body: JsonObject, schema: Schema, words: ErrorWords, depth: number): JsonObject {
  const properties = propertiesOf(schema);
  // By name in any case: Xero's Error says `Message` and `Type`.
  const byLowerName = new Map([...properties.keys()].map((key) => [key.toLowerCase(), key]));
  const set = (names: readonly string[], text: string, number: number): void => {
    for (const wanted of names) {
      const name = properties.has(wanted) ? wanted : byLowerName.get(wanted.toLowerCase());
      const property = name === undefined ? undefined : properties.get(name);
      if (name === undefined || !property) continue;
      const s = mergeAllOf(property);
      if (s.enum) continue;
      const type = typeOf(s);
      if (type === 'string' && !s.format && !s.pattern) body[name] = text.slice(0, s.maxLength ?? text.length);
      else if (type === 'integer' || type === 'number') body[name] = number;
      return;
    }
  };
  set(MESSAGE_FIELDS, words.message, words.status);
  set(CODE_FIELDS, words.code, words.status);
  set(STATUS_FIELDS, String(words.status), words.status);
  if (depth === 0) {
    const nested = properties.get('error');
    if (nested && typeOf(nested) === 'object') body['error'] = fill(isObject(body['error']) ? body['error'] : {}, nested, words, 1);
    // A list of problems (Svix's and FastAPI's `detail: [{ loc, msg, type }]`, `errors: [...]`): its first says it.
    for (const [name, property] of properties) {
      const items = itemsOf(property);
      const list = body[name];
      if (name === 'error' || !items || typeOf(items) !== 'object' || !Array.isArray(list) || !isObject(list[0])) continue;
      body[name] = [fill({ ...list[0] }, items, words, 1), ...list.slice(1)];
      break;
    }
  }
  return body;
}
