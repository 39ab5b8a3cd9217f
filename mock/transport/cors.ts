/**
 * CORS for front-ends served from another origin (Fetch standard, §3.2 "CORS
 * protocol"). The headers every answer carries are computed once; only a
 * preflight's `Access-Control-Allow-Headers`, which echoes the request, is
 * built per request.
 */
import type { Contract } from '../../src/contract/index.js';
import { headerValue, type HeaderMap } from '../engine/message.js';

export interface Cors {
  /** Headers for an actual (non-preflight) response to a request from `origin`. */
  responseHeaders(headers: HeaderMap): Readonly<Record<string, string>>;
  /** Headers for a preflight's answer, given the methods the path documents. */
  preflightHeaders(headers: HeaderMap, allowMethods: readonly string[]): Record<string, string>;
  /** The header names browser code may read: every response header the document declares, and the mock's own. */
  readonly exposed: readonly string[];
}

/** How long a browser may cache a preflight (seconds); Chromium caps at 7200. */
const MAX_AGE = '600';
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** `allowedOrigin` is `*` (any) or one serialized origin such as `http://localhost:5173`. */
export function createCors(contract: Contract, allowedOrigin: string): Cors {
  const exposed = exposedHeaders(contract);
  const expose = exposed.join(', ');
  const anyOrigin = allowedOrigin === '*';

  // With any origin the answer does not depend on Origin, so it needs no Vary (Fetch §3.2.5 "CORS protocol and HTTP caches").
  const open: Readonly<Record<string, string>> = Object.freeze({ 'access-control-allow-origin': '*', 'access-control-expose-headers': expose });
  const granted: Readonly<Record<string, string>> = Object.freeze({ 'access-control-allow-origin': allowedOrigin, 'access-control-expose-headers': expose, vary: 'Origin' });
  const refused: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });

  const allows = (headers: HeaderMap): boolean => anyOrigin || headerValue(headers, 'origin') === allowedOrigin;

  return {
    exposed,
    responseHeaders(headers) {
      if (anyOrigin) return open;
      return allows(headers) ? granted : refused;
    },
    preflightHeaders(headers, allowMethods) {
      const out: Record<string, string> = { vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' };
      if (!allows(headers)) return out;
      out['access-control-allow-origin'] = anyOrigin ? '*' : allowedOrigin;
      out['access-control-allow-methods'] = allowMethods.join(', ');
      const requested = headerValue(headers, 'access-control-request-headers')?.trim();
      // Echo only a well-formed token list: whatever is echoed lands in a response header.
      if (requested && requested.length <= 2048 && TOKEN_LIST.test(requested)) out['access-control-allow-headers'] = requested;
      out['access-control-max-age'] = MAX_AGE;
      return out;
    },
  };
}

/**
 * Headers the mock sends that no operation declares, which browser code still needs: `Allow` on a 405
 * (RFC 9110 §10.2.1), `Preference-Applied` (RFC 7240 §3), and the mock's own notices (X-Mock-Session-Dropped tells a page why its data started over). Without them in
 * `Access-Control-Expose-Headers`, `response.headers.get('Allow')` is null in a page (Fetch §3.2.4).
 */
const MOCK_HEADERS = ['Allow', 'Preference-Applied', 'X-Mock-Unknown-Query', 'X-Mock-Chaos', 'X-Mock-Session-Dropped'];

/** The mock's own headers, then every header some documented response declares (Location, X-Total-Count, Deprecation, Sunset, Link), in document order. */
function exposedHeaders(contract: Contract): string[] {
  const names = new Map<string, string>();
  for (const name of MOCK_HEADERS) names.set(name.toLowerCase(), name);
  for (const operation of contract.operations) {
    for (const response of operation.responses.values()) {
      for (const header of response.headers) {
        const key = header.name.toLowerCase();
        // CORS-safelisted response headers need no exposing; Content-Type is one (Fetch §3.2.4).
        if (key !== 'content-type' && !names.has(key)) names.set(key, header.name);
      }
    }
  }
  return [...names.values()];
}

/** A preflight is an OPTIONS request carrying Origin and Access-Control-Request-Method (Fetch §3.2.2). */
export function isPreflight(method: string, headers: HeaderMap): boolean {
  return method === 'OPTIONS' && headers['access-control-request-method'] !== undefined && headers['origin'] !== undefined;
}

/** `*`, or a serialized origin (scheme://host[:port], nothing else): what --cors-origin accepts. */
export function isValidOriginSetting(value: string): boolean {
  if (value === '*') return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}
