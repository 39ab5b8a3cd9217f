import { compareFields, declaredFields } from '../compare.js';
import { answered } from '../requests/call.js';
import { linkInputs } from '../requests/link-inputs.js';
import type { Case } from '../context.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';
import { createdSchema, recordReads, type LinkTarget, type ResourceKind } from '../links.js';
import type { Finding } from '../model.js';
import { readBack } from './create-read-back.js';
import { isUpdateTime } from '../../src/server-times.js';
import { promisedBy } from './support.js';
import type { CheckDefinition } from './types.js';

/**
 * A partial update (the PATCH a 201 links to) changes what it was sent and
 * nothing else (RFC 5789 §2: the patch describes the changes; JSON merge
 * patch, RFC 7396: members not named are left as they are). The record is
 * created with every optional field filled, one field is patched, and the
 * reads show the new value and every other field as it was. A server that
 * replaces the whole record with the patch, or stores nothing, shows here.
 */
export const patchKeepsFields: CheckDefinition = {
  id: 'patch-keeps-fields',
  family: 'stateful',
  description: 'A partial update (the PATCH a 201 links to) stores the fields it was sent and keeps every other field.',
  explain: {
    why: 'Clients send only what changed in a PATCH (RFC 5789, RFC 7396); a server that drops the fields it was not sent, or keeps none of those it was, loses data.',
    conformant: '`PATCH /store/orders/7` with `{"shipDate":"2026-12-24T10:00:00Z"}` answers 200 with that shipDate and the same petId, quantity and complete, and a later `GET /store/orders/7` shows the same.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      for (const target of kind.links.filter((t) => t.operation.method === 'patch' && jsonBodyOf(t.operation))) {
        if (ctx.aborted || !ctx.isSelected(target.operation)) continue;
        await patchOne(ctx.newCase('patch-keeps-fields', `${kind.create.operationId}, then ${target.operation.operationId} of one field and read back`, target.operation.operationId), kind, target);
      }
    }
  },
};

/**
 * The field to patch: a writable one the record holds, not a boolean where another will do (a flag may start a
 * transition the clean-up cannot undo), nor an update time, which a server may stamp over what it is sent.
 */
function fieldToPatch(patchSchema: Schema, record: JsonObject): { name: string; schema: Schema } | undefined {
  const candidates = Object.entries(propertiesOf(patchSchema))
    .map(([name, raw]) => ({ name, schema: mergeAllOf(raw) }))
    .filter(({ name, schema: s }) => !s.readOnly && !isUpdateTime(name, s));
  return candidates.find(({ schema: s, name }) => s.type !== 'boolean' && name in record) ?? candidates.find(({ name }) => name in record) ?? candidates[0];
}

async function patchOne(c: Case, kind: ResourceKind, target: LinkTarget): Promise<void> {
  const outcome = await c.create(kind, { setup: true, enrich: true });
  if (!outcome.ok) return c.setupFailed(outcome);
  const record = outcome.record;
  const patchSchema = schema(jsonBodyOf(target.operation)?.schema);
  const field = fieldToPatch(patchSchema, { ...record.sent, ...record.body });
  if (!field) return c.skip(`${target.operation.operationId}'s body declares no writable field to patch`);
  // A boolean keeps its value: patching it to itself still must keep every other field.
  const current = record.body[field.name] ?? record.sent[field.name];
  let value: unknown = field.schema.type === 'boolean' ? (typeof current === 'boolean' ? current : false) : undefined;
  if (value === undefined) {
    for (let i = 0; i < 4 && (value === undefined || JSON.stringify(value) === JSON.stringify(current)); i += 1) value = c.generator.sample(field.schema, 1, i);
  }
  const body = { [field.name]: value };
  const linked = linkInputs(target, record.call.source);
  const path = linked.path;
  const query = c.ctx.requests.recordQuery(target.operation, linked.query, record.sent);
  const valid = c.checkValid(target.operation, { path, query, body });
  if (!valid.ok) return c.skip(valid.reason);
  const recordSchema = schema(createdSchema(kind));
  // What the record held before: what it was sent and what the 201 said, on the fields the document declares, less what the server owns.
  const before = declaredFields({ ...record.sent, ...record.body }, recordSchema);
  // What the server owns: readOnly fields, and update times it moves on a change (src/server-times.ts).
  const owned = new Set(Object.entries(propertiesOf(recordSchema)).filter(([name, s]) => mergeAllOf(s).readOnly || isUpdateTime(name, mergeAllOf(s))).map(([name]) => name));
  const expected: Record<string, unknown> = Object.fromEntries(Object.entries(before).filter(([name]) => !owned.has(name) || name === field.name));
  expected[field.name] = value;
  const call = await c.follow(target, record, { body, contentType: jsonBodyOf(target.operation)?.mediaType ?? 'application/json' });
  if (call.problem) return c.fail(call.problem);
  if (call.status === undefined || call.status < 200 || call.status >= 300) {
    return c.fail(`${answered(call)} to a valid partial update`, [{ pointer: '/status', keyword: 'status', message: 'a valid partial update of an existing record must succeed', expected: '2xx', actual: call.status }]);
  }
  const findings: Finding[] = isObject(call.json) ? compareFields(promisedBy(target.operation, expected), call.json, '/body', recordSchema, 'kept or patched') : [];
  for (const read of recordReads(kind)) findings.push(...(await readBack(c, record, read, expected)));
  c.conclude(findings);
}
