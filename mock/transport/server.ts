/**
 * The node:http adapter around the transport-free core (app.ts): it turns an
 * IncomingMessage into a MockRequest and a MockResponse into one writeHead and
 * one end, with no WHATWG Request/Response objects on the way (they cost
 * throughput: issue 5). It also owns what only a transport can do: the body
 * cap while reading, `Prefer: delay` without blocking, requests node:http
 * cannot parse, timeouts, and a graceful close.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { loadContract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { DEFAULT_FIXTURES_DIR, DEFAULT_SPEC_PATH, KIT_VERSION } from '../../src/package-info.js';
import { sharedCompiledContract, type CompiledContract } from '../../src/schema/index.js';
import { reachabilityWarning } from '../admin/access.js';
import { createMockApp, type MockApp, type ValidationMode } from '../engine/app.js';
import { guardConnections, type ConnectionLimits } from './connections.js';
import { loadDocsFiles } from '../conveniences/docs-files.js';
import type { DocsFiles } from '../conveniences/docs.js';
import type { StoreSnapshot } from '../behaviour/petstore/domain.js';
import type { SessionDropReason } from '../conveniences/session.js';
import { truncateJson } from '../conveniences/faults.js';
import { encodeJson, hasKeptText } from '../engine/json.js';
import { isLargeBody, jsonPieces } from './json-stream.js';
import { formatRequestLine } from './log.js';
import type { MockRequest, MockResponse, RequestBody } from '../engine/message.js';
import { generateSnapshot } from '../behaviour/petstore/seed.js';
import { checkSessionBounds, DEFAULT_MAX_SESSIONS, sessionMemoryBudget } from '../conveniences/registry.js';
import { createLiveApp, watchSources } from '../conveniences/watch.js';
import { servesPetStore } from '../engine/detect.js';
import { genericStartup } from '../engine/startup.js';
import { withPetStoreRules } from '../behaviour/petstore/options.js';
import type { GenerationBudget } from '../../src/generate/index.js';

export interface MockOptions {
  /** Default 4010; 0 picks a free port (see RunningMock.port). */
  readonly port?: number;
  /** Default 127.0.0.1, which keeps the mock off the network. */
  readonly host?: string;
  /** The OpenAPI document; the bundled openapi.yaml by default. */
  readonly specPath?: string;
  /** `--allow-refs`: where the document's $refs may read besides its folder and the working directory. */
  readonly allowRefs?: readonly string[];
  /** `--strict`: refuse a document that breaks the OpenAPI schema's letter (src/contract/load.ts). */
  readonly strictSchema?: boolean;
  /** A fixtures folder, or 'none' for an empty store; the bundled fixtures/seed by default. Ignored when `seed` is given. */
  readonly fixtures?: string;
  /** Generate the data with faker from this seed instead (same seed, same data). */
  readonly seed?: number;
  /** With `seed`: how many pets (default 20). */
  readonly pets?: number;
  /** Fix the mock's clock at this instant (getPet's sunset); per request, `X-Mock-Now` overrides it. */
  readonly now?: Date;
  /** Serve under a path prefix such as /api/v1. */
  readonly basePath?: string;
  /** `*` (default) or the one origin CORS allows. */
  readonly corsOrigin?: string;
  readonly validation?: ValidationMode;
  /** How many X-Mock-Session stores are kept at once; past it the least recently used is dropped (default 100). */
  readonly maxSessions?: number;
  /** `--chaos`: that share of requests get a random documented error or fault, drawn from `seed` (faults.ts). */
  readonly chaos?: { readonly rate: number; readonly seed: number };
  /** Bytes all X-Mock-Session stores may hold beyond the shared initial data (default: a quarter of the heap limit). */
  readonly maxSessionMemory?: number;
  /** No log line per request. */
  readonly quiet?: boolean;
  /** Reload the document and the fixtures when they change (watch.ts). */
  readonly watch?: boolean;
  /** Connections held at once (default 1000); past it the oldest idle one is closed, or the new one refused. */
  readonly maxConnections?: number;
  /** A connection where nothing moved for this long during a request is cut (default 30 s): a stalled download frees its memory. */
  readonly idleTimeoutMs?: number;
  /** How long a request's line and headers, and the whole request, may take to arrive (10 s and 60 s); past them, a 408. */
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Every /__mock/ call must carry it in X-Mock-Admin-Token (admin-access.ts). Never printed. */
  readonly adminToken?: string;
  /** Open the /__mock/ admin surface on a non-loopback host without a token. */
  readonly adminOpen?: boolean;
  /** Corrections and rules for what the generic engine infers (engine/files.ts); the Pet Store's rule file by default for it. */
  readonly mockOverlay?: string;
  /** A behaviour module of hooks around the document's operations (behaviour/hooks.ts). */
  readonly behaviour?: string;
  /** `--generation-budget`: the caps on one value the generic engine generates (src/generate/budget.ts). */
  readonly generationBudget?: GenerationBudget;
  /** Where log lines go; stderr by default (stdout carries only the `listening on` line). */
  readonly log?: (line: string) => void;
}

export interface RunningMock {
  /** `http://HOST:PORT` (without the base path). */
  readonly url: string;
  readonly port: number;
  /** The core, for in-process checks; requests should still go through `url`. */
  readonly app: MockApp;
  /** Stops accepting, waits for in-flight requests (delayed ones too), closes keep-alive sockets. */
  close(): Promise<void>;
}

/** The request line and headers the mock reads at most; beyond, a plain 400 (see clientError below). */
const MAX_HEADER_BYTES = 64 * 1024;

/** Below the 1,024 file descriptors a process commonly gets, with room for the rest (connections.ts). */
export const DEFAULT_MAX_CONNECTIONS = 1000;
/** Longer than the longest `Prefer: delay` (10 s), so only a client that stopped reading or sending is cut. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** Slow or stalled clients cannot hold a connection forever (slowloris); a large import still has time. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;

/** How long close() waits for in-flight requests before cutting the sockets. */
const CLOSE_GRACE_MS = 12_000;

export async function startMock(given: MockOptions = {}): Promise<RunningMock> {
  // The docs page serves the document a core was compiled from, read with it (a reload may meet a broken file later).
  const docsOf = new WeakMap<CompiledContract, DocsFiles>();
  const load = async (path: string): Promise<CompiledContract> => {
    const loaded = sharedCompiledContract(await loadContract(path, { ...(given.allowRefs ? { allowRefs: given.allowRefs } : {}), ...(given.strictSchema ? { strictSchema: true } : {}) }));
    const docs = await loadDocsFiles(loaded.contract.file);
    if (docs) docsOf.set(loaded, docs);
    return loaded;
  };
  const compiled = await load(given.specPath ?? DEFAULT_SPEC_PATH);
  const { contract } = compiled;
  // The Pet Store is the generic engine with its rule file and, unless told otherwise, its fixtures (petstore-rules.ts).
  const options = withPetStoreRules(given, servesPetStore(contract));
  // The Pet Store's generated data (--seed N --pets K) is its own generator's (the same seed, the same pets): the
  // generic engine takes it as its initial records, by collection name.
  const generated = options.seed !== undefined && servesPetStore(contract) ? withoutCounters(await generateSnapshot(options.seed, options.pets ?? 20, { inventoryStatus: true })) : undefined;
  const host = options.host ?? '127.0.0.1';
  const adminAccess = { host, ...(options.adminToken !== undefined ? { token: options.adminToken } : {}), ...(options.adminOpen ? { open: true } : {}) };
  const log = options.quiet ? undefined : (options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxSessionMemory = options.maxSessionMemory ?? sessionMemoryBudget(getHeapStatistics().heap_size_limit);
  checkSessionBounds(maxSessions, maxSessionMemory);
  // One log line for a dropped session, whichever engine holds the sessions (the Pet Store's or the generic one).
  const onDrop = (session: string, reason: SessionDropReason): void =>
    log?.(`session ${session} dropped: the least recently used ${reason === 'max-sessions' ? `of ${maxSessions} (--max-sessions)` : `past ${Number((maxSessionMemory / 2 ** 20).toFixed(2))} MiB (--max-session-memory)`}; its next request starts from the initial data`);
  const makeApp = async (from: CompiledContract, previous?: MockApp, carry = false): Promise<MockApp> => {
    const docs = docsOf.get(from);
    // The generic engine's data and corrections, and the resource map it inferred, said once. The Pet Store says
    // none of it (its map and rules are the kit's, not news; the report would call it "not the Pet Store").
    const announce = previous || servesPetStore(from.contract) ? undefined : (options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)));
    const startup = await genericStartup(from.contract, options, announce);
    // The session bounds hold for every document (issue 31, point 5).
    const carried = carry ? previous?.carry() : undefined;
    const generic = { ...startup, ...(generated ? { fixtures: generated, fixturesGenerated: true } : {}), maxSessions, maxSessionMemory, onSessionDrop: onDrop, ...(carried ? { carried } : {}) };
    const { createGenericEngine } = await import('../engine/engine.js');
    return createMockApp({
      generic,
      genericEngine: createGenericEngine,
      compiled: from,
      ...(docs ? { docs } : {}),
      kitVersion: KIT_VERSION,
      ...(previous ? { journal: previous.journal } : {}),
      ...(options.chaos !== undefined ? { chaos: options.chaos } : {}),
      ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
      ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
      ...(options.validation !== undefined ? { validation: options.validation } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      notes: !options.quiet,
      adminAccess,
    });
  };
  const first = await makeApp(compiled);
  // --watch (watch.ts): the server serves a core that a reload can replace.
  const live = options.watch ? createLiveApp(first) : undefined;
  const app = live ?? first;
  // Beyond loopback anyone who reaches the port reaches the mock: say so at start-up, even under --quiet.
  const warning = reachabilityWarning(adminAccess);
  if (warning) (options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)))(warning);
  const served = await serve(app, {
    port: options.port ?? 4010,
    host,
    ...(log ? { log } : {}),
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.headersTimeoutMs !== undefined ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  // Listening: what the core proves in the background (every documented answer, answer-guard.ts) starts now.
  app.startBackground();
  const watcher =
    live
      ? watchSources({
          specPath: contract.file,
          ...(options.seed === undefined && options.fixtures !== 'none' ? { fixturesDir: options.fixtures ?? DEFAULT_FIXTURES_DIR } : {}),
          ...(options.behaviour !== undefined ? { behaviourFile: options.behaviour } : {}),
          live,
          compiled,
          loadCompiled: load,
          makeApp,
          // What was reloaded is said even under --quiet, which silences only the per-request lines.
          log: options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)),
        })
      : undefined;
  const close = async (): Promise<void> => {
    watcher?.close();
    app.close();
    await served.close();
  };
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${served.port}`, port: served.port, app, close };
}

/** A snapshot's records by collection name, as a fixtures folder holds them (its counters are no collection). */
export function withoutCounters(snapshot: StoreSnapshot): Readonly<Record<string, unknown>> {
  const { nextIds: _counters, ...records } = snapshot;
  return records;
}

export interface ServeOptions extends Partial<ConnectionLimits> {
  readonly port: number;
  readonly host: string;
  readonly log?: (line: string) => void;
  /** How long the request line and headers may take to arrive (default 10 s); past it, a 408. */
  readonly headersTimeoutMs?: number;
  /** How long a whole request may take to arrive (default 60 s: a large import still has time); past it, a 408. */
  readonly requestTimeoutMs?: number;
}

/** Listens with `app` and resolves once it serves; a port in use is a KitError that says what to do. */
export function serve(
  app: MockApp,
  { port, host, log, maxConnections = DEFAULT_MAX_CONNECTIONS, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS, headersTimeoutMs = HEADERS_TIMEOUT_MS, requestTimeoutMs = REQUEST_TIMEOUT_MS }: ServeOptions,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(
    {
      // Node's default of 16 KiB would refuse a long URL before the router sees it, without the
      // operation's headers (getPet's Deprecation); 64 KiB lets such URLs reach the core.
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default, which would let a 10 s limit run to 40 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      connections.track(req, res);
      onRequest(req, res);
    },
  );
  const connections = guardConnections(server, { maxConnections, idleTimeoutMs, ...(log ? { log } : {}) });
  let closing = false;

  // RFC 9110 §10.1.1: a client that sent `Expect: 100-continue` waits for a 100 before the body. Over the limit it
  // gets the 413 instead, so it never sends what would be refused (Node sends the 100 itself without this listener).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    connections.track(req, res);
    if (!(Number(req.headers['content-length']) > app.bodyLimit(pathOf(req.url ?? '/')))) res.writeContinue();
    onRequest(req, res);
  });

  /** Hands a request to the core and writes its answer; top-level rather than a closure per request (issue 14). */
  const dispatch = (req: IncomingMessage, res: ServerResponse, body: RequestBody | undefined, closeAfter: boolean, started: number): void => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const query = mark === -1 ? EMPTY_QUERY : parseQuery(url.slice(mark + 1));
    const request: MockRequest = { method, path, query, headers: req.headers, body };
    let response: MockResponse;
    try {
      response = app.handle(request);
    } catch (error) {
      response = app.internalError();
      log?.(`${method} ${path}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    if (response.delayMs) {
      // A timer, not a busy wait: other requests go on meanwhile. Skipped if the client has gone.
      const timer = setTimeout(() => {
        if (!res.destroyed) finish(res, method, path, response, closeAfter, started);
      }, response.delayMs);
      res.once('close', () => clearTimeout(timer));
    } else {
      finish(res, method, path, response, closeAfter, started);
    }
  };

  const finish = (res: ServerResponse, method: string, path: string, response: MockResponse, closeAfter: boolean, started: number): void => {
    writeResponse(res, method, response, closeAfter || closing);
    if (log) log(formatRequestLine(method, path, response.status, performance.now() - started, response.notes));
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // The log's duration counts from the request's headers, so a slow upload shows in it.
    const started = log ? performance.now() : 0;
    if (hostLines(req.rawHeaders) > 1) {
      // RFC 9112 §3.2: a server MUST answer 400 to a request with more than one Host field line. Node keeps the
      // first and drops the rest, so a proxy that routed on the other one and this mock would disagree on the host.
      // The connection closes after it: what else the client sent on it is not to be trusted either.
      const message = 'The request has more than one Host header field; HTTP/1.1 allows exactly one (RFC 9112 §3.2). Send one Host.';
      finish(res, req.method ?? 'GET', pathOf(req.url ?? '/'), app.unparsableRequest(message), true, started);
      if (mayHaveBody(req)) drainThenClose(req);
      return;
    }
    if (!mayHaveBody(req)) {
      dispatch(req, res, undefined, false, started);
      return;
    }
    const limit = app.bodyLimit(pathOf(req.url ?? '/'));
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      // Known too large before a byte is read: answer at once rather than read what will be refused. Not with
      // `Connection: close`: closing while the client still sends makes the kernel reset the connection, and a
      // reset can discard the 413 before the client reads it (RFC 9112 §9.6); drainThenClose ends it instead.
      // After `Expect: 100-continue` no body follows the 413, so the connection can close at once.
      dispatch(req, res, { kind: 'too-large', limit }, req.headers.expect !== undefined, started);
      drainThenClose(req);
      return;
    }
    readBody(req, limit, (body) => dispatch(req, res, body, false, started));
  };

  // A request node:http cannot parse, or that did not arrive in time, never reaches onRequest; it is answered in
  // the Error shape all the same, and the connection closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset gets no answer (nobody would read it), nor does a connection whose answer has already begun: bytes
    // of a second status line would corrupt it (a 413 sent early, say, while the rest of the body is drained).
    if (error.code === 'ECONNRESET' || !socket.writable || connections.answerStarted(socket)) {
      socket.destroy();
      return;
    }
    // RFC 9110 §15.5.9: a client too slow to send its request line, headers (headersTimeout) or body
    // (requestTimeout) learns why it was cut off, as Node itself would tell it, in the contract's Error shape.
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const message = timedOut
      ? `The request did not arrive in time: the request line and headers must arrive within ${headersTimeoutMs / 1000} s and the whole request within ${requestTimeoutMs / 1000} s. The connection is closed; send the request again, faster.`
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? `The request line and headers are longer than the ${MAX_HEADER_BYTES / 1024} KiB the mock reads; shorten the URL (ask for fewer ids at once) or the headers.`
        : `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'}); check the request line and headers.`;
    const response = timedOut ? app.requestTimeout(message) : app.unparsableRequest(message);
    const text = JSON.stringify(response.body);
    const head = Object.entries({ ...response.headers, 'content-length': String(Buffer.byteLength(text)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}\r\n${head}\r\n${text}`);
    if (log) log(`(${timedOut ? 'request timed out' : 'unparsable request'}) ${response.status} ${error.code ?? ''}`.trim());
  });

  return listenOn(server, port, host).then((actual) => ({
    port: actual,
    close: () => {
      closing = true;
      return connections.close(CLOSE_GRACE_MS);
    },
  }));
}

/**
 * Listens and resolves with the port (the one picked for 0); a port in use, a privileged port or an unknown host is
 * a USAGE KitError that says what to do. Shared with the validating proxy (conformance/proxy/server.ts).
 */
export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE') reject(new KitError('USAGE', `Port ${port} on ${host} is in use. Stop what is using it, or pick another port with --port (0 picks a free one).`));
      else if (error.code === 'EACCES') reject(new KitError('USAGE', `Not allowed to listen on ${host}:${port}; ports below 1024 need privileges. Pick another with --port.`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new KitError('USAGE', `Cannot listen on host ${host}: no such local address. Use --host 127.0.0.1, or an address of this machine.`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

function writeResponse(res: ServerResponse, method: string, response: MockResponse, close: boolean): void {
  if (res.destroyed || res.headersSent) return;
  // Faults (faults.ts): only a transport can break a connection, so the core asks and the adapter does it.
  if (response.fault === 'reset') {
    res.socket?.resetAndDestroy();
    return;
  }
  if (response.fault === 'empty') {
    res.socket?.end();
    return;
  }
  const headers = response.headers;
  // 204 and 304 carry no content, and no Content-Length (RFC 9110 §8.6, §15.3.5, §15.4.5), whatever the document
  // gives them: SendGrid documents 42 of its 204s with a JSON body, and a Content-Length for the body Node then left
  // out made every such answer invalid HTTP/1.1 to its client (undici: "body length does not match").
  if (response.status === 204 || response.status === 304) {
    delete headers['content-length'];
    if (close) headers['connection'] = 'close';
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  // Bytes already kept for this body answer at once: walking a frozen record's keys (isLargeBody) costs V8 about
  // 2 µs, as much as the rest of a read's core (issue 22, point 8). A body that streams never has kept bytes.
  const kept = response.raw === undefined && response.fault === undefined ? keptBytesOf(response.body) : undefined;
  if (kept === undefined && response.raw === undefined && response.fault === undefined && isLargeBody(response.body)) {
    // Without a Content-Length: chunked (RFC 9112 §7.1), written as the client reads it (json-stream.ts).
    if (close) headers['connection'] = 'close';
    res.writeHead(response.status, headers);
    if (method === 'HEAD') res.end();
    else writePieces(res, jsonPieces(response.body));
    return;
  }
  let text: string | Uint8Array | undefined;
  if (response.raw !== undefined) {
    // The docs page and the document (docs.ts): sent as they are.
    text = response.raw;
    headers['content-length'] = String(typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength);
  } else if (kept !== undefined) {
    text = kept;
    headers['content-length'] = String(kept.byteLength);
  } else if (response.body !== undefined) {
    // Keep the text of records a read answers with; they are likely to be read again (json.ts).
    const keep = method === 'GET' || method === 'HEAD';
    text = response.fault === 'malformed' ? truncateJson(encodeJson(response.body, keep)) : encodedBody(response.body, keep);
    headers['content-length'] = String(typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength);
  }
  if (close) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  // HEAD: the same headers as GET, no body (RFC 9110 §9.3.2).
  res.end(method === 'HEAD' ? undefined : text);
}

/**
 * The UTF-8 bytes of a body whose text json.ts keeps (a stored record, a list envelope of a foreign document), encoded
 * once and kept with it: each later answer hands node:http a Buffer, as bare node:http would, instead of a string it
 * must join to the head and encode again (issue 22, point 8). Any other body is written as text, as before.
 */
const keptBytes = new WeakMap<object, Buffer>();
function keptBytesOf(body: unknown): Buffer | undefined {
  return typeof body === 'object' && body !== null ? keptBytes.get(body) : undefined;
}
function encodedBody(body: unknown, keep: boolean): string | Buffer {
  const value = typeof body === 'object' && body !== null ? body : undefined;
  const text = encodeJson(body, keep);
  if (!keep || !value || !hasKeptText(value)) return text;
  const bytes = Buffer.from(text, 'utf8');
  keptBytes.set(value, bytes);
  return bytes;
}

/** Writes each piece while the socket takes it, and waits for 'drain' when it does not (a cut socket never drains: the pieces go with it). */
function writePieces(res: ServerResponse, pieces: Generator<string>): void {
  const pump = (): void => {
    for (let next = pieces.next(); ; next = pieces.next()) {
      if (res.destroyed) return;
      if (next.done) {
        res.end();
        return;
      }
      if (!res.write(next.value)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

/**
 * Reads a request body up to `limit` bytes and hands it on once: the bytes (undefined when empty), or a
 * too-large marker as soon as the limit is passed (the rest is drained, see drainThenClose).
 */
function readBody(req: IncomingMessage, limit: number, then: (body: RequestBody | undefined) => void): void {
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > limit) {
      refused = true;
      first = undefined;
      chunks = undefined;
      then({ kind: 'too-large', limit });
      drainThenClose(req);
      return;
    }
    // Nearly every body arrives in one chunk: keep it without an array.
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (refused) return;
    const bytes = chunks !== undefined ? Buffer.concat(chunks, size) : first;
    then(bytes === undefined || bytes.length === 0 ? undefined : { kind: 'bytes', bytes });
  });
  req.on('error', destroyRequest);
}

/** How many Host field lines a request has: `rawHeaders` keeps every line as sent, names at even indices. */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

function destroyRequest(this: IncomingMessage): void {
  this.destroy();
}

/** Keeps discarding what the client still sends (so it can read the 413), and cuts it off once past a bound. */
function drainThenClose(req: IncomingMessage): void {
  let discarded = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 8 * 1024 * 1024) req.socket.destroy();
  });
  req.resume();
}

/** RFC 9112 §6.3: a request has a body when it says Content-Length > 0 or Transfer-Encoding. */
function mayHaveBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

const EMPTY_QUERY: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * application/x-www-form-urlencoded query parsing into an object without a
 * prototype, so a parameter named `__proto__` is only a name. Text that does
 * not decode (a stray `%`) is kept as sent; the validators then say what is wrong.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  if (text === '') return out;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else if (typeof previous === 'string') out[name] = [previous, value];
    else previous.push(value);
  }
  return out;
}

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
