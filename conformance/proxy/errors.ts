/**
 * What the proxy answers itself, in the kit's Error shape (`{code, message, status, details?}`, the mock's and
 * the document's): a closed set of codes, each with its one status, so a front end or a CI log can tell the proxy's
 * own answer from the target's. docs/proxy.md lists them; a test keeps that list in step with this one.
 *
 * - 502 and 504 are a gateway's words for an inbound server that failed it (RFC 9110 §15.6.3, §15.6.5): refused,
 *   reset, not HTTP, or silent past --timeout. Never a hang.
 * - Under --errors only: a request that breaks the document is refused with 400 before it reaches the target (as
 *   the mock would refuse it), and an answer that breaks it is replaced with a 502 (an invalid response from the
 *   inbound server, §15.6.3), each listing what broke with its rule and JSON pointer.
 */
import type { ServerResponse } from 'node:http';
import type { Diagnostic } from '../../src/schema/index.js';

export const PROXY_ERROR_CODES = {
  TARGET_UNREACHABLE: { status: 502, meaning: 'The target refused the connection, reset it, its host name does not resolve, or its TLS certificate is not trusted.' },
  TARGET_INVALID_ANSWER: { status: 502, meaning: 'The target answered something that is not valid HTTP/1.1, or broke off in the middle of its answer.' },
  TARGET_TIMEOUT: { status: 504, meaning: 'The target did not answer within --timeout.' },
  REQUEST_VIOLATES_CONTRACT: { status: 400, meaning: 'With --errors: the request breaks the document; it was not sent to the target.' },
  RESPONSE_VIOLATES_CONTRACT: { status: 502, meaning: "With --errors: the target's answer breaks the document; details lists each rule and pointer." },
  PROXY_ROUTE_NOT_FOUND: { status: 404, meaning: 'A path under /__proxy/ that the proxy does not serve.' },
  PROXY_METHOD_NOT_ALLOWED: { status: 405, meaning: 'A method /__proxy/report does not take (GET only).' },
  PROXY_BAD_REQUEST: { status: 400, meaning: 'A /__proxy/report query the proxy cannot honour (an unknown format), a request that is not valid HTTP/1.1, or one whose request-target is not a path the proxy sends on (absolute-form, authority-form, * but for OPTIONS, a fragment, a path climbing out of the prefix); never sent on.' },
  PROXY_REQUEST_TIMEOUT: { status: 408, meaning: "The client's request line and headers, or its whole request, did not arrive in time (10 s, 60 s); never sent on." },
} as const;

export type ProxyErrorCode = keyof typeof PROXY_ERROR_CODES;

export interface ProxyErrorBody {
  readonly code: ProxyErrorCode;
  readonly message: string;
  readonly status: number;
  readonly details?: readonly { readonly path: string; readonly message: string }[];
}

/** A detail per problem, as the mock's VALIDATION_FAILED lists them (ErrorDetail: path and message), the rule first. */
export interface RuledDiagnostic {
  readonly rule: string;
  readonly diagnostic: Diagnostic;
}

export function proxyError(code: ProxyErrorCode, message: string, problems: readonly RuledDiagnostic[] = []): { status: number; body: ProxyErrorBody; text: string } {
  const status = PROXY_ERROR_CODES[code].status;
  const details = problems.map(({ rule, diagnostic }) => ({ path: diagnostic.pointer, message: `${rule}: ${diagnostic.message}` }));
  const body: ProxyErrorBody = details.length > 0 ? { code, message, status, details } : { code, message, status };
  return { status, body, text: JSON.stringify(body) };
}

/** Writes one of the proxy's own answers, unless an answer has begun already (then nothing can replace it). */
export function sendAnswer(res: ServerResponse, answer: { readonly status: number; readonly text: string }): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer.text)) });
  res.end(answer.text);
}
