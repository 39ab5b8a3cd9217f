import type { CheckDefinition } from './types.js';
import { prepareInputs, writesAllowed } from './support.js';
import { INT64_MAX_TEXT, judgeAcceptance, parameterProblems, skipInvalid } from './valid-variants.js';

/**
 * Ids are integers from 1 to 2^63-1 (int64): one past 2^53, where doubles
 * stop being exact, 2^62, and 2^63-1 itself are valid ids that name no
 * record, so the answer is 404, not 400. Sent as text, they stay exact.
 */
const LARGE_IDS = ['9007199254740993', '4611686018427387904', INT64_MAX_TEXT];

export const acceptsLargeIds: CheckDefinition = {
  id: 'accepts-large-ids',
  family: 'acceptance',
  description: `Path ids past 2^53 up to 2^63-1 (${LARGE_IDS.join(', ')}) are valid: absent, they get 404, not 400.`,
  explain: {
    why: 'Ids are int64 (1 to 2^63-1): a path id past 2^53 is valid, so an unknown one is simply absent. Answering 400 means the server parsed it as a double and lost digits, which corrupts ids from Java `long` or snowflake generators.',
    conformant: '`GET /categories/9223372036854775807` answers 404 with the Error shape, not 400.',
  },
  writes: true,
  async run(ctx) {
    for (const operation of ctx.operations) {
      const idParameter = operation.parameters.find((p) => p.in === 'path' && ctx.links.producers.has(p.name));
      if (!idParameter || !operation.responses.has('404') || ctx.aborted) continue;
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      const setup = ctx.newCase('accepts-large-ids', `${where}: a valid request to send with large ids`, operation.operationId);
      if (!writesAllowed(ctx, operation)) {
        setup.skip('--read-only: the operation writes');
        continue;
      }
      // An absent id changes nothing, so one valid body (with records of its own to name) serves every id.
      const prepared = await prepareInputs(setup, operation, { absent: true });
      if (!prepared.ok) {
        prepared.fail(setup);
        continue;
      }
      const { query, body } = prepared.inputs;
      for (const id of LARGE_IDS) {
        const c = ctx.newCase('accepts-large-ids', `${where} with ${idParameter.name} ${id}`, operation.operationId);
        c.mutation = { kind: 'valid-variant', pointer: `/path/${idParameter.name}`, description: `${idParameter.name} = ${id}` };
        const path = { ...prepared.inputs.path, [idParameter.name]: id };
        const problems = parameterProblems(ctx, operation, path, query);
        if (problems.length > 0) skipInvalid(c, problems);
        else judgeAcceptance(c, await c.call(operation, { path, query, ...(body !== undefined ? { body } : {}) }), 404);
      }
    }
  },
};

