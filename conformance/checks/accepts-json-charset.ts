import { jsonBodyOf } from '../generate.js';
import { stringifyJson } from '../json.js';
import type { CheckDefinition } from './types.js';
import { writesAllowed } from './support.js';
import { judgeAcceptance, SharedInputs, sendValidBody } from './valid-variants.js';

/**
 * A valid JSON body labelled with a charset parameter or in another case
 * (media types are case-insensitive, RFC 9110 §8.3.1; `charset=utf-8` is
 * the JSON default, RFC 8259 §8.1) is taken like plain application/json.
 */
const CONTENT_TYPES = ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'Application/JSON'];

export const acceptsJsonCharset: CheckDefinition = {
  id: 'accepts-json-charset',
  family: 'acceptance',
  description: `A valid body sent as ${CONTENT_TYPES.join(' | ')} is taken, not refused with a 415.`,
  explain: {
    why: '`application/json; charset=utf-8` is the same media type as `application/json` (RFC 9110 section 8.3.1: parameters do not change the type, and names are case-insensitive); many clients add the charset. Refusing it with 415 breaks them.',
    conformant: '`POST /categories` with `Content-Type: application/json; charset=utf-8` and a valid body answers 201.',
  },
  writes: true,
  async run(ctx) {
    for (const operation of ctx.operations) {
      // Only a JSON body has a JSON charset to vary (a form or binary body is another media type altogether).
      if (!jsonBodyOf(operation) || !writesAllowed(ctx, operation)) continue;
      const shared = new SharedInputs(operation);
      for (const contentType of CONTENT_TYPES) {
        if (ctx.aborted) return;
        const c = ctx.newCase('accepts-json-charset', `${operation.method.toUpperCase()} ${operation.pathTemplate} with Content-Type: ${contentType}`, operation.operationId);
        const sent = await shared.send(c, (inputs) => sendValidBody(c, operation, inputs, stringifyJson(inputs.body), contentType));
        if (!sent) continue;
        if ('skip' in sent) c.skip(sent.skip);
        else judgeAcceptance(c, sent.call, 'success');
      }
    }
  },
};
