/**
 * What a handler gets and gives. A handler maps typed parameters and a
 * validated body to one store call and a status; it never sees HTTP, never
 * builds an Error body (a DomainError goes back to the core, which takes the
 * status from the document's x-error-codes) and never formats a header but
 * the ones its response declares.
 */
import type { DomainError, Store } from '../domain.js';
import type { ParsedParameters } from '../../src/schema/index.js';
import type { OperationId } from '../../src/types.js';
import type { LocationOf } from '../location.js';

export interface HandlerContext {
  readonly store: Store;
  /** Path, query and header parameters, typed by the document's schemas, defaults applied. */
  readonly params: ParsedParameters;
  /** The request body, validated against the operation's schema (or guarded, with --validation warn|off). */
  readonly body: unknown;
  /** The created resource's URL path, from the 201 response's links; only for operations that answer 201. */
  readonly location: LocationOf;
}

export type HandlerResult =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly error: DomainError };

export type Handler = (context: HandlerContext) => HandlerResult;

/** Exactly one handler per operationId of the document: the compiler checks the generated ids, start-up checks the loaded document. */
export type HandlerTable = { readonly [K in OperationId]: Handler };
