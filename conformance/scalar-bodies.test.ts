/**
 * A request body that is a top-level scalar (`5`, OpenAPI's `schema: { type: integer }`): malformed-json sends text
 * that is not JSON, never an empty body, which an optional body may rightly be. On a small correct server that takes
 * the body as optional and refuses what does not parse, the run finds nothing, and the malformed body was judged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from './runner.js';
import { sendJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Counter, version: 1.0.0 }
paths:
  /counter:
    patch:
      operationId: setCounter
      requestBody:
        content: { application/json: { schema: { type: integer, minimum: 0, maximum: 9 } } }
      responses:
        '200': { description: the counter, content: { application/json: { schema: { type: integer } } } }
        '400': { description: refused, content: { application/json: { schema: { type: object, required: [message], properties: { message: { type: string } } } } } }
`;

describe('a top-level scalar body', () => {
  let server: DocumentedServer;
  beforeAll(async () => {
    let counter = 0;
    server = await serveDocumented('counter.yaml', DOCUMENT, (req, res) => {
      void (async () => {
        if (req.url !== '/counter') return sendJson(res, 404, { message: 'no such path' });
        if (req.method !== 'PATCH') return sendJson(res, 405, { message: 'PATCH only' }, { allow: 'PATCH' });
        const chunks: Buffer[] = [];
        for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
        const text = Buffer.concat(chunks).toString('utf8');
        // No body (zero bytes): the counter as it is. A body: JSON, an integer from 0 to 9, in JSON's media type.
        if (text === '') return sendJson(res, 200, counter);
        if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 415, { message: 'send JSON' });
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return sendJson(res, 400, { message: 'not JSON' });
        }
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 9) return sendJson(res, 400, { message: 'an integer from 0 to 9' });
        counter = value as number;
        return sendJson(res, 200, counter);
      })();
    });
  });
  afterAll(() => server.close());

  it('is sent malformed as text that does not parse, and a correct server is blamed for nothing', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 2 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.checkId === 'malformed-json' && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 60_000);
});
