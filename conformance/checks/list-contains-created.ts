import { excerptJson } from '../json.js';
import type { Operation } from '../../src/contract/index.js';
import { answered } from '../requests/call.js';
import type { Case, CreatedRecord } from '../context.js';
import type { ParamValue } from '../requests/values.js';
import { isObject, jsonBodyOf, propertiesOf, schema } from '../generate.js';
import { createdSchema, createdUnder, evaluateExpression, identityField, unqualified } from '../links.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { findItem, idOf, otherValue, readSucceeded, readSuccess } from './support.js';
import { pageItems } from './page-items.js';

/**
 * The collection a create operation adds to lists the new record, and its
 * filters and pagination hold on it. The collection is narrowed to the
 * run's own records (the id filter the 201 links to, or a parent the run
 * owns), so other data in the target cannot disturb the result and nothing
 * pages through a whole collection.
 */
export const listContainsCreated: CheckDefinition = {
  id: 'list-contains-created',
  family: 'stateful',
  description: 'The collection lists a created record, and its filters and limit/offset pages hold on it, also after a replace changes what a filter reads.',
  explain: {
    why: 'A list that misses new records, or filters and pages that do not hold, makes clients show stale or wrong data.',
    conformant: 'After creating a pet, `GET /pets?id=21` lists it, `?status=` and `?categoryId=` filters keep or drop it as its fields say (also after a replace moves it to another category), and limit/offset pages never repeat or skip it.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      const list = kind.list;
      if (!list || !ctx.isSelected(list)) continue;
      const c = ctx.newCase('list-contains-created', `${kind.create.operationId} twice, then ${list.operationId} with its filters and pages`, list.operationId);
      const idLink = kind.listReads.find((t) => t.operation === list);
      const idParam = idLink ? Object.keys(idLink.link.parameters).map(unqualified)[0] : undefined;
      const producedParent = list.parameters.find((p) => {
        if (p.in !== 'query') return false;
        const producer = ctx.links.producers.get(p.name);
        return producer !== undefined && producer.kind !== kind && p.name in propertiesOf(createdSchema(kind));
      });

      const first = await c.create(kind, { setup: true });
      if (!first.ok) {
        c.setupFailed(first);
        continue;
      }
      // A filter the list requires (Adyen's `GET /registeredDevices?paymentInstrumentId=`) is given the value the
      // record was created with: a made-up value would rightly list none of the run's records.
      const parentParam = producedParent ?? list.parameters.find((p) => p.in === 'query' && p.required === true && isScalar(first.record.sent[p.name]));
      // A record whose id only its Location gives (Xero's envelopes: `{"Items": [{ItemID, ...}]}`) names no field a
      // listed record could be matched by: no list can be searched for it.
      if (identityField(kind) === undefined || idOf(first.record) === undefined) {
        c.skip(`${kind.create.operationId}'s answer gives the record's id in no body field its links read, so ${list.operationId} cannot be searched for it`);
        continue;
      }
      const records: CreatedRecord[] = [first.record];
      const parentValue = parentParam ? first.record.sent[parentParam.name] : undefined;
      // A nested collection (`/lists/{tasklist}/tasks`) is read in the list the record was created in, and the second
      // record is created there too.
      const under: Record<string, ParamValue> = createdUnder(kind, first.record.call.source);
      // A second record under the same parent; a state rule may refuse it (one open order per pet), and one record still tests most.
      const second = await c.create(kind, { setup: true, within: under, ...(parentParam && parentValue !== undefined ? { bindings: { [parentParam.name]: parentValue } } : {}) });
      if (second.ok) records.push(second.record);

      const field = identityField(kind);
      let narrowing: Record<string, ParamValue> | undefined;
      if (idParam) narrowing = { [idParam]: records.map((r) => String(idOf(r))) };
      else if (parentParam && isScalar(parentValue)) narrowing = { [parentParam.name]: parentValue };

      const findings: Finding[] = [];
      if (narrowing) {
        const page = await listPage(c, list, under, narrowing);
        if ('finding' in page) findings.push(page.finding);
        else {
          // Membership by identity: whether the fields are what was sent is create-read-back's to say.
          for (const record of records) if (!findItem(page.items, field, idOf(record))) findings.push(missing(list, narrowing, record));
        }
        findings.push(...(await filtersHold(c, list, under, narrowing, first.record, [idParam, parentParam?.name])));
        findings.push(...(await pagesHold(c, list, under, narrowing, records)));
        // Narrowed to the run's own records, a filter must follow a replace that changes what it filters on.
        if (findings.length === 0) findings.push(...(await filtersFollowReplace(c, list, under, narrowing, first.record, [idParam, parentParam?.name])));
      } else {
        const found = await boundedSearch(c, list, under, records);
        if ('skip' in found) {
          c.skip(found.skip);
          continue;
        }
        findings.push(...found);
        if (hasParam(list, 'limit')) {
          const page = await listPage(c, list, under, { limit: 1 });
          if ('finding' in page) findings.push(page.finding);
          else if (page.items.length > 1) findings.push({ pointer: '/body', keyword: 'maxItems', message: `limit=1 gave ${page.items.length} records`, expected: '<= 1', actual: page.items.length });
        }
      }
      c.conclude(findings);
    }
  },
};

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function hasParam(list: Operation, name: string): boolean {
  return list.parameters.some((p) => p.in === 'query' && p.name === name);
}

function describeQuery(query: Record<string, ParamValue>): string {
  return Object.entries(query)
    .map(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}=${String(x)}`).join('&') : `${k}=${String(v)}`))
    .join('&');
}

function missing(list: Operation, query: Record<string, ParamValue>, record: CreatedRecord): Finding {
  return { pointer: '/body', keyword: 'contains', message: `${list.operationId}?${describeQuery(query)} does not list the created record ${String(idOf(record))}`, expected: idOf(record) };
}

async function listPage(c: Case, list: Operation, under: Record<string, ParamValue>, query: Record<string, ParamValue>): Promise<{ items: unknown[] } | { finding: Finding }> {
  const call = await c.call(list, { path: under, query });
  if (call.problem) return { finding: { pointer: '/status', keyword: 'list', message: call.problem } };
  const items = readSucceeded(list, call.status) ? pageItems(call.json, list.pathTemplate.split('/').pop() ?? '') : undefined;
  if (items === undefined) {
    return { finding: { pointer: '/status', keyword: 'list', message: `${answered(call)}${readSucceeded(list, call.status) ? ' without a list of records (a JSON array, or an object holding one)' : ''}; expected ${readSuccess(list)} with a page`, expected: readSuccess(list), actual: call.status } };
  }
  return { items };
}

/** Each other filter the record has a field for: its own value keeps the record in, another value leaves it out. */
async function filtersHold(c: Case, list: Operation, under: Record<string, ParamValue>, narrowing: Record<string, ParamValue>, record: CreatedRecord, exclude: readonly (string | undefined)[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const field = identityField(record.kind);
  for (const parameter of list.parameters) {
    if (parameter.in !== 'query' || ['limit', 'offset'].includes(parameter.name) || exclude.includes(parameter.name) || parameter.name in narrowing) continue;
    const value = record.body[parameter.name];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const same = await listPage(c, list, under, { ...narrowing, [parameter.name]: value });
    if ('finding' in same) findings.push(same.finding);
    else if (!findItem(same.items, field, idOf(record))) findings.push({ ...missing(list, { ...narrowing, [parameter.name]: value }, record), keyword: 'filter' });
    const other = otherValue(parameter, value);
    if (other === undefined) continue;
    const different = await listPage(c, list, under, { ...narrowing, [parameter.name]: other });
    if ('finding' in different) findings.push(different.finding);
    else if (findItem(different.items, field, idOf(record))) {
      findings.push({ pointer: '/body', keyword: 'filter', message: `${list.operationId}?${describeQuery({ ...narrowing, [parameter.name]: other })} lists record ${String(idOf(record))}, whose ${parameter.name} is ${String(value)}`, expected: `no record with ${parameter.name} ${String(value)}`, actual: idOf(record) });
    }
  }
  return findings;
}

/**
 * A write that changes a field a filter reads (the replace a 201 links to, else its partial update of that field:
 * an enum or a flag to another value, a field naming another record to a new record of that kind: a pet moved to
 * another category, an order completed) moves the record between the filter's answers:
 * listed under the new value, no longer under the old. A server that keeps an index or a count per value and
 * updates it only on create shows the record where it was.
 */
async function filtersFollowReplace(c: Case, list: Operation, under: Record<string, ParamValue>, narrowing: Record<string, ParamValue>, record: CreatedRecord, exclude: readonly (string | undefined)[]): Promise<Finding[]> {
  const field = identityField(record.kind);
  const patch = record.kind.links.find((t) => t.operation.method === 'patch' && jsonBodyOf(t.operation) !== undefined);
  const findings: Finding[] = [];
  for (const parameter of list.parameters) {
    if (parameter.in !== 'query' || ['limit', 'offset'].includes(parameter.name) || exclude.includes(parameter.name) || parameter.name in narrowing) continue;
    const old = record.body[parameter.name];
    if (typeof old !== 'string' && typeof old !== 'number' && typeof old !== 'boolean') continue;
    const producer = c.ctx.links.producers.get(parameter.name);
    let next: unknown;
    if (producer && producer.kind !== record.kind) {
      const parent = await c.create(producer.kind, { setup: true });
      if (!parent.ok) continue;
      next = evaluateExpression(producer.expression, parent.record.call.source);
    } else {
      next = otherValue(parameter, old);
    }
    if (next === undefined || next === null || typeof next === 'object') continue;
    // The write: the replace, keeping the record's other bindings and changing this one field; else a partial update of that field alone.
    const write = record.kind.replace ?? (patch && parameter.name in propertiesOf(jsonBodyOf(patch.operation)?.schema) ? patch : undefined);
    if (!write) continue;
    let body: unknown;
    if (write.operation.method === 'patch') {
      body = { [parameter.name]: next };
      if (!c.checkValid(write.operation, { body }).ok) continue;
    } else {
      const bindings = { ...Object.fromEntries(Object.entries(record.sent).filter(([name]) => c.ctx.links.producers.has(name))), [parameter.name]: next };
      const generated = c.generator.validBodyOrReason(write.operation, bindings);
      if (!generated.ok || !isObject(generated.body) || generated.body[parameter.name] !== next) continue;
      body = generated.body;
    }
    const call = await c.follow(write, record, { body });
    // A write refused (a state rule) or failed is replace-visible's or patch-keeps-fields' to judge: nothing moved.
    if (call.status === undefined || call.status < 200 || call.status >= 300) continue;
    const replace = write;
    const moved = await listPage(c, list, under, { ...narrowing, [parameter.name]: next as ParamValue });
    if ('finding' in moved) findings.push(moved.finding);
    else if (!findItem(moved.items, field, idOf(record))) findings.push({ ...missing(list, { ...narrowing, [parameter.name]: next as ParamValue }, record), keyword: 'filter', message: `after ${replace.operation.operationId} set ${parameter.name} to ${String(next)}, ${list.operationId}?${describeQuery({ ...narrowing, [parameter.name]: next as ParamValue })} does not list record ${String(idOf(record))}` });
    const left = await listPage(c, list, under, { ...narrowing, [parameter.name]: old });
    if ('finding' in left) findings.push(left.finding);
    else if (findItem(left.items, field, idOf(record))) findings.push({ pointer: '/body', keyword: 'filter', message: `after ${replace.operation.operationId} set ${parameter.name} from ${String(old)} to ${String(next)}, ${list.operationId}?${describeQuery({ ...narrowing, [parameter.name]: old })} still lists record ${String(idOf(record))}`, expected: `no record with ${parameter.name} ${String(old)}`, actual: idOf(record) });
  }
  return findings;
}

/** limit=1 pages at offsets 0..n: one record each, all different, together the run's records; past the end, none. */
async function pagesHold(c: Case, list: Operation, under: Record<string, ParamValue>, narrowing: Record<string, ParamValue>, records: readonly CreatedRecord[]): Promise<Finding[]> {
  if (!hasParam(list, 'limit') || !hasParam(list, 'offset')) return [];
  const field = identityField(records[0]!.kind);
  const findings: Finding[] = [];
  const seen: unknown[] = [];
  for (let offset = 0; offset <= records.length; offset += 1) {
    const query = { ...narrowing, limit: 1, offset };
    const page = await listPage(c, list, under, query);
    if ('finding' in page) {
      findings.push(page.finding);
      continue;
    }
    const expected = offset < records.length ? 1 : 0;
    if (page.items.length !== expected) {
      findings.push({ pointer: '/body', keyword: 'page', message: `${list.operationId}?${describeQuery(query)} gave ${page.items.length} records; ${records.length} match, so this page holds ${expected}`, expected, actual: page.items.length });
    }
    for (const item of page.items) if (field && typeof item === 'object' && item !== null) seen.push((item as Record<string, unknown>)[field]);
  }
  const ids = records.map((r) => idOf(r));
  const missingIds = ids.filter((id) => !seen.some((s) => s === id));
  if (missingIds.length > 0 || new Set(seen).size !== seen.length) {
    findings.push({ pointer: '/body', keyword: 'page', message: `the limit=1 pages together gave ${excerptJson(seen)}; they should give each of ${excerptJson(ids)} once`, expected: ids, actual: seen });
  }
  return findings;
}

/**
 * Without a narrowing filter: the first page, then the last (two requests at
 * most), whatever the collection's order; every record the check created must
 * be in one of them, unless the collection is too large to tell. The last
 * page is found by X-Total-Count; when a full first page comes without a
 * usable count the records may lie on any later page, so the case is skipped
 * with the reason: the missing header is response-headers' finding, and one
 * defect is reported once (architecture principle 6).
 */
async function boundedSearch(c: Case, list: Operation, under: Record<string, ParamValue>, records: readonly CreatedRecord[]): Promise<{ skip: string } | Finding[]> {
  const field = identityField(records[0]!.kind);
  const max = Number(list.parameters.find((p) => p.in === 'query' && p.name === 'limit')?.schema.maximum ?? 100);
  const limit: Record<string, ParamValue> = hasParam(list, 'limit') ? { limit: max } : {};
  const lastSegment = list.pathTemplate.split('/').pop() ?? '';
  // A required filter the records carry no value for would be filled with a made-up one, which rightly lists none.
  const unbound = list.parameters.find((p) => p.in === 'query' && p.required === true && !(p.name in limit));
  if (unbound) return { skip: `${list.operationId} requires ${unbound.name}, which the created records give no value for; a made-up one would list none of them` };
  const first = await c.call(list, { path: under, query: limit });
  const items = readSucceeded(list, first.status) ? pageItems(first.json, lastSegment) : undefined;
  if (first.problem || items === undefined) {
    return [{ pointer: '/status', keyword: 'list', message: first.problem ?? `${answered(first)}${readSucceeded(list, first.status) ? ' without a list of records (a JSON array, or an object holding one)' : ''}; expected ${readSuccess(list)} with a page`, expected: readSuccess(list), actual: first.status }];
  }
  const seen = [...items];
  let notFound = records.filter((r) => !findItem(seen, field, idOf(r)));
  if (notFound.length === 0) return [];
  const total = totalCount(first.headers['x-total-count']) ?? envelopeTotal(first.json);
  if (hasParam(list, 'offset') && total !== undefined && total > items.length) {
    const last = await c.call(list, { path: under, query: { ...limit, offset: Math.max(0, total - max) } });
    seen.push(...(readSucceeded(list, last.status) ? (pageItems(last.json, lastSegment) ?? []) : []));
    notFound = records.filter((r) => !findItem(seen, field, idOf(r)));
    if (notFound.length === 0) return [];
    if (total > 2 * max) return { skip: `${list.operationId} has no filter that narrows it to this run's records, and they are in neither its first nor its last page; the runner does not page through a whole collection` };
    return notFound.map((record) => missing(list, limit, record));
  }
  // Only a first page shown to be the whole collection can miss a record: a total no larger than it, or no sign of
  // another page (a full page under a limit, a page/cursor parameter, a `next` or `has_more` member, a Link rel=next).
  const whole = total !== undefined ? total <= items.length : !(items.length >= max && hasParam(list, 'limit')) && !pagedOtherwise(list) && !morePages(first.json, first.headers['link']) && !DEFAULT_PAGE_SIZES.has(items.length);
  if (!whole && total === undefined && hasParam(list, 'offset') && items.length >= max) {
    return { skip: `${list.operationId} has no filter that narrows it to this run's records, they are not on its first page of ${max}, and it answered without a usable X-Total-Count (response-headers reports that), so its last page cannot be found; the runner does not page through a whole collection` };
  }
  if (!whole) {
    return { skip: `${list.operationId} has no filter that narrows it to this run's records, they are not on its first page, and ${total === undefined ? 'it gives no total' : `its total (${total}) says more pages follow`} the runner can reach in two requests; the runner does not page through a whole collection` };
  }
  return notFound.map((record) => missing(list, limit, record));
}

/**
 * Page sizes servers answer by default where the document declares no paging (GitHub's 30, Stripe's 10, the generic
 * mock's 100): a first page of exactly that many records, with no total, may be one page of more, and a record missing
 * from it is not shown missing (Lago's billing entities, no paging parameter: the run's records were past the first 100).
 */
const DEFAULT_PAGE_SIZES: ReadonlySet<number> = new Set([10, 20, 25, 30, 50, 100, 200, 250, 500, 1000]);

/** Paging parameters other than limit/offset (page numbers, sizes, cursors, OData's): a first page may not be all. */
const OTHER_PAGING = /^(page|page_?(number|index|size)|per_?page|cursor|after|before|starting_after|ending_before|page_?token|next_?token|continuation|marker|\$?skip|\$?top)$/i;

function pagedOtherwise(list: Operation): boolean {
  return list.parameters.some((p) => p.in === 'query' && OTHER_PAGING.test(p.name));
}

/** An envelope's count of all matching records, by the names APIs give it. */
const TOTAL_MEMBERS = ['total', 'totalCount', 'total_count', 'totalItems', 'total_items', 'itemsTotal', 'items_total', 'totalResults', 'total_results', 'totalElements', 'total_elements'];

function envelopeTotal(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const value = TOTAL_MEMBERS.map((name) => record[name]).find((candidate) => typeof candidate === 'number' && Number.isSafeInteger(candidate) && candidate >= 0);
  return typeof value === 'number' ? value : undefined;
}

/** Whether an answer says another page follows: `done: false`, a truthy `has_more`/`hasMore`, a `next` cursor or link, a Link rel=next (RFC 8288). */
function morePages(body: unknown, link: string | undefined): boolean {
  if (link !== undefined && /rel\s*=\s*"?[^";,]*\bnext\b/i.test(link)) return true;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  // Svix's `{ data, iterator, done }`: `done` says it outright, whatever the iterator holds.
  if (typeof record['done'] === 'boolean') return !record['done'];
  return ['has_more', 'hasMore', 'next', 'nextCursor', 'next_cursor', 'nextPageToken', 'next_page_token', 'iterator'].some((name) => {
    const value = record[name];
    return value === true || (typeof value === 'string' && value !== '') || (typeof value === 'object' && value !== null);
  });
}

/** X-Total-Count as a count (contract.md: the number of matching records), or undefined when absent or not a non-negative integer. */
function totalCount(header: string | undefined): number | undefined {
  return header !== undefined && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
}
