/**
 * The runner's only way onto the wire: an undici Agent with the safety
 * limits a live target deserves (per-request timeout, a body-size cap, a
 * concurrency cap, a request-rate cap), redirects reported instead of
 * followed, and `--header` values redacted from everything it records.
 *
 * It never throws for a transport problem: refused, reset, timed out, a
 * redirect, all become `Exchange.error`, so one broken request fails one
 * check and the run goes on (issue 4, point 7).
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { nestedDeeperThan, parseJson, parseJsonBody } from './json.js';
import { exchangeRaw } from './raw-http.js';
import type { Exchange } from './model.js';
import { dotSegmentRefusal, pathRefusal, UNSAFE_PATH } from './safe-path.js';

/** Past this many bytes a response body is not read further (and marked truncated). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Evidence keeps the first 2 KiB of each body (model.ts). */
const EXCERPT_BYTES = 2048;
/** A hard ceiling on one run's requests, whatever loops the checks run: a bug in the kit must not hammer a live target. */
export const MAX_REQUESTS_PER_RUN = 20_000;
/** After this many transport failures in a row, requests fail fast instead of each waiting for its own timeout. */
const BREAKER_THRESHOLD = 5;
/** While the breaker is open, one request in this many is still attempted, so a target that comes back is noticed. */
const BREAKER_PROBE_EVERY = 20;

export const REDACTED = '[redacted]';

/** The error code of a request the breaker kept back: the target failed the requests before it, this one was not sent. */
export const BREAKER_OPEN = 'BREAKER_OPEN';

/**
 * A request undici refused to send (a body of another length than a Content-Length header, a header value it cannot
 * write): the runner's own input, never the target's answer. The case that built it is skipped, saying why; it was
 * reported as "the answer is not valid HTTP/1.1" and failed the target.
 */
export const REQUEST_UNSENDABLE = 'REQUEST_UNSENDABLE';
const REQUEST_SIDE_ERRORS: ReadonlySet<string> = new Set(['UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

export interface HttpClientOptions {
  /** The target, with its path prefix if any (`http://host/api/v1`). */
  readonly baseUrl: string;
  /** Sent with every request; values are secrets and never recorded. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Requests per second at most; 0 means no cap. */
  readonly rate: number;
  readonly maxBodyBytes?: number;
  /** Requests the run sends at most (--max-requests); default MAX_REQUESTS_PER_RUN. */
  readonly maxRequests?: number;
  readonly signal?: AbortSignal;
}

export interface HttpRequest {
  readonly method: string;
  /** A path relative to the base URL (`/pets/1`), or an absolute URL on the target's origin (a Location, a Link). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * Query pairs already percent-encoded as their parameter's style says
   * (serialize.ts: `color[R]=100`, `ids=1|2`), appended after `query` as they
   * are, so URLSearchParams does not encode them a second time.
   */
  readonly rawQuery?: readonly (readonly [name: string, value: string])[];
  readonly headers?: Readonly<Record<string, string>>;
  /** The exact text sent. */
  readonly body?: string;
  /**
   * How the body goes on the wire (RFC 9112 §6): with its Content-Length (the default), or `chunked`, in chunks of
   * at most 64 KiB with no Content-Length, as a client streaming a body it has not measured sends it (§7.1).
   */
  readonly framing?: 'length' | 'chunked';
  /** A content coding applied to the body before it is sent (RFC 9110 §8.4.1), with its Content-Encoding. */
  readonly contentCoding?: 'gzip';
  /**
   * The path template of the operation the request is meant for: a path that is
   * not one of its paths once normalised is not sent (safe-path.ts, issue 20 point 5).
   */
  readonly pathTemplate?: string;
}

/**
 * A request written byte for byte on its own connection (raw-http.ts): a method any token may name, a request line
 * or body framing that is malformed on purpose, a header block larger than servers take, HEAD read to its last byte.
 */
export interface RawRequest {
  readonly method: string;
  /** A path relative to the base URL, with its query. */
  readonly path: string;
  /** What ends the request line; `HTTP/1.1` unless the request line is to be malformed. */
  readonly version?: string;
  /** Sent after Host and the --header headers, as given. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The bytes after the header block, exactly as sent: no framing is added. */
  readonly body?: string;
  /** What the recorded request says was sent, when the request is too large or too odd to show whole (`a 96 KiB header`). */
  readonly note?: string;
}

/** A response body as the checks see it. */
export type ParsedBody =
  | { readonly kind: 'empty' }
  /**
   * `value` is lossless (integers past 2^53 as bigint, json.ts), for ids,
   * paths and comparisons; `plain` is what the validators see (bigints as
   * numbers, as JSON.parse gives them): the same object unless a bigint is in it.
   */
  | { readonly kind: 'json'; readonly value: unknown; readonly plain: unknown }
  | { readonly kind: 'invalid-json'; readonly message: string }
  /**
   * Not declared as JSON (text/html, text/plain, none). When the text parses
   * as JSON anyway it is kept as `lenient`: the stateful checks may read it
   * (the wrong Content-Type is content-type's finding, not theirs).
   */
  | { readonly kind: 'text'; readonly contentType: string; readonly lenient?: unknown }
  /** Cut at the size cap: not judged as JSON. */
  | { readonly kind: 'truncated'; readonly bytesRead: number };

export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated fields joined with ", " (RFC 9110 §5.3). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ParsedBody;
}

export interface HttpResult {
  /** What was sent and what came back, redacted, as the report shows it. */
  readonly exchange: Exchange;
  /** The full response for the checks (undefined on a transport error). */
  readonly response?: HttpResponse;
  /** Set for a refused, reset or timed-out request and for a redirect (then `response` is set too). */
  readonly error?: { readonly code: string; readonly message: string };
  /** The absolute URL requested. */
  readonly url: URL;
}

/** Joins a base URL that may carry a path prefix with a path of the document: `http://h/api/v1` + `/pets` → `http://h/api/v1/pets`. */
export function targetUrl(baseUrl: string, path: string, query?: HttpRequest['query'], rawQuery?: HttpRequest['rawQuery']): URL {
  const url = /^[a-z][a-z0-9+.-]*:/i.test(path) ? new URL(path) : new URL(`${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`);
  if (query) {
    for (const [name, value] of Object.entries(query)) {
      for (const item of typeof value === 'string' ? [value] : value) url.searchParams.append(name, item);
    }
  }
  if (rawQuery && rawQuery.length > 0) {
    const raw = rawQuery.map(([name, value]) => `${name}=${value}`).join('&');
    url.search = url.search ? `${url.search}&${raw}` : `?${raw}`;
  }
  return url;
}

export class HttpClient {
  readonly baseUrl: string;
  /** The base URL's origin and path, parsed once (a run sends thousands of requests). */
  private readonly baseOrigin: string;
  private readonly basePathname: string;
  private readonly agent: Agent;
  private readonly secrets: readonly string[];
  private readonly extraHeaders: Readonly<Record<string, string>>;
  private readonly maxBodyBytes: number;
  private readonly limiter: Limiter;
  /** The requests on the wire: an interrupted run aborts them all through one listener, not one per request. */
  private readonly inFlight = new Set<RequestAbort>();
  private sent = 0;
  private failuresInARow = 0;
  private lastFailure: { code: string; message: string } | undefined;

  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const base = new URL(this.baseUrl);
    this.baseOrigin = base.origin;
    this.basePathname = base.pathname;
    this.extraHeaders = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
    // Short values ("1", "on") would redact half of every report; values that short are not secrets worth hiding in excerpts.
    this.secrets = Object.values(this.extraHeaders).filter((value) => value.length >= 4);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.limiter = new Limiter(Math.max(1, options.concurrency), options.rate);
    this.agent = new Agent({
      connections: Math.max(1, options.concurrency),
      connect: { timeout: options.timeoutMs },
      keepAliveTimeout: 2_000,
    });
    options.signal?.addEventListener('abort', () => {
      for (const request of this.inFlight) request.abort();
    }, { once: true });
  }

  /**
   * Header fields as the report shows them: a `--header` value becomes "[redacted]" wherever it is echoed, and on a
   * request the fields `--header` set are redacted whole.
   */
  private recordedHeaders(headers: Readonly<Record<string, string>>, sent: boolean): Record<string, string> {
    // No --header given: nothing to hide, and a copy is all a report needs (a run records thousands).
    if (this.secrets.length === 0 && Object.keys(this.extraHeaders).length === 0) return { ...headers };
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sent && name in this.extraHeaders ? REDACTED : this.redact(value)]));
  }

  /** How many requests went out so far. */
  get requestCount(): number {
    return this.sent;
  }

  /** Replaces every `--header` value in a text by "[redacted]", so a server echoing a token cannot leak it into a report. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  async send(request: HttpRequest): Promise<HttpResult> {
    const url = targetUrl(this.baseUrl, request.path, request.query, request.rawQuery);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerCase(request.headers ?? {}), ...this.extraHeaders };
    const payload = request.body === undefined ? undefined : request.contentCoding === 'gzip' ? gzipSync(Buffer.from(request.body, 'utf8')) : request.body;
    if (request.contentCoding !== undefined && payload !== undefined) headers['content-encoding'] = request.contentCoding;
    if (request.framing === 'chunked' && payload !== undefined) {
      delete headers['content-length'];
      headers['transfer-encoding'] = 'chunked';
    } else if (payload !== undefined && !('content-length' in headers)) {
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const recordedRequest: Exchange['request'] = {
      method: request.method,
      url: this.redact(url.href),
      headers: this.recordedHeaders(headers, true),
      ...(request.body !== undefined ? { body: this.redact(clip(request.body, EXCERPT_BYTES)) } : {}),
    };

    const fail = (code: string, message: string, durationMs: number): HttpResult => ({
      url,
      error: { code, message: this.redact(message) },
      exchange: { request: recordedRequest, error: { code, message: this.redact(message) }, durationMs },
    });

    if (this.options.signal?.aborted) return fail('ABORTED', 'not sent: the run was interrupted', 0);
    const budget = this.options.maxRequests ?? MAX_REQUESTS_PER_RUN;
    if (this.sent >= budget) return fail('REQUEST_BUDGET', `not sent: the run reached its limit of ${budget} requests (raise it with --max-requests)`, 0);
    if (url.origin !== this.baseOrigin) {
      // Links and Locations may name other hosts; the runner only talks to the target it was pointed at.
      return fail('OTHER_ORIGIN', `not sent: ${url.origin} is not the target's origin ${this.baseOrigin}`, 0);
    }
    const refusal = request.pathTemplate === undefined ? dotSegmentRefusal(request.path) : pathRefusal(request.pathTemplate, this.basePathname, request.path, url);
    if (refusal !== undefined) return fail(UNSAFE_PATH, refusal, 0);
    if (this.failuresInARow >= BREAKER_THRESHOLD && this.lastFailure && (this.failuresInARow - BREAKER_THRESHOLD) % BREAKER_PROBE_EVERY !== 0) {
      this.failuresInARow += 1;
      // Its own code: the request was never sent, so no case may fail on it (context.ts skips a case holding one).
      return fail(BREAKER_OPEN, `not sent: the last ${BREAKER_THRESHOLD} requests failed the same way (${this.lastFailure.code}: ${this.lastFailure.message})`, 0);
    }

    const release = await this.limiter.acquire();
    this.sent += 1;
    const started = performance.now();
    const abort = new RequestAbort();
    this.inFlight.add(abort);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.options.timeoutMs);
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.framing === 'chunked' ? withoutTransferEncoding(headers) : headers,
        // A stream with no length is sent chunked by undici (RFC 9112 §7.1); the recorded request says so.
        body: payload === undefined ? null : request.framing === 'chunked' ? Readable.from(chunks(payload)) : payload,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: abort,
      });
      const read = await readCapped(response.body, this.maxBodyBytes);
      const durationMs = Math.round(performance.now() - started);
      const responseHeaders = flattenHeaders(response.headers);
      const bodyBytes = Math.max(read.bytes, read.truncated ? Number(responseHeaders['content-length'] ?? 0) || 0 : 0);
      const recordedResponse: NonNullable<Exchange['response']> = {
        status: response.statusCode,
        headers: this.recordedHeaders(responseHeaders, false),
        bodyExcerpt: this.redact(read.buffer.subarray(0, EXCERPT_BYTES).toString('utf8')),
        bodyBytes,
        truncated: read.truncated,
      };
      const parsed: HttpResponse = { status: response.statusCode, headers: responseHeaders, body: parseBody(read.buffer, read.truncated, responseHeaders['content-type']) };
      this.failuresInARow = 0;
      const redirect = redirectError(response.statusCode, responseHeaders['location']);
      if (redirect) {
        const error = { code: 'REDIRECT', message: this.redact(redirect) };
        return { url, response: parsed, error, exchange: { request: recordedRequest, response: recordedResponse, error, durationMs } };
      }
      return { url, response: parsed, exchange: { request: recordedRequest, response: recordedResponse, durationMs } };
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const failure = classify(error, timedOut, this.options.timeoutMs, this.options.signal?.aborted === true);
      // Neither an interrupted run nor a request the client would not send says anything of the target.
      if (failure.code !== 'ABORTED' && failure.code !== REQUEST_UNSENDABLE) {
        this.failuresInARow += 1;
        this.lastFailure = failure;
      }
      return fail(failure.code, failure.message, durationMs);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
      release();
    }
  }

  /**
   * Sends one request byte for byte on a connection of its own (raw-http.ts), within the run's limits (budget, rate,
   * breaker, origin), and records it redacted like any other. A HEAD answer's body is every byte after its headers.
   */
  async sendRaw(request: RawRequest): Promise<HttpResult> {
    const url = targetUrl(this.baseUrl, request.path);
    const headers: Record<string, string> = { ...this.extraHeaders, ...lowerCase(request.headers ?? {}) };
    const recordedHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name in this.extraHeaders ? REDACTED : this.redact(clip(value, EXCERPT_BYTES))]));
    const recordedRequest: Exchange['request'] = {
      method: request.method,
      url: this.redact(url.href),
      headers: recordedHeaders,
      ...(request.body !== undefined ? { body: this.redact(clip(request.note ?? request.body, EXCERPT_BYTES)) } : request.note !== undefined ? { body: request.note } : {}),
    };
    const fail = (code: string, message: string, durationMs: number): HttpResult => ({ url, error: { code, message: this.redact(message) }, exchange: { request: recordedRequest, error: { code, message: this.redact(message) }, durationMs } });
    if (this.options.signal?.aborted) return fail('ABORTED', 'not sent: the run was interrupted', 0);
    const budget = this.options.maxRequests ?? MAX_REQUESTS_PER_RUN;
    if (this.sent >= budget) return fail('REQUEST_BUDGET', `not sent: the run reached its limit of ${budget} requests (raise it with --max-requests)`, 0);
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const wire = Buffer.concat([Buffer.from(`${request.method} ${url.pathname}${url.search} ${request.version ?? 'HTTP/1.1'}\r\nhost: ${url.host}\r\n${head}connection: close\r\n\r\n`, 'latin1'), Buffer.from(request.body ?? '', 'utf8')]);
    const release = await this.limiter.acquire();
    this.sent += 1;
    const started = performance.now();
    try {
      const outcome = await exchangeRaw(url, wire, { timeoutMs: this.options.timeoutMs, maxBytes: this.maxBodyBytes + 64 * 1024, head: request.method === 'HEAD', ...(this.options.signal ? { signal: this.options.signal } : {}) });
      const durationMs = Math.round(performance.now() - started);
      if (!outcome.ok) return fail(outcome.code, outcome.message, durationMs);
      const { answer } = outcome;
      const recordedResponse: NonNullable<Exchange['response']> = {
        status: answer.status,
        headers: this.recordedHeaders(answer.headers, false),
        bodyExcerpt: this.redact(answer.body.subarray(0, EXCERPT_BYTES).toString('utf8')),
        bodyBytes: answer.bodyBytes,
        truncated: answer.truncated,
      };
      const parsed: HttpResponse = { status: answer.status, headers: answer.headers, body: parseBody(answer.body, answer.truncated, answer.headers['content-type']) };
      return { url, response: parsed, exchange: { request: recordedRequest, response: recordedResponse, durationMs } };
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    // destroy, not close: a target that never answers must not keep the run alive.
    await this.agent.destroy().catch(() => undefined);
  }
}

/** A 3xx with a Location is reported, not followed: the document describes no redirect, and following one could leave the target (RFC 9110 §15.4). */
function redirectError(status: number, location: string | undefined): string | undefined {
  if (status < 300 || status > 399 || status === 304) return undefined;
  return `answered ${status} redirecting to ${location ?? '(no Location)'}; redirects are not followed`;
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy(error?: Error): unknown }, cap: number): Promise<{ buffer: Buffer; bytes: number; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (bytes + buffer.length > cap) {
      chunks.push(buffer.subarray(0, cap - bytes));
      // Stop reading: a 10 MB answer must not be buffered (issue 4, point 7).
      body.destroy();
      return { buffer: Buffer.concat(chunks), bytes: bytes + buffer.length, truncated: true };
    }
    chunks.push(buffer);
    bytes += buffer.length;
  }
  return { buffer: Buffer.concat(chunks), bytes, truncated: false };
}

export function parseBody(buffer: Buffer, truncated: boolean, contentType: string | undefined): ParsedBody {
  if (truncated) return { kind: 'truncated', bytesRead: buffer.length };
  if (buffer.length === 0) return { kind: 'empty' };
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    const text = buffer.toString('utf8');
    if (/^\s*[[{]/.test(text) && !nestedDeeperThan(text)) {
      try {
        return { kind: 'text', contentType: type || '(none)', lenient: parseJson(text) };
      } catch {
        // not JSON either: text it is
      }
    }
    return { kind: 'text', contentType: type || '(none)' };
  }
  try {
    return { kind: 'json', ...parseJsonBody(buffer.toString('utf8')) };
  } catch (error) {
    return { kind: 'invalid-json', message: (error as Error).message };
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A body cut in chunks of at most 64 KiB, for a chunked request. */
function* chunks(payload: string | Buffer): Generator<Buffer> {
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}

const CHUNK_BYTES = 64 * 1024;

/** undici frames a stream itself and refuses a Transfer-Encoding header set by hand; the recorded request keeps it. */
function withoutTransferEncoding(headers: Record<string, string>): Record<string, string> {
  const { 'transfer-encoding': _chunked, ...rest } = headers;
  return rest;
}

function lowerCase(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function clip(text: string, bytes: number): string {
  return text.length > bytes ? `${text.slice(0, bytes)}…` : text;
}

export function classify(error: unknown, timedOut: boolean, timeoutMs: number, aborted: boolean): { code: string; message: string } {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete answer within ${timeoutMs} ms (--timeout)` };
  }
  if (aborted) return { code: 'ABORTED', message: 'interrupted' };
  if (code === 'ECONNREFUSED') return { code: 'ECONNREFUSED', message: 'connection refused: nothing listens at the target' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { code: 'ECONNRESET', message: `connection reset or closed by the target before a complete answer (${message})` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'ENOTFOUND', message: `the target's host name does not resolve (${message})` };
  if (REQUEST_SIDE_ERRORS.has(code)) return { code: REQUEST_UNSENDABLE, message: `not sent: undici refused the request the runner built (${code}: ${message})` };
  if (code.startsWith('UND_ERR_') || code.startsWith('HPE_')) return { code, message: `the answer is not valid HTTP/1.1 (${message})` };
  return { code: code || 'REQUEST_FAILED', message };
}

/**
 * Concurrency cap plus a token bucket of one token (requests start at least
 * 1000/rate ms apart), so `--rate N` holds over any one-second window.
 */
class Limiter {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;

  constructor(
    private readonly concurrency: number,
    private readonly rate: number,
  ) {}

  async acquire(): Promise<() => void> {
    // A released slot is handed straight to the next waiter, so the cap holds even between the release and the waiter's resumption.
    if (this.inFlight >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight += 1;
    if (this.rate > 0) {
      const now = performance.now();
      const start = Math.max(now, this.nextStart);
      this.nextStart = start + 1000 / this.rate;
      if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight -= 1;
    };
  }
}

/**
 * One request's abort, for its timeout and for an interrupted run. undici takes an EventEmitter with `aborted` as a
 * request's signal (api-request.js); an AbortController costs about 4 µs to make in Node 20, and a run makes one per
 * exchange.
 */
class RequestAbort extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}
