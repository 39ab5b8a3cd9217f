/**
 * Answers forced by `Prefer: code=NNN` and `Prefer: example=NAME`, served
 * from the document's own examples (OpenAPI 3.0.3 §4.7.14 "Media Type
 * Object", `example`/`examples`), so the body is valid for the response it
 * stands for. The store is not touched: like Prism, a forced answer is a
 * canned one. Everything is indexed once at start-up.
 */
import type { Contract, Operation, ResponseSpec } from '../src/contract/index.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { Diagnostic } from '../src/schema/index.js';
import { locationFromLinks, type LocationOf } from './location.js';

export interface ForcedAnswer {
  readonly status: number;
  readonly body: unknown;
  /** The response's declared headers that can be derived from the example (Location, X-Total-Count) or the document. */
  readonly headers: Record<string, string>;
}

export type ForcedOutcome = { readonly ok: true; readonly answer: ForcedAnswer } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

interface Documented {
  readonly key: string;
  readonly spec: ResponseSpec;
  /** Named examples of the JSON content; empty when the response has no body. */
  readonly examples: ReadonlyMap<string, unknown>;
  readonly hasBody: boolean;
  /** A schema-level example, when no named one exists. */
  readonly schemaExample?: unknown;
  readonly location?: LocationOf;
}

export interface ExampleCatalog {
  /** The answer `code` and/or `example` ask for, or why there is none (a 400's details). */
  force(operationId: string, code: number | undefined, example: string | undefined): ForcedOutcome;
}

const POINTER = '/header/prefer';

export function createExampleCatalog(contract: Contract, basePath: string): ExampleCatalog {
  const byOperation = new Map<string, readonly Documented[]>();
  for (const operation of contract.operations) byOperation.set(operation.operationId, index(operation, contract, basePath));

  return {
    force(operationId, code, example) {
      const documented = byOperation.get(operationId) ?? [];
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

function answer(response: Documented, status: number, example: string | undefined): ForcedOutcome {
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
  return { ok: true, answer: { status, body, headers } };
}

/** The `status` an Error-shaped example names, if it names one. */
function statusOf(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number' ? value.status : undefined;
}

/** For an Error-shaped response, the example whose `status` is the forced one; else the first; else the schema's. */
function pickDefault(response: Documented, status: number): unknown {
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
  for (const [key, spec] of operation.responses) {
    const json = spec.content.find((m) => /^application\/(.+\+)?json$/i.test(m.mediaType.split(';')[0]?.trim() ?? '')) ?? spec.content[0];
    const schemaExample = json?.schema ? schemaExampleOf(json.schema) : undefined;
    out.push({
      key,
      spec,
      examples: json?.examples ?? new Map(),
      hasBody: json !== undefined,
      ...(schemaExample !== undefined ? { schemaExample } : {}),
      ...withLocation(locationFromLinks(spec, contract, basePath)),
    });
  }
  return out;
}

function schemaExampleOf(schema: OpenAPIV3.SchemaObject): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.type === 'array' && schema.items && 'type' in schema.items) {
    const item = schemaExampleOf(schema.items);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function withLocation(location: LocationOf | undefined): { location?: LocationOf } {
  return location ? { location } : {};
}
