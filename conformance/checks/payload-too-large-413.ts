import { stringifyJson } from '../json.js';
import type { Contract, Operation } from '../../src/contract/index.js';
import { isObject } from '../generate.js';
import type { CheckDefinition } from './types.js';
import type { RunContext } from '../context.js';
import { documenting, provokeStatus } from './provoke.js';
import { prepareInputs, writesAllowed } from './support.js';
import { judgeAcceptance } from './valid-variants.js';

/**
 * A body one byte over the limit the document declares (`x-max-body-bytes`
 * on the 413 response, or at the document's root; else a size the words of
 * its 413 state; else `--max-body-bytes`) gets 413 (RFC 9110 §15.5.14) and
 * changes nothing, sent with its Content-Length and sent chunked with none
 * (RFC 9112 §7.1): a server that checks only the Content-Length it is told
 * reads a streamed body of any size. The body is the valid one padded with
 * spaces, which JSON allows after a value (RFC 8259 §2), so its size is the
 * only thing wrong with it; an operation that takes no body gets the same
 * padding after `{}`, since a declared limit holds for every request. A
 * valid body exactly at the limit is taken.
 */
export const payloadTooLarge413: CheckDefinition = {
  id: 'payload-too-large-413',
  family: 'negative',
  description: 'A body one byte over the limit (x-max-body-bytes, the words of the 413, or --max-body-bytes), with a Content-Length or chunked, gets the documented 413 and changes nothing; a body at the limit is taken.',
  explain: {
    why: 'Bodies over the declared limit (x-max-body-bytes, 1 MiB) must be refused with 413 (RFC 9110 section 15.5.14) before they cost the server memory; a refused request changes nothing.',
    conformant: 'A valid `POST /pets` body padded to 1,048,577 bytes answers 413 with the Error shape, and no pet is created.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for (const operation of documenting(ctx, 413)) {
      if (ctx.aborted) break;
      const declared = ctx.settings.bodyLimitBytes ?? bodyLimit(ctx.contract, operation);
      // A limit stated only in words is a limit on request bodies: an operation that takes none may ignore what it is sent (RFC 9110 §9.3.1).
      const limit = declared !== undefined ? { over: declared + 1, under: declared, words: `the declared limit of ${declared}` } : operation.requestBody ? statedLimit(ctx.contract, operation) : undefined;
      if (limit === undefined) {
        const c = ctx.newCase('payload-too-large-413', `${operation.method.toUpperCase()} ${operation.pathTemplate} with a body over the limit`, operation.operationId);
        c.skip('the document declares no body limit (x-max-body-bytes on the 413 response or at its root, or a size in the words of its 413), and none was given with --max-body-bytes, so no size must draw the 413');
        continue;
      }
      await provokeStatus(ctx, {
        checkId: 'payload-too-large-413',
        operation,
        description: `with a body of ${limit.over} bytes`,
        mutation: { kind: 'body-size', pointer: '/body', description: `a body of ${limit.over} bytes, over ${limit.words}` },
        status: 413,
        request: (inputs) => ({ path: inputs.path, query: inputs.query, bodyText: padded(stringifyJson(inputs.body ?? {}), limit.over), contentType: 'application/json' }),
      });
      // The same body streamed: chunked, no Content-Length to refuse it by (RFC 9112 §7.1), so the limit must hold on the bytes read.
      if (operation.requestBody && !ctx.aborted) {
        await provokeStatus(ctx, {
          checkId: 'payload-too-large-413',
          operation,
          description: `with a chunked body of ${limit.over} bytes (no Content-Length)`,
          mutation: { kind: 'body-size', pointer: '/body', description: `a body of ${limit.over} bytes sent chunked, over ${limit.words}` },
          status: 413,
          request: (inputs) => ({ path: inputs.path, query: inputs.query, bodyText: padded(stringifyJson(inputs.body ?? {}), limit.over), contentType: 'application/json', framing: 'chunked' }),
        });
      }
      // A body within the limit is not too large: the limit must not be smaller than the document says.
      if (operation.requestBody && limit.under > 0 && !ctx.aborted) await underLimit(ctx, operation, limit.under);
    }
  },
};

/** A valid body padded to exactly the limit is taken (not a 413): a server whose limit is smaller than its document's refuses real requests. */
async function underLimit(ctx: RunContext, operation: Operation, bytes: number): Promise<void> {
  const c = ctx.newCase('payload-too-large-413', `${operation.method.toUpperCase()} ${operation.pathTemplate} with a body of ${bytes} bytes, at the limit`, operation.operationId);
  c.mutation = { kind: 'body-size', pointer: '/body', description: `a valid body padded to ${bytes} bytes, within the limit` };
  if (!writesAllowed(ctx, operation)) return c.skip('--read-only: the operation writes');
  const prepared = await prepareInputs(c, operation);
  if (!prepared.ok) return prepared.fail(c);
  const { inputs } = prepared;
  if (!isObject(inputs.body)) return c.skip('the valid body is not a JSON object to pad');
  const call = await c.call(operation, { path: inputs.path, query: inputs.query, bodyText: padded(stringifyJson(inputs.body), bytes), contentType: 'application/json' });
  if (call.status === 413) {
    return c.fail(`a valid body of ${bytes} bytes, within the document's limit, answered 413`, [{ pointer: '/status', keyword: 'accepted', message: 'a body within the limit must not be refused as too large', expected: '2xx', actual: 413 }]);
  }
  judgeAcceptance(c, call, 'success');
}

/** Past this size no body is sent to find a limit: a test that costs that much is not worth its answer (and --max-body-bytes stops here). */
export const MAX_PROBED_BODY_BYTES = 64 * 1024 ** 2;

const UNITS: Readonly<Record<string, readonly [number, number]>> = {
  b: [1, 1],
  byte: [1, 1],
  bytes: [1, 1],
  kb: [1000, 1024],
  kib: [1024, 1024],
  mb: [1000 ** 2, 1024 ** 2],
  mib: [1024 ** 2, 1024 ** 2],
  gb: [1000 ** 3, 1024 ** 3],
  gib: [1024 ** 3, 1024 ** 3],
};

/**
 * The body limit a document states in words where it declares no number: a
 * size (`1 MiB`, `512 KB`) in the description of the operation's 413 answer
 * or of the document's 413 error code (x-error-codes). "MB" is read both
 * ways: the over-limit body is past 1024-based size, the within-limit one
 * under the 1000-based one, so either reading holds. Past 64 MiB nothing is
 * sent: a test that costs that much is not worth its answer.
 */
export function statedLimit(contract: Contract, operation: Operation): { over: number; under: number; words: string } | undefined {
  const texts = [operation.responses.get('413')?.description ?? '', ...[...contract.errorCodes.values()].filter((code) => code.status === 413).map((code) => code.description)];
  for (const text of texts) {
    const match = /(\d+(?:\.\d+)?)\s*(bytes?|b|kib|kb|mib|mb|gib|gb)\b/i.exec(text);
    if (!match) continue;
    const [low, high] = UNITS[match[2]!.toLowerCase()]!;
    const n = Number(match[1]);
    const over = Math.floor(n * high) + 1;
    if (over > MAX_PROBED_BODY_BYTES) return undefined;
    return { over, under: Math.floor(n * low) - 1024, words: `the limit of ${match[0]} the document states` };
  }
  return undefined;
}

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
