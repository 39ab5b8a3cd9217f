/**
 * The stores of one mock process (issue 14): the default store and one per
 * `X-Mock-Session` name, all copy-on-write forks of the initial data, with
 * the bounds that keep a loop over session names from exhausting memory:
 * a count (`--max-sessions`) and a memory budget (`--max-session-memory`),
 * least recently used dropped first, and a notice for the dropped client.
 */
import type { Result, SessionDropReason, StoreRegistry, StoreSnapshot } from './domain.js';
import type { Meter } from './indexes.js';
import { Recency } from './recency.js';
import { assertHoldable, buildState, createStoreCell, forkState, RECORD_BYTES, type State, type StoreCell } from './store.js';
import { checkConsistency } from './store-consistency.js';
import type { ApiErrorCode } from '../src/api-error-codes.js';
import { KitError } from '../src/kit-error.js';

/** What a session costs before it writes anything: its store object and the forked structures' shells. */
const SESSION_BYTES = 4 * 1024;

const done: Result<void> = Object.freeze({ ok: true, value: undefined });
const fail = <T>(code: ApiErrorCode, message: string): Result<T> => ({ ok: false, error: { code, message } });

/** How many session stores a registry keeps by default (`--max-sessions`). */
export const DEFAULT_MAX_SESSIONS = 100;
/** The memory all session stores may hold together when no budget is given (`--max-session-memory`). */
export const DEFAULT_MAX_SESSION_MEMORY = 256 * 1024 * 1024;

/**
 * The session budget derived from the heap: a quarter of V8's heap limit,
 * leaving the rest to the initial data, the default store and requests in
 * flight; at least 64 MiB. The caller reads the limit (node:v8), so this
 * module stays free of Node.
 */
export function sessionMemoryBudget(heapLimitBytes: number): number {
  return Math.max(64 * 1024 * 1024, Math.floor(heapLimitBytes / 4));
}

export interface StoreRegistryOptions {
  /**
   * At most this many session stores at once (default 100). Past it the least
   * recently used session is dropped.
   */
  readonly maxSessions?: number;
  /**
   * At most this many bytes (estimated) held by all session stores together
   * (default 256 MiB). A session costs ~4 KiB until it writes, then what it
   * writes: its records and the pieces of shared indexes it had to copy.
   * Past the budget the least recently used sessions are dropped.
   */
  readonly maxSessionMemory?: number;
  /** Told the name of each session dropped to make room, and which bound made it, for the log. */
  readonly onDrop?: (session: string, reason: SessionDropReason) => void;
}

/** How many dropped names are remembered to tell their client (a bounded map: names are client input). */
const NOTICES_KEPT = 10_000;

/** A session store and what it holds beyond the shared initial data. */
interface Session {
  readonly cell: StoreCell;
  meter: SessionMeter;
}

/** Counts a session's bytes, and every session's together in `tally`. */
class SessionMeter implements Meter {
  bytes = 0;
  #tally: { bytes: number } | undefined;

  constructor(tally: { bytes: number }) {
    this.#tally = tally;
  }

  add(bytes: number): void {
    this.bytes += bytes;
    if (this.#tally !== undefined) this.#tally.bytes += bytes;
  }

  /** The session was dropped or refilled: a caller still holding its old store no longer counts against the budget. */
  detach(): void {
    if (this.#tally !== undefined) this.#tally.bytes -= this.bytes;
    this.#tally = undefined;
  }
}

/**
 * The default store plus one per session name. The initial data is built
 * once into a template that is never written; every store, the default one
 * included, is a copy-on-write fork of it (issue 14), so a session costs
 * ~4 KiB and O(1) time to create whatever the data size, and holds only what
 * it writes. `reset(name)` restores that session in place by swapping in a
 * fresh fork; `reset()` restores the default store in place and drops every
 * session. Sessions are bounded by count and by memory: past either bound
 * the least recently used are dropped, and the next request of a dropped
 * name starts afresh and can learn why through `dropNotice`.
 */
export function createStoreRegistry(initial: StoreSnapshot, options: StoreRegistryOptions = {}): StoreRegistry {
  assertHoldable(initial);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) throw new KitError('USAGE', `The number of sessions kept must be a whole number >= 1; got ${maxSessions}.`);
  const budget = options.maxSessionMemory ?? DEFAULT_MAX_SESSION_MEMORY;
  if (!Number.isSafeInteger(budget) || budget < 1) throw new KitError('USAGE', `The memory sessions may hold must be a whole number of bytes >= 1; got ${budget}.`);

  const template = buildState(initial, undefined);
  const fallback = createStoreCell(forkState(template, undefined));
  // In order of last use, so the oldest entry is always the least recently used.
  const sessions = new Recency<Session>();
  // Replaced (not zeroed) by a reset of everything, so stores a caller still holds no longer count.
  let tally = { bytes: 0 };
  // Recency, not a Map re-inserted into: a name dropped again moves to the newest end in O(1) (see recency.ts).
  const notices = new Recency<SessionDropReason>();

  const freshMeter = (): SessionMeter => {
    const meter = new SessionMeter(tally);
    meter.add(SESSION_BYTES);
    return meter;
  };
  const open = (): Session => {
    const meter = freshMeter();
    return { cell: createStoreCell(forkState(template, meter)), meter };
  };
  const refill = (session: Session, state: (meter: SessionMeter) => State): void => {
    session.meter.detach();
    session.meter = freshMeter();
    session.cell.replace(state(session.meter));
  };
  const drop = (name: string, reason: SessionDropReason): void => {
    const session = sessions.delete(name);
    if (session === undefined) return;
    session.meter.detach();
    notices.set(name, reason);
    for (let oldest = notices.oldest(); oldest !== undefined && notices.size > NOTICES_KEPT; oldest = notices.oldest()) notices.delete(oldest);
    options.onDrop?.(name, reason);
  };

  const cellFor = (name: string | undefined): StoreCell => {
    if (name === undefined) return fallback;
    let session = sessions.use(name);
    if (session === undefined) {
      // Make room first, so no more than maxSessions are ever held, not even while creating one.
      for (let oldest = sessions.oldest(); oldest !== undefined && sessions.size >= maxSessions; oldest = sessions.oldest()) drop(oldest, 'max-sessions');
      session = open();
      sessions.set(name, session);
    }
    if (tally.bytes > budget) {
      // The least recently used go first; this session is the most recent, so it goes last, only when it alone
      // holds more than the budget, and it then starts afresh like any dropped session.
      for (let oldest = sessions.oldest(); oldest !== undefined && oldest !== name && tally.bytes > budget; oldest = sessions.oldest()) drop(oldest, 'max-session-memory');
      if (tally.bytes > budget) {
        drop(name, 'max-session-memory');
        session = open();
        sessions.set(name, session);
      }
    }
    return session.cell;
  };

  return {
    get: (session) => cellFor(session).store,
    reset(session) {
      if (session === undefined) {
        fallback.replace(forkState(template, undefined));
        sessions.clear();
        notices.clear();
        tally = { bytes: 0 };
      } else {
        // In place, so a caller holding this session's store sees the reset too; an unknown name stays unknown.
        // A fresh fork: the session's own copies become garbage, O(what it wrote), and the template is untouched.
        const found = sessions.peek(session);
        if (found !== undefined) refill(found, (meter) => forkState(template, meter));
      }
    },
    load(snapshot, session) {
      const problems = checkConsistency(snapshot, 'reachable');
      if (problems.length > 0) {
        const listed = problems.slice(0, 5).map((p) => `${p.pointer}: ${p.message}`).join('; ');
        const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
        return fail('VALIDATION_FAILED', `The state cannot be loaded: ${listed}${more}. Nothing was changed.`);
      }
      if (session === undefined) {
        fallback.replace(buildState(snapshot, undefined));
        return done;
      }
      // An imported state shares nothing: the session holds all of it, which must fit in the budget.
      const needed = SESSION_BYTES + estimatedBytes(snapshot);
      if (needed > budget) {
        return fail('VALIDATION_FAILED', `The state needs about ${mebibytes(needed)} MiB, more than the ${mebibytes(budget)} MiB all sessions may hold (--max-session-memory); load it without a session or raise the limit. Nothing was changed.`);
      }
      cellFor(session);
      const target = sessions.peek(session);
      if (target === undefined) return fail('INTERNAL_ERROR', `The session ${session} could not be opened.`);
      refill(target, (meter) => {
        meter.add(needed - SESSION_BYTES);
        return buildState(snapshot, meter);
      });
      return done;
    },
    sessions: () => sessions.keys(),
    dropNotice(session) {
      const reason = notices.peek(session);
      // Told once, and only once the name is in use again (the request that started it afresh).
      if (reason === undefined || !sessions.has(session)) return undefined;
      notices.delete(session);
      return reason;
    },
    sessionMemory: () => tally.bytes,
  };
}

/** An import's cost as a session's own data: every record and its index slots. */
function estimatedBytes(snapshot: StoreSnapshot): number {
  return (snapshot.categories.length + snapshot.pets.length + snapshot.orders.length + snapshot.inventory.length) * RECORD_BYTES;
}

/** A byte count in MiB for a message, as the refusals of an import past the budget say it. */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}
