import { stringifyJson } from '../json.js';
import { isObject, jsonBodyOf, schema, type JsonObject } from '../generate.js';
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
  description: 'Valid bodies at every bound and enum value, with unicode, spaces and RFC 3339 offsets and fractions, are taken, not refused.',
  explain: {
    why: "Every value the document allows must be taken: boundaries of lengths and ranges, every enum value, unicode and spaces in names, RFC 3339 date-times with offsets and fractions. A server stricter than its document refuses real users' data.",
    conformant: '`POST /pets` with a one-character name, a name with spaces and non-ASCII letters, or each PetStatus value answers 201.',
  },
  writes: true,
  async run(ctx) {
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
      const variants: (ValueVariant & { readonly name?: string })[] = [];
      for (const [name, raw] of Object.entries(bodySchema.properties ?? {})) {
        // A field that names another record keeps the record the run made for it.
        if (ctx.links.producers.has(name) || schema(raw).readOnly) continue;
        variants.push(...valueVariants(`/${name}`, schema(raw), generator.nextTag(), generator.faker.string.alpha({ length: 1, casing: 'upper' })).map((v) => ({ ...v, name })));
      }
      if ((bodySchema.required ?? []).length < Object.keys(bodySchema.properties ?? {}).length) variants.push({ description: 'only the required fields', value: undefined });
      const required = new Set(bodySchema.required ?? []);
      const shared = new SharedInputs(operation);
      for (const variant of variants) {
        if (ctx.aborted) return;
        const c = ctx.newCase('accepts-valid-bodies', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: variant.name ? `/body/${variant.name}` : '/body', description: variant.description };
        const sent = await shared.send(c, (inputs) => (isObject(inputs.body) ? sendValidBody(c, operation, inputs, stringifyJson(varied(inputs.body, inputs.bindings, variant, required))) : Promise.resolve({ skip: 'the valid body is not an object to vary' })));
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

/** The valid body with one property varied, or with only the required fields (and those bound to the run's records). */
function varied(body: JsonObject, bindings: Readonly<Record<string, unknown>>, variant: ValueVariant & { readonly name?: string }, required: ReadonlySet<string>): JsonObject {
  if (variant.name) return { ...body, [variant.name]: variant.value };
  return Object.fromEntries(Object.entries(body).filter(([name]) => required.has(name) || name in bindings));
}
