/**
 * A request body sent as `application/x-www-form-urlencoded` (Twilio, Stripe, Vonage), read into the object its form
 * schema describes, so the document's schema judges it and the generic engine keeps what was sent. The mock read none
 * of it: a form-only operation took any body, a missing required field or a value past its bounds included, and an
 * operation that also took JSON refused the form with 415 (found by a sweep of APIs-guru's documents: Vonage's
 * `POST /number/buy`, Ably's `POST /push/publish`).
 *
 * OpenAPI 3.0.3 §4.7.15 (Encoding Object): a property is written as a form field, style `form`, explode true, so an
 * array is its name repeated; the bracket forms clients write for nested values (`metadata[key]=v`, `expand[]=a`,
 * Stripe's) are read as an object member and an array item. Each value is typed by its property's schema as a query
 * value is (src/schema/coerce.ts): `5` is a number where the schema says integer, text where it says string.
 */
import { coerceText } from '../../src/schema/index.js';
import { shapeOfSchema } from '../../src/schema/schema-types.js';
import type { Operation } from '../../src/contract/index.js';
import type { BodyOutcome } from './body.js';
import { headerValue, type HeaderMap, type RequestBody } from '../engine/message.js';
import type { OpenAPIV3 } from 'openapi-types';

type Schema = OpenAPIV3.SchemaObject;

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** The schema of the form body an operation documents, or undefined where it documents none. */
export function formSchemaOf(operation: Operation): Schema | undefined {
  const media = operation.requestBody?.content.find((m) => m.mediaType.split(';')[0]!.trim().toLowerCase() === FORM_MEDIA_TYPE);
  return media === undefined ? undefined : (media.schema ?? {});
}

/** Whether a request says its body is a form. */
export function sentAsForm(headers: HeaderMap): boolean {
  return headerValue(headers, 'content-type')?.split(';')[0]?.trim().toLowerCase() === FORM_MEDIA_TYPE;
}

/**
 * How the body of a request to an operation that takes a form is read: as a form when it is sent as one, or sent with
 * no bytes where the operation takes no JSON (so a required form is missed); refused with 415 when it is JSON where
 * only a form is taken; otherwise as the operation's other media types are ('other').
 */
export function formReading(takesJson: boolean, body: RequestBody | undefined, headers: HeaderMap): 'form' | 'other' | BodyOutcome {
  if (sentAsForm(headers)) return 'form';
  const empty = body === undefined || (body.kind === 'bytes' && body.bytes.byteLength === 0);
  if (takesJson) return 'other';
  if (empty) return 'form';
  const type = headerValue(headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (body.kind === 'json' || (type !== undefined && (type === 'application/json' || type.endsWith('+json')))) {
    return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Send the body as ${FORM_MEDIA_TYPE}; this operation takes no JSON.` };
  }
  return 'other';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NO_BODY: BodyOutcome = { ok: true, value: undefined };

/** The body as the object its form schema describes; a body that is not UTF-8 is a 400, as a JSON one is. */
export function readFormBody(body: RequestBody | undefined, headers: HeaderMap, schema: Schema): BodyOutcome {
  if (body === undefined) return NO_BODY;
  if (body.kind === 'too-large') return { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `The body is larger than ${body.limit} bytes; send at most ${body.limit}.` };
  if (body.kind === 'json') return { ok: true, value: body.value };
  if (body.bytes.byteLength === 0) return NO_BODY;
  const encoding = headerValue(headers, 'content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') return { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Send the body uncompressed; Content-Encoding ${encoding.slice(0, 40)} is not supported.` };
  let text: string;
  try {
    text = utf8.decode(body.bytes);
  } catch {
    return { ok: false, code: 'MALFORMED_JSON', message: 'The form body is not UTF-8 text.' };
  }
  const fields = new Map<string, string[]>();
  const nested = new Map<string, Map<string, string>>();
  for (const [name, value] of new URLSearchParams(text)) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(name);
    if (bracket && bracket[2] !== '') {
      const members = nested.get(bracket[1]!) ?? new Map<string, string>();
      members.set(bracket[2]!, value);
      nested.set(bracket[1]!, members);
      continue;
    }
    const key = bracket ? bracket[1]! : name;
    const values = fields.get(key) ?? [];
    values.push(value);
    fields.set(key, values);
  }
  // A plain object built by own-property writes: a field named __proto__ is a field, never the prototype.
  const out: Record<string, unknown> = {};
  const properties = schema.properties ?? {};
  for (const [name, values] of fields) {
    const property = (Object.hasOwn(properties, name) ? properties[name] : undefined) as Schema | undefined;
    Object.defineProperty(out, name, { value: typed(values, property), enumerable: true, writable: true, configurable: true });
  }
  for (const [name, members] of nested) {
    const property = (Object.hasOwn(properties, name) ? properties[name] : undefined) as Schema | undefined;
    const memberSchemas = property?.properties ?? {};
    const object: Record<string, unknown> = {};
    for (const [member, value] of members) {
      const memberSchema = (Object.hasOwn(memberSchemas, member) ? memberSchemas[member] : undefined) as Schema | undefined;
      Object.defineProperty(object, member, { value: typed([value], memberSchema), enumerable: true, writable: true, configurable: true });
    }
    Object.defineProperty(out, name, { value: object, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}

/** A field's values typed by its schema: a list where it is an array, else its last value; text where no schema says more. */
function typed(values: readonly string[], schema: Schema | undefined): unknown {
  if (schema === undefined) return values.length === 1 ? values[0] : [...values];
  if (shapeOfSchema(schema) === 'array') {
    const items = ('items' in schema ? schema.items : undefined) as Schema | undefined;
    return values.map((value) => scalar(value, items));
  }
  if (shapeOfSchema(schema) === 'object') {
    // An object sent whole in one field is JSON text (§4.7.15: an object's default contentType is application/json).
    try {
      return JSON.parse(values[values.length - 1]!) as unknown;
    } catch {
      return values[values.length - 1];
    }
  }
  return scalar(values[values.length - 1]!, schema);
}

/** A text typed as its schema says (`5` → 5 for an integer); left as text where it is none of the schema's types, for the schema to refuse. */
function scalar(text: string, schema: Schema | undefined): unknown {
  if (schema === undefined) return text;
  const coerced = coerceText(text, schema);
  return coerced.ok ? coerced.value : text;
}
