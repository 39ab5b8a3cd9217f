/**
 * The plain request and response of the mock's transport-free core
 * (architecture principle 4). node:http (server.ts) is one adapter; an MSW
 * handler in a browser could be another, with no second implementation and
 * no WHATWG Request/Response objects on the Node path.
 */
import type { Fault } from '../conveniences/faults.js';

export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What the adapter knows about the request body. `undefined` on the request means: no body at all. */
export type RequestBody =
  /** The raw bytes as received; the core checks media type, encoding, UTF-8 and JSON. */
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  /** A body some adapter already parsed (a browser's fetch, a test); the core skips decoding. */
  | { readonly kind: 'json'; readonly value: unknown }
  /** The adapter stopped reading at `limit` bytes (413). */
  | { readonly kind: 'too-large'; readonly limit: number };

export interface MockRequest {
  /** Upper case, as on the wire. */
  readonly method: string;
  /** The path without the query, percent-encoded as received. */
  readonly path: string;
  /** Query parameters, decoded; a repeated name gives an array (`?id=1&id=2`). */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Header names in lower case. */
  readonly headers: HeaderMap;
  readonly body?: RequestBody;
}

export interface MockResponse {
  readonly status: number;
  /** Header names in lower case; values already formatted. */
  readonly headers: Record<string, string>;
  /** A JSON value, or undefined for no body (204, HEAD is the adapter's business). */
  readonly body?: unknown;
  /** A body that is not JSON (the docs page, its files, /openapi.yaml): sent as these bytes; `body` is then absent. */
  readonly raw?: Uint8Array | string;
  /** `Prefer: delay=MS`: the adapter waits this long before answering, without blocking others. */
  readonly delayMs?: number;
  /** `Prefer: fault=…` or `--chaos`: the adapter breaks the connection this way instead of answering (faults.ts). */
  readonly fault?: Fault;
  /** For the request log only, never sent: the deprecation warning, relaxed-validation problems. */
  readonly notes?: readonly string[];
}

/** One header's single value: the first when a client repeated it. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' || value === undefined ? value : value[0];
}

/** A header's values joined as a list (RFC 9110 §5.3: repeated fields are one comma-separated list). */
export function headerList(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

/**
 * A new header object holding `from`'s fields, then `extra`'s. Copied field by field, not spread: the adapter adds
 * Content-Length to every answer's headers, and V8 makes adding a field to an object built by `{ ...spread }` cost
 * about 2 µs (a tenth of a read's time in the server; issue 22, point 8), where a copy built this way costs 0.1 µs.
 */
export function copiedHeaders(from: Readonly<Record<string, string>> | undefined, extra?: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  if (from) for (const name in from) out[name] = from[name]!;
  if (extra) for (const name in extra) out[name] = extra[name]!;
  return out;
}
