/**
 * `petstore-kit proxy` as a CI job runs it: a child process that prints `listening on http://HOST:PORT` once it
 * serves, logs each exchange and each violation on stderr, and on SIGTERM finishes, prints the report, writes the
 * --report files and exits 1 when any exchange broke the document, 0 when none did, 2 when it could not start.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildIfStale, killChildren } from '../../mock/test-support/child-mock.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import type { RunReport } from '../model.js';
import { startChildProxy, startUpstream } from './test-support/servers.js';

function run(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'proxy', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

let target: Awaited<ReturnType<typeof startUpstream>>;
let dir: string;
beforeAll(async () => {
  buildIfStale();
  dir = await mkdtemp(join(tmpdir(), 'proxy-cli-'));
  // A category is valid as the document says; anything else answers a body that breaks it.
  target = await startUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/categories/1' ? '{"id":1,"name":"Dogs"}' : '{"id":"one"}');
  });
}, 180_000);
afterAll(async () => {
  killChildren();
  await target?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('petstore-kit proxy', () => {
  it('exits 1 after SIGTERM when an exchange broke the document, with the report printed and written', async () => {
    const json = join(dir, 'proxy.json');
    const junit = join(dir, 'proxy.xml');
    const proxy = await startChildProxy(['--target', target.url, '--port', '0', '--report', `json=${json}`, '--report', `junit=${junit}`]);
    expect((await request(`${proxy.url}/categories/1`)).statusCode).toBe(200);
    expect(await (await request(`${proxy.url}/categories/2`)).body.text()).toBe('{"id":"one"}');
    const { code, stdout, stderr } = await proxy.stop();
    expect(code).toBe(1);
    expect(stderr).toMatch(/^GET \/categories\/2 200 [\d.]+ms \| 1 rule broken$/m);
    expect(stderr).toMatch(/^violation: GET \/categories\/2 → 200 response-schema at \/body\/name: is required$/m);
    expect(stdout).toMatch(/\[high\] response-schema on getCategory/);
    expect(stdout).toContain(`report written to ${json} (json)`);
    const report = JSON.parse(await readFile(json, 'utf8')) as RunReport;
    expect(report.summary.exchanges).toBe(2);
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId}`)).toEqual(['response-schema getCategory']);
    expect(XMLValidator.validate(await readFile(junit, 'utf8'))).toBe(true);
  }, 60_000);

  it('exits 0 when every exchange kept to the document', async () => {
    const proxy = await startChildProxy(['--target', target.url, '--port', '0', '--quiet']);
    expect((await request(`${proxy.url}/categories/1`)).statusCode).toBe(200);
    const { code, stderr } = await proxy.stop();
    expect(code).toBe(0);
    // --quiet: no line per exchange.
    expect(stderr).not.toMatch(/^GET /m);
  }, 60_000);

  it.each([
    [[], /USAGE: petstore-kit proxy: --target URL is required/],
    [['--target', 'http://127.0.0.1:1', '--skip', 'no-such-rule'], /USAGE: petstore-kit proxy: --skip no-such-rule: not a rule id or family/],
    [['--target', 'ftp://example.com'], /USAGE: petstore-kit proxy: --target must be an http or https URL/],
    [['--target', 'http://127.0.0.1:1', '--fallback', '--fallback-url', 'http://127.0.0.1:2'], /USAGE: petstore-kit proxy: give --fallback .* or --fallback-url URL .*, not both/],
  ])('exits 2 on %j with the reason', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  }, 30_000);
});
