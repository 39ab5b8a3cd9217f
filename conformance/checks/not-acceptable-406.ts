import type { Operation } from '../../src/contract/index.js';
import type { CheckDefinition } from './types.js';
import { documenting, provokeStatus, validCall } from './provoke.js';

/**
 * A client whose Accept excludes every media type the operation answers
 * with gets 406 (RFC 9110 §15.5.7, §12.5.1) where the document names it;
 * the request is otherwise valid, so nothing else can explain a refusal,
 * and it changes nothing.
 */
export const notAcceptable406: CheckDefinition = {
  id: 'not-acceptable-406',
  family: 'negative',
  description: 'A valid request whose Accept excludes JSON (text/html; application/json;q=0) gets the documented 406 and changes nothing.',
  explain: {
    why: 'A client that cannot take JSON must be told so (RFC 9110 section 15.5.7) instead of getting a body it cannot read; the contract documents 406 on every operation, and a refused request changes nothing.',
    conformant: '`POST /pets` with `Accept: text/html` and a valid body answers 406 with the Error shape, and no pet is created.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for (const operation of documenting(ctx, 406)) {
      if (ctx.aborted) break;
      // An operation that documents an answer text/html admits (HTML, text/*, */*) would rightly serve it: nothing to provoke.
      if (servesHtml(operation)) continue;
      for (const { accept, why } of EXCLUDING) {
        if (ctx.aborted) break;
        await provokeStatus(ctx, {
          checkId: 'not-acceptable-406',
          operation,
          description: `with Accept: ${accept}`,
          mutation: { kind: 'accept', pointer: '/header/accept', description: `Accept: ${accept}, ${why}` },
          status: 406,
          request: (inputs) => ({ ...validCall(inputs), headers: { accept } }),
        });
      }
    }
  },
};

/**
 * Accept values that leave no JSON acceptable: another type only, and JSON weighted q=0, which RFC 9110 §12.4.2
 * defines as "not acceptable" (a server that reads the media range and drops its parameters serves it anyway).
 */
const EXCLUDING: readonly { accept: string; why: string }[] = [
  { accept: 'text/html', why: 'which excludes the JSON every answer is' },
  { accept: 'application/json;q=0', why: 'JSON weighted 0: not acceptable (RFC 9110 §12.4.2)' },
  { accept: 'application/json;q=0, text/html', why: 'JSON weighted 0 and only HTML acceptable' },
];

function servesHtml(operation: Operation): boolean {
  for (const response of operation.responses.values()) {
    for (const { mediaType } of response.content) {
      const type = mediaType.split(';')[0]!.trim().toLowerCase();
      if (type === 'text/html' || type === 'text/*' || type === '*/*') return true;
    }
  }
  return false;
}
