/**
 * What a request to an operation carries before it goes out, and what the
 * recorder keeps of what it sent.
 */
import type { HttpRequest } from '../http.js';
import { parseJson } from '../json.js';
import type { ExchangeTarget } from '../recorded.js';
import { acceptFor } from './accept.js';
import { safeDecode } from './query.js';

/**
 * The request as it is sent: one for an operation stays on one of its paths
 * once normalised (http.ts refuses it otherwise, safe-path.ts) and asks for
 * what the operation documents unless the caller set its own Accept.
 */
export function forTarget(request: HttpRequest, target: ExchangeTarget): HttpRequest {
  if (target.kind !== 'operation') return request;
  const hasAccept = Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'accept');
  const meant: HttpRequest = { ...request, pathTemplate: target.operation.pathTemplate };
  return hasAccept ? meant : { ...meant, headers: { ...request.headers, accept: acceptFor(target.operation) } };
}

/** The query sent, decoded, one list of values per name: `query` and the pairs written by their style alike. */
export function sentQuery(request: HttpRequest): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(request.query ?? {})) query[name] = typeof value === 'string' ? [value] : [...value];
  for (const [name, value] of request.rawQuery ?? []) (query[safeDecode(name)] ??= []).push(safeDecode(value));
  return query;
}

/** The body sent, parsed back from its exact text, when it is JSON. */
export function sentJson(request: HttpRequest): unknown {
  if (request.body === undefined) return undefined;
  try {
    return parseJson(request.body);
  } catch {
    return undefined;
  }
}

/** The path of a request relative to the base URL, whether it was given relative or absolute. */
export function pathOf(path: string, baseUrl: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(path)) return path.split('?')[0]!;
  const url = new URL(path);
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
}
