/**
 * The byte-for-byte exchange (raw-http.ts) against a real socket server that answers with scripted bytes: what a
 * HEAD answer carries after its headers is its body, chunked and length-framed answers end by their framing (a
 * server that keeps the connection open is not waited for), and no answer or a non-HTTP one is said as such.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeRaw, parseAnswer } from './raw-http.js';

/** Answers by the first word of the request's path: /head-body, /chunked, /keep-open, /close, /garbage. */
function answerFor(request: string, socket: Socket): void {
  const path = request.split(' ')[1] ?? '';
  if (path === '/head-body') socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
  else if (path === '/chunked') socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n');
  // Answers completely but keeps the connection open: the client must see the answer is complete by its length.
  else if (path === '/keep-open') socket.write('HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nset-cookie: a=1\r\nset-cookie: b=2\r\n\r\nnot here!');
  else if (path === '/close') socket.destroy();
  else socket.end('SSH-2.0-OpenSSH\r\n\r\n');
}

describe('raw-http: one exchange byte for byte', () => {
  let server: Server;
  let base: URL;

  beforeAll(async () => {
    server = createServer((socket) => {
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        if (seen.includes('\r\n\r\n')) answerFor(seen, socket);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    base = new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  const send = (path: string, method = 'GET', timeoutMs = 5_000) => exchangeRaw(new URL(path, base), Buffer.from(`${method} ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`), { timeoutMs, maxBytes: 1 << 20, head: method === 'HEAD' });

  it('reports the bytes a HEAD answer carries after its headers as its body', async () => {
    const outcome = await send('/head-body', 'HEAD');
    expect(outcome.ok && outcome.answer.status).toBe(200);
    expect(outcome.ok && outcome.answer.bodyBytes).toBe(2);
  });

  it('decodes a chunked answer', async () => {
    const outcome = await send('/chunked');
    expect(outcome.ok && outcome.answer.body.toString()).toBe('{"a":1}');
  });

  it('ends an answer by its Content-Length when the server keeps the connection open, and joins repeated fields', async () => {
    const started = performance.now();
    const outcome = await send('/keep-open', 'GET', 4_000);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcome.ok && outcome.answer.status).toBe(404);
    expect(outcome.ok && outcome.answer.body.toString()).toBe('not here!');
    expect(outcome.ok && outcome.answer.headers['set-cookie']).toBe('a=1, b=2');
  });

  it('says so when the connection closes without an answer, or the answer is not HTTP', async () => {
    const closed = await send('/close');
    expect(closed.ok ? 'answered' : closed.code).toBe('NO_ANSWER');
    const garbage = await send('/garbage');
    expect(garbage.ok ? 'answered' : garbage.code).toBe('NOT_HTTP');
  });

  it('waits for nothing before the header block ends', () => {
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n'), false, false, true)).toBeUndefined();
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{'), false, false, true)).toBeUndefined();
  });
});
