import { readSucceeded } from './support.js';
import type { Operation } from '../../src/contract/index.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';
import { stringifyJson } from '../json.js';
import { createdSchema, recordReads, type ResourceKind } from '../links.js';
import type { Finding } from '../model.js';
import type { Case } from '../context.js';
import type { CheckDefinition } from './types.js';

/**
 * A body's `__proto__` key is data, never the server's own objects. `JSON.parse` makes `"__proto__"` an ordinary
 * key, and a server that deep-merges a body onto its defaults walks it into `Object.prototype`: every object made
 * after inherits the planted fields, so a later record that left a field out gets the planted value. For every
 * kind the run can create, a body that carries `"__proto__": {field: value}` for the create's optional fields is
 * sent (any answer will do: a refusal is right, and a 5xx is no-server-error's), then a create that leaves those
 * fields out: its answer and the reads of its record must not hold the planted values.
 *
 * Only values no server could give by itself are planted, so a correct server never fails: a text tagged with the
 * run's tag. A server that fails has had its prototype polluted by the run: it stays so until it restarts.
 */
export const prototypeKeys: CheckDefinition = {
  id: 'prototype-keys',
  family: 'stateful',
  description: 'A body\'s "__proto__" key changes nothing outside that request: a record created after it, without the fields it named, does not have them.',
  explain: {
    why: 'A server that merges request bodies into objects naively lets one client\'s "__proto__" key change the defaults of every object made afterwards (prototype pollution): other clients\' records get values they never sent, and worse (CWE-1321).',
    conformant: 'After `POST /categories` with `{"__proto__": {"description": "planted"}, "name": "Birds"}` (refused or not), `POST /categories` with `{"name": "Fish"}` answers a category without that description.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      if (!ctx.isSelected(kind.create)) continue;
      await plantAndCreate(ctx.newCase('prototype-keys', `${kind.create.operationId} with a "__proto__" key, then without the fields it named`, kind.create.operationId), kind);
    }
  },
};

async function plantAndCreate(c: Case, kind: ResourceKind): Promise<void> {
  const bodySchema = mergeAllOf(schema(jsonBodyOf(kind.create)?.schema));
  const planted = plantedValues(bodySchema, schema(createdSchema(kind)), `pk-proto-${c.generator.nextTag()}`);
  const names = Object.keys(planted);
  if (names.length === 0) return c.skip(`${kind.create.operationId}'s body has no optional field its record shows whose value the server could not give by itself`);
  const first = await c.create(kind, { setup: true });
  if (!first.ok) return c.setupFailed(first);
  // The key is written into the text: an object literal's `__proto__` would set a prototype, not send a key.
  const rest = stringifyJson(without(first.record.sent, names));
  const text = `{"__proto__":${stringifyJson(planted)}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
  // Where the document forbids the key (additionalProperties: false) the body is invalid, and is sent only where the
  // create documents a refusal: a document with no answer for it is not the target's to be judged on.
  if (!c.checkValid(kind.create, { bodyText: text }).ok && !documentsRefusal(kind.create)) {
    return c.skip(`${kind.create.operationId}'s body does not allow a "__proto__" key and the operation documents no 400 or 422 to refuse it with`);
  }
  const polluting = await c.call(kind.create, { bodyText: text });
  // No answer at all is a transport matter (a gateway may cut such a body), not what this check judges.
  if (polluting.problem) return c.skip(`the body with a "__proto__" key got no answer: ${polluting.problem}`);
  const later = await c.create(kind, { vary: (body) => without(body, names) });
  if (!later.ok) return c.setupFailed(later);
  const findings: Finding[] = [];
  findings.push(...inherited(later.record.body, planted, `${kind.create.operationId}'s answer`));
  for (const target of recordReads(kind)) {
    const call = await c.follow(target, later.record);
    if (readSucceeded(target.operation, call.status)) findings.push(...inherited(call.json, planted, `${target.operation.operationId}`));
  }
  c.conclude(findings);
}

/**
 * The values to plant: for each optional property of the create's body that the record declares too, a value that a
 * correct server never gives a record whose create left it out: the tag, in each plain text (no enum, pattern or
 * format) whose length bounds take it.
 */
export function plantedValues(body: Schema, record: Schema, tag: string): JsonObject {
  const required = new Set(body.required ?? []);
  const shown = propertiesOf(record);
  const out: JsonObject = {};
  for (const [name, raw] of Object.entries(propertiesOf(body))) {
    if (required.has(name) || !(name in shown) || name === '__proto__') continue;
    const property = mergeAllOf(raw);
    if (property.readOnly) continue;
    const value = plantFor(property, tag);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function plantFor(property: Schema, tag: string): unknown {
  // Only a text: an enum value or a boolean could be a server's own default, stated or not.
  if (property.type !== 'string' || property.enum !== undefined || property.pattern !== undefined || property.format !== undefined) return undefined;
  const max = typeof property.maxLength === 'number' ? property.maxLength : Number.POSITIVE_INFINITY;
  const min = typeof property.minLength === 'number' ? property.minLength : 0;
  return tag.length <= max && tag.length >= min ? tag : undefined;
}

/** Whether the operation documents how it refuses an invalid body: 400, 422, `4XX` or `default` (a 409 is another matter). */
function documentsRefusal(operation: Operation): boolean {
  return ['400', '422', '4XX', '4xx', 'default'].some((status) => operation.responses.has(status));
}

function without(body: JsonObject, names: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));
}

function inherited(answer: unknown, planted: JsonObject, where: string): Finding[] {
  if (!isObject(answer)) return [];
  return Object.entries(planted)
    .filter(([name, value]) => Object.hasOwn(answer, name) && answer[name] === value)
    .map(([name, value]) => ({
      pointer: `/body/${name}`,
      keyword: 'prototype',
      message: `${where} gives ${name} ${stringifyJson(value)}, the value only an earlier body's "__proto__" key named: the server merged it into its objects' prototype`,
      expected: `no ${name}, or the server's own default`,
      actual: value,
    }));
}
