/**
 * The request journal: the last requests the mock answered, so a front-end test can assert what the front end
 * SENT (WireMock's request journal, `GET /__admin/requests`, is the model). It is bounded (a ring of the newest
 * entries) so a long-running mock does not grow, and it keeps no header value but the mock's own control headers:
 * an `Authorization` or `Cookie` a front end sends never lands in it.
 *
 *   GET    /__mock/requests[?method=POST&path=/pets&operationId=createPet&session=NAME&limit=N]   newest last
 *   DELETE /__mock/requests                                                                        forget them all
 */
import type { HeaderMap, MockRequest } from './message.js';
import { headerValue } from './message.js';

export const JOURNAL_PATH = '/__mock/requests';
export const JOURNAL_METHODS: readonly string[] = ['GET', 'DELETE'];
/** Enough for a test's whole session of requests; old entries fall off past it. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/** A body larger than this is not kept (its size is): a thousand 1 MiB bodies would hold a gigabyte. */
export const MAX_JOURNAL_BODY_BYTES = 64 * 1024;

/** Headers worth asserting on that carry no secret: the mock's conventions and content negotiation. */
const KEPT_HEADERS = ['content-type', 'accept', 'prefer', 'origin', 'x-mock-session', 'x-mock-now'] as const;

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
  record(request: MockRequest, status: number, operationId: string | undefined, body: unknown): void;
  list(filter: JournalFilter): readonly JournalEntry[];
  clear(): number;
}

export function createJournal(size = DEFAULT_JOURNAL_SIZE): Journal {
  const ring: (JournalEntry | undefined)[] = new Array<JournalEntry | undefined>(size);
  let next = 0;
  let seq = 0;
  let count = 0;

  return {
    record(request, status, operationId, body) {
      seq++;
      const bodyBytes = request.body?.kind === 'bytes' ? request.body.bytes.byteLength : 0;
      const omitted = bodyBytes > MAX_JOURNAL_BODY_BYTES;
      ring[next] = {
        seq,
        method: request.method,
        path: request.path,
        query: request.query,
        ...(operationId !== undefined ? { operationId } : {}),
        headers: keptHeaders(request.headers),
        ...(body !== undefined && !omitted ? { body } : {}),
        ...(omitted ? { bodyBytesOmitted: bodyBytes } : {}),
        status,
      };
      next = (next + 1) % size;
      count = Math.min(count + 1, size);
    },
    list(filter) {
      const out: JournalEntry[] = [];
      for (let i = 0; i < count; i++) {
        const entry = ring[(next - count + i + size) % size];
        if (entry && matches(entry, filter)) out.push(entry);
      }
      return out;
    },
    clear() {
      const cleared = count;
      ring.fill(undefined);
      count = 0;
      next = 0;
      return cleared;
    },
  };
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && entry.path !== filter.path) return false;
  if (filter.operationId !== undefined && entry.operationId !== filter.operationId) return false;
  if (filter.session !== undefined && entry.headers['x-mock-session'] !== filter.session) return false;
  return true;
}

function keptHeaders(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headerValue(headers, name);
    if (value !== undefined) out[name] = value.length > 200 ? `${value.slice(0, 200)}…` : value;
  }
  return out;
}
