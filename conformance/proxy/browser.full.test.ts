/**
 * The CI job of docs/proxy.md ("run your end-to-end suite through the proxy"), in small: a page in a real browser
 * (Debian's Chromium, driven by playwright-core) on its own origin calls the API through `petstore-kit proxy`,
 * started as the job starts it, in front of the reference server; then the proxy is stopped with SIGTERM and its
 * exit code and JSON report are the job's verdict. The page's cross-origin calls bring CORS preflights, which the
 * proxy passes on unjudged. On the clean server the job passes (exit 0, no violation); on a mutant it fails (exit 1)
 * naming the defect.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, killChildren } from '../../mock/test-support/child-mock.js';
import type { RunReport } from '../model.js';
import { referencePresent, REFERENCE_MISSING, REF_SPEC, startChildProxy, startReference, startUpstream } from './test-support/servers.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const READY = CHROMIUM && referencePresent;
if (!READY) console.warn(`browser.full.test.ts skipped: ${CHROMIUM ? REFERENCE_MISSING : 'no chromium at /usr/bin/chromium (apt-get install -y chromium)'}`);

/** The page: a front end's calls, as fetch from another origin; what it saw written into the page. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>through the proxy</title></head><body><pre id="out"></pre>
<script type="module">
const api = new URLSearchParams(location.search).get('api');
const json = { 'content-type': 'application/json' };
const seen = [];
const call = async (method, path, body) => {
  const answer = await fetch(api + path, { method, headers: body ? json : {}, body: body ? JSON.stringify(body) : undefined });
  const value = answer.status === 204 ? null : await answer.json();
  seen.push(method + ' ' + path.replace(/\\d{3,}/g, 'N') + ' ' + answer.status);
  return value;
};
try {
  await call('GET', '/pets?limit=3');
  await call('GET', '/pets/1');
  const category = await call('POST', '/categories', { name: 'Browser ' + Date.now() });
  const pet = await call('POST', '/pets', { name: 'Clicky', categoryId: category.id });
  await call('POST', '/store/orders', { petId: pet.id, quantity: 1 });
  await call('GET', '/pets/987654');
  document.getElementById('out').textContent = JSON.stringify(seen);
  document.body.dataset.done = 'yes';
} catch (error) {
  document.getElementById('out').textContent = String(error);
  document.body.dataset.done = 'error';
}
</script></body></html>`;

describe.skipIf(!READY)('a browser suite through the proxy, as the CI job runs it', () => {
  let browser: Browser;
  let page: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;

  beforeAll(async () => {
    buildIfStale();
    dir = await mkdtemp(join(tmpdir(), 'proxy-browser-'));
    page = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE);
    });
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: LAUNCH_ARGS });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await page?.close();
    killChildren();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The job's step: the proxy in front of the target, the suite, then SIGTERM and the proxy's exit code and report. */
  async function job(targetArgs: readonly string[]): Promise<{ code: number | null; seen: string[]; report: RunReport; stderr: string }> {
    const target = await startReference(targetArgs);
    const reportFile = join(dir, `report-${targetArgs.join('-') || 'clean'}.json`);
    const proxy = await startChildProxy(['--target', target.url, '--spec', REF_SPEC, '--port', '0', '--report', `json=${reportFile}`]);
    try {
      const url = proxy.url;
      const tab = await browser.newPage();
      await tab.goto(`${page.url}/?api=${encodeURIComponent(url)}`);
      await tab.waitForSelector('body[data-done]', { timeout: 30_000 });
      const seen = JSON.parse((await tab.textContent('#out')) ?? '[]') as string[];
      await tab.close();
      const { code, stderr } = await proxy.stop();
      return { code, seen, report: JSON.parse(await readFile(reportFile, 'utf8')) as RunReport, stderr };
    } finally {
      await target.close();
    }
  }

  it('passes on the clean server: exit 0, every call judged, the preflights passed on unjudged', async () => {
    const { code, seen, report, stderr } = await job([]);
    expect(seen).toEqual(['GET /pets?limit=3 200', 'GET /pets/1 200', 'POST /categories 201', 'POST /pets 201', 'POST /store/orders 201', 'GET /pets/N 404']);
    expect(code, stderr).toBe(0);
    expect(report.results.filter((r) => r.verdict === 'failed')).toEqual([]);
    // The six calls, and a preflight before each of the three JSON POSTs (Fetch §3.2.2: a non-simple content type).
    expect(report.summary.exchanges).toBe(9);
    expect(stderr).toMatch(/^OPTIONS \/categories 204 /m);
    expect(report.coverage.operations.filter((o) => o.exercised).map((o) => o.operationId).sort()).toEqual(['createCategory', 'createPet', 'getPet', 'listPets', 'placeOrder']);
  }, 120_000);

  it('fails on a mutant: exit 1, the defect named', async () => {
    const { code, report, stderr } = await job(['--mutant', 'pet-missing-name']);
    expect(code).toBe(1);
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId}`)).toEqual(expect.arrayContaining(['response-schema listPets', 'response-schema getPet', 'response-schema createPet']));
    expect(stderr).toMatch(/^violation: GET \/pets → 200 response-schema at \/body\/0\/name: is required$/m);
  }, 120_000);
});
