import { describeExchange, PASS, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';
import { prepareInputs } from './support.js';

/**
 * Nothing the runner sends, valid or not, may make the target fail (RFC 9110
 * §15.6: 5xx means the server erred). It judges every exchange of the run,
 * and adds one request per read operation with a query parameter the
 * document does not declare: not invalid (OpenAPI lets a server ignore it or
 * reject it), but a classic crash.
 */
export const noServerError: CheckDefinition = {
  id: 'no-server-error',
  family: 'errors',
  description: 'No request the runner sends, valid or invalid (an undeclared query parameter included), gets a 5xx.',
  explain: {
    why: 'A 5xx means the server broke on a request it should have answered or refused: the most urgent kind of defect, whatever the request.',
    conformant: 'Any documented status but 5xx: a 2xx for a valid request, a 4xx with the Error shape for an invalid one.',
  },
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      if (operation.method !== 'get') continue;
      // Judged by `judge` below like every exchange; the case only carries the evidence.
      const c = ctx.newCase('no-server-error', `${operation.operationId} with an undeclared query parameter`, operation.operationId);
      const prepared = await prepareInputs(c, operation, { absent: true });
      if (!prepared.ok) continue;
      await c.call(operation, { path: prepared.inputs.path, query: { ...prepared.inputs.query, petstore_kit_undeclared: '1' } });
    }
  },
  judge(x) {
    // 501 Not Implemented is RFC 9110 §15.6.2's answer to a method a server does not know (other-methods, errors-before-routing), not a failure.
    if (x.status < 500 || (x.status === 501 && (x.unmatched === 'wrongMethod' || x.unmatched === 'unparsable'))) return PASS;
    return verdictOf([{ pointer: '/status', keyword: 'server-error', message: `${describeExchange(x.record)}: the server failed`, expected: '< 500', actual: x.status }]);
  },
};
