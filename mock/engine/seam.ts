/**
 * The seam between the transport-free core (app.ts) and what answers an operation: the generic engine over any
 * document's resources, the Pet Store's with its rule file (issues 22 and 34). The core validates, picks the session
 * and calls one BoundHandler; it never knows which store is behind it.
 */
import type { Operation } from '../../src/contract/index.js';
import type { ParsedParameters } from '../../src/schema/index.js';
import type { Admin } from '../admin/admin.js';
import type { AdminAccessSettings } from '../admin/access.js';
import type { ApiErrorCode } from '../../src/api-error-codes.js';
import type { SessionDropReason } from '../conveniences/session.js';
import type { ErrorFactory } from './errors.js';
import type { LocationOf } from './location.js';
import type { MockResponse } from './message.js';
import type { GenericState } from './store.js';

export interface OperationInput {
  /** The `X-Mock-Session` name, or undefined for the default store. */
  readonly session: string | undefined;
  readonly params: ParsedParameters;
  /** The path's parameters as sent: a foreign document may leave one undeclared (`/app/{app_id}` with no parameter). */
  readonly pathParams: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly location: LocationOf;
}

/** A rule refused the change. The HTTP status comes from the document's error codes, not from here. */
export interface DomainError {
  readonly code: ApiErrorCode;
  readonly message: string;
}

/** What an operation answers: a status with its body and headers, or an error the core words from the document. */
export type HandlerResult =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly error: DomainError };

export type BoundHandler = (input: OperationInput) => HandlerResult;

/**
 * The data of a generic engine handed to the next one when `--watch` reloads the document (watch.ts): the default
 * store's records and each session's, by collection and scope, as `GET /__mock/state` exports them.
 */
export interface CarriedData {
  readonly stores: readonly { readonly session?: string; readonly state: GenericState }[];
}

/**
 * One way a fixture record, as its file has it, breaks its collection's record schema (before the engine fits it): what
 * a reloaded document must not add to (watch.ts). `pointer` is inside the record (`/name`).
 */
export interface FixtureProblem {
  readonly file: string;
  readonly index: number;
  /** The record's id field and its value, where it has one: how the log names the record. */
  readonly id?: { readonly field: string; readonly value: unknown };
  /** The record schema's name in the document's components, where it has one. */
  readonly schema?: string;
  readonly pointer: string;
  readonly keyword: string;
  readonly message: string;
}

/** Whether the engine kept the data it was handed (CarriedData), and if not, why: said in the reload's log line. */
export interface CarriedVerdict {
  readonly kept: boolean;
  readonly why?: string;
}

/** What answers a document's operations, besides the core: the handlers, the errors' shape, sessions, the admin surface. */
export interface MockEngine {
  readonly handlers: ReadonlyMap<string, BoundHandler>;
  readonly errors: ErrorFactory;
  /** Why a session was dropped, once, after it started afresh (registry.ts). */
  dropNotice(session: string): SessionDropReason | undefined;
  admin(settings: { readonly errors: ErrorFactory; readonly kitVersion: string; readonly access?: AdminAccessSettings }): Admin;
  /** Checks an operation's answer against the document before it leaves, and fits what it can (the generic engine). */
  conform?(operation: Operation, response: MockResponse, accept?: string): MockResponse;
  /** Starts what the engine does in the background (the generic engine's proof sweep), once the server listens. */
  startBackground?(): void;
  /** Stops what the engine does in the background (the generic engine's proof sweep): the mock closes, or is replaced. */
  close?(): void;
  /**
   * What a forced Error (`Prefer: code=`) of `code` says about record `id`, from the session's real records (the stated
   * rule whose answer has that code), or undefined to keep the example's words with the id put in (examples.ts).
   */
  forcedMessage?(session: string | undefined, code: string, id: number, status: number): string | undefined;
  /** Back to the initial data: every store, or one session's (MSW's reset(); /__mock/reset is the admin's). */
  reset?(session?: string): void;
  /** Its data, for the engine of a reloaded document (watch.ts). */
  carry?(): CarriedData;
  /** What became of the data it was handed at its start, when it was handed any. */
  readonly carried?: CarriedVerdict;
  /** How the `--fixtures DIR` records break this document's record schemas as they are (top-level collections). */
  fixtureProblems?(): readonly FixtureProblem[];
}
