/**
 * The fields of a record that name it: those a link reads the target's path parameters from
 * (`$response.body#/slug`, `$response.body#/data/id`; OpenAPI 3.0.3 §4.7.20.4). A write to the record's own URL
 * keeps them as the record has them: a server that names the record by its URL rightly keeps that identity whatever
 * a body says, so a replacement or a patch that changed them would expect what the document does not promise.
 */
import type { CreatedRecord } from '../context.js';
import type { LinkTarget } from '../links.js';
import { isObject, propertiesOf, type Schema } from '../generate.js';

export function identityFields(target: LinkTarget, record: CreatedRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const expression of Object.values(target.link.parameters)) {
    if (typeof expression !== 'string') continue;
    const match = /^\$response\.body#((?:\/[^/]+)+)$/.exec(expression);
    if (!match) continue;
    const path = match[1]!.slice(1).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const field = path[path.length - 1]!;
    let value: unknown = record.body;
    for (const segment of path) value = isObject(value) ? value[segment] : undefined;
    if (value === undefined) value = record.sent[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * The member a representation wraps its record in (`{ "data": {...} }`, beside at most two others such as paging or a
 * request id), as links.ts reads a wrapped record's id; undefined when the record is answered bare.
 */
export function recordWrapper(s: Schema | undefined): string | undefined {
  const members = propertiesOf(s);
  const wrappers = Object.entries(members).filter(([, member]) => Object.keys(propertiesOf(member)).length > 0);
  return wrappers.length === 1 && Object.keys(members).length <= 3 ? wrappers[0]![0] : undefined;
}
