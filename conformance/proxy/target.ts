/**
 * The one reading of an inbound server's URL (review 1, finding 14): the target's (`--target`) and a fallback mock's
 * (`--fallback-url`, or the in-process mock's own address): its origin, its path prefix (a request for `/pets` goes
 * to the prefix + `/pets`), and how reports show it. Checked as the runner checks --base-url; an error names the flag
 * the URL came from.
 */
import { KitError } from '../../src/kit-error.js';

export interface Target {
  readonly origin: string;
  /** Its path prefix, without a trailing slash ('' for none). */
  readonly prefix: string;
  /** As reports show it. */
  readonly display: string;
  href(pathAndQuery: string): string;
}

/** The flag a URL came from, and a URL of the kind it takes, for the error messages. */
export interface UrlFlag {
  readonly flag: string;
  readonly example: string;
}

export const TARGET_FLAG: UrlFlag = { flag: '--target', example: 'http://127.0.0.1:8080 or https://staging.example.com/api/v1' };
export const FALLBACK_URL_FLAG: UrlFlag = { flag: '--fallback-url', example: "the mock's, e.g. http://127.0.0.1:4011" };

/** A URL as the proxy sends to it; a wrong one is a USAGE error naming `from.flag` (the same rules as the runner's --base-url). */
export function targetOf(text: string, from: UrlFlag = TARGET_FLAG): Target {
  const { flag } = from;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new KitError('USAGE', `petstore-kit proxy: ${flag} ${JSON.stringify(text)} is not a URL; give one such as ${from.example}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KitError('USAGE', `petstore-kit proxy: ${flag} must be an http or https URL; got ${url.protocol}`);
  if (url.search || url.hash) throw new KitError('USAGE', `petstore-kit proxy: ${flag} must not carry a query or fragment; got ${url.origin}${url.pathname}…`);
  if (url.username || url.password) throw new KitError('USAGE', `petstore-kit proxy: ${flag} must not carry credentials (user:password@)${flag === TARGET_FLAG.flag ? "; pass them with --header 'Authorization: Basic …', whose value is never printed" : ''}.`);
  const prefix = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, prefix, display: `${url.origin}${prefix}`, href: (pathAndQuery) => `${url.origin}${prefix}${pathAndQuery}` };
}
