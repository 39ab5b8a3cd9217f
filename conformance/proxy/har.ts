/**
 * `--record DIR` also writes the session as an HTTP Archive, `DIR/session.har` (HAR 1.2,
 * http://www.softwareishard.com/blog/har-12-spec/): every exchange with its headers, query and bodies, for browser
 * devtools, replay tools and a person reading what happened. Written as the session goes, one entry at a time, so
 * memory does not grow with it; bounded on disk (each body, and the file); credentials redacted as each entry is
 * written, by the redactor that knows its exchange's own (secrets.ts): the header values by name, and every value the
 * session met wherever it is echoed. An entry written before the session learnt a value it holds (a key an answer
 * handed out, sent as a credential later) is scrubbed again when the archive is closed: one entry a line, so the
 * file is read back a line at a time.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { KIT_VERSION } from '../../src/package-info.js';
import { isObject } from '../generate.js';
import { mapLeaves } from '../json.js';
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

/** The redactor an entry is scrubbed by, and how many secrets the session had learnt then (SecretBook.generation). */
export interface HarScrubbing {
  readonly redactor: Redactor;
  readonly generation: number;
}

export class HarWriter {
  private readonly stream: WriteStream;
  private written = 0;
  private entries = 0;
  private skipped = 0;
  private failure: Error | undefined;
  /** The generation of the latest entry, and the index of the first entry written with it (generations only grow). */
  private generation = 0;
  private firstOfGeneration = 0;

  constructor(readonly file: string) {
    this.stream = createWriteStream(file, { flags: 'w' });
    this.stream.on('error', (error) => (this.failure = error));
    this.put(`{"log":{"version":"1.2","creator":{"name":"petstore-kit proxy","version":${JSON.stringify(KIT_VERSION)}},"entries":[\n`);
  }

  /** Writes one entry, scrubbed by `scrub.redactor` (the one that knows this exchange's credentials). */
  add(exchange: HarExchange, scrub: HarScrubbing): void {
    if (this.failure) return;
    if (this.written >= MAX_FILE_BYTES) {
      this.skipped += 1;
      return;
    }
    const text = JSON.stringify(this.entry(exchange, scrub.redactor));
    this.put(`${this.entries === 0 ? '' : ',\n'}${text}`);
    if (scrub.generation > this.generation) {
      this.generation = scrub.generation;
      this.firstOfGeneration = this.entries;
    }
    this.entries += 1;
  }

  /**
   * Ends the archive, then scrubs again, by `scrub.redactor`, the entries written before the session had learnt
   * every secret it knows now; resolves to how many entries it holds, and how many it left out past its size bound.
   */
  async close(scrub: HarScrubbing): Promise<{ entries: number; skipped: number }> {
    const comment = this.skipped > 0 ? `,"comment":${JSON.stringify(`${this.skipped} later exchanges left out: the archive reached ${MAX_FILE_BYTES / 2 ** 20} MiB`)}` : '';
    this.put(`\n]${comment}}}\n`);
    await new Promise<void>((resolve) => this.stream.end(resolve));
    if (this.failure) throw this.failure;
    const stale = scrub.generation > this.generation ? this.entries : this.firstOfGeneration;
    if (stale > 0) await this.rescrub(stale, scrub.redactor);
    return { entries: this.entries, skipped: this.skipped };
  }

  /** Rewrites the first `count` entries (lines 2 to count + 1) scrubbed by `redactor`; the rest is copied as it is. */
  private async rescrub(count: number, redactor: Redactor): Promise<void> {
    const draft = `${this.file}.partial`;
    const out = createWriteStream(draft, { flags: 'w' });
    let failure: Error | undefined;
    out.on('error', (error) => (failure = error));
    let index = -1;
    try {
      for await (const line of createInterface({ input: createReadStream(this.file), crlfDelay: Infinity })) {
        index += 1;
        const entry = index >= 1 && index <= count;
        const comma = entry && line.endsWith(',');
        const text = entry ? `${JSON.stringify(rescrubbed(JSON.parse(comma ? line.slice(0, -1) : line), redactor))}${comma ? ',' : ''}` : line;
        if (!out.write(`${text}\n`)) await new Promise<void>((resolve) => out.once('drain', resolve));
        if (failure) break;
      }
    } finally {
      await new Promise<void>((resolve) => out.end(resolve));
    }
    if (failure) {
      await rm(draft, { force: true });
      throw failure;
    }
    await rename(draft, this.file);
  }

  private put(text: string): void {
    this.written += Buffer.byteLength(text);
    this.stream.write(text);
  }

  private entry(x: HarExchange, redactor: Redactor): Record<string, unknown> {
    const url = urlOf(x.url);
    const requestHeaders = harHeaders(x.requestHeaders, redactor);
    const responseHeaders = harHeaders(x.responseHeaders, redactor);
    const requestType = single(x.requestHeaders['content-type']);
    const responseType = single(x.responseHeaders['content-type']) ?? '';
    return {
      startedDateTime: x.startedAt.toISOString(),
      time: round(x.durationMs),
      request: {
        method: x.method,
        url: redactor.text(url?.href ?? x.url),
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...(url?.searchParams ?? [])].map(([name, value]) => ({ name, value: redactor.text(value) })),
        ...(x.requestBody && x.requestBody.length > 0 ? { postData: { mimeType: requestType ?? '', text: redactor.text(clipped(decodeBody(x.requestBody, single(x.requestHeaders['content-encoding'])) ?? x.requestBody)) } } : {}),
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

/** An entry scrubbed again: every string in it, but a body kept as base64 (never scrubbed as text when written). */
function rescrubbed(entry: unknown, redactor: Redactor): unknown {
  const out = mapLeaves(entry, (leaf) => (typeof leaf === 'string' ? redactor.text(leaf) : leaf));
  const content = (value: unknown): Record<string, unknown> | undefined => {
    const response = isObject(value) ? value['response'] : undefined;
    const inner = isObject(response) ? response['content'] : undefined;
    return isObject(inner) ? inner : undefined;
  };
  const before = content(entry);
  const after = content(out);
  if (before?.['encoding'] === 'base64' && after) after['text'] = before['text'];
  return out;
}

/** The URL an entry was sent to; undefined if it does not parse (the entry keeps the text, with no query list). */
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
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
