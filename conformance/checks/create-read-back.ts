import { compareFields, compareInArray, declaredFields, isArraySchema, sameRecord, sentFieldsReflected } from '../compare.js';
import { answered } from '../requests/call.js';
import type { Case, CreatedRecord } from '../context.js';
import { isObject, schema, type Schema } from '../generate.js';
import { excerptJson } from '../json.js';
import { createdSchema, identityField, okSchema, readsSameRecord, successorRead, type LinkTarget, type ResourceKind } from '../links.js';
import { goneBySunset } from './sunset-410.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { answerSchema, findItem, idOf, promisedBy, promisesNoBody, readSucceeded, readSuccess } from './support.js';
import { describeRound, EDGE_ROUNDS, edgeRoundBody, type EdgeRound } from '../requests/boundaries.js';

/**
 * Create a record from the document's example body, then follow every GET
 * link of the 201 that reads by path (OpenAPI links): each answers 200, and
 * those that read the record itself give back what was sent (and what the
 * 201 said). Links into a filtered list are list-contains-created's: whether
 * a filter holds is a defect of the list, not of what was stored.
 */
export const createReadBack: CheckDefinition = {
  id: 'create-read-back',
  family: 'stateful',
  description: 'What a create operation accepts can be read back, equal, through every GET link of its 201: plain, with every optional field, and with the data real users send (spaces and line breaks, NFD, emoji, quotes, 32/53-bit integers, offset date-times, each flag and enum value).',
  explain: {
    why: 'A create that answers 201 but stores something else (a dropped field, a changed value) loses data silently.',
    conformant: 'After `POST /pets` with `{"name":"Rex","categoryId":1}` answers 201 with id 21, `GET /pets/21` answers 200 with the same name and categoryId.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      for (const enrich of [false, true]) {
        if (ctx.aborted) break;
        if (!ctx.isSelected(kind.create)) continue;
        const what = enrich ? ' with every optional field and non-ASCII, quoted, HTML and SQL text' : '';
        await createAndReadBack(ctx.newCase('create-read-back', `${kind.create.operationId}${what}, then its links ${kind.reads.map((t) => t.link.name).join(', ')}`, kind.create.operationId), kind, enrich);
      }
      for (let index = 0; index < EDGE_ROUNDS && !ctx.aborted && ctx.isSelected(kind.create); index += 1) {
        const c = ctx.newCase('create-read-back', `${kind.create.operationId} with every optional field: ${describeRound({ index, tag: '', numbers: true })}; then its links`, kind.create.operationId);
        await edgeRoundReadBack(c, kind, { index, tag: c.generator.nextTag(), numbers: true });
      }
    }
  },
};

/**
 * One round of real-user data (requests/boundaries.ts) created and read back. A refusal of the round's body is not
 * this check's: a valid value refused is accepts-valid-bodies', and a state rule may refuse an integer at its edge
 * (an order of 2^31 is more than any stock), so the round is tried once more with ordinary integers, then skipped.
 */
async function edgeRoundReadBack(c: Case, kind: ResourceKind, round: EdgeRound): Promise<void> {
  let outcome = await c.create(kind, { enrich: true, vary: (body, bodySchema, keep, isValid) => edgeRoundBody(round, body, bodySchema, keep, isValid) });
  if (!outcome.ok && !outcome.transport && !outcome.noValidInput && !outcome.setup) {
    outcome = await c.create(kind, { enrich: true, vary: (body, bodySchema, keep, isValid) => edgeRoundBody({ ...round, numbers: false }, body, bodySchema, keep, isValid) });
    if (!outcome.ok && !outcome.transport && !outcome.noValidInput && !outcome.setup) return c.skip(`${outcome.reason}: a refusal of valid data is accepts-valid-bodies' to judge, a state rule's 409 the workflows'`);
  }
  if (!outcome.ok) return c.setupFailed(outcome);
  await readBackRecord(c, outcome.record);
}

/** One record created (plain, or enriched: Generator.enrich) and read back through every GET link of its 201. */
async function createAndReadBack(c: Case, kind: ResourceKind, enrich: boolean): Promise<void> {
  const outcome = await c.create(kind, { enrich });
  if (!outcome.ok) {
    c.setupFailed(outcome);
    return;
  }
  await readBackRecord(c, outcome.record);
}

/** The 201 holds what was sent, and every GET link of it reads back what was sent and created. */
async function readBackRecord(c: Case, record: CreatedRecord): Promise<void> {
  const recordSchema = schema(createdSchema(record.kind));
  // A create documented with no body (`201: { description }` only) answers nothing to compare: its reads say the rest.
  // What was sent, less what the answer marks readOnly (the server's to keep: compare.ts sentFieldsReflected).
  const sent = sentFieldsReflected(record.sent, recordSchema);
  const unjudged: string[] = [];
  const created = record.call.json;
  // A create that answers an array of records (SendGrid's `POST /v3/ips/warmup`): the item holding what was sent.
  const inArray = Array.isArray(created) && isArraySchema(recordSchema) ? compareInArray(sent, created, '/body', recordSchema) : null;
  if (inArray === undefined) unjudged.push(`${record.kind.create.operationId} answered an array of ${(created as unknown[]).length} records, none holding what was sent, and the document does not say which item is the record`);
  const findings: Finding[] = promisesNoBody(record.kind.create) ? [] : inArray !== null ? (inArray ?? []) : compareFields(sent, record.body, '/body', recordSchema);
  for (const target of record.kind.reads) {
    findings.push(...(await readBack(c, record, target, { ...sent, ...declaredFields(record.body, recordSchema) }, unjudged)));
  }
  if (findings.length === 0 && unjudged.length > 0) return c.skip(`cannot tell the record: ${unjudged.join('; ')}`);
  c.conclude(findings);
}

/** Follows a GET link and compares what it reads with `expected` (when the link reads the record itself). */
export async function readBack(c: Case, record: CreatedRecord, target: LinkTarget, expected: Record<string, unknown>, unjudged: string[] = []): Promise<Finding[]> {
  const call = await c.follow(target, record);
  const label = `${target.link.name} (${target.operation.operationId})`;
  if (call.problem) return [{ pointer: '/status', keyword: 'link', message: `${label}: ${call.problem}` }];
  if (goneBySunset(target.operation, call.status)) {
    // Gone by its sunset (sunset-410 judges whether rightly): the record is read through the successor the document names.
    const successor = successorRead(record.kind, target);
    if (!successor || successor === target) return [];
    return (await readBack(c, record, successor, expected, unjudged)).map((f) => ({ ...f, message: `${label} is sunset; through its successor: ${f.message}` }));
  }
  if (!readSucceeded(target.operation, call.status)) return [{ pointer: '/status', keyword: 'link', message: `${label}: ${answered(call)}, not ${readSuccess(target.operation)}`, expected: readSuccess(target.operation), actual: call.status }];
  // A read documented with no body (no content) promises nothing of the record: an empty 200 is its answer.
  if (!readsSameRecord(record.kind, target) || promisesNoBody(target.operation)) return [];
  const recordSchema = schema(createdSchema(record.kind));
  if (target.operation.parameters.some((p) => p.in === 'path')) {
    // What the read's own representation declares is what it promises: a field only the create's answer declares
    // (a receipt; Adyen's Merchant read, additionalProperties: false, has no legalEntityId) is not read back there.
    // ...and in its own types and formats (Adyen's session read gives as a date-time the dateOfBirth sent as a date).
    const readSchema = schema(okSchema(target.operation));
    if (Array.isArray(call.json) && isArraySchema(readSchema)) {
      // A read that answers an array of records (SendGrid's `GET /v3/ips/warmup/{ip}`): the item holding what was sent.
      const inArray = compareInArray(expected, call.json, '/body', readSchema, 'sent or created');
      if (inArray === undefined) unjudged.push(`${label} answered an array of ${call.json.length} records, none holding what was sent, and the document does not say which item is the record`);
      return (inArray ?? []).map((f) => ({ ...f, message: `${label}: ${f.message}` }));
    }
    const findings = compareFields(promisedBy(target.operation, expected), call.json, '/body', answerSchema(target.operation) ?? recordSchema, 'sent or created');
    if (findings.length > 0 && (await readsFlicker(c, record, target, call.json, recordSchema))) return [];
    return findings.map((f) => ({ ...f, message: `${label}: ${f.message}` }));
  }
  const field = identityField(record.kind);
  // With no body field for the id (only a Location gives it), nothing says which listed record is this one.
  if (field === undefined || idOf(record) === undefined) return [];
  const item = findItem(call.json, field, idOf(record));
  if (!item) {
    return [{ pointer: '/body', keyword: 'contains', message: `${label}: the list does not hold the created record (${field} ${String(idOf(record))})`, expected: idOf(record) }];
  }
  const index = Array.isArray(call.json) ? call.json.indexOf(item) : 0;
  return compareFields(expected, item, `/body/${index}`, recordSchema, 'sent or created').map((f) => ({ ...f, message: `${label}: ${f.message}` }));
}

/**
 * Whether a second read of the record differs from the first in the fields the document declares: then the
 * target's reads are not stable, which stable-reads reports once for the run (one defect, one owner), and no
 * difference can be blamed on what was sent.
 */
async function readsFlicker(c: Case, record: CreatedRecord, target: LinkTarget, first: unknown, recordSchema: Schema): Promise<boolean> {
  const key = `record ${target.operation.operationId}`;
  if (c.ctx.unstableReads.has(key)) return true;
  const again = await c.follow(target, record);
  if (again.problem || !readSucceeded(target.operation, again.status)) return false;
  // A read that answers no object (SendGrid's `GET /v3/ips/warmup/{ip}` answers an array of records) has no fields to
  // compare one by one: the two answers are compared whole, in the fields the record declares.
  if (!isObject(first) ? sameRecord(first, again.json, recordSchema) : compareFields(declaredFields(first, recordSchema), again.json, '/body', recordSchema, 'read first').length === 0) return false;
  c.ctx.unstableReads.set(key, `two reads in a row differ: ${excerptJson(first, 80)} then ${excerptJson(again.json, 80)}`);
  return true;
}
