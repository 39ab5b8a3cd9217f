/**
 * The node:http adapter around the transport-free core (app.ts): it turns an
 * IncomingMessage into a MockRequest and a MockResponse into one writeHead and
 * one end, with no WHATWG Request/Response objects on the way (they cost
 * throughput: issue 5). It also owns what only a transport can do: the body
 * cap while reading, `Prefer: delay` without blocking, requests node:http
 * cannot parse, timeouts, and a graceful close.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadContract } from '../src/contract/index.js';
import { KitError } from '../src/kit-error.js';
import { DEFAULT_FIXTURES_DIR, DEFAULT_SPEC_PATH } from '../src/package-info.js';
import { compileContract } from '../src/schema/index.js';
import { createMockApp, type MockApp, type ValidationMode } from './app.js';
import type { StoreSnapshot } from './domain.js';
import { encodeJson } from './json.js';
import { formatRequestLine } from './log.js';
import type { MockRequest, MockResponse, RequestBody } from './message.js';
import { EMPTY_SNAPSHOT, generateSnapshot, loadFixtures } from './seed.js';
import { createStoreRegistry, DEFAULT_MAX_SESSIONS } from './store.js';

export interface MockOptions {
  /** Default 4010; 0 picks a free port (see RunningMock.port). */
  readonly port?: number;
  /** Default 127.0.0.1, which keeps the mock off the network. */
  readonly host?: string;
  /** The OpenAPI document; the bundled openapi.yaml by default. */
  readonly specPath?: string;
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
  /** No log line per request. */
  readonly quiet?: boolean;
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

/** How long close() waits for in-flight requests before cutting the sockets. */
const CLOSE_GRACE_MS = 12_000;

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const contract = await loadContract(options.specPath ?? DEFAULT_SPEC_PATH);
  const compiled = compileContract(contract);
  const initial = await initialData(options, compiled);
  const log = options.quiet ? undefined : (options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const registry = createStoreRegistry(initial, {
    maxSessions,
    onDrop: (session) => log?.(`session ${session} dropped: the least recently used of ${maxSessions} (--max-sessions); its next request starts from the initial data`),
  });
  const app = createMockApp({
    compiled,
    registry,
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
    ...(options.validation !== undefined ? { validation: options.validation } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    notes: !options.quiet,
  });
  const host = options.host ?? '127.0.0.1';
  const served = await serve(app, { port: options.port ?? 4010, host, ...(log ? { log } : {}) });
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${served.port}`, port: served.port, app, close: served.close };
}

async function initialData(options: MockOptions, compiled: Parameters<typeof loadFixtures>[1]): Promise<StoreSnapshot> {
  if (options.seed !== undefined) return await generateSnapshot(options.seed, options.pets ?? 20);
  if (options.fixtures === 'none') return EMPTY_SNAPSHOT;
  return loadFixtures(options.fixtures ?? DEFAULT_FIXTURES_DIR, compiled);
}

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly log?: (line: string) => void;
}

/** Listens with `app` and resolves once it serves; a port in use is a KitError that says what to do. */
export function serve(app: MockApp, { port, host, log }: ServeOptions): Promise<{ port: number; close(): Promise<void> }> {
  let closing = false;
  let inFlight = 0;
  // One listener shared by every response rather than a closure per request ('close' fires once per response).
  const settled = (): void => {
    inFlight--;
  };

  const server: Server = createServer(
    {
      // Node's default of 16 KiB would refuse a long URL before the router sees it, without the
      // operation's headers (getPet's Deprecation); 64 KiB lets such URLs reach the core.
      maxHeaderSize: MAX_HEADER_BYTES,
      // Slow or stalled clients cannot hold a connection forever (slowloris); a large import still has time.
      headersTimeout: 10_000,
      requestTimeout: 60_000,
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      inFlight++;
      res.on('close', settled);
      onRequest(req, res);
    },
  );

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = log ? performance.now() : 0;
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const query = mark === -1 ? EMPTY_QUERY : parseQuery(url.slice(mark + 1));

    const dispatch = (body: RequestBody | undefined, closeAfter: boolean): void => {
      const request: MockRequest = { method, path, query, headers: req.headers, body };
      let response: MockResponse;
      try {
        response = app.handle(request);
      } catch (error) {
        response = app.internalError();
        log?.(`${method} ${path}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
      const write = (): void => {
        writeResponse(res, method, response, closeAfter || closing);
        if (log) log(formatRequestLine(method, path, response.status, performance.now() - started, response.notes));
      };
      if (response.delayMs) {
        // A timer, not a busy wait: other requests go on meanwhile. Skipped if the client has gone.
        const timer = setTimeout(() => {
          if (!res.destroyed) write();
        }, response.delayMs);
        res.once('close', () => clearTimeout(timer));
      } else {
        write();
      }
    };

    if (!mayHaveBody(req)) {
      dispatch(undefined, false);
      return;
    }
    const limit = app.bodyLimit(path);
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      // Known too large before a byte is read: answer at once and close, rather than read what will be refused.
      dispatch({ kind: 'too-large', limit }, true);
      drainThenClose(req);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        dispatch({ kind: 'too-large', limit }, true);
        drainThenClose(req);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      dispatch(bytes.length === 0 ? undefined : { kind: 'bytes', bytes }, false);
    });
    req.on('error', () => req.destroy());
  };

  // A request node:http cannot parse never reaches onRequest; answer it in the Error shape all the same.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or a client too slow to send its request (headersTimeout/requestTimeout) gets no answer: nobody would read it.
    if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
      socket.destroy();
      return;
    }
    const message =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? `The request line and headers are longer than the ${MAX_HEADER_BYTES / 1024} KiB the mock reads; shorten the URL (ask for fewer ids at once) or the headers.`
        : `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'}); check the request line and headers.`;
    const response = app.unparsableRequest(message);
    const text = JSON.stringify(response.body);
    const head = Object.entries({ ...response.headers, 'content-length': String(Buffer.byteLength(text)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${response.status} Bad Request\r\n${head}\r\n${text}`);
    if (log) log(`(unparsable request) ${response.status} ${error.code ?? ''}`.trim());
  });

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
      const actual = typeof address === 'object' && address !== null ? address.port : port;
      resolve({
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            if (closing) {
              server.once('close', () => done());
              return;
            }
            closing = true;
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            server.close(() => {
              clearTimeout(force);
              done();
            });
            // Idle keep-alive sockets would otherwise hold close() open until their timeout.
            server.closeIdleConnections();
            if (inFlight === 0) server.closeAllConnections();
          }),
      });
    });
  });
}

function writeResponse(res: ServerResponse, method: string, response: MockResponse, close: boolean): void {
  if (res.destroyed || res.headersSent) return;
  const headers = response.headers;
  let text: string | undefined;
  if (response.body !== undefined) {
    // Keep the text of records a read answers with; they are likely to be read again (json.ts).
    text = encodeJson(response.body, method === 'GET' || method === 'HEAD');
    headers['content-length'] = String(Buffer.byteLength(text));
  }
  if (close) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  // HEAD: the same headers as GET, no body (RFC 9110 §9.3.2).
  res.end(method === 'HEAD' ? undefined : text);
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
function parseQuery(text: string): Record<string, string | string[]> {
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
