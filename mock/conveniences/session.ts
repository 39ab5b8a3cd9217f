/**
 * `X-Mock-Session: NAME` gives a client its own copy of the data, created
 * from the initial data on first use, so parallel test runs do not disturb
 * each other. Names are short and plain: they end up in URLs (`?session=`) and
 * in a Map of stores, and a typo should be a 400, not a silent new session.
 */
import type { Diagnostic } from '../../src/schema/index.js';

export const SESSION_HEADER = 'x-mock-session';
/**
 * Set on the first answer after the client's session was dropped to stay
 * within `--max-sessions` or `--max-session-memory` and started afresh from
 * the initial data; its value names the bound (`max-sessions`,
 * `max-session-memory`). Without it a test would see its data vanish with no
 * reason given.
 */
export const SESSION_DROPPED_HEADER = 'x-mock-session-dropped';
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Which bound dropped a session: `--max-sessions` (count) or `--max-session-memory` (bytes). */
export type SessionDropReason = 'max-sessions' | 'max-session-memory';

export type SessionOutcome = { readonly ok: true; readonly session?: string } | { readonly ok: false; readonly diagnostic: Diagnostic };

const DEFAULT: SessionOutcome = { ok: true };

/** `raw` is the header's or the query parameter's value; `pointer` says which, for the 400's details. */
export function readSession(raw: string | readonly string[] | undefined, pointer: string): SessionOutcome {
  if (raw === undefined) return DEFAULT;
  if (typeof raw !== 'string') return { ok: false, diagnostic: { pointer, keyword: 'format', message: 'must be given once' } };
  if (!NAME.test(raw)) {
    return { ok: false, diagnostic: { pointer, keyword: 'pattern', message: 'must be 1 to 64 characters from A-Z, a-z, 0-9, ".", "_" and "-"', expected: NAME.source } };
  }
  return { ok: true, session: raw };
}
