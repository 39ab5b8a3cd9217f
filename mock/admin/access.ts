/**
 * Who may use the /__mock/ control plane (issue 12, finding 4). Any web page a
 * developer opens can send requests to 127.0.0.1; without these rules one
 * could wipe or read the mock's data.
 *
 * 1. No cross-origin request at all: an `Origin` other than the mock's own
 *    (the request's Host) is a 403, and the admin surface never answers with a
 *    CORS grant (so a preflight fails too; Fetch §3.2). On loopback the Host
 *    must be a loopback name too, or a page could rebind its own name to
 *    127.0.0.1 and be "same-origin" (DNS rebinding).
 * 2. A state-changing call (POST, PUT) needs `X-Mock-Admin: 1` or the token
 *    header: a page cannot send either without a preflight (a non-safelisted
 *    header, Fetch §2.2.2 "CORS-safelisted request-header"), and rule 1 fails it.
 * 3. With an admin token (`--admin-token`, or PETSTORE_KIT_ADMIN_TOKEN), every
 *    admin call needs `X-Mock-Admin-Token: TOKEN` (WireMock's admin
 *    authentication is the model).
 * 4. On a host other than loopback, without a token, the admin surface is
 *    closed unless `--admin-open` says otherwise.
 *
 * The admin surface is outside the contract, so its refusals have codes of
 * their own, a closed set listed here and in the README; the token is never
 * printed, not even in a refusal.
 */
import { headerValue, type HeaderMap } from '../engine/message.js';

export const ADMIN_HEADER = 'x-mock-admin';
export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token';
export const ADMIN_TOKEN_ENV = 'PETSTORE_KIT_ADMIN_TOKEN';

/** The admin surface's own error codes and their statuses. */
export const ADMIN_ERROR_CODES = {
  /** The request came from a web page of another origin. */
  ADMIN_ORIGIN_REFUSED: 403,
  /** A state-changing call without `X-Mock-Admin: 1` (or the token). */
  ADMIN_HEADER_REQUIRED: 403,
  /** The mock has an admin token and the request did not carry it. */
  ADMIN_TOKEN_REQUIRED: 403,
  /** The mock listens beyond loopback without a token and without --admin-open. */
  ADMIN_CLOSED: 403,
} as const;

export type AdminErrorCode = keyof typeof ADMIN_ERROR_CODES;

export interface AdminAccessSettings {
  /** Required in `X-Mock-Admin-Token` on every admin call when set. */
  readonly token?: string;
  /** Open the admin surface on a non-loopback host without a token. */
  readonly open?: boolean;
  /** The interface the mock listens on (default 127.0.0.1). */
  readonly host?: string;
}

export interface AdminRefusal {
  readonly code: AdminErrorCode;
  readonly status: number;
  readonly message: string;
}

/** Returns the check for one mock: undefined lets the request through, a refusal says why not. */
export function createAdminAccess(settings: AdminAccessSettings = {}): (method: string, headers: HeaderMap) => AdminRefusal | undefined {
  const token = settings.token === undefined ? undefined : UTF8.encode(settings.token);
  const host = settings.host ?? '127.0.0.1';
  const loopback = isLoopbackHost(host);
  const closed = token === undefined && !settings.open && !loopback;
  const refuse = (code: AdminErrorCode, message: string): AdminRefusal => ({ code, status: ADMIN_ERROR_CODES[code], message });

  return (method, headers) => {
    const origin = headerValue(headers, 'origin');
    const hostHeader = headerValue(headers, 'host');
    const rebound = loopback && hostHeader !== undefined && !isLoopbackHost(hostHeader.replace(/:[0-9]*$/, ''));
    if (rebound || (origin !== undefined && !isSameOrigin(origin, hostHeader))) {
      return refuse('ADMIN_ORIGIN_REFUSED', 'The /__mock/ admin surface does not answer web pages of other origins; call it from a script or a terminal.');
    }
    if (closed) {
      return refuse(
        'ADMIN_CLOSED',
        `The mock listens on ${host}, beyond this machine, so its /__mock/ admin surface is closed; start it with --admin-token TOKEN (or ${ADMIN_TOKEN_ENV}) and send ${ADMIN_TOKEN_HEADER}, or with --admin-open.`,
      );
    }
    if (token !== undefined) {
      const sent = headerValue(headers, ADMIN_TOKEN_HEADER);
      if (sent === undefined || !sameSecret(UTF8.encode(sent), token)) {
        return refuse('ADMIN_TOKEN_REQUIRED', `This mock has an admin token; send it in ${ADMIN_TOKEN_HEADER}.`);
      }
      return undefined;
    }
    if (method !== 'GET' && method !== 'HEAD' && headerValue(headers, ADMIN_HEADER) !== '1') {
      return refuse('ADMIN_HEADER_REQUIRED', `A ${method} on the admin surface changes the mock's data; send ${ADMIN_HEADER}: 1 with it (a web page cannot without a preflight).`);
    }
    return undefined;
  };
}

const UTF8 = new TextEncoder();

/**
 * Whether `sent` is the secret, in a time that depends only on the length of what was sent: every byte is looked
 * at, with no early exit, against the secret repeated, so neither its bytes nor its length show in the timing.
 * Written by hand rather than with node:crypto's timingSafeEqual: this core also runs in a browser (MSW's worker),
 * whose bundle must not name a Node built-in (issue 23, point 3).
 */
export function sameSecret(sent: Uint8Array, secret: Uint8Array): boolean {
  let difference = sent.length ^ secret.length;
  for (let i = 0; i < sent.length; i++) difference |= sent[i]! ^ (secret[i % secret.length] ?? 0);
  return difference === 0;
}

/** Whether `origin` is the mock's own: a page the mock itself served (RFC 6454 §4: scheme, host, port). */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/** 127.0.0.0/8, ::1 and localhost: interfaces no other machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name;
  // A dotted quad in 127.0.0.0/8 (RFC 1122 §3.2.1.3), matched by hand: node:net is not in a browser bundle (MSW's worker runs this core).
  return /^127(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(v4);
}

/** The start-up warning for a mock reachable from other machines, or undefined on loopback. Never carries the token. */
export function reachabilityWarning({ host = '127.0.0.1', token, open }: AdminAccessSettings): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  const admin =
    token !== undefined
      ? `its /__mock/ admin surface needs the admin token (${ADMIN_TOKEN_HEADER})`
      : open
        ? 'its /__mock/ admin surface is OPEN to anyone who can reach the port (--admin-open)'
        : `its /__mock/ admin surface is closed; give --admin-token TOKEN (or ${ADMIN_TOKEN_ENV}) to use it, or --admin-open`;
  return `warning: the mock listens on ${host}, reachable from other machines; ${admin}.`;
}
