import { stringifyJson } from '../json.js';
import type { Contract, Operation } from '../../src/contract/index.js';
import { isJsonMediaType } from '../../src/schema/index.js';
import type { Case } from '../context.js';
import { isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';
import type { ResourceKind } from '../links.js';
import { clientKeyField, itemKeyOf } from '../context.js';
import type { CheckDefinition } from './types.js';
import { otherBodyMedia } from '../requests/bodies.js';
import { prepareInputs, writesAllowed } from './support.js';
import { judgeAcceptance, SharedInputs, sendValidBody, valueVariants, type ValueVariant } from './valid-variants.js';

/**
 * Valid bodies across the range the document allows, one property varied
 * at a time from a valid body: the shortest and longest strings, unicode
 * and spaces, every enum value, RFC 3339 date-times with offsets and
 * fractions, integer bounds, both booleans, and only the required fields.
 * The variants of an operation share records, and get fresh ones when an
 * earlier variant's effect makes the next a conflict (a second order for one
 * pet), so a 409 never stands for a refusal.
 */
export const acceptsValidBodies: CheckDefinition = {
  id: 'accepts-valid-bodies',
  family: 'acceptance',
  description: 'Valid bodies at every bound and enum value, with the text real users type, 32/53-bit integers and RFC 3339 offsets and fractions, in each JSON media type declared and chunked, are taken, not refused.',
  explain: {
    why: "Every value the document allows must be taken: boundaries of lengths and ranges, every enum value, unicode and spaces in names, RFC 3339 date-times with offsets and fractions. A server stricter than its document refuses real users' data.",
    conformant: '`POST /pets` with a one-character name, a name with spaces and non-ASCII letters, or each PetStatus value answers 201.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) return;
      // Only where something may be unique (a documented 409), free text can be sent in another case, and the document does not say case is ignored.
      if (!ctx.isSelected(kind.create) || !kind.create.responses.has('409') || freeTextFields(kind).length === 0 || CASE_INSENSITIVE.test(documentText(ctx.contract, kind))) continue;
      await caseVariantCreate(ctx.newCase('accepts-valid-bodies', `${kind.create.operationId} twice, the second with the first's text in another case`, kind.create.operationId), kind);
    }
    for (const operation of ctx.operations) {
      const media = jsonBodyOf(operation);
      if (!writesAllowed(ctx, operation)) continue;
      const other = media ? undefined : otherBodyMedia(operation);
      if (other && !ctx.aborted) {
        // A form, multipart, text or octet-stream body (issue 11, point 3): the call builds one its schema accepts (context.ts).
        const c = ctx.newCase('accepts-valid-bodies', `${operation.method.toUpperCase()} ${operation.pathTemplate} with a valid ${other.mediaType} body`, operation.operationId);
        const prepared = await prepareInputs(c, operation);
        if (!prepared.ok) prepared.fail(c);
        else judgeAcceptance(c, await c.call(operation, { path: prepared.inputs.path, query: prepared.inputs.query }), 'success');
      }
      if (!media) continue;
      const bodySchema = schema(media.schema);
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      const generator = ctx.generatorFor('accepts-valid-bodies');
      const variants: (ValueVariant & { readonly name?: string; readonly contentType?: string; readonly framing?: 'chunked' })[] = [];
      const kind = ctx.links.kinds.get(operation.operationId);
      const declared = bodySchema.properties ?? {};
      const key = kind ? clientKeyField(kind, declared) : operation.method === 'post' ? itemKeyOf(ctx.contract, operation.pathTemplate, declared) : undefined;
      for (const [name, raw] of Object.entries(bodySchema.properties ?? {})) {
        // A field that names another record keeps the record the run made for it. The key a create's client chooses
        // is not varied: each edge value names one record, which the run's earlier variants (or other checks) created,
        // and the target rightly refuses it as taken (Traccar's device `id` at 2^31); accepts-large-ids sends keys.
        if (ctx.links.producers.has(name) || schema(raw).readOnly || name === key) continue;
        variants.push(...valueVariants(`/${name}`, schema(raw), generator.nextTag(), generator.faker.string.alpha({ length: 1, casing: 'upper' })).map((v) => ({ ...v, name })));
      }
      if ((bodySchema.required ?? []).length < Object.keys(bodySchema.properties ?? {}).length) variants.push({ description: 'only the required fields', value: undefined });
      // The whole valid body in each other JSON media type the operation declares (application/merge-patch+json), and streamed chunked.
      for (const other of jsonMediaTypes(operation).filter((type) => type !== media.mediaType.toLowerCase())) variants.push({ description: `the valid body as ${other}`, value: undefined, contentType: other });
      variants.push({ description: 'the valid body sent chunked, without Content-Length (RFC 9112 section 7.1)', value: undefined, framing: 'chunked' });
      const required = new Set(bodySchema.required ?? []);
      const shared = new SharedInputs(operation);
      for (const variant of variants) {
        if (ctx.aborted) return;
        const c = ctx.newCase('accepts-valid-bodies', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: variant.name ? `/body/${variant.name}` : '/body', description: variant.description };
        const whole = variant.contentType !== undefined || variant.framing !== undefined;
        const sent = await shared.send(c, (inputs) =>
          isObject(inputs.body)
            ? sendValidBody(c, operation, inputs, stringifyJson(whole ? inputs.body : varied(inputs.body, inputs.bindings, variant, required)), variant.contentType ?? media.mediaType, variant.framing)
            : Promise.resolve({ skip: 'the valid body is not an object to vary' }),
        );
        if (!sent) continue;
        if ('skip' in sent) {
          c.skip(sent.skip);
          continue;
        }
        judgeAcceptance(c, sent.call, 'success');
        // A replace that took a value without the run's tag (a one-character name) is put back, so the cleanup still knows the record as the run's.
        const status = sent.call.status ?? 0;
        const inputs = shared.current;
        if (inputs && !ctx.links.kinds.has(operation.operationId) && !sent.text.includes(ctx.runTag) && status >= 200 && status < 300) {
          await c.call(operation, { path: inputs.path, query: inputs.query, body: inputs.body });
        }
      }
    }
  },
};

/**
 * A record whose free text differs from an existing record's only in case is another record: where a create
 * documents a 409 (something in the body must be unique) and the document does not say uniqueness ignores case,
 * a second create with every free-text field of the first in another case (its other fields and the records it
 * names its own) is taken. A server that compares names case-insensitively without saying so refuses real users'
 * distinct names.
 */
async function caseVariantCreate(c: Case, kind: ResourceKind): Promise<void> {
  const first = await c.create(kind, { setup: true });
  if (!first.ok) return c.setupFailed(first);
  const fields = new Set(freeTextFields(kind));
  const free = Object.entries(first.record.sent).filter((entry): entry is [string, string] => fields.has(entry[0]) && typeof entry[1] === 'string' && swapCase(entry[1]) !== entry[1]);
  if (free.length === 0) return c.skip(`the valid body for ${kind.create.operationId} holds no text with letters to send in another case`);
  const second = await c.create(kind, {
    vary: (body, _schema, keep, isValid) => free.reduce((out, [name, value]) => (keep.has(name) || !isValid({ ...out, [name]: swapCase(value) }) ? out : { ...out, [name]: swapCase(value) }), body),
  });
  if (second.ok) return c.pass();
  if (second.noValidInput || second.transport || second.setup) return c.setupFailed(second);
  if (second.status !== 409) return c.skip(`${second.reason}: not the 409 this case is about`);
  c.fail(`refused a record whose text differs from another's only in case: ${second.reason}`, [
    { pointer: '/status', keyword: 'accepted', message: `${free.map(([name]) => name).join(', ')} in another case is another value; the document does not say uniqueness ignores case`, expected: '2xx', actual: 409 },
  ]);
}

/** Words a document uses to say a uniqueness rule ignores case (the name-taken workflow reads them too). */
export const CASE_INSENSITIVE = /case[- ]?insensitiv|ignor\w* (letter )?case|regardless of case|without regard to case/i;

/** The words of a create that may state its uniqueness rule: its descriptions and its error catalogue's. */
function documentText(contract: Contract, kind: ResourceKind): string {
  const raw: unknown = contract.document.paths?.[kind.create.pathTemplate]?.[kind.create.method];
  const operation = isObject(raw) ? raw : {};
  const conflict = kind.create.responses.get('409')?.description ?? '';
  const codes = [...contract.errorCodes.values()].filter((code) => code.status === 409).map((code) => code.description);
  const schemaText = (s: Schema): string => [s.description ?? '', ...Object.values(propertiesOf(s)).map((p) => mergeAllOf(p).description ?? '')].join(' ');
  return [String(operation['description'] ?? ''), conflict, ...codes, schemaText(schema(jsonBodyOf(kind.create)?.schema))].join(' ');
}

/** The free-text fields of a create's body: strings without enum, format or pattern. */
function freeTextFields(kind: ResourceKind): string[] {
  return Object.entries(propertiesOf(jsonBodyOf(kind.create)?.schema))
    .filter(([, raw]) => {
      const s = mergeAllOf(raw);
      return s.type === 'string' && !s.enum && !s.format && !s.pattern && !s.readOnly;
    })
    .map(([name]) => name);
}

function swapCase(text: string): string {
  return [...text].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
}

/** The JSON media types (lower-case) an operation's request body declares. */
function jsonMediaTypes(operation: Operation): string[] {
  return (operation.requestBody?.content ?? []).map((m) => m.mediaType.toLowerCase()).filter((type) => isJsonMediaType(type));
}

/** The valid body with one property varied, or with only the required fields (and those bound to the run's records). */
function varied(body: JsonObject, bindings: Readonly<Record<string, unknown>>, variant: ValueVariant & { readonly name?: string }, required: ReadonlySet<string>): JsonObject {
  if (variant.name) return { ...body, [variant.name]: variant.value };
  return Object.fromEntries(Object.entries(body).filter(([name]) => required.has(name) || name in bindings));
}
