import type { Operation } from '../../src/contract/index.js';
import type { Case, CreatedRecord, RunContext } from '../context.js';
import type { ParamValue } from '../requests/values.js';
import { answered } from '../requests/call.js';
import { isObject, propertiesOf, schema } from '../generate.js';
import { createdSchema, identityField, unqualified, type ResourceKind } from '../links.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { idOf, totalCount } from './support.js';

/**
 * X-Total-Count is the number of records matching the filters before limit
 * and offset (the document's convention). On every list answer it is at
 * least offset + the records on the page. Then, on the run's own records (a
 * filter narrows the list to them), it equals how many there are, on every
 * page whose records are indeed the run's (a filter that does not hold is
 * list-contains-created's finding); where nothing narrows the list, it stays
 * the same across two pages. A missing or non-integer header is
 * response-headers' finding, not this one's.
 */
export const totalCountCheck: CheckDefinition = {
  id: 'total-count',
  family: 'response',
  description: 'X-Total-Count matches the data: the count of matching records, the same on every page.',
  explain: {
    why: 'Clients build pagination from X-Total-Count; a count of the page, or one that changes between pages, makes them stop early or loop.',
    conformant: '`X-Total-Count` equal to the number of records matching the filters before limit and offset, the same on every page.',
  },
  writes: false,
  exclusive: true,
  judge(x) {
    if (!x.operation || x.status !== 200 || !Array.isArray(x.json)) return NOT_APPLICABLE;
    const declared = x.operation.responses.get('200')?.headers.some((h) => h.name.toLowerCase() === 'x-total-count');
    const text = x.headers['x-total-count'];
    if (!declared || text === undefined || !/^\d+$/.test(text.trim())) return NOT_APPLICABLE;
    const total = Number(text);
    const { offset } = paging(x.operation, x.record.query);
    const items = x.json.length;
    // The one thing a single page proves whatever else is wrong with it: this many records exist.
    // (A short page with a larger count may as well be a page that lost records: that is the list's defect, not the count's.)
    const findings: Finding[] =
      items > 0 && total < offset + items
        ? [{ pointer: '/header/x-total-count', keyword: 'count', message: `X-Total-Count ${total} is less than offset ${offset} + the ${items} records on this page`, expected: `>= ${offset + items}`, actual: total }]
        : [];
    return verdictOf(findings);
  },
  async run(ctx) {
    for (const list of ctx.operations) {
      if (ctx.aborted) break;
      if (list.method !== 'get' || !list.responses.get('200')?.headers.some((h) => h.name.toLowerCase() === 'x-total-count')) continue;
      const c = ctx.newCase('total-count', `${list.operationId}: X-Total-Count across pages`, list.operationId);
      const kind = [...ctx.links.kinds.values()].find((k) => k.list === list);
      if (kind && !ctx.settings.readOnly) await ownRecords(ctx, c, kind, list);
      else await consistency(c, list);
    }
  },
};

function paging(operation: Operation, query: Readonly<Record<string, readonly string[]>>): { offset: number } {
  const given = query['offset']?.[0];
  const fallback = operation.parameters.find((p) => p.in === 'query' && p.name === 'offset')?.schema.default;
  return { offset: given !== undefined ? Number(given) : typeof fallback === 'number' ? fallback : 0 };
}

/** Creates records the run alone can see through a filter, then reads the count on several pages. */
async function ownRecords(ctx: RunContext, c: Case, kind: ResourceKind, list: Operation): Promise<void> {
  const idLink = kind.listReads.find((t) => t.operation === list);
  const idParam = idLink ? Object.keys(idLink.link.parameters).map(unqualified)[0] : undefined;
  const parentParam = list.parameters.find((p) => {
    const producer = ctx.links.producers.get(p.name);
    return p.in === 'query' && producer !== undefined && producer.kind !== kind && p.name in propertiesOf(createdSchema(kind));
  });
  if (!idParam && !parentParam) return consistency(c, list);
  const first = await c.create(kind, { setup: true });
  if (!first.ok) return c.setupFailed(first);
  const records: CreatedRecord[] = [first.record];
  const parentValue = parentParam ? first.record.sent[parentParam.name] : undefined;
  const second = await c.create(kind, { setup: true, ...(parentParam && parentValue !== undefined ? { bindings: { [parentParam.name]: parentValue } } : {}) });
  if (second.ok) records.push(second.record);
  const narrowings: Record<string, ParamValue>[] = [];
  if (idParam) narrowings.push({ [idParam]: records.map((r) => String(idOf(r))) });
  if (parentParam && (typeof parentValue === 'string' || typeof parentValue === 'number')) narrowings.push({ [parentParam.name]: parentValue });
  const hasPaging = list.parameters.some((p) => p.name === 'limit') && list.parameters.some((p) => p.name === 'offset');
  const findings: Finding[] = [];
  let judged = 0;
  for (const narrowing of narrowings) {
    const pages: Record<string, ParamValue>[] = [narrowing, ...(hasPaging ? [{ ...narrowing, limit: 1, offset: 0 }, { ...narrowing, limit: 1, offset: 1 }, { ...narrowing, limit: 1, offset: records.length + 5 }] : [])];
    for (const query of pages) {
      const call = await c.call(list, { query });
      if (call.problem) return c.fail(call.problem);
      if (call.status !== 200 || !Array.isArray(call.json)) continue; // the list's own status is judged elsewhere
      const total = totalCount(call);
      if (total === undefined) continue; // response-headers' finding
      const field = identityField(kind);
      if (!call.json.every((item) => isObject(item) && records.some((r) => field !== undefined && item[field] === idOf(r)))) continue;
      judged += 1;
      if (total !== records.length) {
        const described = Object.entries(query).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`).join('&');
        findings.push({ pointer: '/header/x-total-count', keyword: 'count', message: `${list.operationId}?${described}: ${records.length} records match (all created by this run), yet X-Total-Count is ${total}`, expected: records.length, actual: total });
      }
    }
  }
  if (judged === 0) return c.skip(`no page of ${list.operationId} held only this run's records, so there is no known count to compare with (list-contains-created reports a filter that does not hold)`);
  c.conclude(findings);
}

/** Two pages of an unfiltered list read back to back give the same count (read again once if they differ: others may write meanwhile). */
async function consistency(c: Case, list: Operation): Promise<void> {
  const hasPaging = list.parameters.some((p) => p.name === 'limit') && list.parameters.some((p) => p.name === 'offset');
  if (!hasPaging) return c.skip(`${list.operationId} has no limit/offset to page with`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const a = await c.call(list, { query: { limit: 1, offset: 0 } });
    const b = await c.call(list, { query: { limit: 1, offset: 1 } });
    if (a.problem || b.problem) return c.fail((a.problem ?? b.problem)!);
    const ta = totalCount(a);
    const tb = totalCount(b);
    if (a.status !== 200 || b.status !== 200 || ta === undefined || tb === undefined) return c.skip(`no count to compare (${answered(a)}; ${answered(b)})`);
    if (ta === tb) return c.pass();
    if (attempt === 1) {
      return c.fail(`X-Total-Count differs between pages: ${ta} at offset 0, ${tb} at offset 1`, [{ pointer: '/header/x-total-count', keyword: 'count', message: 'the count of matching records must not depend on the page', expected: ta, actual: tb }]);
    }
  }
}
