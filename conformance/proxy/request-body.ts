/**
 * A client's request body as the proxy holds it: nothing, the bytes (up to --max-body-bytes, to judge and, when the
 * target lacks the operation, to send again to the mock), or past the limit a stream passed on unread.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** What the client sent as a body: nothing, the bytes (up to the limit), or a stream of one larger (passed on unread). */
export type Body = { readonly kind: 'none' } | { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'stream'; readonly stream: Readable };

const NO_BODY: Body = { kind: 'none' };

/**
 * Reads a request body up to `limit` bytes (RFC 9112 §6.3: there is one when Content-Length > 0 or
 * Transfer-Encoding says so). Past the limit, what was read and the rest are passed on as a stream.
 */
export function readBody(req: IncomingMessage, limit: number, then: (body: Body) => void): void {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    then(NO_BODY);
    return;
  }
  if (Number(length) > limit) {
    then({ kind: 'stream', stream: req });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    chunks.push(chunk);
    if (size <= limit) return;
    req.off('data', onData);
    req.off('end', onEnd);
    req.pause();
    then({ kind: 'stream', stream: Readable.from(rest(chunks, req)) });
  };
  const onEnd = (): void => then(size === 0 ? NO_BODY : { kind: 'bytes', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', () => req.destroy());
}

async function* rest(first: readonly Buffer[], req: IncomingMessage): AsyncGenerator<Buffer> {
  yield* first;
  for await (const chunk of req) yield chunk as Buffer;
}

