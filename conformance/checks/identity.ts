/**
 * The fields of a record that name it: those a link reads the target's path parameters from
 * (`$response.body#/slug`, `$response.body#/data/id`; OpenAPI 3.0.3 §4.7.20.4). A write to the record's own URL
 * keeps them as the record has them: a server that names the record by its URL rightly keeps that identity whatever
 * a body says, so a replacement or a patch that changed them would expect what the document does not promise.
 * A field the write's body declares `readOnly` is not one to keep: it is not sent at all (OpenAPI 3.0.3 §4.7.25,
 * "SHOULD NOT be sent as part of the request"), and a strict server rightly refuses a body that carries it.
 */
import type { CreatedRecord } from '../context.js';
import type { LinkTarget } from '../links.js';
import { isObject, jsonBodyOf, propertiesOf, schema, type Schema } from '../generate.js';
import { linkInputs } from '../requests/link-inputs.js';

export function identityFields(target: LinkTarget, record: CreatedRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const body = propertiesOf(schema(jsonBodyOf(target.operation)?.schema));
  for (const expression of Object.values(target.link.parameters)) {
    if (typeof expression !== 'string') continue;
    const match = /^\$response\.body#((?:\/[^/]+)+)$/.exec(expression);
    if (!match) continue;
    const path = match[1]!.slice(1).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const field = path[path.length - 1]!;
    if (body[field] !== undefined && schema(body[field]).readOnly) continue;
    let value: unknown = record.body;
    for (const segment of path) value = isObject(value) ? value[segment] : undefined;
    if (value === undefined) value = record.sent[field];
    if (value !== undefined) out[field] = value;
  }
  // A path bound some other way (the last segment of the create's Location): the fields of the record, bare or in its
  // wrapper, whose value is what the path holds name the record too (readme.com's changelog slug). Patching one would
  // move or refuse the record the read after it names, which says nothing of whether the other fields were kept.
  const otherwise = Object.entries(target.link.parameters).filter(([, expression]) => typeof expression !== 'string' || !expression.startsWith('$response.body#'));
  if (otherwise.length === 0) return out;
  const bound = new Set(Object.values(linkInputs({ ...target, link: { ...target.link, parameters: Object.fromEntries(otherwise) } }, record.call.source).path).map(String));
  const holders = [record.body, ...Object.values(record.body).filter(isObject), record.sent];
  for (const field of Object.keys(body)) {
    if (field in out || schema(body[field]).readOnly) continue;
    const held = holders.map((holder) => holder[field]).find((value) => (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') && bound.has(String(value)));
    if (held !== undefined) out[field] = held;
  }
  return out;
}

/**
 * The member a representation wraps its record in (`{ "data": {...} }`, beside at most two others such as paging or a
 * request id), as links.ts reads a wrapped record's id; undefined when the record is answered bare. Where several
 * members are objects (InfluxDB's `{ "label": {...}, "links": { "self": ... } }`), the wrapper is the one that declares
 * the record's `fields` (those a write sends) while the top level declares none of them.
 */
export function recordWrapper(s: Schema | undefined, fields: readonly string[] = []): string | undefined {
  const members = propertiesOf(s);
  const wrappers = Object.entries(members).filter(([, member]) => Object.keys(propertiesOf(member)).length > 0);
  // A top level that declares a field a write sends is the record itself, whatever object it holds (`{ slug, name,
  // address: {...} }` patched with `{ "address": {...} }`: the address is a field, not a wrapper).
  if (fields.some((field) => Object.hasOwn(members, field))) return undefined;
  if (wrappers.length === 1 && Object.keys(members).length <= 3) return wrappers[0]![0];
  if (fields.length === 0) return undefined;
  const holding = wrappers.filter(([, member]) => fields.some((field) => Object.hasOwn(propertiesOf(member), field)));
  return holding.length === 1 ? holding[0]![0] : undefined;
}
