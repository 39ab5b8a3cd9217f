import { DEPRECATION_HEADERS, NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/**
 * The headers the document declares for a response are there and valid
 * (Location on a 201, X-Total-Count an integer). A deprecated operation's
 * Deprecation, Sunset and Link are deprecation-headers'; a 405's Allow is
 * method-not-allowed-405's.
 */
export const responseHeaders: CheckDefinition = {
  id: 'response-headers',
  family: 'response',
  description: 'The response headers the document declares are present and valid (Location, X-Total-Count, …).',
  explain: {
    why: 'Declared headers are part of the contract: clients page with X-Total-Count and follow Location.',
    conformant: 'Every header the response declares, valid for its schema: `X-Total-Count: 20` on lists, `Location: /pets/21` on a 201.',
  },
  writes: false,
  judge(x) {
    if (!x.operation) return NOT_APPLICABLE;
    const deprecated = x.operation.deprecated;
    return verdictOf(
      x.diagnostics.filter((d) => {
        if (!d.pointer.startsWith('/header/') || d.pointer === '/header/content-type') return false;
        const name = d.pointer.slice('/header/'.length);
        return !(deprecated && DEPRECATION_HEADERS.has(name));
      }),
    );
  },
};
