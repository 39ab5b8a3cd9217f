/**
 * Issue 11, point 2, the running half: the runner on a 1 MB, 355-operation
 * document (fixtures/documents/big-document.ts, whose shared schemas each
 * refer to the next twice) finishes, reaches every operation, and stays
 * under 1 GB of RSS. The target is a real HTTP server on loopback that
 * answers every request 404 with a small JSON body: the point is the
 * runner's own cost (loading, compiling, generating, judging), not a server.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bigDocument } from '../fixtures/documents/big-document.js';
import { runConformance } from './runner.js';

const GIB = 1024 ** 3;

describe('the runner on a big document from elsewhere', () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('finishes, reaches every operation, and stays under 1 GB', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-kit-big-run-')), 'big.json');
    writeFileSync(file, JSON.stringify(bigDocument({ operations: 355, depth: 14, padding: 110 })));
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        // A GET is answered with an empty list, so the runner's wrong-prefix guard (a target answering every
        // collection 404 most likely lacks a path prefix) sees a target that is there; everything else is a 404.
        const found = request.method === 'GET';
        response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        response.end(found ? '[]' : '{"code":"NOT_FOUND","message":"nothing here"}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    try {
      const report = await runConformance({ baseUrl: `http://127.0.0.1:${port}`, specPath: file, concurrency: 8 });
      expect(report.coverage.operations).toHaveLength(355);
      expect(report.coverage.operations.filter((o) => !o.exercised)).toEqual([]);
      expect(report.results.filter((r) => r.reason?.startsWith('internal error in the check'))).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
    expect(Math.max(peak, process.memoryUsage().rss)).toBeLessThan(GIB);
  }, 300_000);
});
