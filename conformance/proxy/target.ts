/**
 * A target URL (or a fallback mock's) as the proxy sends to it: its origin, its path prefix (a request for `/pets`
 * goes to the prefix + `/pets`), and how reports show it. Checked as the runner checks --base-url.
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

/** A target URL as the proxy uses it; a wrong one is a USAGE error (the same rules as the runner's --base-url). */
export function targetOf(text: string): Target {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new KitError('USAGE', `petstore-kit proxy: --target ${JSON.stringify(text)} is not a URL; give one such as http://127.0.0.1:8080 or https://staging.example.com/api/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KitError('USAGE', `petstore-kit proxy: --target must be an http or https URL; got ${url.protocol}`);
  if (url.search || url.hash) throw new KitError('USAGE', `petstore-kit proxy: --target must not carry a query or fragment; got ${url.origin}${url.pathname}…`);
  if (url.username || url.password) throw new KitError('USAGE', "petstore-kit proxy: --target must not carry credentials (user:password@); pass them with --header 'Authorization: Basic …', whose value is never printed.");
  const prefix = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, prefix, display: `${url.origin}${prefix}`, href: (pathAndQuery) => `${url.origin}${prefix}${pathAndQuery}` };
}

