/**
 * One HTTP/1.1 exchange written byte for byte on its own connection, for the
 * requests an HTTP client library will not send or will not read honestly:
 * a request line or chunked body that is malformed on purpose, a method any
 * token may name, a header block larger than servers take, and HEAD, whose
 * answer must have no body (RFC 9110 §9.3.2) while a client that trusts the
 * framing never sees one that does. `Connection: close` is asked for, so
 * the answer ends with the connection (RFC 9112 §9.6); it is also taken as
 * complete once its own framing says so. Used by http.ts (HttpClient.sendRaw),
 * which applies the run's limits, budget and redaction to it.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface RawAnswer {
  readonly status: number;
  /** Lower-case names; repeated fields joined with ", " (RFC 9110 §5.3). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, with its chunked framing removed; for HEAD, every byte that came after the header block. */
  readonly body: Buffer;
  /** The bytes read after the header block before the cap, as they came. */
  readonly bodyBytes: number;
  readonly truncated: boolean;
}

export type RawOutcome = { readonly ok: true; readonly answer: RawAnswer } | { readonly ok: false; readonly code: string; readonly message: string };

export interface RawOptions {
  readonly timeoutMs: number;
  /** Bytes read at most (head and body); the rest is not waited for. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  /** HEAD: the answer ends with its header block; bytes after it are a body it must not have. */
  readonly head: boolean;
}

/** Sends `wire` to the URL's host and reads one answer. Never throws. */
export function exchangeRaw(url: URL, wire: Buffer, options: RawOptions): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket: Socket = url.protocol === 'https:' ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const fromBytes = (truncated: boolean): RawOutcome => {
      const parsed = parseAnswer(Buffer.concat(chunks), options.head, truncated);
      return parsed ?? { ok: false, code: 'NO_ANSWER', message: size === 0 ? 'the target closed the connection without an answer' : 'the target answered something that is not an HTTP/1.1 status line and headers' };
    };
    const timer = setTimeout(() => finish(size > 0 ? fromBytes(false) : { ok: false, code: 'TIMEOUT', message: `no answer within ${options.timeoutMs} ms (--timeout)` }), options.timeoutMs);
    const onAbort = (): void => finish({ ok: false, code: 'ABORTED', message: 'interrupted' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // Written, not ended: a server may take a half-closed connection as a client gone and drop a slow answer;
    // `Connection: close` is what ends it, from the server's side.
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(wire));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= options.maxBytes) return finish(fromBytes(true));
      // Complete by its own framing: no need to wait for a server that keeps the connection open after all.
      const parsed = parseAnswer(Buffer.concat(chunks), options.head, false, true);
      if (parsed) finish(parsed);
    });
    socket.once('end', () => finish(fromBytes(false)));
    socket.once('close', () => finish(fromBytes(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // A server may reset the connection right after its answer to a request it refused: the answer still counts.
      if (size > 0) return finish(fromBytes(false));
      finish({ ok: false, code: error.code === 'ECONNREFUSED' ? 'ECONNREFUSED' : 'ECONNRESET', message: `${error.code ?? 'socket error'}: ${error.message}` });
    });
  });
}

/**
 * The answer in `bytes`, or undefined when there is no status line and header block yet (or, with `complete`, when
 * the body its framing announces has not all arrived). A HEAD answer ends with its headers; any byte after them is
 * reported as its body.
 */
export function parseAnswer(bytes: Buffer, head: boolean, truncated: boolean, complete = false): RawOutcome | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status) return complete ? undefined : { ok: false, code: 'NOT_HTTP', message: `the answer does not start with an HTTP/1.1 status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}` };
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = bytes.subarray(end + 4);
  const code = Number(status[1]);
  const noBody = head || code === 204 || code === 304 || (code >= 100 && code < 200);
  if (noBody) {
    // Wait a moment for bytes a HEAD answer must not have: only the connection's end says there are none.
    if (complete && head) return undefined;
    return { ok: true, answer: { status: code, headers, body: rest, bodyBytes: rest.length, truncated } };
  }
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = dechunk(rest);
    if (complete && !decoded.done) return undefined;
    return { ok: true, answer: { status: code, headers, body: decoded.body, bodyBytes: rest.length, truncated } };
  }
  const length = headers['content-length'] !== undefined ? Number(headers['content-length']) : undefined;
  if (length !== undefined && Number.isSafeInteger(length)) {
    if (complete && rest.length < length) return undefined;
    return { ok: true, answer: { status: code, headers, body: rest.subarray(0, length), bodyBytes: rest.length, truncated } };
  }
  // Delimited by the connection's end (RFC 9112 §6.3, point 8).
  if (complete) return undefined;
  return { ok: true, answer: { status: code, headers, body: rest, bodyBytes: rest.length, truncated } };
}

/** A chunked body decoded as far as it goes (RFC 9112 §7.1); `done` once the last chunk came. */
function dechunk(bytes: Buffer): { body: Buffer; done: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), done: false };
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(parts), done: false };
    if (size === 0) return { body: Buffer.concat(parts), done: true };
    const start = lineEnd + 2;
    if (bytes.length < start + size) return { body: Buffer.concat([...parts, bytes.subarray(start)]), done: false };
    parts.push(bytes.subarray(start, start + size));
    at = start + size + 2;
  }
}
