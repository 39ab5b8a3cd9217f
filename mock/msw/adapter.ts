/**
 * MSW as a third transport around the transport-free core (architecture, "Growing it"): a fetch `Request` becomes
 * the core's plain MockRequest, `app.handle()` answers it exactly as it answers node:http, and the plain
 * MockResponse becomes a fetch `Response`. No operation is written again here; state rules, errors, `Prefer`,
 * sessions and the journal are the core's. Browser-safe: it imports nothing from Node, so the same handlers run
 * under `setupServer` (msw/node) and `setupWorker` (msw/browser).
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { CompiledContract } from '../../src/schema/index.js';
import { createMockApp, type MockApp, type MockAppOptions } from '../engine/app.js';
import { truncateJson } from '../conveniences/faults.js';
import { encodeJson } from '../engine/json.js';
import type { MockRequest, MockResponse, RequestBody } from '../engine/message.js';
import { checkSessionBounds, DEFAULT_MAX_SESSION_MEMORY } from '../conveniences/registry.js';

/** The document's default server (`servers[0]`'s `base_url`): where a front end points when nothing says otherwise. */
export const DEFAULT_MSW_ORIGIN = 'http://localhost:4010';

/** Names of this machine's loopback interface: an origin on one of them is served on all of them (see servedOrigins). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

export interface MswMockSettings extends Pick<MockAppOptions, 'basePath' | 'validation' | 'now' | 'genericEngine' | 'generic'> {
  /**
   * The origin the front end calls (scheme, host, port): its requests are answered, others pass through. Default
   * http://localhost:4010. A loopback origin is served under each loopback name (localhost, 127.0.0.1, [::1]) at
   * that port, as the HTTP mock, which prints 127.0.0.1, is reached under each of them; `origins` lists them.
   */
  readonly origin?: string;
  /** How many X-Mock-Session stores are kept at once (default 100). */
  readonly maxSessions?: number;
}

export interface MswMock {
  /** Spread into `setupServer(...)`, `setupWorker(...)` or `server.use(...)`. */
  readonly handlers: HttpHandler[];
  /** The origins the handlers answer (e.g. http://localhost:4010, http://127.0.0.1:4010, http://[::1]:4010). */
  readonly origins: readonly string[];
  /** The core, for in-process checks (the journal: `mock.app.journal.list({})`). */
  readonly app: MockApp;
  /** Back to the initial data: every store (and the journal), or one X-Mock-Session. */
  reset(session?: string): void;
}

/** The core and its stores behind MSW handlers: what both entries (msw.ts for Node, msw-browser.ts) hand out. */
export function createMswMockFrom(compiled: CompiledContract, kitVersion: string, settings: MswMockSettings): MswMock {
  if (settings.maxSessions !== undefined) checkSessionBounds(settings.maxSessions, DEFAULT_MAX_SESSION_MEMORY);
  const generic = settings.maxSessions !== undefined ? { ...settings.generic, maxSessions: settings.maxSessions } : settings.generic;
  const app = createMockApp({
    compiled,
    kitVersion,
    notes: false,
    ...(settings.basePath !== undefined ? { basePath: settings.basePath } : {}),
    ...(settings.validation !== undefined ? { validation: settings.validation } : {}),
    ...(settings.now !== undefined ? { now: settings.now } : {}),
    ...(settings.genericEngine !== undefined ? { genericEngine: settings.genericEngine } : {}),
    ...(generic !== undefined ? { generic } : {}),
  });
  const origin = settings.origin ?? DEFAULT_MSW_ORIGIN;
  return {
    handlers: mswHandlers(app, origin),
    origins: servedOrigins(origin),
    app,
    reset(session) {
      // The core's reset: the generic engine's stores.
      app.reset(session);
      if (session === undefined) app.journal.clear();
    },
  };
}

/**
 * The origins a mock for `origin` answers: that origin, and when its host is a loopback name, the same scheme and
 * port under every loopback name. Regression (issue 23, point 4): the handlers served only localhost:4010 while
 * the HTTP mock prints 127.0.0.1:4010, so an app using the printed address got "Failed to fetch".
 */
export function servedOrigins(origin: string): string[] {
  const base = origin.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return [base];
  }
  if (!(LOOPBACK_NAMES as readonly string[]).includes(url.hostname)) return [base];
  const port = url.port === '' ? '' : `:${url.port}`;
  return [base, ...LOOPBACK_NAMES.map((name) => `${url.protocol}//${name}${port}`).filter((o) => o !== base)];
}

/** One handler per served origin (servedOrigins: scheme, host and port); requests elsewhere pass through untouched. */
export function mswHandlers(app: MockApp, origin: string = DEFAULT_MSW_ORIGIN): HttpHandler[] {
  // A RegExp rather than MSW's `${base}/*` string: path-to-regexp reads the colons of `[::1]` as parameter names.
  return servedOrigins(origin).map((base) =>
    http.all(new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`), async ({ request }) => {
      const response = app.handle(await toMockRequest(request, app));
      if (response.delayMs) await delay(response.delayMs);
      // A broken connection is a network error to fetch, whether reset or closed empty (Fetch §4.1 "network error").
      if (response.fault === 'reset' || response.fault === 'empty') return HttpResponse.error();
      return toFetchResponse(request.method, response);
    }),
  );
}

/** A fetch Request as the core's plain request: the same fields node:http's adapter fills (server.ts). */
export async function toMockRequest(request: Request, app: Pick<MockApp, 'bodyLimit'>): Promise<MockRequest> {
  const url = new URL(request.url);
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (typeof previous === 'string') query[name] = [previous, value];
    else previous.push(value);
  }
  // Fetch's Headers already give lower-case names and join repeated fields with ", " (RFC 9110 §5.3).
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, value] of request.headers) headers[name] = value;
  const method = request.method.toUpperCase();
  let body: RequestBody | undefined;
  if (method !== 'GET' && method !== 'HEAD' && request.body !== null) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const limit = app.bodyLimit(url.pathname);
    if (bytes.byteLength > limit) body = { kind: 'too-large', limit };
    else if (bytes.byteLength > 0) body = { kind: 'bytes', bytes };
  }
  return { method, path: url.pathname, query, headers, ...(body ? { body } : {}) };
}

/** The core's plain response as a fetch Response; HEAD and 204 carry no body (RFC 9110 §9.3.2, §15.3.5). */
export function toFetchResponse(method: string, response: MockResponse): Response {
  const empty = method === 'HEAD' || response.status === 204 || response.status === 304;
  let body: string | Uint8Array | null = null;
  if (!empty) {
    if (response.raw !== undefined) body = response.raw;
    else if (response.body !== undefined) body = response.fault === 'malformed' ? truncateJson(encodeJson(response.body, false)) : encodeJson(response.body, false);
  }
  return new HttpResponse(body, { status: response.status, headers: response.headers });
}
