/**
 * What answering an operation with a status takes from the document, read once per operation and status instead of on
 * every request (issue 22, point 8: finding an item answer's envelope key was 7% of a read on Twilio): the shape a
 * record is answered in, the record schema a client's fields echo into, the headers the answer must carry and those
 * its check reads, the media type it is sent as. The document does not change under a running engine (`--watch`
 * builds a new one), so neither does a plan.
 */
import type { HeaderSpec, MediaTypeSpec, Operation } from '../../src/contract/index.js';
import { itemsOf, jsonMedia, propertiesOf, responseFor, typeOf, type Schema } from './schemas.js';

/**
 * How a record is answered: with no JSON body, bare, in the envelope the answer's schema has (`{ data: ... }`), or in
 * the array member records travel in (`{ Items: [...] }`, the resource's batchKey), with every record the request
 * made or changed.
 */
export type AnswerShape =
  | { readonly kind: 'none' }
  | { readonly kind: 'bare' }
  | { readonly kind: 'envelope'; readonly key: string }
  | { readonly kind: 'batch'; readonly key: string };

export interface AnswerPlan {
  readonly shape: AnswerShape;
  /** The answer's JSON schema, when it documents one. */
  readonly schema: Schema | undefined;
  /** The properties of the record inside the answer (inside its envelope, if any), when the answer is an object. */
  readonly recordProperties: ReadonlyMap<string, Schema> | undefined;
  /** The record schema those properties come from. */
  readonly recordSchema: Schema | undefined;
  /** The headers the documented response requires (Content-Type aside). */
  readonly requiredHeaders: readonly HeaderSpec[];
  /** Every header the response's check reads: Content-Type and each documented header, lower-cased. */
  readonly checkedHeaders: readonly string[];
  /** The JSON media type to send when it is not plain `application/json` (`application/problem+json`). */
  readonly jsonType: string | undefined;
  /** The media type documented when the answer has no JSON one (`text/csv`, `application/pdf`). */
  readonly otherMedia: MediaTypeSpec | undefined;
  /** Every media type the answer documents, JSON or not: what an `Accept` chooses among. */
  readonly content: readonly MediaTypeSpec[];
  /** Their names, in the document's order. */
  readonly mediaTypes: readonly string[];
  /** The documented response's key (`200`, `4XX`, `default`), or undefined when the status is not documented. */
  readonly key: string | undefined;
}

/** Where an operation's resource (infer.ts) carries its records in an answer, when it does. */
export interface RecordWrapping {
  /** The array member records travel in (`{ Items: [...] }`). */
  readonly batchKey?: string;
  /** The object member one record is answered in (`{ employee: {...} }`), beside the usual `data`, `item`, ... */
  readonly itemEnvelope?: string;
  /** The member that names a record (`lago_id`): an answer without it whose one object member has it wraps the record. */
  readonly idField?: string;
}

/**
 * The plans of a document's operations, each made on its first use. `wrappingOf`: how an operation's resource
 * carries its records (infer.ts), when it has one.
 */
export function createAnswerPlans(wrappingOf: (operation: Operation) => RecordWrapping | undefined = () => undefined): (operation: Operation, status: number) => AnswerPlan {
  const plans = new Map<Operation, Map<number, AnswerPlan>>();
  return (operation, status) => {
    let byStatus = plans.get(operation);
    if (!byStatus) plans.set(operation, (byStatus = new Map()));
    let plan = byStatus.get(status);
    if (!plan) byStatus.set(status, (plan = planOf(operation, status, wrappingOf(operation) ?? {})));
    return plan;
  };
}

function planOf(operation: Operation, status: number, { batchKey, itemEnvelope, idField }: RecordWrapping): AnswerPlan {
  const spec = responseFor(operation, status);
  const content = spec?.content ?? [];
  const media = jsonMedia(content);
  const schema = media?.schema;
  const batch = schema && batchKey !== undefined && typeOf(schema) === 'object' ? propertiesOf(schema).get(batchKey) : undefined;
  const batchItems = batch ? itemsOf(batch) : undefined;
  const key = schema ? (resourceEnvelope(schema) ?? ownEnvelope(schema, itemEnvelope) ?? idEnvelope(schema, idField)) : undefined;
  const shape: AnswerShape = !media
    ? { kind: 'none' }
    : batchItems && batchKey !== undefined
      ? { kind: 'batch', key: batchKey }
      : !schema || typeOf(schema) !== 'object' || key === undefined
        ? { kind: 'bare' }
        : { kind: 'envelope', key };
  const recordSchema = batchItems ?? (schema && key !== undefined ? propertiesOf(schema).get(key) : schema);
  const headers = spec?.headers ?? [];
  return {
    shape,
    schema,
    recordSchema,
    recordProperties: recordSchema && typeOf(recordSchema) === 'object' ? propertiesOf(recordSchema) : undefined,
    requiredHeaders: headers.filter((header) => header.required && header.name.toLowerCase() !== 'content-type'),
    checkedHeaders: ['content-type', ...headers.map((header) => header.name.toLowerCase()).filter((name) => name !== 'content-type')],
    jsonType: media && !media.mediaType.includes('*') ? media.mediaType : undefined,
    otherMedia: content.length > 0 && !media ? content[0] : undefined,
    content,
    mediaTypes: content.map((m) => m.mediaType),
    key: spec?.status,
  };
}

/** The resource's own envelope member (`employee` of Xero payroll's `{ employee: {...} }`), where this answer has it. */
function ownEnvelope(schema: Schema, itemEnvelope: string | undefined): string | undefined {
  if (itemEnvelope === undefined || typeOf(schema) !== 'object') return undefined;
  const member = propertiesOf(schema).get(itemEnvelope);
  return member !== undefined && typeOf(member) === 'object' ? itemEnvelope : undefined;
}

/**
 * The envelope of this answer alone, where the resource's other answers are bare: an object of a few members without
 * the record's id field, one of whose object members has it (Lago's create answers `{ payment: { lago_id, … } }`,
 * its read the payment bare). Without it the record was answered bare, refused by the answer's schema, and fitted
 * into an envelope of invented values: the created payment was answered with the example's id, read back nowhere.
 */
function idEnvelope(schema: Schema, idField: string | undefined): string | undefined {
  if (idField === undefined || typeOf(schema) !== 'object') return undefined;
  const properties = propertiesOf(schema);
  if (properties.has(idField) || properties.size > 3) return undefined;
  const holders = [...properties].filter(([, member]) => typeOf(member) === 'object' && propertiesOf(member).has(idField));
  return holders.length === 1 ? holders[0]![0] : undefined;
}

/** The envelope key of an item answer (`{ data: {...} }`), or undefined when the record is answered bare. */
export function resourceEnvelope(schema: Schema): string | undefined {
  const properties = propertiesOf(schema);
  if (properties.has('id') || properties.size > 3) return undefined;
  return ['data', 'item', 'result', 'record'].find((key) => properties.has(key) && typeOf(properties.get(key)!) === 'object');
}
