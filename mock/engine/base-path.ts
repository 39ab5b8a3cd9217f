import type { OpenAPIV3 } from 'openapi-types';
import { normalizeBasePath } from '../transport/settings.js';

/**
 * Where the document says its API lives on the server: the path of its first server URL, its variables at their
 * defaults (OpenAPI 3.0.3 §4.7.5-4.7.6; 3.1.0 §4.8.5-4.8.6), e.g. `https://api.xero.com/api.xro/2.0` → `/api.xro/2.0`,
 * `/api/v1` → `/api/v1`. A client generated from the document sends its requests under it, so the mock of a document
 * from elsewhere serves there unless `--base-path` says otherwise (issue 22, point 5). '' when the document names no
 * server, its first is at the root, or its path is not one the mock can serve under (a variable without a default).
 */
export function documentBasePath(document: OpenAPIV3.Document): string {
  const server = document.servers?.[0];
  if (!server || typeof server.url !== 'string') return '';
  const url = server.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const fallback = server.variables?.[name]?.default;
    return typeof fallback === 'string' ? fallback : whole;
  });
  if (/[{}]/.test(url)) return '';
  let path: string;
  try {
    // A relative URL is relative to where the document is served (§4.7.5): only its path matters here.
    path = new URL(url, 'http://document.invalid/').pathname;
  } catch {
    return '';
  }
  try {
    return normalizeBasePath(path);
  } catch {
    return '';
  }
}
