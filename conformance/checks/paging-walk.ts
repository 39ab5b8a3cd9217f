import type { Operation, ParameterSpec } from '../../src/contract/index.js';
import { answered } from '../requests/call.js';
import type { Case } from '../context.js';
import type { ParamValue } from '../requests/values.js';
import { isObject } from '../generate.js';
import { stringifyJson } from '../json.js';
import { identityField } from '../links.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { totalCount } from './support.js';

/** At most this many pages are read in one walk: a bounded cost on any collection. */
const MAX_PAGES = 12;
/** At most this many records are created to fill a list past its default page size. */
const MAX_FILL = 60;
/** At most this many filtered walks per list, besides the whole list. */
const MAX_FILTER_WALKS = 4;

/**
 * A whole walk through every list that pages with `limit` and `offset`
 * (issue 19: collections): the first page without parameters holds the
 * documented default page size (min(default limit, total)); then, page by
 * page with a small limit, each page holds exactly min(limit, total -
 * offset) records, no record appears on two pages (no overlap), and, when
 * the walk reaches the end, the pages together hold every counted record
 * (no gap). The total is X-Total-Count where the document declares it;
 * without one, the walk ends at the first short page and only overlap and
 * page sizes are judged. A collection that changes during the walk (its
 * count moves) is read again once, then skipped with the reason: others
 * may be writing to a shared target.
 */
export const pagingWalk: CheckDefinition = {
  id: 'paging-walk',
  family: 'response',
  description: 'Paging through a list with limit and offset gives full pages of min(limit, total - offset) records, no overlap, no gap, and the documented default page size.',
  explain: {
    why: 'A client that pages by limit and offset trusts each page to start where the last one ended: an overlap shows a record twice, a gap loses one, a page longer than limit breaks layouts and a wrong default page size breaks clients that rely on it.',
    conformant: 'With 7 records and limit=3: offset 0 → 3 records, offset 3 → 3 others, offset 6 → the last one, offset 9 → none; X-Total-Count 7 on each; `GET /pets` alone holds min(20, total) when limit defaults to 20.',
  },
  writes: false, // it fills a short list with records of its own only when writes are allowed (not under --read-only)
  exclusive: true,
  async run(ctx) {
    for (const list of ctx.operations) {
      if (ctx.aborted) break;
      const limit = queryParameter(list, 'limit');
      const offset = queryParameter(list, 'offset');
      if (list.method !== 'get' || !limit || !offset || !list.responses.has('200')) continue;
      if (list.parameters.some((p) => p.required && p.in !== 'query') || list.parameters.some((p) => p.required && p.in === 'query' && p !== limit && p !== offset)) continue;
      // The whole list, then each value of its enum filters (a count that ignores the filter shows only there).
      const filters: Record<string, ParamValue>[] = [{}];
      for (const p of list.parameters) {
        if (p.in !== 'query' || p === limit || p === offset || !Array.isArray(p.schema.enum)) continue;
        for (const value of p.schema.enum) if (typeof value === 'string' && filters.length < 1 + MAX_FILTER_WALKS) filters.push({ [p.name]: value });
      }
      for (const filter of filters) {
        if (ctx.aborted) break;
        const shown = queryText(filter);
        const c = ctx.newCase('paging-walk', `${list.operationId}${shown ? `?${shown}` : ''}: a walk through every page`, list.operationId);
        await walk(c, list, limit, filter);
      }
    }
  },
};

function queryParameter(operation: Operation, name: string): ParameterSpec | undefined {
  const p = operation.parameters.find((q) => q.in === 'query' && q.name === name);
  return p && (p.schema.type === 'integer' || p.schema.type === 'number') ? p : undefined;
}

/** A record's identity on a page: its id field where the kind has one, else its whole JSON text. */
function keyOf(item: unknown, field: string | undefined): string {
  return isObject(item) && field !== undefined && item[field] !== undefined ? `id:${String(item[field])}` : `json:${stringifyJson(item)}`;
}

async function walk(c: Case, list: Operation, limitParameter: ParameterSpec, filter: Readonly<Record<string, ParamValue>>): Promise<void> {
  const kind = [...c.ctx.links.kinds.values()].find((k) => k.list === list);
  const field = kind ? identityField(kind) : 'id';
  const declaresCount = list.responses.get('200')?.headers.some((h) => h.name.toLowerCase() === 'x-total-count') ?? false;
  const defaultLimit = typeof limitParameter.schema.default === 'number' ? limitParameter.schema.default : undefined;
  const maxLimit = typeof limitParameter.schema.maximum === 'number' ? limitParameter.schema.maximum : 100;
  const minLimit = typeof limitParameter.schema.minimum === 'number' ? Math.max(1, limitParameter.schema.minimum) : 1;

  // The default page size shows only past it: records of the run's own fill the list to one more than the default.
  if (kind && defaultLimit !== undefined && Object.keys(filter).length === 0 && !c.ctx.settings.readOnly && c.ctx.isSelected(kind.create)) {
    const before = await c.call(list, { query: { limit: minLimit } });
    const count = declaresCount ? totalCount(before) : undefined;
    for (let made = 0; count !== undefined && made < Math.min(MAX_FILL, defaultLimit + 1 - count); made += 1) {
      const outcome = await c.create(kind, { setup: true });
      if (!outcome.ok) return c.setupFailed(outcome);
    }
  }
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const first = await c.call(list, { query: filter });
    if (first.problem) return c.fail(first.problem);
    if (first.status !== 200 || !Array.isArray(first.json)) return c.skip(`the first page could not be read as a list (${answered(first)}); its own checks judge that answer`);
    const total = declaresCount ? totalCount(first) : undefined;
    if (declaresCount && total === undefined) return c.skip(`${list.operationId} answered no usable X-Total-Count (response-headers' finding), so a walk has no total to check`);
    const findings: Finding[] = [];
    const described = Object.keys(filter).length > 0 ? `?${queryText(filter)}` : '';
    // A default page shorter than the count allows is judged once the walk shows the count is right (else it is the count's defect).
    let defaultShort: Finding | undefined;
    if (defaultLimit !== undefined) {
      const expected = total !== undefined ? Math.min(defaultLimit, total) : undefined;
      if ((expected !== undefined && first.json.length !== expected) || first.json.length > defaultLimit) {
        const finding: Finding = {
          pointer: '/body',
          keyword: 'default-page-size',
          message: `${list.operationId}${described} without limit answered ${first.json.length} records; its limit defaults to ${defaultLimit}${total !== undefined ? ` and ${total} match, so the page holds ${expected}` : ''}`,
          expected: expected ?? `<= ${defaultLimit}`,
          actual: first.json.length,
        };
        if (first.json.length > (expected ?? defaultLimit)) findings.push(finding);
        else defaultShort = finding;
      }
    }
    // A page size that reaches the end in a few pages, within the parameter's bounds.
    const size = Math.min(maxLimit, Math.max(minLimit, total !== undefined ? Math.ceil(total / (MAX_PAGES - 2)) : 3));
    const seen = new Map<string, number>();
    let moved = false;
    let reachedEnd = false;
    /** A page shorter than the count says: the records end before X-Total-Count does (total-count's defect), or they do not. */
    let shortfall: { offset: number; got: number; expected: number } | undefined;
    for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex += 1) {
      const offset = pageIndex * size;
      const page = await c.call(list, { query: { ...filter, limit: size, offset } });
      if (page.problem) return c.fail(page.problem);
      if (page.status !== 200 || !Array.isArray(page.json)) return c.skip(`page at offset ${offset} could not be read as a list (${answered(page)}); its own checks judge that answer`);
      const pageTotal = declaresCount ? totalCount(page) : undefined;
      if (total !== undefined && pageTotal !== total) {
        moved = true;
        break;
      }
      const expected = total !== undefined ? Math.max(0, Math.min(size, total - offset)) : undefined;
      if (page.json.length > (expected ?? size)) {
        findings.push({
          pointer: '/body',
          keyword: 'page-size',
          message: `${list.operationId}?${queryText({ ...filter, limit: size, offset })} answered ${page.json.length} records; ${total !== undefined ? `with ${total} in all the page holds min(${size}, ${total} - ${offset}) = ${expected}` : `limit is ${size}`}`,
          expected: expected ?? `<= ${size}`,
          actual: page.json.length,
        });
      }
      for (const item of page.json) {
        const key = keyOf(item, field);
        const earlier = seen.get(key);
        if (earlier !== undefined) {
          findings.push({
            pointer: '/body',
            keyword: 'overlap',
            message: `${list.operationId}: the record ${key.replace(/^id:/, `${field ?? 'id'} `)} is on the page at offset ${earlier} and again at offset ${offset} (limit ${size})`,
            expected: 'each record on one page only',
            actual: { offset: [earlier, offset] },
          });
        } else {
          seen.set(key, offset);
        }
      }
      if (findings.length > 0) break;
      if (expected !== undefined && page.json.length < expected) {
        shortfall = { offset, got: page.json.length, expected };
        break;
      }
      if (total !== undefined ? offset + size >= total : page.json.length < size) {
        reachedEnd = true;
        break;
      }
    }
    if (moved) {
      if (attempt === 0) continue;
      return c.skip(`X-Total-Count of ${list.operationId} changed during the walk twice: the collection is being written to, so no page can be judged`);
    }
    if (findings.length === 0 && shortfall && total !== undefined) {
      // The pages were right as far as they went and then ran out: the count promises records that are not there.
      // One defect, one owner: that is a count's defect, filed under total-count.
      const message = `${list.operationId}${described}: X-Total-Count is ${total}, yet the page at offset ${shortfall.offset} (limit ${size}) holds ${shortfall.got} records, not ${shortfall.expected}: the list ends after ${seen.size} records`;
      c.ctx.newCase('total-count', `${list.operationId}${described}: X-Total-Count against a walk of every page`, list.operationId).fail(message, [
        { pointer: '/header/x-total-count', keyword: 'count', message, expected: seen.size, actual: total },
      ]);
      return c.skip('the pages end before X-Total-Count says; that is total-count\'s finding');
    }
    if (findings.length === 0 && defaultShort && reachedEnd) findings.push(defaultShort);
    // Every counted record showed on some page: no gap (a full walk only).
    if (findings.length === 0 && reachedEnd && total !== undefined && seen.size !== total) {
      findings.push({ pointer: '/body', keyword: 'gap', message: `${list.operationId}: walking every page with limit ${size} gave ${seen.size} distinct records, yet X-Total-Count is ${total}`, expected: total, actual: seen.size });
    }
    return c.conclude(findings);
  }
}

function queryText(query: Readonly<Record<string, ParamValue>>): string {
  return Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
}
