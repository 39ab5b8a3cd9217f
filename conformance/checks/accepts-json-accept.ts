import { answersJson } from '../requests/accept.js';
import type { CheckDefinition } from './types.js';
import { prepareInputs } from './support.js';
import { judgeAcceptance } from './valid-variants.js';

/**
 * Every Accept that admits JSON (RFC 9110 §12.5.1: wildcards, weights,
 * parameters, any case, JSON among other types, JSON preferred least but
 * still above q=0, §12.4.2) gets the answer, not a 406.
 */
const ACCEPTS = [
  '*/*',
  'application/*',
  'application/json;q=0.9',
  'application/json; charset=utf-8',
  'text/html;q=0.5, application/json',
  'APPLICATION/JSON',
  'text/html, application/xml;q=0.9, application/json;q=0.001',
  'application/json;q=1.000',
  'text/html;q=0, */*;q=0.1',
];

export const acceptsJsonAccept: CheckDefinition = {
  id: 'accepts-json-accept',
  family: 'acceptance',
  description: `Every Accept that admits JSON (${ACCEPTS.join(' | ')}) is served, not refused.`,
  explain: {
    why: 'Clients and libraries send Accept headers of every legal form (RFC 9110 section 12.5.1): a wildcard, a media range, a q-value, a charset. A server that only takes the exact string `application/json` breaks browsers and HTTP libraries that send `*/*`.',
    conformant: '`GET /pets` with `Accept: */*`, `application/*` or `application/json;q=0.9` answers 200 with JSON, never 406.',
  },
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      // An operation that produces only text/csv is not asked for JSON (issue 11, point 4): that is not-acceptable-406's ground.
      if (operation.method !== 'get' || ctx.aborted || !answersJson(operation)) continue;
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      // A GET changes nothing, so one set of records serves every Accept.
      const setup = ctx.newCase('accepts-json-accept', `${where}: records to read`, operation.operationId);
      const prepared = await prepareInputs(setup, operation);
      if (!prepared.ok) {
        prepared.fail(setup);
        continue;
      }
      const { path, query } = prepared.inputs;
      for (const accept of ACCEPTS) {
        const c = ctx.newCase('accepts-json-accept', `${where} with Accept: ${accept}`, operation.operationId);
        judgeAcceptance(c, await c.call(operation, { path, query, headers: { accept } }), 'success');
      }
    }
  },
};
