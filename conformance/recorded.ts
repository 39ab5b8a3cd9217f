/**
 * What the recorder keeps of each exchange, and whom it was for: the types
 * below the request building (requests/), the run's state (context.ts), the
 * clean-up and the coverage, so none of them imports another to name them.
 */
import type { Operation } from '../src/contract/index.js';
import type { HttpRequest, HttpResult } from './http.js';

export type ExchangeTarget =
  /** `pathValues`: the path parameters as the call gave them, for a link that reads `$request.path` (cleanup.ts). */
  | { readonly kind: 'operation'; readonly operation: Operation; readonly pathValues?: Readonly<Record<string, unknown>> }
  /**
   * A request no operation answers: a path the document lacks, a method a path lacks, or one a server's HTTP layer
   * cannot parse (a malformed request line or chunk), which no document describes an answer for but its errors'.
   */
  | { readonly kind: 'unmatched'; readonly which: 'unknownPath' | 'wrongMethod' | 'unparsable' }
  /** Not a request the document describes (a CORS preflight): no response check applies. */
  | { readonly kind: 'none' };

/** One exchange as the recorder keeps it: who made it, what it was for, and the full result. */
export interface RecordedExchange {
  readonly seq: number;
  readonly checkId: string;
  readonly target: ExchangeTarget;
  readonly method: string;
  /** The path relative to the base URL, without the query (`/pets/12`). */
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  /** The body sent, parsed back from the exact text, when it was JSON. */
  readonly requestJson?: unknown;
  readonly result: HttpResult;
}

/** What sends a request and records it (RunContext): the clean-up sends its own requests through it. */
export interface ExchangeSender {
  send(checkId: string, request: HttpRequest, target: ExchangeTarget): Promise<RecordedExchange>;
}
