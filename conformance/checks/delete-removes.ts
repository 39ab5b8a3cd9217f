import type { Operation } from '../../src/contract/index.js';
import type { Case, CreatedRecord } from '../context.js';
import { isObject } from '../generate.js';
import { answered, type Call } from '../requests/call.js';
import type { ParamValue } from '../requests/values.js';
import { createdUnder, evaluateExpression, identityField, namesCollection, pathProducer } from '../links.js';
import { templateParameters } from '../requests/paths.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { goneBySunset } from './sunset-410.js';
import { pageItems } from './page-items.js';
import { findItem, idOf, inRun, readSucceeded, totalCount } from './support.js';

/**
 * Delete a created record through the DELETE its 201 links to, after
 * reading it once through every read link (so a cache holds it); afterwards
 * every read link of the 201 gives a 404 (a filtered list no longer holds
 * it). RFC 9110 §9.3.5: after a successful DELETE the resource is gone.
 */
export const deleteRemoves: CheckDefinition = {
  id: 'delete-removes',
  family: 'stateful',
  description: 'A delete (the DELETE a 201 links to) succeeds, and every read link then gives 404.',
  explain: {
    why: 'A delete that answers 204 but keeps the record leaves clients reading data they removed (RFC 9110 section 9.3.5).',
    conformant: '`DELETE /pets/21` answers 204, then `GET /pets/21` answers 404 with the Error shape.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      const remove = kind.remove;
      if (!remove || !ctx.isSelected(remove.operation)) continue;
      const c = ctx.newCase('delete-removes', `${kind.create.operationId}, then ${remove.operation.operationId} and read again`, remove.operation.operationId);
      const outcome = await c.create(kind, { setup: true });
      if (!outcome.ok) {
        c.setupFailed(outcome);
        continue;
      }
      const record = outcome.record;
      // A read before the delete: a server that caches reads must not answer the ones after it from that cache.
      for (const target of kind.reads) await c.follow(target, record);
      const call = await c.follow(remove, record);
      if (call.problem) {
        c.fail(call.problem);
        continue;
      }
      if (call.status === undefined || call.status < 200 || call.status >= 300) {
        c.fail(`${answered(call)} when deleting a record the run created`, [{ pointer: '/status', keyword: 'status', message: 'deleting an existing record must succeed', expected: '2xx', actual: call.status }]);
        continue;
      }
      const findings: Finding[] = [];
      for (const target of kind.reads) {
        const read = await c.follow(target, record);
        if (read.problem) findings.push({ pointer: '/status', keyword: 'link', message: `${target.link.name}: ${read.problem}` });
        else if (read.status !== 404 && !goneBySunset(target.operation, read.status)) findings.push({ pointer: '/status', keyword: 'gone', message: `${target.link.name} (${target.operation.operationId}) after the delete: ${answered(read)}, not 404`, expected: 404, actual: read.status });
      }
      // Reads the 201 does not link but that are keyed by the record's id alone (`GET /store/inventory/{petId}` by the
      // producer of petId): what hangs on the record by its id is gone with it.
      for (const read of ctx.operations) {
        const ids = read.parameters.filter((p) => p.in === 'path');
        if (read.method !== 'get' || ids.length !== 1 || !read.responses.has('404') || kind.reads.some((t) => t.operation === read)) continue;
        const producer = pathProducer(ctx.links, read, ids[0]!.name);
        if (producer?.kind !== kind) continue;
        // Where the links are the runner's guess (the document declares none), a parameter name alone binds another
        // collection's path to this record only when it names this collection (`petId` for /pets): Rebilly's
        // `/reset-password/{token}` is no read of an authentication token because both say `token`.
        if (kind.inferred && !namesCollection(ids[0]!.name, kind.create.pathTemplate)) continue;
        const value = evaluateExpression(producer.expression, record.call.source);
        if (value === undefined || value === null || typeof value === 'object') continue;
        const after = await c.call(read, { path: { [ids[0]!.name]: typeof value === 'bigint' ? value.toString() : (value as string | number) } });
        if (after.problem) findings.push({ pointer: '/status', keyword: 'link', message: `${read.operationId}: ${after.problem}` });
        else if (after.status !== 404 && !goneBySunset(read, after.status)) findings.push({ pointer: '/status', keyword: 'gone', message: `${read.operationId} of the deleted record's ${ids[0]!.name} after the delete: ${answered(after)}, not 404`, expected: 404, actual: after.status });
      }
      // A second DELETE finds nothing to delete: it answers the document's 404, as for an id never used, not a 2xx
      // that tells the client the record was there (RFC 9110 §9.3.5; the document's 404 for an absent record).
      if (remove.operation.responses.has('404')) {
        const again = await c.follow(remove, record);
        if (again.problem) findings.push({ pointer: '/status', keyword: 'link', message: `${remove.operation.operationId} again: ${again.problem}` });
        else if (again.status !== undefined && again.status >= 200 && again.status < 300) findings.push({ pointer: '/status', keyword: 'gone', message: `a second ${remove.operation.operationId} of the deleted record answered ${again.status}, not 404: the record is gone`, expected: 404, actual: again.status });
      }
      for (const target of kind.listReads) {
        const read = await c.follow(target, record);
        if (read.problem) findings.push({ pointer: '/status', keyword: 'link', message: `${target.link.name}: ${read.problem}` });
        else if (readSucceeded(target.operation, read.status) && findItem(read.json, identityField(kind), idOf(record))) {
          findings.push({ pointer: '/body', keyword: 'gone', message: `${target.link.name} (${target.operation.operationId}) still lists the deleted record ${String(idOf(record))}`, actual: idOf(record) });
        }
      }
      // The collection the record was created in no longer lists it, where no filtered read above looked: its first
      // page and, by X-Total-Count, its last (where a new record is listed, oldest or newest first). A record on
      // neither page is not searched for further.
      const list = kind.list;
      if (list && inRun(ctx, list) && !kind.listReads.some((t) => t.operation === list) && !list.parameters.some((p) => p.in === 'query' && p.required === true)) {
        findings.push(...(await stillListed(c, list, record)));
      }
      // A write to the deleted record finds nothing to write either: the replace its 201 links to answers the
      // document's 404, not a 2xx that brings the record back (a soft delete a write clears). Only where the replace
      // documents a 404 and no 201 (a PUT that may create at the URL).
      const replace = kind.replace;
      if (replace && inRun(ctx, replace.operation) && replace.operation.responses.has('404') && !replace.operation.responses.has('201')) {
        const bindings = Object.fromEntries(Object.entries(record.sent).filter(([name]) => ctx.links.producers.has(name)));
        const body = replace.operation.requestBody ? c.generator.validBodyOrReason(replace.operation, bindings) : undefined;
        if (body === undefined || body.ok) {
          const write = await c.follow(replace, record, body?.ok ? { body: isObject(body.body) ? { ...body.body, ...bindings } : body.body } : {});
          if (write.problem) findings.push({ pointer: '/status', keyword: 'link', message: `${replace.operation.operationId} after the delete: ${write.problem}` });
          else if (write.status !== undefined && write.status >= 200 && write.status < 300) {
            findings.push({ pointer: '/status', keyword: 'gone', message: `${replace.operation.operationId} of the deleted record answered ${write.status}, not 404: a write brought back a record the delete removed`, expected: 404, actual: write.status });
          }
        }
      }
      c.conclude(findings);
    }
  },
};

/** The deleted record on the first or (by X-Total-Count) the last page of its collection: a finding, else none. */
async function stillListed(c: Case, list: Operation, record: CreatedRecord): Promise<Finding[]> {
  const field = identityField(record.kind);
  const id = idOf(record);
  if (field === undefined || id === undefined) return [];
  const max = Number(list.parameters.find((p) => p.in === 'query' && p.name === 'limit')?.schema.maximum ?? 100);
  const limit: Record<string, ParamValue> = list.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: max } : {};
  const lastSegment = list.pathTemplate.split('/').pop() ?? '';
  // A nested collection (`/lists/{tasklist}/tasks`) is read in the parent the record was created in; a list whose path
  // the create did not name is not searched.
  const path = createdUnder(record.kind, record.call.source);
  if (templateParameters(list.pathTemplate).some((name) => path[name] === undefined)) return [];
  const first = await c.call(list, { path, query: limit });
  if (first.problem || !readSucceeded(list, first.status)) return [];
  const listed = (call: Call, query: Record<string, ParamValue>): Finding[] =>
    findItem(pageItems(call.json, lastSegment) ?? [], field, id)
      ? [{ pointer: '/body', keyword: 'gone', message: `${list.operationId}${Object.keys(query).length ? `?${Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&')}` : ''} still lists the deleted record ${String(id)}`, actual: id }]
      : [];
  const onFirst = listed(first, limit);
  if (onFirst.length > 0) return onFirst;
  const total = totalCount(first);
  const items = pageItems(first.json, lastSegment) ?? [];
  if (total === undefined || total <= items.length || !list.parameters.some((p) => p.in === 'query' && p.name === 'offset')) return [];
  const query: Record<string, ParamValue> = { ...limit, offset: Math.max(0, total - max) };
  const last = await c.call(list, { path, query });
  return last.problem || !readSucceeded(list, last.status) ? [] : listed(last, query);
}
