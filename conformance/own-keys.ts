/**
 * An integer key of the run's own. Where a create's body carries the record's integer id (writable, the field its
 * links read the path id from), the generator's sample is the schema's minimum, usually 1, which the target's data
 * holds already: the target rightly answers its documented 409, or gives the record another id, and the run blamed
 * it for either. A text key gets the run's tag (context.ts ownIdentity); an integer one is drawn from the top of its
 * range instead, from the tag, where a server's own sequence (1, 2, 3, ...) and seed data do not reach.
 */
import { lastOfSeveralWords } from '../src/parameter-words.js';
import type { ResourceKind } from './links.js';

/** The bounds of an integer schema, in OpenAPI 3.0's words (boolean exclusive bounds) or 3.1's (numeric ones). */
export interface IntegerBounds {
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly exclusiveMinimum?: unknown;
  readonly exclusiveMaximum?: unknown;
  readonly multipleOf?: unknown;
}

/**
 * The body's member a link reads the record's id from inside an envelope (`$response.body#/data/order_id`: the create
 * answers `{ data: {...} }`), when the body sent carries it: the client-chosen key identityField() does not see.
 */
export function enveloped(kind: ResourceKind, body: Readonly<Record<string, unknown>>): string | undefined {
  for (const { link } of kind.links) {
    for (const expression of Object.values(link.parameters)) {
      const match = typeof expression === 'string' ? /^\$response\.body#\/.+\/([^/]+)$/.exec(expression) : null;
      const field = match ? match[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
      if (field !== undefined && Object.hasOwn(body, field)) return field;
    }
  }
  return undefined;
}

/**
 * The envelope and the key a kind's link reads the record's id from inside it (`$response.body#/file/id`), where the
 * sent body wraps its record in the same envelope: `{ envelope: 'file', field: 'id' }`; undefined otherwise.
 */
export function envelopedIdentity(kind: ResourceKind, body: Readonly<Record<string, unknown>>): { readonly envelope: string; readonly field: string } | undefined {
  for (const { link } of kind.links) {
    for (const expression of Object.values(link.parameters)) {
      const match = typeof expression === 'string' ? /^\$response\.body#\/([^/]+)\/([^/]+)$/.exec(expression) : null;
      if (!match) continue;
      const [envelope, field] = [match[1]!, match[2]!].map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')) as [string, string];
      const inner = body[envelope];
      if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && Object.hasOwn(inner, field)) return { envelope, field };
    }
  }
  return undefined;
}

/**
 * The member of `record` a path parameter names: the parameter itself, else its last word (`type_id_or_name` names
 * `name`, as `pool_name` does); undefined when `record` has neither.
 */
export function memberNamedBy(parameter: string, record: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.hasOwn(record, parameter)) return parameter;
  const last = lastOfSeveralWords(parameter);
  return last !== undefined && Object.hasOwn(record, last) ? last : undefined;
}

/** The last path parameter of the kind's item reads (`/incidents/types/{type_id_or_name}`: `type_id_or_name`). */
export function itemParameters(kind: ResourceKind): string[] {
  return kind.reads.map((target) => /\{([^{}]+)\}$/.exec(target.operation.pathTemplate)?.[1]).filter((name): name is string => name !== undefined);
}

/**
 * The key inside a body of one member that wraps the record (PagerDuty's `POST /incidents/types {incident_type:
 * {name, ...}}`, read at `/incidents/types/{type_id_or_name}`): the member the item path's parameter names, where no
 * link names one.
 */
export function envelopedItemKey(kind: ResourceKind, body: Readonly<Record<string, unknown>>): { readonly envelope: string; readonly field: string } | undefined {
  const members = Object.keys(body);
  if (members.length !== 1) return undefined;
  const envelope = members[0]!;
  const inner = body[envelope];
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return undefined;
  for (const parameter of itemParameters(kind)) {
    const field = memberNamedBy(parameter, inner as Record<string, unknown>);
    if (field !== undefined) return { envelope, field };
  }
  return undefined;
}

/**
 * Whether a member name names a record: `id`, a name like an id (`thing_id`, `thingId`, `ID`), or one an item path's
 * parameter names. A body member of such a name that the request schema does not declare came from an example
 * (SendGrid's `campaign_request` example `{id: 986724, ...}`): the schema does not ask for it, and every create that
 * repeats it names one record.
 */
export function namesARecord(name: string, itemParameterNames: readonly string[]): boolean {
  if (name === 'id' || /(^|_)id$|[a-z]Id$|ID$/.test(name)) return true;
  return itemParameterNames.some((parameter) => memberNamedBy(parameter, { [name]: true }) === name);
}

/** The top of a range an integer id without a maximum is drawn from: int32's, which every integer format holds. */
const INT32_MAX = 2 ** 31 - 1;
/** How far below the top the draws spread: wide enough that a run's records never meet, narrow enough to stay high. */
const SPREAD = 2 ** 20;

/** Candidates for an integer key of this schema, high in its range and different for every `tag`; none when it has no room. */
export function ownIntegerKeys(field: IntegerBounds, tag: string): number[] {
  const low = Math.max(bound(field.minimum, field.exclusiveMinimum, 1) ?? 1, 1);
  const high = bound(field.maximum, field.exclusiveMaximum, -1) ?? INT32_MAX;
  const step = typeof field.multipleOf === 'number' && Number.isInteger(field.multipleOf) && field.multipleOf > 0 ? field.multipleOf : 1;
  if (!Number.isSafeInteger(high) || high < low) return [];
  const room = Math.floor((high - low) / step) + 1;
  if (room < 2) return [];
  const spread = Math.min(SPREAD, Math.floor(room / 2));
  const top = Math.floor(high / step) * step;
  return [0, 1, 2].map((turn) => top - step * (hash(`${tag}:${turn}`) % Math.max(spread, 1))).filter((value) => value >= low);
}

/** An inclusive integer bound from a schema's limit and its 3.0 (boolean) or 3.1 (numeric) exclusive form. */
function bound(limit: unknown, exclusive: unknown, inward: 1 | -1): number | undefined {
  if (typeof exclusive === 'number') return inward === 1 ? Math.floor(exclusive) + 1 : Math.ceil(exclusive) - 1;
  if (typeof limit !== 'number') return undefined;
  const whole = inward === 1 ? Math.ceil(limit) : Math.floor(limit);
  return exclusive === true && whole === limit ? whole + inward : whole;
}

/** FNV-1a: the same number for the same text on every machine. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
