/**
 * The request journal: the last requests the mock answered, so a front-end test can assert what the front end
 * SENT (WireMock's request journal, `GET /__admin/requests`, is the model). It is bounded (a ring of the newest
 * entries) so a long-running mock does not grow, and it keeps no header value but the mock's own control headers:
 * an `Authorization` or `Cookie` a front end sends never lands in it.
 *
 *   GET    /__mock/requests[?method=POST&path=/pets&operationId=createPet&session=NAME&limit=N]   newest last
 *   DELETE /__mock/requests                                                                        forget them all
 *
 * Why the ring holds bytes, not entry objects: every request is recorded, and an entry object (with the path,
 * the kept header values and the parsed body it points to) lives for the next thousand requests, so it outlives
 * the young generation and V8 copies it into the old one: that promotion cost POST /pets about 1.2 µs and
 * GET /pets/{petId} about 0.9 µs a request, a tenth of bare node:http's whole request (bench/README.md, issue 14).
 * So a request's path, kept headers and body bytes are copied into a slot of one preallocated byte array, and
 * an entry is built only when somebody lists the journal. What does not fit a slot (a long path, a large body, a
 * body an adapter had already parsed) is kept as an entry object, as before: rare, and never on the hot path.
 * Browser-safe: no Node module (MSW's worker bundles the core).
 */
import type { HeaderMap, MockRequest } from '../engine/message.js';
import { headerValue } from '../engine/message.js';

export const JOURNAL_PATH = '/__mock/requests';
export const JOURNAL_METHODS: readonly string[] = ['GET', 'DELETE'];
/** Enough for a test's whole session of requests; old entries fall off past it. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** A body larger than this is not kept (its size is): a thousand 1 MiB bodies would hold a gigabyte. */
export const MAX_JOURNAL_BODY_BYTES = 64 * 1024;

/** Headers worth asserting on that carry no secret: the mock's conventions and content negotiation (fitInSlot writes them in this order by name). */
const KEPT_HEADERS = ['content-type', 'accept', 'prefer', 'origin', 'x-mock-session', 'x-mock-now'] as const;
/** A kept header value is cut to this many characters (and marked with …). */
const MAX_HEADER_CHARS = 200;

/** Bytes per slot: a path, a few header values and a small JSON body; 1000 slots make 1 MiB. */
const SLOT_BYTES = 1024;
/** A length field's value for "absent". */
const ABSENT = 0xffff;

export interface JournalEntry {
  /** 1, 2, 3… in arrival order; unchanged by a clear, so a test can ask "since entry N". */
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** The matched operation, when the path and method matched one. */
  readonly operationId?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body as parsed, when there was one and it was JSON (and at most MAX_JOURNAL_BODY_BYTES). */
  readonly body?: unknown;
  /** The size of a body too large to keep. */
  readonly bodyBytesOmitted?: number;
  readonly status: number;
}

export interface JournalFilter {
  readonly method?: string;
  readonly path?: string;
  readonly operationId?: string;
  readonly session?: string;
}

export interface Journal {
  /**
   * `bodyRead`: the core read the request's body as JSON (an operation that takes one, valid JSON); the entry then
   * shows that body, parsed again from the same bytes when the journal is listed.
   */
  record(request: MockRequest, status: number, operationId: string | undefined, bodyRead: boolean): void;
  list(filter: JournalFilter): readonly JournalEntry[];
  clear(): number;
}

const encoder = new TextEncoder();
// The same decoding the core applied to the body (body.ts): UTF-8, a leading BOM dropped.
const decoder = new TextDecoder('utf-8');
// Paths and header values come back exactly as written, a leading U+FEFF included.
const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function createJournal(size = DEFAULT_JOURNAL_SIZE): Journal {
  const bytes = new Uint8Array(size * SLOT_BYTES);
  const seqs = new Float64Array(size);
  const statuses = new Uint16Array(size);
  // References to strings and objects the request already holds: the method and operationId are the same few
  // strings every time, and the query is one shared empty object unless the request had a query.
  const methods: (string | undefined)[] = new Array<string | undefined>(size).fill(undefined);
  const operationIds: (string | undefined)[] = new Array<string | undefined>(size).fill(undefined);
  const queries: (MockRequest['query'] | undefined)[] = new Array<MockRequest['query'] | undefined>(size).fill(undefined);
  /** The slots whose entry did not fit their bytes, kept whole. */
  const whole: (JournalEntry | undefined)[] = new Array<JournalEntry | undefined>(size).fill(undefined);
  let next = 0;
  let seq = 0;
  let count = 0;

  /** Writes `text` at `at` as a 2-byte length and UTF-8; the position after it, or -1 when it does not fit before `end`. */
  const writeText = (text: string, at: number, end: number): number => {
    if (at + 2 + text.length > end) return -1;
    // ASCII, nearly every path and header value: a plain loop beats encodeInto's call for a few dozen characters.
    let i = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      bytes[at + 2 + i] = code;
    }
    let length = i;
    if (i < text.length) {
      const { read, written } = encoder.encodeInto(text.slice(i), bytes.subarray(at + 2 + i, end));
      if (read !== text.length - i) return -1;
      length += written;
    }
    if (length >= ABSENT) return -1;
    bytes[at] = length >> 8;
    bytes[at + 1] = length & 0xff;
    return at + 2 + length;
  };

  /** A kept header's value (its first, when repeated) written at `at`, or ABSENT; -1 passed on, or when it does not fit. */
  const writeHeader = (field: string | readonly string[] | undefined, at: number, end: number): number => {
    if (at < 0) return -1;
    const value = typeof field === 'string' || field === undefined ? field : field[0];
    if (value !== undefined) return writeText(clipHeader(value), at, end);
    if (at + 2 > end) return -1;
    bytes[at] = ABSENT >> 8;
    bytes[at + 1] = ABSENT & 0xff;
    return at + 2;
  };

  const readLength = (at: number): number => (bytes[at]! << 8) | bytes[at + 1]!;

  const fitInSlot = (slot: number, request: MockRequest, bodyRead: boolean): boolean => {
    const end = (slot + 1) * SLOT_BYTES;
    const headers = request.headers;
    let at = writeText(request.path, slot * SLOT_BYTES, end);
    // In KEPT_HEADERS' order, each read by its own name: a load of a name written out is a cheap one, where a loop
    // over the names made one lookup site for six names (headerValue: 4% of a GET /pets/{petId} in process).
    at = writeHeader(headers['content-type'], at, end);
    at = writeHeader(headers['accept'], at, end);
    at = writeHeader(headers['prefer'], at, end);
    at = writeHeader(headers['origin'], at, end);
    at = writeHeader(headers['x-mock-session'], at, end);
    at = writeHeader(headers['x-mock-now'], at, end);
    if (at < 0 || at + 4 > end) return false;
    const body = request.body;
    // A body too large to keep is named by its size, whether or not it was read: the whole entry says so.
    if (body?.kind === 'bytes' && body.bytes.byteLength > MAX_JOURNAL_BODY_BYTES) return false;
    // A body an adapter had already parsed (MSW) has no bytes to copy: the whole entry keeps the value.
    if (bodyRead && body?.kind === 'json') return false;
    if (!bodyRead || body?.kind !== 'bytes') {
      bytes[at] = bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0xff;
      return true;
    }
    if (at + 4 + body.bytes.byteLength > end) return false;
    const length = body.bytes.byteLength;
    bytes[at] = length >>> 24;
    bytes[at + 1] = (length >>> 16) & 0xff;
    bytes[at + 2] = (length >>> 8) & 0xff;
    bytes[at + 3] = length & 0xff;
    bytes.set(body.bytes, at + 4);
    return true;
  };

  const readSlot = (slot: number): JournalEntry => {
    const kept = whole[slot];
    if (kept) return kept;
    let at = slot * SLOT_BYTES;
    const readText = (): string | undefined => {
      const length = readLength(at);
      at += 2;
      if (length === ABSENT) return undefined;
      const text = textDecoder.decode(bytes.subarray(at, at + length));
      at += length;
      return text;
    };
    const path = readText()!;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = readText();
      if (value !== undefined) headers[name] = value;
    }
    const bodyLength = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    const body = bodyLength === 0xffffffff ? undefined : parseBody(bytes.subarray(at + 4, at + 4 + bodyLength));
    const operationId = operationIds[slot];
    return {
      seq: seqs[slot]!,
      method: methods[slot]!,
      path,
      query: queries[slot]!,
      ...(operationId !== undefined ? { operationId } : {}),
      headers,
      ...(body !== undefined ? { body } : {}),
      status: statuses[slot]!,
    };
  };

  return {
    record(request, status, operationId, bodyRead) {
      seq++;
      const slot = next;
      seqs[slot] = seq;
      statuses[slot] = status;
      methods[slot] = request.method;
      operationIds[slot] = operationId;
      queries[slot] = request.query;
      whole[slot] = fitInSlot(slot, request, bodyRead) ? undefined : wholeEntry(seq, request, status, operationId, bodyRead);
      next = (next + 1) % size;
      count = Math.min(count + 1, size);
    },
    list(filter) {
      const out: JournalEntry[] = [];
      for (let i = 0; i < count; i++) {
        const slot = (next - count + i + size) % size;
        // The cheap fields first: most filters are by operation or method.
        if (filter.method !== undefined && methods[slot] !== filter.method.toUpperCase()) continue;
        if (filter.operationId !== undefined && operationIds[slot] !== filter.operationId) continue;
        const entry = readSlot(slot);
        if (matches(entry, filter)) out.push(entry);
      }
      return out;
    },
    clear() {
      const cleared = count;
      whole.fill(undefined);
      methods.fill(undefined);
      operationIds.fill(undefined);
      queries.fill(undefined);
      count = 0;
      next = 0;
      return cleared;
    },
  };
}

/** An entry that did not fit its slot, built whole now (the journal's only retained objects). */
function wholeEntry(seq: number, request: MockRequest, status: number, operationId: string | undefined, bodyRead: boolean): JournalEntry {
  const body = request.body;
  const bodyBytes = body?.kind === 'bytes' ? body.bytes.byteLength : 0;
  const omitted = bodyBytes > MAX_JOURNAL_BODY_BYTES;
  const value = !bodyRead || omitted ? undefined : body?.kind === 'json' ? body.value : body?.kind === 'bytes' ? parseBody(body.bytes) : undefined;
  return {
    seq,
    method: request.method,
    path: request.path,
    query: request.query,
    ...(operationId !== undefined ? { operationId } : {}),
    headers: keptHeaders(request.headers),
    ...(value !== undefined ? { body: value } : {}),
    ...(omitted ? { bodyBytesOmitted: bodyBytes } : {}),
    status,
  };
}

/** The body as the core parsed it: it was valid JSON when recorded (bodyRead), so this only repeats that parse. */
function parseBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && entry.path !== filter.path) return false;
  if (filter.operationId !== undefined && entry.operationId !== filter.operationId) return false;
  if (filter.session !== undefined && entry.headers['x-mock-session'] !== filter.session) return false;
  return true;
}

function clipHeader(value: string): string {
  return value.length > MAX_HEADER_CHARS ? `${value.slice(0, MAX_HEADER_CHARS)}…` : value;
}

function keptHeaders(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headerValue(headers, name);
    if (value !== undefined) out[name] = clipHeader(value);
  }
  return out;
}
