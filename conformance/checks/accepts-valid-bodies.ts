import type { Operation } from '../../src/contract/index.js';
import type { Call, Case } from '../context.js';
import { isObject, jsonBodyOf, schema } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { prepareInputs, writesAllowed, type PreparedInputs } from './support.js';
import { bodyProblems, invalidReason, judgeAcceptance, valueVariants, type ValueVariant } from './valid-variants.js';

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
      const required = new Set(bodySchema.required ?? []);
      let inputs: PreparedInputs | undefined;
      for (const variant of variants) {
        if (ctx.aborted) return;
        const c = ctx.newCase('accepts-valid-bodies', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: variant.name ? `/body/${variant.name}` : '/body', description: variant.description };
        let sent = inputs ? await sendVariant(c, operation, inputs, variant, required) : undefined;
        // Records are shared between variants; a 409 is state an earlier variant left (an open order on the pet, a name now taken): fresh records, once.
        if (!sent || ('call' in sent && sent.call.status === 409)) {
          const prepared = await prepareInputs(c, operation);
          inputs = prepared.ok ? prepared.inputs : undefined;
          if (!prepared.ok) {
            prepared.fail(c);
            continue;
          }
          sent = await sendVariant(c, operation, prepared.inputs, variant, required);
        }
        if ('skip' in sent) {
          c.skip(sent.skip);
          continue;
        }
        judgeAcceptance(c, sent.call, 'success');
        // A replace that took a value without the run's tag (a one-character name) is put back, so the cleanup still knows the record as the run's.
        const status = sent.call.status ?? 0;
        if (inputs && !ctx.links.kinds.has(operation.operationId) && !sent.text.includes(ctx.runTag) && status >= 200 && status < 300) {
          await c.call(operation, { path: inputs.path, query: inputs.query, body: inputs.body });
        }
      }
    }
  },
};

/** Sends the valid body with one property varied (or only the required fields), once the exact text is known to be valid. */
async function sendVariant(c: Case, operation: Operation, inputs: PreparedInputs, variant: ValueVariant & { readonly name?: string }, required: ReadonlySet<string>): Promise<{ call: Call; text: string } | { skip: string }> {
  const { path, query, body, bindings } = inputs;
  if (!isObject(body)) return { skip: 'the valid body is not an object to vary' };
  const varied = variant.name ? { ...body, [variant.name]: variant.value } : Object.fromEntries(Object.entries(body).filter(([name]) => required.has(name) || name in bindings));
  const text = JSON.stringify(varied);
  const problems = bodyProblems(c.ctx, operation, text);
  if (problems.length > 0) return { skip: invalidReason(problems) };
  return { call: await c.call(operation, { path, query, bodyText: text }), text };
}
