import { compareFields, declaredFields } from '../compare.js';
import type { Contract, Operation } from '../../src/contract/index.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema } from '../generate.js';
import { createdSchema, identityField, recordReads, type ResourceKind } from '../links.js';
import type { Finding } from '../model.js';
import { answered } from '../requests/call.js';
import type { Case } from '../context.js';
import { readBack } from './create-read-back.js';
import { idOf } from './support.js';
import type { CheckDefinition } from './types.js';

/**
 * A create names a new record: the id it answers is one no other record has
 * (RFC 9110 §15.3.2, 201: "one or more new resources have been created").
 * Two creates in a row answer two ids, and the first record reads back as it
 * was after the second (a server that reuses ids overwrites it). Where the
 * create's body may carry the record's id field but need not (the
 * server assigns ids, and a client may still send one, as an Order body
 * built on the Order schema does), a create sent with the id of a record the
 * run already made either refuses it or makes a new record with an id of its
 * own, and the first record reads back as it was. A server that honours the
 * id the client sent either answers a second record under one id or
 * overwrites the first: data another client owns is lost. Except where the
 * document leaves that answer open: a create that documents no refusal (no
 * 400, 409, 422, 4XX or default) and whose id the document does not call the
 * server's may write the record the id names (an upsert); it is then held to
 * what it answered, in the reads after it.
 */
export const createNewIdentity: CheckDefinition = {
  id: 'create-new-identity',
  family: 'stateful',
  description: "Two creates make two records with two ids, the first unchanged; where the body may hold the id, the second is sent with the first's id and must refuse it or take a new one; where the document says the server gives ids, an unused id sent is not taken either.",
  explain: {
    why: 'A 201 says a new resource was created (RFC 9110 section 15.3.2). A server that takes the id a client sends answers two records under one id, or overwrites the record that had it: another client loses its data.',
    conformant: 'After an order with id 7 exists, `POST /store/orders` with `{"id": 7, "petId": 12, "quantity": 1}` answers 201 with an id other than 7 (or a 4xx), and `GET /store/orders/7` still shows the first order.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      if (!ctx.isSelected(kind.create)) continue;
      const field = identityField(kind);
      if (field === undefined) continue;
      const bodySchema = mergeAllOf(schema(jsonBodyOf(kind.create)?.schema));
      const declared = propertiesOf(bodySchema)[field];
      // A required id is the client's key (Svix's event type name): who chooses it is not this check's question.
      if ((bodySchema.required ?? []).includes(field)) continue;
      // The id goes into the body only where the document lets a client send it there.
      const sendsId = declared !== undefined && !mergeAllOf(declared).readOnly;
      // Where the client may send the id, the create documents no refusal of any kind, and the document does not say
      // the server gives ids, a create that names an existing record may write that record (an upsert, Sonarr's
      // `POST /api/v3/tag {"id": 14}`): the document leaves the server no other answer to give but a success.
      const mayUpsert = sendsId && !documentsRefusal(kind.create) && !serverAssigned(ctx.contract, kind, field);
      await collide(ctx.newCase('create-new-identity', `${kind.create.operationId} twice${sendsId ? `, the second with the ${field} of the first` : ''}: two records, two ids`, kind.create.operationId), kind, field, sendsId, mayUpsert);
    }
  },
};

/**
 * Two creates: the second answers an id of its own, and the first reads back unchanged. Where the body may carry the
 * id, the second is sent with the first's: the only thing that can make them collide besides a server reusing ids.
 */
async function collide(c: Case, kind: ResourceKind, field: string, sendsId: boolean, mayUpsert: boolean): Promise<void> {
  const first = await c.create(kind, { setup: true });
  if (!first.ok) return c.setupFailed(first);
  const existing = idOf(first.record);
  if (existing === undefined) return c.skip(`${kind.create.operationId}'s answer holds no ${field}, so two records cannot be told apart`);
  const second = await c.create(kind, sendsId ? { vary: (body, _schema, _keep, isValid) => (isValid({ ...body, [field]: existing }) ? { ...body, [field]: existing } : body) } : {});
  // A refusal (409, 400, 422) is a right answer; a 5xx is no-server-error's; a body the schema refuses proves nothing.
  if (!second.ok && (second.noValidInput || second.transport)) return c.setupFailed(second);
  if (!second.ok && !sendsId) return c.setupFailed(second);
  const findings: Finding[] = [];
  const answeredId = second.ok ? idOf(second.record) : undefined;
  const recordSchema = schema(createdSchema(kind));
  if (second.ok && mayUpsert && second.record.sent[field] !== undefined && answeredId !== undefined && String(answeredId) === String(existing)) {
    // The create wrote the record the id names, as the document allows: that record now reads as the second create
    // answered it, which is what the later reads must show (a server that answers the write and keeps the old record lost it).
    const expected = { ...declaredFields(second.record.sent, recordSchema), ...declaredFields(second.record.body, recordSchema) };
    for (const target of recordReads(kind)) {
      findings.push(...(await readBack(c, second.record, target, expected)).map((f) => ({ ...f, message: `the record with ${field} ${String(existing)}, after a create that named it (the document allows it to write that record): ${f.message}` })));
    }
    return c.conclude(findings);
  }
  if (second.ok && answeredId !== undefined && String(answeredId) === String(existing)) {
    const why = second.record.sent[field] !== undefined ? 'a create took the id the client sent' : 'the server gave a new record an id it had already given';
    findings.push({ pointer: `/body/${field}`, keyword: 'identity', message: `${answered(second.record.call)} with ${field} ${String(existing)}, the id of a record that already existed: ${why}`, expected: `an id other than ${String(existing)}`, actual: answeredId });
  }
  if (second.ok) {
    // The record that had the id is still what it was: a server that overwrote it lost another client's data.
    const expected = { ...declaredFields(first.record.sent, recordSchema), ...declaredFields(first.record.body, recordSchema) };
    for (const target of recordReads(kind)) {
      findings.push(...(await readBack(c, first.record, target, expected)).map((f) => ({ ...f, message: `the record with ${field} ${String(existing)}, after another create: ${f.message}` })));
    }
  }
  // Where the document says the id is the server's to give, an id no record has is not taken either.
  if (findings.length === 0 && sendsId && serverAssigned(c.ctx.contract, kind, field)) findings.push(...(await freshId(c, kind, field, existing)));
  c.conclude(findings);
}

/**
 * Whether the create documents any refusal of what it is sent: a 400, 409 or 422, the 4XX range, or `default`
 * (OpenAPI 3.0.3 §4.7.16). Where it documents none, a create with the id of an existing record cannot be refused in
 * the document's terms, and writing that record is an answer the document allows.
 */
export function documentsRefusal(operation: Operation): boolean {
  return [...operation.responses.keys()].some((key) => key === 'default' || /^(400|409|422|4XX)$/i.test(key));
}

/**
 * Whether the document says in words that the server gives the id, or ignores one sent: a sentence of the create
 * body's description, the id property's or the create operation's that names the field and says it is ignored,
 * assigned, generated or set by the server, or read-only (the reference's NewOrder: "id, if sent, is ignored").
 */
export function serverAssigned(contract: Contract, kind: ResourceKind, field: string): boolean {
  const media = jsonBodyOf(kind.create);
  const bodySchema = schema(media?.schema);
  const property = propertiesOf(bodySchema)[field];
  const raw: unknown = contract.document.paths?.[kind.create.pathTemplate]?.[kind.create.method];
  const operation = isObject(raw) ? raw : {};
  const requestBody = isObject(operation['requestBody']) ? operation['requestBody'] : {};
  const texts = [bodySchema.description, ...(bodySchema.allOf ?? []).map((part) => schema(part).description), property?.description, operation['description'], kind.create.summary, requestBody['description']];
  const name = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const says = new RegExp(`\\b${name}\\b[^.;]*\\b(ignored|assigned by the server|server[- ]assigned|generated by the server|server[- ]generated|set by the server|read[- ]only|not accepted)\\b`, 'i');
  return texts.some((text) => typeof text === 'string' && text.split(/(?<=[.;])\s/).some((sentence) => says.test(sentence)));
}

/**
 * A create with an id no record has (valid for the schema, far past any sequence, another one each time the case
 * is tried): the answer's id is the server's own.
 */
async function freshId(c: Case, kind: ResourceKind, field: string, existing: unknown): Promise<Finding[]> {
  const wanted = typeof existing === 'string' ? `${existing}-${c.generator.nextTag()}` : Number.MAX_SAFE_INTEGER - c.generator.faker.number.int({ min: 1_000, max: 1_000_000_000 });
  const outcome = await c.create(kind, { vary: (body, _schema, _keep, isValid) => (isValid({ ...body, [field]: wanted }) ? { ...body, [field]: wanted } : body) });
  if (!outcome.ok || outcome.record.sent[field] === undefined) return [];
  const answeredId = idOf(outcome.record);
  if (answeredId === undefined || String(answeredId) !== String(wanted)) return [];
  return [
    {
      pointer: `/body/${field}`,
      keyword: 'identity',
      message: `${answered(outcome.record.call)} with the ${field} ${String(wanted)} the client sent, where the document says the server gives the ${field}`,
      expected: `an id the server assigns, not ${String(wanted)}`,
      actual: answeredId,
    },
  ];
}
