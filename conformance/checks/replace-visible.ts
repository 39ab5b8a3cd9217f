import type { Contract, Operation } from '../../src/contract/index.js';
import { compareFields, sentFieldsReflected } from '../compare.js';
import type { Case, CreatedRecord } from '../context.js';
import { answered, type Call } from '../requests/call.js';
import { edgeRoundBody } from '../requests/boundaries.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';
import { createdSchema, identityField, okSchema, recordReads, type LinkTarget, type ResourceKind } from '../links.js';
import type { Finding } from '../model.js';
import { readBack } from './create-read-back.js';
import { answerSchema, carryRefusal, observing, prepareInputs, promisedBy, readSucceeded, readSuccess, type PreparedInputs } from './support.js';
import { identityFields } from './identity.js';
import type { CheckDefinition } from './types.js';

/**
 * A replace (RFC 9110 §9.3.4: the new state is what was sent; "a subsequent
 * GET on that same target resource will result in an equivalent
 * representation") answers with the new state, and later reads show it.
 * The record is read once before the first write, so a read cached then
 * must not be what the reads give after it. Two replacements in turn: a
 * plain one, then one with every optional field and the data real users
 * send (decomposed Unicode, an offset date-time, 32/53-bit integers: requests/
 * boundaries.ts). The PUT a create's 201 links to is followed on a record
 * the run created; every other PUT with a JSON body on an item path (its
 * last segment a path parameter) whose GET reads a record (a stock set through
 * `PUT /store/inventory/{petId}`) is judged the same way, through that GET.
 */
export const replaceVisible: CheckDefinition = {
  id: 'replace-visible',
  family: 'stateful',
  description: 'A replace (a PUT a 201 links to, or any PUT whose path a GET reads) answers with the new state, and later reads show it, also after a read cached before the write and with every optional field and real-user data.',
  explain: {
    why: 'A replace that answers 200 but does not store the new state, stores it altered, or leaves a cached read to answer, makes clients overwrite data they think they saved (RFC 9110 section 9.3.4).',
    conformant: '`GET /pets/21`, then `PUT /pets/21` with a new name answers 200 with that name, and a later `GET /pets/21` shows it; the same for a name in decomposed Unicode.',
  },
  writes: true,
  async run(ctx) {
    const linked = new Set<Operation>();
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      const replace = kind.replace;
      if (!replace) continue;
      linked.add(replace.operation);
      if (!ctx.isSelected(replace.operation)) continue;
      await replaceLinked(ctx.newCase('replace-visible', `${kind.create.operationId}, read, then ${replace.operation.operationId} twice and read back`, replace.operation.operationId), kind);
    }
    for (const put of ctx.operations) {
      if (ctx.aborted) break;
      // A PUT on an item path (its last segment names the resource: `/store/inventory/{petId}`) that no create is. A
      // PUT on a collection path, or one the document uses to add (Xero's PUT /Invoices adds invoices to the list GET
      // /Invoices reads; PUT /Invoices/{id}/History appends a record), puts something else than what its GET shows.
      if (put.method !== 'put' || linked.has(put) || !jsonBodyOf(put) || ctx.links.kinds.has(put.operationId) || !/\/\{[^/{}]+\}$/.test(put.pathTemplate)) continue;
      const get = ctx.contract.operations.find((op) => op.method === 'get' && op.pathTemplate === put.pathTemplate);
      const read = get ? schema(okSchema(get)) : undefined;
      if (!get || read?.type === 'array' || !declaresFields(read)) continue;
      await replaceByPath(ctx.newCase('replace-visible', `${get.operationId}, then ${put.operationId} twice and ${get.operationId} again`, put.operationId), put, get);
    }
  },
};

/** The replacements to send in turn: the generator's valid body, then one with every optional field and real-user data. */
function replacements(c: Case, operation: Operation, bindings: Readonly<Record<string, unknown>>, keep: ReadonlySet<string>): JsonObject[] | string {
  const generated = c.generator.validBodyOrReason(operation, bindings);
  if (!generated.ok) return generated.reason;
  if (!isObject(generated.body)) return `the valid body for ${operation.operationId} is not an object`;
  const bodySchema = schema(jsonBodyOf(operation)?.schema);
  const isValid = (candidate: JsonObject): boolean => c.checkValid(operation, { body: candidate }).ok;
  const enriched = c.generator.enrich(generated.body, bodySchema, keep);
  const edged = edgeRoundBody({ index: 1, tag: c.generator.nextTag(), numbers: true }, isValid(enriched) ? enriched : generated.body, bodySchema, keep, isValid);
  return [generated.body, edged];
}

async function replaceLinked(c: Case, kind: ResourceKind): Promise<void> {
  const replace = kind.replace!;
  const outcome = await c.create(kind, { setup: true });
  if (!outcome.ok) return c.setupFailed(outcome);
  const record = outcome.record;
  // Keep the records the original named (its category): the replacement changes the record, not what it hangs on.
  // And the fields that name the record (its slug, its key): the URL names it, whatever a body would say.
  const bindings = { ...Object.fromEntries(Object.entries(record.sent).filter(([name]) => c.ctx.links.producers.has(name))), ...identityFields(replace, record) };
  const id = identityField(kind);
  const bodies = replacements(c, replace.operation, bindings, new Set([...Object.keys(bindings), ...(id !== undefined ? [id] : []), 'id']));
  if (typeof bodies === 'string') return c.skip(bodies);
  const reads = recordReads(kind);
  // A read before the first write: a server that caches reads must not answer the ones after it from that cache.
  // An ETag it gives names that state: after the write, a GET that holds it must not be told nothing changed.
  const validators: [LinkTarget, string][] = [];
  for (const target of reads) {
    const before = await c.follow(target, record);
    const etag = before.headers['etag'];
    if (etag !== undefined && readSucceeded(target.operation, before.status)) validators.push([target, etag]);
  }
  const recordSchema = schema(createdSchema(kind));
  for (const [index, replacement] of bodies.entries()) {
    const call = await c.follow(replace, record, { body: replacement });
    const refused = judgeWrite(c, call, index);
    if (refused === 'stop') return;
    if (refused === 'skip') continue;
    const expected = sentFieldsReflected(replacement, recordSchema);
    // The replace's answer is judged on what its own schema promises: a PATCH may answer a receipt (Adyen's
    // registeredDevices answers only `success`, additionalProperties: false), not the record.
    const findings: Finding[] = call.json === undefined ? [] : compareFields(promisedBy(replace.operation, expected), call.json, '/body', answerSchema(replace.operation) ?? recordSchema, 'sent in the replacement');
    for (const target of reads) findings.push(...(await readBack(c, record, target, expected)));
    if (index === 0) findings.push(...(await revalidated(c, record, validators)));
    if (findings.length > 0) return c.fail(labelled(findings, index)[0]!.message, labelled(findings, index));
  }
  // Where the replace says in words that a body without a field removes it, a third replacement leaves out the
  // fields the second set: the answer and every read then hold none of them (a replace that merges keeps them).
  const required = new Set(schema(jsonBodyOf(replace.operation)?.schema)?.required ?? []);
  const dropped = droppedWhenOmitted(c.ctx.contract, replace.operation).filter((name) => bodies[1]?.[name] !== undefined && !(name in bindings) && !required.has(name));
  if (dropped.length === 0) return c.pass();
  const without = Object.fromEntries(Object.entries(bodies[0]!).filter(([name]) => !dropped.includes(name)));
  const call = await c.follow(replace, record, { body: without });
  const refused = judgeWrite(c, call, 2);
  if (refused === 'stop') return;
  if (refused === 'skip') return c.pass();
  const findings: Finding[] = [...keptFields(call.json, dropped, '/body', `${replace.operation.operationId}'s answer`)];
  for (const target of reads) {
    const read = await c.follow(target, record);
    if (readSucceeded(target.operation, read.status)) findings.push(...keptFields(read.json, dropped, '/body', `${target.link.name} (${target.operation.operationId})`));
  }
  if (findings.length > 0) return c.fail(labelled(findings, 2)[0]!.message, labelled(findings, 2));
  c.pass();
}

/**
 * Each read that gave an ETag before the replace, sent again with `If-None-Match` holding it: the record changed, so
 * a 304 Not Modified tells a client that revalidates to keep the record it had (RFC 9110 §8.8.3: an entity tag
 * changes with the representation; §13.1.2).
 */
async function revalidated(c: Case, record: CreatedRecord, validators: readonly [LinkTarget, string][]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [target, etag] of validators) {
    const call = await c.follow(target, record, { headers: { 'if-none-match': etag } });
    if (call.status === 304) {
      findings.push({ pointer: '/status', keyword: 'etag', message: `${target.link.name} (${target.operation.operationId}) with If-None-Match ${etag}, the ETag from before the replace, answered 304 Not Modified: the ETag did not change with the record`, expected: readSuccess(target.operation), actual: 304 });
    }
  }
  return findings;
}

/**
 * The fields a replace's description says a body without them removes (`a body without \`description\` removes
 * it`): the document's own word that the replace does not keep them.
 */
function droppedWhenOmitted(contract: Contract, operation: Operation): string[] {
  const raw: unknown = contract.document.paths?.[operation.pathTemplate]?.[operation.method];
  const text = `${isObject(raw) ? String(raw['description'] ?? '') : ''} ${operation.summary}`;
  const names = new Set<string>();
  for (const match of text.matchAll(/\b(?:without|omit(?:s|ting)?|leav(?:es|ing) out)\s+`?([A-Za-z_][\w-]*)`?(?:\s+field)?\s+(?:removes|clears|deletes|drops|unsets|erases)\b/gi)) names.add(match[1]!);
  return [...names];
}

/** A finding for each of `fields` an answer still holds (null counts as removed). */
function keptFields(json: unknown, fields: readonly string[], at: string, where: string): Finding[] {
  if (!isObject(json)) return [];
  return fields
    .filter((name) => json[name] !== undefined && json[name] !== null)
    .map((name) => ({ pointer: `${at}/${name}`, keyword: 'removed', message: `${where} still holds ${name} after a replacement without it, which the document says removes it`, expected: 'absent', actual: json[name] }));
}

async function replaceByPath(c: Case, put: Operation, get: Operation): Promise<void> {
  const prepared = await prepareInputs(c, put);
  if (!prepared.ok) return prepared.fail(c);
  const { inputs } = prepared;
  // The GET is sent the PUT's path and query values: each must be one the GET's own parameters take.
  const refusal = carryRefusal(c.ctx, put, get, inputs);
  if (refusal !== undefined) return c.skip(refusal);
  const bodies = replacements(c, put, inputs.bindings, new Set(Object.keys(inputs.bindings)));
  if (typeof bodies === 'string') return c.skip(bodies);
  // The record at the path may be one the run does not own (a PUT that only replaces): the reads and writes are one
  // observation, so no other check's write lands between a replace and the read that judges it (shared-records.ts).
  await observing(c, put, inputs.path, () => replaceAndRead(c, put, get, inputs, bodies));
}

async function replaceAndRead(c: Case, put: Operation, get: Operation, inputs: PreparedInputs, bodies: readonly JsonObject[]): Promise<void> {
  const readSchema = schema(okSchema(get));
  const before = await c.call(get, { path: inputs.path, query: inputs.query });
  if (!readSucceeded(get, before.status)) return c.skip(`${answered(before)} before any write: nothing at the path to replace`);
  for (const [index, replacement] of bodies.entries()) {
    const call = await c.call(put, { path: inputs.path, query: inputs.query, body: replacement });
    const refused = judgeWrite(c, call, index);
    if (refused === 'stop') return;
    if (refused === 'skip') continue;
    // What the read declares of what was sent: a field it does not declare is not its to show. A read that answers
    // the record in an envelope of one member (Typesense: `PUT /stopwords/{id} {stopwords: [...]}` is read back as
    // `{stopwords: {id, stopwords: [...]}}`) shows it inside.
    const envelope = readEnvelope(replacement, readSchema);
    const shownSchema = envelope ? envelope.schema : readSchema;
    const expected = sentFieldsReflected(replacement, shownSchema);
    const after = await c.call(get, { path: inputs.path, query: inputs.query });
    if (!readSucceeded(get, after.status)) return c.fail(`${answered(after)} after a replace that answered ${call.status}`, [{ pointer: '/status', keyword: 'status', message: `${get.operationId} after the replace`, expected: readSuccess(get), actual: after.status }]);
    const shown = envelope ? (isObject(after.json) ? after.json[envelope.member] : undefined) : after.json;
    const at = envelope ? `/body/${envelope.member.replace(/~/g, '~0').replace(/\//g, '~1')}` : '/body';
    const findings = compareFields(expected, shown, at, shownSchema, 'sent in the replacement').map((f) => ({ ...f, message: `${get.operationId} after ${put.operationId}: ${f.message}` }));
    if (findings.length > 0) return c.fail(labelled(findings, index)[0]!.message, labelled(findings, index));
  }
  c.pass();
}

/**
 * The one member a read wraps the record in, where the body sent is the record bare: the read declares a single
 * member, an object that declares every field sent, and the body does not send that member as an object itself.
 */
export function readEnvelope(sent: JsonObject, readSchema: Schema | undefined): { readonly member: string; readonly schema: Schema } | undefined {
  const members = Object.entries(propertiesOf(readSchema));
  if (members.length !== 1) return undefined;
  const [member, raw] = members[0]!;
  const inner = mergeAllOf(raw);
  const innerFields = propertiesOf(inner);
  const sentKeys = Object.keys(sent);
  if (isObject(sent[member]) || sentKeys.length === 0 || Object.keys(innerFields).length === 0) return undefined;
  return sentKeys.every((key) => Object.hasOwn(innerFields, key)) ? { member, schema: inner } : undefined;
}

/** The verdict on a replace's status: a 2xx goes on; a refusal of a valid replacement fails the first, skips the second (accepts-valid-bodies owns refused values). */
function judgeWrite(c: Case, call: Call, index: number): 'go' | 'skip' | 'stop' {
  if (call.problem) {
    c.fail(call.problem);
    return 'stop';
  }
  if (call.status !== undefined && call.status >= 200 && call.status < 300) return 'go';
  if (index > 0) return 'skip';
  c.fail(`${answered(call)} to a valid replacement`, [{ pointer: '/status', keyword: 'status', message: 'a valid replacement of an existing record must succeed', expected: '2xx', actual: call.status }]);
  return 'stop';
}

/** Whether a read's answer schema declares fields: only then can it show what was put. */
function declaresFields(s: ReturnType<typeof schema> | undefined): boolean {
  return s !== undefined && Object.keys(propertiesOf(s)).length > 0;
}

function labelled(findings: readonly Finding[], index: number): Finding[] {
  const which = index === 0 ? 'the replacement' : index === 1 ? 'the replacement with every optional field and real-user data' : 'the replacement without the fields the document says it removes';
  return findings.map((f) => ({ ...f, message: `${which}: ${f.message}` }));
}
