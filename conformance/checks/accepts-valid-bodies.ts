import { isObject, jsonBodyOf, schema } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { prepareInputs, writesAllowed } from './support.js';
import { bodyProblems, judgeAcceptance, skipInvalid, valueVariants, type ValueVariant } from './valid-variants.js';

/**
 * Valid bodies across the range the document allows, one property varied
 * at a time from a valid body: the shortest and longest strings, unicode
 * and spaces, every enum value, RFC 3339 date-times with offsets and
 * fractions, integer bounds, both booleans, and only the required fields.
 * Each case starts from records of its own (a fresh pet for each order), so
 * one variant's effect cannot refuse the next.
 */
export const acceptsValidBodies: CheckDefinition = {
  id: 'accepts-valid-bodies',
  family: 'acceptance',
  description: 'Valid bodies at every bound and enum value, with unicode, spaces and RFC 3339 offsets and fractions, are taken, not refused.',
  writes: true,
  async run(ctx) {
    for (const operation of ctx.operations) {
      const media = jsonBodyOf(operation);
      if (!media || !writesAllowed(ctx, operation)) continue;
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
      for (const variant of variants) {
        if (ctx.aborted) return;
        const c = ctx.newCase('accepts-valid-bodies', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: variant.name ? `/body/${variant.name}` : '/body', description: variant.description };
        const prepared = await prepareInputs(c, operation);
        if (!prepared.ok) {
          prepared.fail(c);
          continue;
        }
        const { path, query, body, bindings } = prepared.inputs;
        if (!isObject(body)) {
          c.skip('the valid body is not an object to vary');
          continue;
        }
        const required = new Set(bodySchema.required ?? []);
        const varied = variant.name
          ? { ...body, [variant.name]: variant.value }
          : Object.fromEntries(Object.entries(body).filter(([name]) => required.has(name) || name in bindings));
        const text = JSON.stringify(varied);
        const problems = bodyProblems(ctx, operation, text);
        if (problems.length > 0) {
          skipInvalid(c, problems);
          continue;
        }
        judgeAcceptance(c, await c.call(operation, { path, query, bodyText: text }), 'success');
      }
    }
  },
};
