/**
 * The full tier of transport.e2e.test.ts:
 * - an HTTPS target through undici: trusted (its certificate given to the proxy's process by NODE_EXTRA_CA_CERTS,
 *   as a CI job would for an internal CA), the answer comes back unchanged; untrusted, a clear 502;
 * - a long session stays bounded: thousands of failing exchanges keep a handful of them as evidence, count the rest,
 *   and the proxy's heap does not grow with them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, killChildren } from '../../mock/test-support/child-mock.js';
import { startChildProxy, startTestProxy, startUpstream } from './test-support/servers.js';

const OPENSSL = spawnSync('openssl', ['version']).status === 0;
if (!OPENSSL) console.warn('transport.full.test.ts: the HTTPS cases are skipped: openssl is not installed (it makes the test certificate)');

describe.skipIf(!OPENSSL)('an HTTPS target', () => {
  let dir: string;
  let url: string;
  let server: ReturnType<typeof createServer>;

  beforeAll(async () => {
    buildIfStale();
    dir = await mkdtemp(join(tmpdir(), 'proxy-tls-'));
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    server = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-tls': 'yes' });
      res.end('{"id":1,"name":"Dogs"}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 180_000);
  afterAll(async () => {
    killChildren();
    await new Promise((done) => server?.close(done));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('trusted: forwards through undici and passes the answer on unchanged', async () => {
    const proxy = await startChildProxy(['--target', url, '--port', '0', '--quiet'], { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    const proxyUrl = proxy.url;
    const answer = await request(`${proxyUrl}/categories/1`);
    expect([answer.statusCode, answer.headers['x-tls'], await answer.body.text()]).toEqual([200, 'yes', '{"id":1,"name":"Dogs"}']);
    expect((await proxy.stop()).code).toBe(0);
  }, 60_000);

  it('untrusted: a 502 TARGET_UNREACHABLE that names the certificate', async () => {
    const proxy = await startTestProxy({ target: url });
    try {
      const answer = await request(`${proxy.url}/categories/1`);
      const body = (await answer.body.json()) as { code: string; message: string };
      expect([answer.statusCode, body.code]).toEqual([502, 'TARGET_UNREACHABLE']);
      expect(body.message).toMatch(/certificate/i);
    } finally {
      await proxy.close();
    }
  });
});

describe('a long session', () => {
  it('keeps a few failing exchanges as evidence and counts the rest, its heap flat', async () => {
    const target = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 1, name: 'x'.repeat(2000), extra: 'y'.repeat(20_000) }));
    });
    const proxy = await startTestProxy({ target: target.url, quiet: true });
    try {
      const send = async (count: number): Promise<void> => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < count) {
              next += 1;
              await (await request(`${proxy.url}/categories/${next}`)).body.text();
            }
          }),
        );
      };
      await send(500);
      global.gc?.();
      const before = process.memoryUsage().heapUsed;
      await send(4000);
      global.gc?.();
      const grown = process.memoryUsage().heapUsed - before;
      const report = proxy.report();
      const failures = report.results.filter((r) => r.verdict === 'failed' && r.checkId === 'response-schema');
      // One reason (a name too long for the document), five exchanges listed, the rest counted as alike.
      expect(failures).toHaveLength(5);
      expect(failures.reduce((sum, r) => sum + 1 + (r.alike ?? 0), 0)).toBe(4500);
      expect(proxy.violations).toBe(4500);
      // 4,000 answers of 22 KB crossed; what stayed is counters: far less than one megabyte per thousand exchanges.
      expect(grown).toBeLessThan(24 * 1024 * 1024);
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 120_000);
});
