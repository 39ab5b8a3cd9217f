/**
 * Code where a statement will not do (issue 34, point 3): a behaviour module (`--behaviour rules.mjs`, or `behaviour:`
 * in the overlay file) with hooks run before and after each operation of a document the generic engine serves. A hook
 * sees the request, the session's store and, after, the answer; it may answer instead (a refusal, a computed answer)
 * or change the store. It runs inside the store's transaction: an answer of 400 or more, or a hook that throws, undoes
 * every write of the request (a hook that throws is the core's 500 INTERNAL_ERROR with its message in the log, never a
 * crash). Every answer still passes the answer guard (answer-guard.ts): a hook cannot send what the document forbids.
 *
 * The types are the package's (`petstore-kit/behaviour`); `defineBehaviour` only types a module's default export.
 */
import type { ParsedParameters } from '../../src/schema/index.js';

/** The request as a hook sees it: typed parameters and the validated body. */
export interface HookRequest {
  readonly operationId: string;
  /** Upper case: `POST`. */
  readonly method: string;
  /** The operation's path template: `/orders/{orderId}`. */
  readonly path: string;
  readonly params: ParsedParameters;
  readonly body: unknown;
  /** The `X-Mock-Session` name, or undefined for the default store. */
  readonly session: string | undefined;
}

/** An answer: what a hook returns to answer instead, and what `after` is shown. */
export interface HookAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The session's records, by collection path (`/orders`, as `GET /__mock/resources` lists them) and, for a collection
 * under another record, the parent ids joined by `/` (`scope`, `''` at the top). Writes are part of the request's
 * transaction. Records are frozen: to change one, put a new one.
 */
export interface HookStore {
  list(collection: string, scope?: string): readonly Readonly<Record<string, unknown>>[];
  get(collection: string, id: string | number, scope?: string): Readonly<Record<string, unknown>> | undefined;
  put(collection: string, id: string | number, record: Readonly<Record<string, unknown>>, scope?: string): void;
  remove(collection: string, id: string | number, scope?: string): boolean;
}

/** What a hook returns: an answer to send instead, or nothing to go on. */
export type HookResult = HookAnswer | undefined | void;

export interface Hooks {
  /** Before the operation: return an answer to send it instead (the operation does not run). */
  before?(request: HookRequest, store: HookStore): HookResult;
  /** After the operation: return an answer to send instead of `answer`. */
  after?(request: HookRequest, store: HookStore, answer: HookAnswer): HookResult;
}

/** A behaviour module's default export: hooks for every operation, and hooks by operationId (run after those). */
export interface Behaviour extends Hooks {
  readonly operations?: Readonly<Record<string, Hooks>>;
  /**
   * Runs on every state the mock takes whole, before it serves it: the initial data (fixtures, examples or generated
   * records) and each import (`PUT /__mock/state`). It completes what such a state leaves out (a field derived from
   * another record, which an export omits); a state it throws on is refused, nothing changed. `context.source` says
   * where the state came from, and `context.refuse` refuses it naming a record: the user's fixtures file and the place
   * in it (FIXTURES_INVALID), or the place in an import's body (400 VALIDATION_FAILED).
   */
  load?(store: HookStore, context: LoadContext): void;
}

/**
 * Where a state the `load` hook reads came from: the user's fixtures files (`--fixtures DIR`, or fixtures given to an
 * MSW mock), an import (`PUT /__mock/state`), or data the mock made itself (the document's examples, generated records,
 * `--seed N --pets K`), which a hook completes rather than refuses.
 */
export type LoadSource = 'fixtures' | 'import' | 'generated';

/** Where a `load` hook refuses a state: a record by collection path and id (and, under a parent, its scope), and a field of it. */
export interface LoadPlace {
  readonly collection: string;
  readonly id: string | number;
  readonly field?: string;
  readonly scope?: string;
}

/** What a `load` hook is told besides the store. */
export interface LoadContext {
  readonly source: LoadSource;
  /** Refuses the state, naming the record (and field) that breaks what the hook holds it to; never returns. */
  refuse(place: LoadPlace, message: string): never;
}

/** A `load` hook's refusal (LoadContext.refuse): the engine names the file or the body and the place in it. */
export class LoadRefusal extends Error {
  constructor(
    readonly place: LoadPlace,
    message: string,
  ) {
    super(message);
    this.name = 'LoadRefusal';
  }
}

/** The context a `load` hook is called with for a state from `source`. */
export function loadContext(source: LoadSource): LoadContext {
  return Object.freeze({
    source,
    refuse(place: LoadPlace, message: string): never {
      throw new LoadRefusal(place, message);
    },
  });
}

/** The refusal a `load` hook's throw carries (run-hooks.ts wraps it, as its cause), if it refused rather than failed. */
export function loadRefusalOf(error: unknown): LoadRefusal | undefined {
  if (error instanceof LoadRefusal) return error;
  return error instanceof Error && error.cause instanceof LoadRefusal ? error.cause : undefined;
}

/** Types a behaviour module: `export default defineBehaviour({ operations: { createOrder: { before(request, store) { … } } } })`. */
export function defineBehaviour(behaviour: Behaviour): Behaviour {
  return behaviour;
}

/** Whether a module's default export is a behaviour: an object whose hooks are functions and whose operations hold hooks. */
export function behaviourProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'its default export must be an object of hooks (before, after, operations)';
  const hooksProblem = (hooks: object, where: string): string | undefined => {
    for (const [name, hook] of Object.entries(hooks)) {
      if ((name === 'operations' || name === 'load') && where === '') {
        if (name === 'load' && typeof hook !== 'function') return 'load must be a function';
        continue;
      }
      if (name !== 'before' && name !== 'after') return `${where}${name} is not a hook; a hook is before or after${where === '' ? ' (or load, at the top)' : ''}`;
      if (typeof hook !== 'function') return `${where}${name} must be a function`;
    }
    return undefined;
  };
  const own = hooksProblem(value, '');
  if (own) return own;
  const operations: unknown = (value as { operations?: unknown }).operations;
  if (operations === undefined) return undefined;
  if (typeof operations !== 'object' || operations === null) return 'operations must map operationIds to hooks';
  for (const [id, hooks] of Object.entries(operations)) {
    if (typeof hooks !== 'object' || hooks === null) return `operations.${id} must be an object of hooks`;
    const problem = hooksProblem(hooks, `operations.${id}.`);
    if (problem) return problem;
  }
  return undefined;
}
