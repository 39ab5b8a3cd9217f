/**
 * The control plane under `/__mock/`, outside the contract (so the document's
 * validators do not apply to it, and it is not listed in openapi.yaml):
 *
 *   POST /__mock/reset[?session=NAME]   back to the initial data: every store, or one session's
 *   GET  /__mock/state[?session=NAME]   the whole state as JSON (categories, pets, orders, inventory)
 *   PUT  /__mock/state[?session=NAME]   replace the state with such a JSON (validated first; 400 with details)
 *   GET  /__mock/health                 the contract's title, version and hash, and the kit's version
 *
 * Its errors still use the one Error builder, so a client handles them the same way; who may call it at all is
 * admin-access.ts's business (its refusals have codes of their own, as the surface is outside the contract).
 * It answers without CORS headers: no web page of another origin may use it. The generic engine answers it
 * (admin/state.ts); here are its shape and its paths.
 */
import type { MockRequest } from '../engine/message.js';

export const ADMIN_PREFIX = '/__mock/';

export interface AdminAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Admin {
  handle(request: MockRequest): AdminAnswer;
  /** The access rule alone, for admin endpoints answered elsewhere (the request journal): a refusal, or undefined. */
  guard(request: MockRequest): AdminAnswer | undefined;
  /**
   * How many body bytes an admin request may carry: an exported state must import back (the contract's 1 MiB
   * holds about 12,000 pets), but the limit follows the data held rather than a fixed 64 MiB (state-import.ts).
   */
  bodyLimit(): number;
}

export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX);
}
