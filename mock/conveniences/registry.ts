/**
 * The bounds of one mock process's stores (issue 14): the default store and one per `X-Mock-Session` name are the
 * generic engine's (engine/store.ts), kept within a count (`--max-sessions`) and a memory budget
 * (`--max-session-memory`), least recently used dropped first (recency.ts). Free of Node, so the core bundles.
 */
import { KitError } from '../../src/kit-error.js';

/** How many session stores a registry keeps by default (`--max-sessions`). */
export const DEFAULT_MAX_SESSIONS = 100;
/** The memory all session stores may hold together when no budget is given (`--max-session-memory`). */
export const DEFAULT_MAX_SESSION_MEMORY = 256 * 1024 * 1024;

/** Told of every byte a session's writes cost, so its memory can be bounded. */
export interface Meter {
  add(bytes: number): void;
}

/** What one written record costs a session, roughly: the frozen object, its strings, and its slots in the lists that file it. */
export const RECORD_BYTES = 160;

/**
 * The session budget derived from the heap: a quarter of V8's heap limit,
 * leaving the rest to the initial data, the default store and requests in
 * flight; at least 64 MiB. The caller reads the limit (node:v8), so this
 * module stays free of Node.
 */
export function sessionMemoryBudget(heapLimitBytes: number): number {
  return Math.max(64 * 1024 * 1024, Math.floor(heapLimitBytes / 4));
}

/** A byte count in MiB for a message, as the refusals of an import past the budget say it. */
export function mebibytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Refuses bounds no store can keep (`--max-sessions`, `--max-session-memory`), as a USAGE error naming the value. */
export function checkSessionBounds(maxSessions: number, maxSessionMemory: number): void {
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) throw new KitError('USAGE', `The number of sessions kept must be a whole number >= 1; got ${maxSessions}.`);
  if (!Number.isSafeInteger(maxSessionMemory) || maxSessionMemory < 1) throw new KitError('USAGE', `The memory sessions may hold must be a whole number of bytes >= 1; got ${maxSessionMemory}.`);
}
