import { stringifyJson } from '../json.js';
import type { Contract, Operation } from '../../src/contract/index.js';
import { isObject } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { documenting, provokeStatus } from './provoke.js';

/**
 * A body one byte over the limit the document declares (`x-max-body-bytes`
 * on the 413 response, or at the document's root) gets 413 (RFC 9110
 * §15.5.14) and changes nothing. The body is the valid one padded with
 * spaces, which JSON allows after a value (RFC 8259 §2), so its size is the
 * only thing wrong with it; an operation that takes no body gets the same
 * padding after `{}`, since the limit holds for every request.
 */
export const payloadTooLarge413: CheckDefinition = {
  id: 'payload-too-large-413',
  family: 'negative',
  description: 'A body one byte over the declared limit (x-max-body-bytes) gets the documented 413 and changes nothing.',
  explain: {
    why: 'Bodies over the declared limit (x-max-body-bytes, 1 MiB) must be refused with 413 (RFC 9110 section 15.5.14) before they cost the server memory; a refused request changes nothing.',
    conformant: 'A valid `POST /pets` body padded to 1,048,577 bytes answers 413 with the Error shape, and no pet is created.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for (const operation of documenting(ctx, 413)) {
      if (ctx.aborted) break;
      const limit = bodyLimit(ctx.contract, operation);
      if (limit === undefined) {
        const c = ctx.newCase('payload-too-large-413', `${operation.method.toUpperCase()} ${operation.pathTemplate} with a body over the limit`, operation.operationId);
        c.skip('the document declares no body limit (x-max-body-bytes on the 413 response or at its root), so no size must draw the 413');
        continue;
      }
      await provokeStatus(ctx, {
        checkId: 'payload-too-large-413',
        operation,
        description: `with a body of ${limit + 1} bytes`,
        mutation: { kind: 'body-size', pointer: '/body', description: `a body of ${limit + 1} bytes, one over the declared limit of ${limit}` },
        status: 413,
        request: (inputs) => ({ path: inputs.path, query: inputs.query, bodyText: padded(stringifyJson(inputs.body ?? {}), limit + 1), contentType: 'application/json' }),
      });
    }
  },
};

/** The body limit in bytes the document declares for an operation: on its 413 response first, then at the root. */
export function bodyLimit(contract: Contract, operation: Operation): number | undefined {
  const item: unknown = contract.document.paths?.[operation.pathTemplate]?.[operation.method];
  const responses = isObject(item) ? item['responses'] : undefined;
  const response = isObject(responses) ? responses['413'] : undefined;
  const root: unknown = contract.document;
  const declared = (isObject(response) ? response['x-max-body-bytes'] : undefined) ?? (isObject(root) ? root['x-max-body-bytes'] : undefined);
  return typeof declared === 'number' && Number.isInteger(declared) && declared > 0 ? declared : undefined;
}

/** The JSON text followed by spaces up to `bytes` (all ASCII, so characters are bytes). */
function padded(text: string, bytes: number): string {
  return Buffer.byteLength(text) >= bytes ? text : text + ' '.repeat(bytes - Buffer.byteLength(text));
}
