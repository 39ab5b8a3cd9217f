/**
 * What the runner must not blame on a target: a request its own HTTP client refuses to send. InfluxDB's write
 * documents a `Content-Length` header parameter; the runner sent a generated value for it (1) beside a body of another
 * length, undici refused the request, and the runner reported "the answer is not valid HTTP/1.1" as a failure of the
 * target (found against the generic mock on InfluxDB's OSS document, unseen before). Now header parameters the HTTP
 * layer owns are not taken from a document at all (src/contract/model.ts), and a request the client still refuses
 * skips its case as not sent, without counting against the target in the breaker.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import { loadContract } from '../src/contract/index.js';
import { HttpClient, REQUEST_UNSENDABLE } from './http.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const FRAMING = ['Content-Length', 'Transfer-Encoding', 'Content-Encoding', 'Host', 'Connection', 'Expect'];
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Writes', version: '1.0.0' },
  paths: {
    '/write': {
      post: {
        operationId: 'PostWrite',
        parameters: [
          ...FRAMING.map((name) => ({ name, in: 'header', required: name === 'Content-Length', schema: name === 'Content-Length' ? { type: 'integer', minimum: 0, maximum: 10 } : { type: 'string', enum: ['gzip', 'identity'] } })),
          { name: 'Zap-Trace-Span', in: 'header', schema: { type: 'string', maxLength: 20 } },
        ],
        requestBody: { required: true, content: json({ type: 'object', required: ['line'], properties: { line: { type: 'string', maxLength: 200 } } }) },
        responses: { '204': { description: 'written' }, '400': { description: 'bad', content: json({ type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } }) } },
      },
    },
  },
};

describe('header parameters the HTTP layer owns', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 4, only: ['accepts-valid-bodies', 'payload-too-large-413'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('are not parameters of the operation; the document\'s own header parameters still are', async () => {
    const contract = await loadContract(served.file);
    const names = contract.operationsById.get('PostWrite')!.parameters.map((p) => p.name);
    expect(names).toEqual(['Zap-Trace-Span']);
  });

  it('are never sent from the document: every body goes with its own length, and nothing fails', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId}: ${r.reason ?? ''}`)).toEqual([]);
    const sent = report.results.flatMap((r) => r.evidence).filter((x) => x.request.method === 'POST' && x.response !== undefined);
    expect(sent.length).toBeGreaterThan(0);
    for (const x of sent) {
      if (x.request.headers['content-length'] !== undefined && x.request.body !== undefined && !x.request.body.endsWith('…')) {
        expect(Number(x.request.headers['content-length'])).toBe(Buffer.byteLength(x.request.body));
      }
      expect(x.request.headers['content-encoding']).toBeUndefined();
    }
  });
});

describe('a request the client refuses to send', () => {
  let server: Server;
  let url: string;
  let received = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      received += 1;
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('is not sent, says so as the runner\'s own, and never opens the breaker against the target', async () => {
    const client = new HttpClient({ baseUrl: url, timeoutMs: 2000, concurrency: 1, rate: 0 });
    try {
      for (let i = 0; i < 7; i += 1) {
        const result = await client.send({ method: 'POST', path: '/write', headers: { 'content-type': 'application/json', 'content-length': '1' }, body: '{"line":"cpu value=1"}' });
        expect(result.error?.code).toBe(REQUEST_UNSENDABLE);
        expect(result.error?.message).toMatch(/^not sent: /);
        expect(result.response).toBeUndefined();
      }
      expect(received).toBe(0);
      const sound = await client.send({ method: 'POST', path: '/write', headers: { 'content-type': 'application/json' }, body: '{"line":"cpu value=1"}' });
      expect(sound.error).toBeUndefined();
      expect(sound.response?.status).toBe(204);
    } finally {
      await client.close();
    }
  });
});
