/**
 * `--record DIR` also writes the session as an HTTP Archive, `DIR/session.har` (HAR 1.2,
 * http://www.softwareishard.com/blog/har-12-spec/): every exchange with its headers, query and bodies, for browser
 * devtools, replay tools and a person reading what happened. Written as the session goes, one entry at a time, so
 * memory does not grow with it; bounded on disk (each body, and the file); credentials redacted (secrets.ts): the
 * header values by name, and every value the session met wherever it is echoed.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { KIT_VERSION } from '../../src/package-info.js';
import type { Redactor } from '../reporters/index.js';
import { decodeBody } from './body-coding.js';

/** A body is kept up to this many bytes in the archive; a larger one is cut there, and the entry says so. */
const MAX_BODY_BYTES = 256 * 1024;
/** The archive stops taking entries past this size (counted instead, and said in its last comment). */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface HarExchange {
  readonly startedAt: Date;
  readonly method: string;
  /** The URL sent to (the target's, or the fallback mock's). */
  readonly url: string;
  readonly requestHeaders: Headers;
  readonly requestBody?: Buffer;
  readonly status: number;
  readonly statusText?: string;
  readonly responseHeaders: Headers;
  readonly responseBody: Buffer;
  readonly responseBytes: number;
  readonly responseTruncated: boolean;
  readonly durationMs: number;
  /** Why the entry is not the target's plain answer (the fallback mock's, or the proxy's own). */
  readonly comment?: string;
}

export class HarWriter {
  private readonly stream: WriteStream;
  private written = 0;
  private entries = 0;
  private skipped = 0;
  private failure: Error | undefined;

  constructor(
    readonly file: string,
    private readonly redactor: () => Redactor,
  ) {
    this.stream = createWriteStream(file, { flags: 'w' });
    this.stream.on('error', (error) => (this.failure = error));
    this.put(`{"log":{"version":"1.2","creator":{"name":"petstore-kit proxy","version":${JSON.stringify(KIT_VERSION)}},"entries":[\n`);
  }

  add(exchange: HarExchange): void {
    if (this.failure) return;
    if (this.written >= MAX_FILE_BYTES) {
      this.skipped += 1;
      return;
    }
    const text = JSON.stringify(this.entry(exchange));
    this.put(`${this.entries === 0 ? '' : ',\n'}${text}`);
    this.entries += 1;
  }

  /** Ends the archive; resolves to how many entries it holds, and how many it left out past its size bound. */
  async close(): Promise<{ entries: number; skipped: number }> {
    const comment = this.skipped > 0 ? `,"comment":${JSON.stringify(`${this.skipped} later exchanges left out: the archive reached ${MAX_FILE_BYTES / 2 ** 20} MiB`)}` : '';
    this.put(`\n]${comment}}}\n`);
    await new Promise<void>((resolve) => this.stream.end(resolve));
    if (this.failure) throw this.failure;
    return { entries: this.entries, skipped: this.skipped };
  }

  private put(text: string): void {
    this.written += Buffer.byteLength(text);
    this.stream.write(text);
  }

  private entry(x: HarExchange): Record<string, unknown> {
    const redactor = this.redactor();
    const url = new URL(x.url);
    const requestHeaders = harHeaders(x.requestHeaders, redactor);
    const responseHeaders = harHeaders(x.responseHeaders, redactor);
    const requestType = single(x.requestHeaders['content-type']);
    const responseType = single(x.responseHeaders['content-type']) ?? '';
    return {
      startedDateTime: x.startedAt.toISOString(),
      time: round(x.durationMs),
      request: {
        method: x.method,
        url: redactor.text(url.href),
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value: redactor.text(value) })),
        ...(x.requestBody && x.requestBody.length > 0 ? { postData: { mimeType: requestType ?? '', text: redactor.text(clipped(x.requestBody)) } } : {}),
        headersSize: -1,
        bodySize: x.requestBody?.length ?? 0,
      },
      response: {
        status: x.status,
        statusText: x.statusText ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: responseHeaders,
        content: content(x, responseType, redactor),
        redirectURL: single(x.responseHeaders['location']) ?? '',
        headersSize: -1,
        bodySize: x.responseBytes,
      },
      cache: {},
      timings: { send: 0, wait: round(x.durationMs), receive: 0 },
      ...(x.comment ? { comment: x.comment } : {}),
    };
  }
}

/** The answer's content as HAR wants it: decoded text (base64 when it is not text), cut at the bound with a comment. */
function content(x: HarExchange, mimeType: string, redactor: Redactor): Record<string, unknown> {
  const decoded = decodeBody(x.responseBody, single(x.responseHeaders['content-encoding']));
  const cut = x.responseTruncated || (decoded !== undefined && decoded.length > MAX_BODY_BYTES);
  const note = cut ? { comment: `the body is cut at ${Math.min(decoded?.length ?? 0, MAX_BODY_BYTES)} bytes of ${x.responseBytes} sent (encoded)` } : {};
  if (decoded === undefined) return { size: x.responseBytes, mimeType, comment: 'the body does not decode as its Content-Encoding says' };
  const bytes = decoded.subarray(0, MAX_BODY_BYTES);
  const textual = /^(text\/|application\/([a-z0-9.+-]+\+)?(json|xml|javascript|x-www-form-urlencoded))/i.test(mimeType) || mimeType === '';
  return textual ? { size: decoded.length, mimeType, text: redactor.text(bytes.toString('utf8')), ...note } : { size: decoded.length, mimeType, text: bytes.toString('base64'), encoding: 'base64', ...note };
}

function harHeaders(headers: Headers, redactor: Redactor): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const item of typeof value === 'string' ? [value] : value) out.push({ name, value: redactor.headers({ [name]: item })[name]! });
  }
  return out;
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value[0];
}

function clipped(bytes: Buffer): string {
  return bytes.subarray(0, MAX_BODY_BYTES).toString('utf8');
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
