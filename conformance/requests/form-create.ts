/**
 * Creates whose body is a form (`application/x-www-form-urlencoded`: every create of Twilio's and Stripe's APIs). The
 * runner made no record with them ("takes no JSON body"), so every check that needs a record the run owns skipped:
 * 248 of Twilio Messaging's 680 results, with 303 requests sent in all. A flat form (each field a scalar, or a list of
 * scalars) is generated from its schema as a JSON body is, judged by the same validator, and sent as OpenAPI 3.0.3
 * §4.7.15 says by default (style form, explode: a list repeats its name). A field that nests an object is left out of
 * this: how a server reads one (JSON text, `a[b]=`, dotted names) is the document's `encoding` to say, not a default.
 */
import type { MediaTypeSpec, Operation } from '../../src/contract/index.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type FormBody, type Schema } from '../generate.js';
import { FORM_URLENCODED, otherBodyMedia } from './bodies.js';

/** What a create's form is, for the runner: one it sends (`form`), one it cannot (`reason`), or no form at all (undefined). */
export type FormCreate = { readonly form: FormBody } | { readonly reason: string } | undefined;

export function formCreateOf(compiled: CompiledContract, operation: Operation): FormCreate {
  if (jsonBodyOf(operation) !== undefined) return undefined;
  const media = otherBodyMedia(operation);
  if (!media || media.mediaType.split(';')[0]!.trim().toLowerCase() !== FORM_URLENCODED || !media.schema) return undefined;
  const nested = Object.entries(propertiesOf(schema(media.schema))).find(([, property]) => !flat(schema(property)));
  if (nested) return { reason: `${operation.operationId} takes a form whose field ${nested[0]} nests an object, which no default encoding says how to send` };
  return { form: { media, problems: (value) => formProblems(compiled, media, value) } };
}

function formProblems(compiled: CompiledContract, media: MediaTypeSpec, value: unknown): readonly { readonly pointer: string; readonly message: string }[] {
  if (!isObject(value)) return [{ pointer: '/body', message: 'a form is an object of fields' }];
  return compiled.validate(schema(media.schema), value, 'request', '/body');
}

/** A field a form writes by default: a scalar, or a list of scalars (one field per item). */
function flat(property: Schema): boolean {
  const merged = mergeAllOf(property);
  const type = (merged as { type?: unknown }).type;
  if (type === 'object' || Object.keys(merged.properties ?? {}).length > 0) return false;
  const listed = (merged as { items?: Schema }).items;
  if (type === 'array' || listed !== undefined) {
    const items = listed === undefined ? undefined : mergeAllOf(schema(listed));
    return items === undefined || ((items as { type?: unknown }).type !== 'object' && (items as { type?: unknown }).type !== 'array' && Object.keys(items.properties ?? {}).length === 0);
  }
  return true;
}
