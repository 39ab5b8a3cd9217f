import type { CheckDefinition } from './types.js';
import { prepareInputs } from './support.js';
import { judgeAcceptance, parameterProblems, queryVariants, skipInvalid } from './valid-variants.js';

/**
 * Valid query parameters across their range, one at a time: limit=1 and
 * limit=100 (its bounds), offset=0 and a large offset, every enum value,
 * both booleans, ids up to 2^63-1 in filters, a repeatable filter repeated
 * as often as allowed. A page past the end is an empty page, not an error.
 */
export const acceptsValidQueries: CheckDefinition = {
  id: 'accepts-valid-queries',
  family: 'acceptance',
  description: 'Valid query parameters at their bounds (limit=1, limit=100, a large offset), every enum value and ids up to 2^63-1 are served, not refused.',
  explain: {
    why: 'Query parameters at their documented bounds (limit=1, limit=100, a large offset) and every enum value are valid; a server stricter than the document breaks clients that page or filter legally.',
    conformant: '`GET /pets?limit=100` and `GET /pets?offset=100000` answer 200 (an empty page past the end), `GET /pets?status=sold` answers 200.',
  },
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      if (operation.method !== 'get' || ctx.aborted) continue;
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      const variants = operation.parameters.flatMap((parameter) =>
        parameter.in === 'query' ? queryVariants(parameter, ctx.links.producers.has(parameter.name) || parameter.name === 'id').map((variant) => ({ parameter, ...variant })) : [],
      );
      if (variants.length === 0) continue;
      // A GET changes nothing, so one set of records serves every variant.
      const setup = ctx.newCase('accepts-valid-queries', `${where}: records to read`, operation.operationId);
      const prepared = await prepareInputs(setup, operation);
      if (!prepared.ok) {
        prepared.fail(setup);
        continue;
      }
      for (const { parameter, description, value } of variants) {
        const c = ctx.newCase('accepts-valid-queries', `${where}?${description}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: `/query/${parameter.name}`, description };
        const path = prepared.inputs.path;
        const query = { ...prepared.inputs.query, [parameter.name]: value };
        const problems = parameterProblems(ctx, operation, path, query);
        if (problems.length > 0) skipInvalid(c, problems);
        else judgeAcceptance(c, await c.call(operation, { path, query }), 'success');
      }
    }
  },
};
