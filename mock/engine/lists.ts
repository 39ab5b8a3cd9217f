/**
 * A list answer as the document shapes it (issue 22, point 2): a bare array or an envelope (`data`, `items`,
 * `results`, ... with a total, a page count and a next cursor where it declares them); filtered by the query parameters named
 * like a record field; paged by the paging parameters it declares (limit/offset, page/per_page, cursor); with
 * `X-Total-Count` and `Link` (RFC 8288, rel="next"/"prev") where the response declares those headers.
 */
import type { Operation } from '../../src/contract/index.js';
import type { HandlerResult } from './seam.js';
import type { Resource } from './infer.js';
import { responseFor, successStatus } from './schemas.js';
import type { StoredRecord } from './store.js';

/** A list with no limit parameter still answers a bounded page: a front end asked for a list, not a dump. */
const DEFAULT_PAGE = 100;

export function listAnswer(operation: Operation, resource: Resource, records: Iterable<StoredRecord>, query: Readonly<Record<string, unknown>>, basePath: string): HandlerResult {
  const spec = resource.list;
  const status = successStatus(operation, [200]) ?? 200;
  const matching: StoredRecord[] = [];
  const filters = spec ? [...spec.filters].filter(([parameter]) => query[parameter] !== undefined) : [];
  for (const record of records) if (filters.every(([parameter, field]) => matches(record[field], query[parameter]))) matching.push(record);

  const paging = spec?.paging ?? {};
  const number = (name: string | undefined): number | undefined => {
    const value = name === undefined ? undefined : query[name];
    return typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const limit = Math.max(0, number(paging.limit) ?? DEFAULT_PAGE);
  let start = 0;
  if (paging.cursor !== undefined && typeof query[paging.cursor] === 'string') start = decodeCursor(query[paging.cursor] as string);
  else if (paging.offset !== undefined) start = number(paging.offset) ?? 0;
  else if (paging.page !== undefined) start = Math.max(0, (number(paging.page) ?? 1) - 1) * limit;
  const page = matching.slice(start, start + limit);
  const next = start + limit < matching.length ? start + limit : undefined;

  const headers: Record<string, string> = {};
  const declared = new Set((responseFor(operation, status)?.headers ?? []).map((h) => h.name.toLowerCase()));
  if (declared.has('x-total-count')) headers['x-total-count'] = String(matching.length);
  if (declared.has('link')) {
    const links: string[] = [];
    const target = (at: number): string => `<${basePath}${operation.pathTemplate}?${pageQuery(paging, at, limit)}>`;
    if (next !== undefined) links.push(`${target(next)}; rel="next"`);
    if (start > 0) links.push(`${target(Math.max(0, start - limit))}; rel="prev"`);
    if (links.length > 0) headers['link'] = links.join(', ');
  }

  const shape = spec?.shape ?? { kind: 'array' as const };
  if (shape.kind === 'array') return { status, body: page, headers };
  const body: Record<string, unknown> = { [shape.itemsKey]: page };
  if (shape.totalKey) body[shape.totalKey] = matching.length;
  // The pages of this size the matching records fill (Adyen's `pagesTotal`): at least the one page answered.
  if (shape.pagesKey) body[shape.pagesKey] = Math.max(1, Math.ceil(matching.length / Math.max(1, limit)));
  if (shape.cursorKey && next !== undefined) body[shape.cursorKey] = encodeCursor(next);
  return { status, body, headers };
}

/** A record field matches a query value: equal as text, or one of the values of an array parameter or field. */
function matches(field: unknown, wanted: unknown): boolean {
  const asked = Array.isArray(wanted) ? wanted.map(String) : [String(wanted)];
  const held = Array.isArray(field) ? field.map(String) : field === undefined || field === null ? [] : [String(field)];
  return held.some((value) => asked.includes(value));
}

/** Cursors are opaque to clients (they only hand them back): the position, in base 36 behind a tag. */
function encodeCursor(position: number): string {
  return `c${position.toString(36)}`;
}

function decodeCursor(cursor: string): number {
  const match = /^c([0-9a-z]{1,10})$/.exec(cursor);
  return match ? parseInt(match[1]!, 36) : 0;
}

function pageQuery(paging: { readonly limit?: string; readonly offset?: string; readonly page?: string; readonly cursor?: string }, at: number, limit: number): string {
  const parts: string[] = [];
  if (paging.cursor) parts.push(`${paging.cursor}=${encodeCursor(at)}`);
  else if (paging.offset) parts.push(`${paging.offset}=${at}`);
  else if (paging.page) parts.push(`${paging.page}=${Math.floor(at / Math.max(1, limit)) + 1}`);
  if (paging.limit) parts.push(`${paging.limit}=${limit}`);
  return parts.join('&');
}
