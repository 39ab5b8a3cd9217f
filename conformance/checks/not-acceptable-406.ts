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
  description: 'A valid request whose Accept excludes JSON (Accept: text/html) gets the documented 406 and changes nothing.',
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
      await provokeStatus(ctx, {
        checkId: 'not-acceptable-406',
        operation,
        description: 'with Accept: text/html only',
        mutation: { kind: 'accept', pointer: '/header/accept', description: 'Accept: text/html, which excludes the JSON every answer is' },
        status: 406,
        request: (inputs) => ({ ...validCall(inputs), headers: { accept: 'text/html' } }),
      });
    }
  },
};

function servesHtml(operation: Operation): boolean {
  for (const response of operation.responses.values()) {
    for (const { mediaType } of response.content) {
      const type = mediaType.split(';')[0]!.trim().toLowerCase();
      if (type === 'text/html' || type === 'text/*' || type === '*/*') return true;
    }
  }
  return false;
}
