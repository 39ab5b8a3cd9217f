/**
 * Answers forced by `Prefer: code=NNN` and `Prefer: example=NAME`, served
 * from the document's own examples (OpenAPI 3.0.3 §4.7.14 "Media Type
 * Object", `example`/`examples`), so the body is valid for the response it
 * stands for. The store is not touched: like Prism, a forced answer is a
 * canned one. Everything is indexed once at start-up.
 */
import type { Contract, Operation, ResponseSpec } from '../../src/contract/index.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { Diagnostic } from '../../src/schema/index.js';
import { locationFromLinks, type LocationOf } from '../engine/location.js';

export interface ForcedAnswer {
  readonly status: number;
  readonly body: unknown;
  /** The response's declared headers that can be derived from the example (Location, X-Total-Count) or the document. */
  readonly headers: Record<string, string>;
}

export type ForcedOutcome = { readonly ok: true; readonly answer: ForcedAnswer } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

interface Documented {
  readonly key: string;
  /** The x-error-codes the operation's description names (`PET_HAS_OPEN_ORDER`): its own errors, in its own words. */
  readonly ownCodes: readonly string[];
  readonly spec: ResponseSpec;
  /** Named examples of the JSON content; empty when the response has no body. */
  readonly examples: ReadonlyMap<string, unknown>;
  readonly hasBody: boolean;
  /** A schema-level example, when no named one exists. */
  readonly schemaExample?: unknown;
  readonly location?: LocationOf;
}

/** What a forced answer follows, so that it reads as an answer to THIS request (issue 13). */
export interface ForceContext {
  /** The path parameters as sent (`{ petId: '7' }`): ids in the example become these. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** The request's JSON body: fields the example also has take the request's values. */
  readonly body: unknown;
  /** Whether a created record's `Location` would name a record that exists, so a forced 201 names a free id. */
  readonly locationTaken?: (location: string) => boolean;
  /**
   * The message the store itself gives for an Error `code` about the record `id`, from its real data, or undefined
   * to keep the example's words with the id put in (forced-messages.ts). The example's other numbers belong to
   * the example's own story: "Pet 2 has the open order 1" became "Pet 7 has the open order 1" although pet 7's
   * open order is 3 (issue 23, point 6).
   */
  readonly ownMessage?: (code: string, id: number, status: number) => string | undefined;
}

export interface ExampleCatalog {
  /** The answer `code` and/or `example` ask for, or why there is none (a 400's details). */
  force(operationId: string, code: number | undefined, example: string | undefined, context?: ForceContext): ForcedOutcome;
}

const POINTER = '/header/prefer';

export function createExampleCatalog(contract: Contract, basePath: string): ExampleCatalog {
  const byOperation = new Map<string, readonly Documented[]>();
  for (const operation of contract.operations) byOperation.set(operation.operationId, index(operation, contract, basePath));

  return {
    force(operationId, code, example, context) {
      const documented = byOperation.get(operationId) ?? [];
      const answer = (response: Documented, status: number, name: string | undefined): ForcedOutcome => {
        const outcome = answerFrom(response, status, name);
        // A named example is served as written (the document's own words); a bare `code=` follows the request.
        return outcome.ok && context && name === undefined ? { ok: true, answer: followRequest(outcome.answer, response, context) } : outcome;
      };
      if (code !== undefined) {
        const response = documented.find((d) => d.key === String(code)) ?? documented.find((d) => d.key === `${String(code)[0]}XX`);
        if (!response) {
          const keys = documented.map((d) => d.key).join(', ');
          return fail(`code=${code} is not a status ${operationId} documents; documented: ${keys}`, code);
        }
        if (example !== undefined && !response.examples.has(example)) {
          const names = [...response.examples.keys()];
          return fail(`${operationId} has no example named ${JSON.stringify(example)} for ${response.key}${names.length ? `; it has: ${names.join(', ')}` : '; it has none'}`, example);
        }
        return answer(response, code, example);
      }
      if (example !== undefined) {
        // The success responses first, then the others: `example=petNotFound` alone reaches the 404.
        // An example shared by several responses (getPet's errors share one component) goes with the status it names.
        const ordered = [...documented].sort((a, b) => successFirst(a.key) - successFirst(b.key));
        const response = ordered.find((d) => d.examples.has(example) && statusOf(d.examples.get(example)) === Number(d.key)) ?? ordered.find((d) => d.examples.has(example));
        if (!response) {
          const names = [...new Set(documented.flatMap((d) => [...d.examples.keys()]))];
          return fail(`${operationId} has no example named ${JSON.stringify(example)}${names.length ? `; it has: ${names.join(', ')}` : ''}`, example);
        }
        return answer(response, Number(response.key), example);
      }
      return fail('nothing to force', undefined);
    },
  };
}

function successFirst(key: string): number {
  return key.startsWith('2') ? 0 : 1;
}

function answerFrom(response: Documented, status: number, example: string | undefined): ForcedOutcome {
  let body: unknown;
  if (response.hasBody) {
    if (example !== undefined) {
      body = response.examples.get(example);
      // An Error's `status` equals the HTTP status (openapi.yaml, info.description): serving a 400's example as a
      // 404 would answer something the contract forbids, so say which status the example belongs to instead.
      const named = statusOf(body);
      if (status >= 400 && named !== undefined && named !== status) return fail(`the example ${JSON.stringify(example)} is an Error with status ${named}; ask for code=${named}, example=${example}`, example);
    } else {
      body = pickDefault(response, status);
    }
    if (body === undefined) return fail(`the document has no example for ${response.key} to serve; force another status or add an example`, status);
  }
  return { ok: true, answer: { status, body, headers: headersFor(response, body) } };
}

/** The response's declared headers that follow from the body (Location, X-Total-Count) or the document's examples. */
function headersFor(response: Documented, body: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of response.spec.headers) {
    const name = header.name.toLowerCase();
    if (name === 'location') {
      const location = response.location?.(body);
      if (location !== undefined) headers[name] = location;
    } else if (name === 'x-total-count' && Array.isArray(body)) {
      headers[name] = String(body.length);
    } else if (header.schema?.example !== undefined && name !== 'deprecation' && name !== 'sunset' && name !== 'link') {
      // Deprecation headers come from the deprecation module, like on every answer of that operation.
      headers[name] = String(header.schema.example);
    }
  }
  return headers;
}

/**
 * Makes a canned answer read as the answer to this request: an Error names the id the request named (`DELETE
 * /pets/7` forced to 409 says "Pet 7 has …"), a record carries the path's id and the body's fields, and a forced
 * 201's id is one no record has, so its `Location` never points at somebody else's pet. Still nothing is stored.
 */
function followRequest(answer: ForcedAnswer, response: Documented, context: ForceContext): ForcedAnswer {
  const { body } = answer;
  if (!isRecord(body)) return answer;
  const subject = subjectId(context);
  if (answer.status >= 400) {
    if (subject === undefined || typeof body['message'] !== 'string') return answer;
    const code = codeOf(body);
    const own = code === undefined ? undefined : context.ownMessage?.(code, Number(subject), answer.status);
    if (own !== undefined) return { ...answer, body: { ...body, message: own } };
    // The example's first number is the id its message is about ("No pet has id 42.", "Pet 2 has the open order 1").
    return { ...answer, body: { ...body, message: body['message'].replace(/\b\d+\b/, subject) } };
  }
  const followed: Record<string, unknown> = { ...body };
  let first = true;
  for (const [name, value] of Object.entries(context.pathParams)) {
    const id = /^[0-9]{1,15}$/.test(value) ? Number(value) : undefined;
    if (id === undefined) continue;
    if (Object.hasOwn(followed, name)) followed[name] = id;
    else if (first && Object.hasOwn(followed, 'id')) followed['id'] = id;
    first = false;
  }
  if (isRecord(context.body)) {
    for (const [name, value] of Object.entries(context.body)) if (Object.hasOwn(followed, name) && name !== 'id') followed[name] = value;
  }
  if (answer.status === 201 && typeof followed['id'] === 'number' && context.locationTaken && response.location) {
    // Bounded: a store with ten thousand consecutive ids past the example's is not worth a longer search.
    let id = followed['id'];
    for (let tries = 0; tries < 10_000; tries++) {
      const location = response.location(followed);
      if (location === undefined || !context.locationTaken(location)) break;
      followed['id'] = ++id;
    }
  }
  return { ...answer, body: followed, headers: headersFor(response, followed) };
}

/** The id a request is about: its first numeric path parameter, else the body's first `…Id` field (placeOrder's petId). */
function subjectId(context: ForceContext): string | undefined {
  for (const value of Object.values(context.pathParams)) if (/^[0-9]{1,19}$/.test(value)) return value;
  if (isRecord(context.body)) {
    for (const [name, value] of Object.entries(context.body)) if (/Id$/.test(name) && Number.isSafeInteger(value)) return String(value);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function codeOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string' ? value.code : undefined;
}

/** The `status` an Error-shaped example names, if it names one. */
function statusOf(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number' ? value.status : undefined;
}

/** For an Error-shaped response, the example whose `status` is the forced one; else the first; else the schema's. */
function pickDefault(response: Documented, status: number): unknown {
  // First an example whose code the operation's description names: deletePet's 409 is PET_HAS_OPEN_ORDER, not the
  // shared Conflict response's first example (CATEGORY_NAME_TAKEN).
  for (const code of response.ownCodes) {
    for (const value of response.examples.values()) if (statusOf(value) === status && codeOf(value) === code) return value;
  }
  for (const value of response.examples.values()) if (statusOf(value) === status) return value;
  const [first] = response.examples.values();
  const fallback = first !== undefined ? first : response.schemaExample;
  // Never an Error example of another status (see answer()).
  return status >= 400 && statusOf(fallback) !== undefined && statusOf(fallback) !== status ? undefined : fallback;
}

function fail(message: string, actual: unknown): ForcedOutcome {
  return { ok: false, diagnostics: [{ pointer: POINTER, keyword: 'prefer', message, ...(actual !== undefined ? { actual } : {}) }] };
}

function index(operation: Operation, contract: Contract, basePath: string): Documented[] {
  const out: Documented[] = [];
  const text = `${operation.summary} ${operationDescription(contract, operation)}`;
  const ownCodes = [...contract.errorCodes.keys()].filter((code) => text.includes(code));
  for (const [key, spec] of operation.responses) {
    const json = spec.content.find((m) => /^application\/(.+\+)?json$/i.test(m.mediaType.split(';')[0]?.trim() ?? '')) ?? spec.content[0];
    const schemaExample = json?.schema ? schemaExampleOf(json.schema) : undefined;
    out.push({
      key,
      ownCodes,
      spec,
      examples: json?.examples ?? new Map(),
      hasBody: json !== undefined,
      ...(schemaExample !== undefined ? { schemaExample } : {}),
      ...withLocation(locationFromLinks(spec, contract, basePath)),
    });
  }
  return out;
}

function operationDescription(contract: Contract, operation: Operation): string {
  const item = contract.document.paths[operation.pathTemplate];
  const description = item?.[operation.method]?.description;
  return typeof description === 'string' ? description : '';
}

function schemaExampleOf(schema: OpenAPIV3.SchemaObject): unknown {
  if (schema.example !== undefined) return schema.example;
  // OpenAPI 3.1 (JSON Schema 2020-12): `examples` is a list; `items` may be a boolean schema.
  const { examples } = schema as { examples?: unknown };
  if (Array.isArray(examples) && examples.length > 0) return examples[0] as unknown;
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null && 'type' in schema.items) {
    const item = schemaExampleOf(schema.items);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function withLocation(location: LocationOf | undefined): { location?: LocationOf } {
  return location ? { location } : {};
}
