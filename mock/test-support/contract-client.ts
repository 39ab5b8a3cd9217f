/**
 * The HTTP client of the mock's end-to-end tests. It sends real requests
 * with undici and checks EVERY response against openapi.yaml through the
 * compiled validators before a test sees it: the status is documented for the
 * operation the request matched, the declared headers are there and valid,
 * the body matches the schema; an unmatched request gets the document's
 * `x-unmatched-requests` answers; every error carries the Error shape with a
 * code from `x-error-codes` whose status is the HTTP status; only a deprecated
 * operation sends `Deprecation`. A response that breaks the contract throws
 * a ContractViolation, so it fails whichever test received it.
 *
 * The `/__mock/` admin surface is outside the contract: only its JSON and its
 * errors' shape are checked there (with its own codes, admin-access.ts). The
 * client calls it as a trusted script would: with `X-Mock-Admin: 1`, or the
 * admin token when the mock has one.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { createRouter, type Router } from '../../src/router.js';
import { ADMIN_ERROR_CODES, ADMIN_HEADER, ADMIN_TOKEN_HEADER } from '../admin/access.js';
import type { CompiledContract, Diagnostic } from '../../src/schema/index.js';

export type QueryValue = string | number | boolean | readonly (string | number)[];

export interface SendOptions {
  readonly query?: Readonly<Record<string, QueryValue | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
  /** Sent as is (set the Content-Type yourself). */
  readonly body?: string | Uint8Array;
}

export interface Exchange {
  readonly method: string;
  /** The path and query as sent. */
  readonly target: string;
  readonly status: number;
  /** Lower-case names; repeated fields joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or undefined when there was none. */
  readonly body: unknown;
  readonly text: string;
  /** The request was a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method): Fetch's business, not the contract's. */
  readonly preflight?: boolean;
}

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
  constructor(
    readonly exchange: Exchange,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(
      `${exchange.method} ${clip(exchange.target)} answered ${exchange.status}, which breaks openapi.yaml:\n` +
        diagnostics.map((d) => `  ${d.pointer}: ${d.message}${d.actual !== undefined ? ` (actual: ${clip(JSON.stringify(d.actual) ?? '')})` : ''}`).join('\n') +
        `\n  body: ${clip(exchange.text)}`,
    );
  }
}

export interface ContractClient {
  send(method: string, path: string, options?: SendOptions): Promise<Exchange>;
  get(path: string, options?: SendOptions): Promise<Exchange>;
  post(path: string, json: unknown, options?: SendOptions): Promise<Exchange>;
  put(path: string, json: unknown, options?: SendOptions): Promise<Exchange>;
  patch(path: string, json: unknown, options?: SendOptions): Promise<Exchange>;
  delete(path: string, options?: SendOptions): Promise<Exchange>;
  /** The same client, sending `X-Mock-Session: name` with every request. */
  session(name: string): ContractClient;
  /** The admin state of a session (or the default store): what "nothing changed" compares. */
  state(session?: string): Promise<unknown>;
  /** Checks an exchange obtained some other way (a raw socket); throws a ContractViolation when it breaks the contract. */
  check(exchange: Exchange): void;
  /** How many responses this client (and its session views) has checked. */
  readonly checked: () => number;
  /** operationId → the statuses it has answered so far (for coverage assertions). */
  readonly observed: () => ReadonlyMap<string, ReadonlySet<number>>;
  close(): Promise<void>;
}

export interface ContractClientOptions {
  /** `http://HOST:PORT`. */
  readonly origin: string;
  readonly compiled: CompiledContract;
  /** The mock's --base-path, if any. */
  readonly basePath?: string;
  readonly connections?: number;
  /** The mock's --admin-token, sent to /__mock/ instead of `X-Mock-Admin: 1`. */
  readonly adminToken?: string;
}

export function createContractClient({ origin, compiled, basePath = '', connections = 64, adminToken }: ContractClientOptions): ContractClient {
  const adminHeaders: Readonly<Record<string, string>> = adminToken === undefined ? { [ADMIN_HEADER]: '1' } : { [ADMIN_TOKEN_HEADER]: adminToken };
  const dispatcher: Dispatcher = new Agent({ connections, pipelining: 1, keepAliveTimeout: 2_000 });
  const router = createRouter(compiled.contract, basePath);
  const seen = new Map<string, Set<number>>();
  const checker = createChecker(compiled, router, (operationId, status) => {
    let statuses = seen.get(operationId);
    if (!statuses) seen.set(operationId, (statuses = new Set()));
    statuses.add(status);
  });
  const counter = { value: 0 };

  const make = (defaults: Readonly<Record<string, string>>): ContractClient => {
    const send = async (method: string, path: string, options: SendOptions = {}): Promise<Exchange> => {
      const target = withQuery(path, options.query);
      const headers: Record<string, string> = { ...defaults, ...(path.startsWith('/__mock/') ? adminHeaders : {}), ...options.headers };
      let body: string | Uint8Array | undefined = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['content-type'] ??= 'application/json';
      }
      const response = await request(`${origin}${target}`, { method: method as Dispatcher.HttpMethod, headers, ...(body !== undefined ? { body } : {}), dispatcher });
      const text = await response.body.text();
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      const preflight = method === 'OPTIONS' && lower['origin'] !== undefined && lower['access-control-request-method'] !== undefined;
      const exchange = { ...toExchange(method, target, response.statusCode, response.headers, text), preflight };
      counter.value++;
      checker(exchange);
      return exchange;
    };
    const client: ContractClient = {
      send,
      get: (path, options) => send('GET', path, options),
      post: (path, json, options) => send('POST', path, { ...options, json }),
      put: (path, json, options) => send('PUT', path, { ...options, json }),
      patch: (path, json, options) => send('PATCH', path, { ...options, json }),
      delete: (path, options) => send('DELETE', path, options),
      session: (name) => make({ ...defaults, 'x-mock-session': name }),
      async state(session) {
        const answer = await send('GET', '/__mock/state', session === undefined ? {} : { query: { session } });
        if (answer.status !== 200) throw new Error(`GET /__mock/state answered ${answer.status}: ${answer.text}`);
        return answer.body;
      },
      check: (exchange) => {
        counter.value++;
        checker(exchange);
      },
      checked: () => counter.value,
      observed: () => seen,
      close: () => dispatcher.close(),
    };
    return client;
  };
  return make({});
}

function withQuery(path: string, query: SendOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

export function toExchange(method: string, target: string, status: number, raw: Readonly<Record<string, string | string[] | undefined>>, text: string): Exchange {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { method, target, status, headers, body, text };
}

/** The checks, shared by the client and by tests that talk to the mock over a raw socket. */
export function createChecker(compiled: CompiledContract, router: Router, onMatched?: (operationId: string, status: number) => void): (exchange: Exchange) => void {
  const { contract } = compiled;
  const errorSchema = contract.document.components?.schemas?.['Error'];
  if (!errorSchema || '$ref' in errorSchema) throw new Error('openapi.yaml has no Error schema');

  return (exchange) => {
    const problems: Diagnostic[] = [];
    const { method, status, headers, body, text } = exchange;
    const path = exchange.target.split('?')[0] ?? '/';
    const isJson = /^application\/(.+\+)?json\s*(;|$)/i.test(headers['content-type'] ?? '');

    if (text !== '' && method !== 'HEAD') {
      if (!isJson) problems.push({ pointer: '/header/content-type', keyword: 'content', message: `a body was sent as ${headers['content-type'] ?? '(no Content-Type)'}, not JSON` });
      else if (body === undefined) problems.push({ pointer: '/body', keyword: 'json', message: 'the body is not valid JSON' });
    }
    if (status >= 400) checkError(compiled, errorSchema, exchange, problems, path.startsWith('/__mock/'));

    // A preflight of a known path answers 204 (Fetch §3.2.2); of an unknown one, the contract's 404.
    const isPreflight = exchange.preflight === true && status !== 404;
    if (path.startsWith('/__mock/') || isPreflight) {
      // Outside the contract: the admin surface, and a preflight's 204 (Fetch, not OpenAPI).
      // The admin surface refuses every preflight (403, admin-access.ts); elsewhere a preflight's answer is a 204.
      if (isPreflight && !path.startsWith('/__mock/') && (status !== 204 || text !== '')) problems.push({ pointer: '/status', keyword: 'preflight', message: `a preflight must answer 204 without a body, got ${status}` });
    } else {
      const match = router.match(method, path);
      const responseBody = method === 'HEAD' ? undefined : body;
      if (match.kind === 'no-path') {
        if (status !== 404) problems.push({ pointer: '/status', keyword: 'status', message: `no path matches ${path}, so the answer must be 404, got ${status}` });
        else problems.push(...compiled.unmatchedResponse('unknownPath', headers, responseBody));
      } else if (match.kind === 'no-method') {
        if (status !== 405) problems.push({ pointer: '/status', keyword: 'status', message: `${path} does not document ${method}, so the answer must be 405, got ${status}` });
        else {
          problems.push(...compiled.unmatchedResponse('wrongMethod', headers, responseBody));
          if (headers['allow'] !== match.allow.join(', ')) problems.push({ pointer: '/header/allow', keyword: 'allow', message: `Allow must list exactly the documented methods ${match.allow.join(', ')}`, actual: headers['allow'] });
        }
      } else {
        onMatched?.(match.operation.operationId, status);
        const validators = compiled.operations.get(match.operation.operationId);
        if (!validators) throw new Error(`no validators for ${match.operation.operationId}`);
        // HEAD answers are GET's without the body (RFC 9110 §9.3.2): check headers and status only.
        const verdict = validators.response(status, headers, responseBody);
        problems.push(...(method === 'HEAD' ? verdict.diagnostics.filter((d) => !d.pointer.startsWith('/body')) : verdict.diagnostics));
        if (!match.operation.deprecated && headers['deprecation'] !== undefined) {
          problems.push({ pointer: '/header/deprecation', keyword: 'deprecation', message: `${match.operation.operationId} is not deprecated, yet the answer carries Deprecation` });
        }
      }
    }
    if (problems.length > 0) throw new ContractViolation(exchange, problems);
  };
}

/** Every error: the Error schema, `status` equal to the HTTP status, a code from x-error-codes with that very status. */
function checkError(compiled: CompiledContract, errorSchema: Parameters<CompiledContract['validate']>[0], exchange: Exchange, problems: Diagnostic[], admin: boolean): void {
  if (exchange.method === 'HEAD') return;
  const { body, status } = exchange;
  problems.push(...compiled.validate(errorSchema, body, 'response', '/body'));
  if (typeof body !== 'object' || body === null) return;
  const record = body as Record<string, unknown>;
  if (record['status'] !== status) problems.push({ pointer: '/body/status', keyword: 'status', message: `Error.status must equal the HTTP status ${status}`, actual: record['status'] });
  const code = typeof record['code'] === 'string' ? record['code'] : undefined;
  const adminStatus = admin && code !== undefined && Object.hasOwn(ADMIN_ERROR_CODES, code) ? (ADMIN_ERROR_CODES as Readonly<Record<string, number>>)[code] : undefined;
  const spec = code === undefined ? undefined : (compiled.contract.errorCodes.get(code) ?? (adminStatus === undefined ? undefined : { status: adminStatus }));
  if (!spec) problems.push({ pointer: '/body/code', keyword: 'x-error-codes', message: 'the code is not one of x-error-codes', actual: code });
  else if (spec.status !== status) problems.push({ pointer: '/body/code', keyword: 'x-error-codes', message: `x-error-codes gives ${code} the status ${spec.status}, not ${status}`, actual: code });
}

function clip(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
