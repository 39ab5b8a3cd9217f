import { compareFields, declaredFields } from '../compare.js';
import { answered } from '../requests/call.js';
import { linkInputs } from '../requests/link-inputs.js';
import type { Case } from '../context.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';
import { stringifyJson } from '../json.js';
import { createdSchema, recordReads, type LinkTarget, type ResourceKind } from '../links.js';
import type { Finding } from '../model.js';
import { readBack } from './create-read-back.js';
import { isUpdateTime } from '../../src/server-times.js';
import { answerSchema, promisedBy } from './support.js';
import { identityFields, recordWrapper } from './identity.js';
import type { CheckDefinition } from './types.js';

/**
 * A partial update (the PATCH a 201 links to) changes what it was sent and
 * nothing else (RFC 5789 §2: the patch describes the changes; JSON merge
 * patch, RFC 7396: members not named are left as they are). The record is
 * created with every optional field filled and read once (so a cache holds
 * it), then patched one field at a time, every writable field in turn and a
 * flag to each of its values (its own value first, the transition last);
 * after each patch the answer and the reads show the new value and every
 * other field as it was. A server that replaces the whole record with the
 * patch, stores nothing, or serves a read it cached before the write shows
 * here.
 */
export const patchKeepsFields: CheckDefinition = {
  id: 'patch-keeps-fields',
  family: 'stateful',
  description: 'A partial update (the PATCH a 201 links to) of each single field, flags to each value, stores what it was sent and keeps every other field, as later reads show.',
  explain: {
    why: 'Clients send only what changed in a PATCH (RFC 5789, RFC 7396); a server that drops the fields it was not sent, keeps none of those it was, or answers later reads from a cache filled before the write, loses data.',
    conformant: '`PATCH /store/orders/7` with `{"shipDate":"2026-12-24T10:00:00Z"}`, then with `{"complete":true}`, answers 200 each time with the field patched and the same petId, quantity and the other field, and a later `GET /store/orders/7` shows the same.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      for (const target of kind.links.filter((t) => t.operation.method === 'patch' && jsonBodyOf(t.operation))) {
        if (ctx.aborted || !ctx.isSelected(target.operation)) continue;
        await patchEach(ctx.newCase('patch-keeps-fields', `${kind.create.operationId}, then ${target.operation.operationId} of each field in turn and read back`, target.operation.operationId), kind, target);
      }
    }
  },
};

/** One patch: the field and the value sent. */
interface Patch {
  readonly name: string;
  readonly value: unknown;
}

/**
 * The patches to send, one field each: every writable field the patch body declares (not readOnly, not an update
 * time a server may stamp over what it is sent, not a field that names the record: its slug or key, which the URL
 * names and a server rightly keeps), each to a new value; a flag or an enum first to the value the
 * record holds (no transition), and to its other values last, since a transition may be one the record cannot come
 * back from (a complete order cannot be reopened) and no patch after it could be judged.
 */
function patchesFor(c: Case, patchSchema: Schema, record: JsonObject, identity: ReadonlySet<string>): Patch[] {
  const fields = Object.entries(propertiesOf(patchSchema))
    .map(([name, raw]) => ({ name, schema: mergeAllOf(raw) }))
    .filter(({ name, schema: s }) => !s.readOnly && !isUpdateTime(name, s) && !identity.has(name));
  const plain: Patch[] = [];
  const same: Patch[] = [];
  const transitions: Patch[] = [];
  for (const field of fields) {
    const current = record[field.name];
    const choices = field.schema.type === 'boolean' ? [true, false] : field.schema.enum;
    if (choices) {
      const held = choices.find((v) => JSON.stringify(v) === JSON.stringify(current));
      if (held !== undefined) same.push({ name: field.name, value: held });
      for (const value of choices) if (JSON.stringify(value) !== JSON.stringify(current)) transitions.push({ name: field.name, value });
      continue;
    }
    let value: unknown;
    for (let i = 0; i < 4 && (value === undefined || JSON.stringify(value) === JSON.stringify(current)); i += 1) value = c.generator.sample(field.schema, 1, i);
    plain.push({ name: field.name, value });
  }
  return [...same, ...plain, ...transitions];
}

async function patchEach(c: Case, kind: ResourceKind, target: LinkTarget): Promise<void> {
  const outcome = await c.create(kind, { setup: true, enrich: true });
  if (!outcome.ok) return c.setupFailed(outcome);
  const record = outcome.record;
  const patchSchema = schema(jsonBodyOf(target.operation)?.schema);
  const identity = new Set(Object.keys(identityFields(target, record)));
  const createdAnswer = schema(createdSchema(kind));
  // A record every answer wraps in one member (`{ "data": {...} }`) is compared inside it, field by field: the
  // wrapper as a whole changes with every patch.
  const wrapper = recordWrapper(createdAnswer, Object.keys(propertiesOf(patchSchema)));
  const recordSchema = wrapper ? schema(propertiesOf(createdAnswer)[wrapper]) : createdAnswer;
  const held = wrapper && isObject(record.body[wrapper]) ? record.body[wrapper] : record.body;
  const patches = patchesFor(c, patchSchema, { ...record.sent, ...held }, identity);
  if (patches.length === 0) return c.skip(`${target.operation.operationId}'s body declares no writable field to patch`);
  // What the server owns: readOnly fields, and update times it moves on a change (src/server-times.ts).
  const owned = new Set(Object.entries(propertiesOf(recordSchema)).filter(([name, s]) => mergeAllOf(s).readOnly || isUpdateTime(name, mergeAllOf(s))).map(([name]) => name));
  // What the record holds: what it was sent and what the 201 said, on the fields the document declares, less what the server owns.
  let expected: Record<string, unknown> = Object.fromEntries(Object.entries(declaredFields({ ...record.sent, ...held }, recordSchema)).filter(([name]) => !owned.has(name)));
  // A read before the first write: a server that caches reads must not serve this one again after the patch.
  for (const read of recordReads(kind)) await c.follow(read, record);
  const linked = linkInputs(target, record.call.source);
  const query = c.ctx.requests.recordQuery(target.operation, linked.query, record.sent);
  const findings: Finding[] = [];
  let judged = 0;
  let refused = 0;
  // A patch body whose schema requires members (a document reusing its record schema for PATCH): each patch sends
  // them as the record holds them, beside the one field it changes, so it is one the document allows.
  const required = (mergeAllOf(patchSchema).required ?? []).filter((name) => Object.hasOwn(expected, name));
  for (const patch of patches) {
    if (c.ctx.aborted) break;
    const alone = { [patch.name]: patch.value };
    const body = c.checkValid(target.operation, { path: linked.path, query, body: alone }).ok ? alone : { ...Object.fromEntries(required.map((name) => [name, expected[name]])), ...alone };
    if (body !== alone && !c.checkValid(target.operation, { path: linked.path, query, body }).ok) continue;
    const call = await c.follow(target, record, { body, contentType: jsonBodyOf(target.operation)?.mediaType ?? 'application/json' });
    if (call.problem) return c.fail(call.problem);
    // A state rule may refuse a transition (reopening what is complete): that patch says nothing of the fields kept.
    if (call.status === 409) {
      refused += 1;
      continue;
    }
    if (call.status === undefined || call.status < 200 || call.status >= 300) {
      return c.fail(`${answered(call)} to a valid partial update of ${patch.name}`, [{ pointer: '/status', keyword: 'status', message: 'a valid partial update of an existing record must succeed', expected: '2xx', actual: call.status }]);
    }
    judged += 1;
    expected = { ...expected, ...body };
    const label = `after ${target.operation.operationId} ${stringifyJson(body)}`;
    const answer = wrapper && isObject(call.json) && isObject(call.json[wrapper]) ? call.json[wrapper] : call.json;
    const promised = wrapper ? declaredFields(expected, schema(propertiesOf(answerSchema(target.operation))[wrapper])) : promisedBy(target.operation, expected);
    if (isObject(answer)) findings.push(...compareFields(promised, answer, wrapper ? `/body/${wrapper}` : '/body', recordSchema, 'kept or patched').map((f) => ({ ...f, message: `${label}: ${f.message}` })));
    for (const read of recordReads(kind)) findings.push(...(await readBack(c, record, read, expected)).map((f) => ({ ...f, message: `${label}: ${f.message}` })));
    // The first patch that loses data is the defect; later ones would only repeat it.
    if (findings.length > 0) break;
  }
  if (judged === 0 && findings.length === 0) {
    return c.skip(refused > 0 ? `every valid partial update of ${target.operation.operationId} was refused with 409 by a state rule` : `no partial update of one field is one ${target.operation.operationId}'s body schema allows, even with its required members as the record holds them`);
  }
  c.conclude(findings);
}
