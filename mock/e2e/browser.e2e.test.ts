/**
 * Issue 13, point 6: a real browser. Debian's Chromium, driven by playwright-core (never a downloaded browser),
 * loads a page from one origin that (a) calls the HTTP mock on another origin, reading X-Total-Count, the
 * deprecation headers and a 405 with its Allow through CORS, and (b) runs MSW's worker with petstore-kit/msw/browser
 * and makes the same calls through it. Then the docs page is loaded from the mock and must show all 18
 * operations without asking any other host. Screenshots go to artifacts/browser/ (gitignored).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { browserData } from '../msw/node.js';
import type { Probe } from '../test-support/browser-page.js';
import { startTestMock, type TestMock } from '../test-support/harness.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const ARTIFACTS = join(PACKAGE_ROOT, 'artifacts', 'browser');
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The page's entry: `petstore-kit/msw/browser` given the data alone, as a Pet Store page is written. */
const PAGE_ENTRY = 'browser-app.ts';

/** A plain browser build, as an app would make it: no plugin, no stub, nothing external (issue 23, point 3). */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [join(PACKAGE_ROOT, 'mock', 'test-support', PAGE_ENTRY)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  if (result.warnings.length > 0) throw new Error(`esbuild warned: ${result.warnings.map((w) => w.text).join('; ')}`);
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle');
  return output.text;
}

/** The page's own origin: a tiny static server for the page, its bundle, MSW's worker script and the mock's data. */
async function servePage(files: Readonly<Record<string, { type: string; body: string }>>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const TITLE = CHROMIUM
  ? `in a real browser (${CHROMIUM} via playwright-core)`
  : 'SKIPPED: no chromium at /usr/bin/chromium; install it (apt-get install -y chromium, as .ci/run does) to run the browser tests';

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let browser: Browser;
  let t: TestMock;
  let page: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    const worker = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
    const [bundle, data, workerScript, mock] = await Promise.all([bundlePage(), browserData(), readFile(worker, 'utf8'), startTestMock(), mkdir(ARTIFACTS, { recursive: true })]);
    t = mock;
    // The page serves what the HTTP mock serves: the engine's data (the rule file as JSON, the seed folder's records).
    expect(data.generic?.overlay?.behaviour).toBe('petstore.behaviour.mjs');
    page = await servePage({
      '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><html><head><meta charset="utf-8"><title>petstore-kit in a browser</title></head><body><h1>petstore-kit from a page</h1><script type="module" src="/app.js"></script></body></html>' },
      '/app.js': { type: 'text/javascript; charset=utf-8', body: bundle },
      '/mockServiceWorker.js': { type: 'text/javascript; charset=utf-8', body: workerScript },
      '/data.json': { type: 'application/json', body: JSON.stringify(data) },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([page?.close(), t?.close()]);
  });

  it('a page on another origin reads the mock over HTTP and through the MSW worker alike', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${page.url}/?mock=${encodeURIComponent(t.mock.url)}`);
    await tab.waitForSelector('body[data-done]', { timeout: 30_000 });
    await tab.screenshot({ path: join(ARTIFACTS, 'page.png'), fullPage: true });
    expect(await tab.$eval('body', (body) => body.dataset['done'])).toBe('yes');
    expect(await tab.$('#error')).toBeNull();
    expect(errors).toEqual([]);

    const http = JSON.parse((await tab.textContent('#http')) ?? '{}') as Probe;
    const msw = JSON.parse((await tab.textContent('#msw')) ?? '{}') as Probe;
    const total = Number((await t.client.get('/pets', { query: { status: 'available', limit: 1 } })).headers['x-total-count']);
    for (const seen of [http, msw]) {
      expect(seen.listStatus).toBe(200);
      expect(seen.listed).toBe(3);
      expect(Number(seen.totalCount)).toBe(total);
      expect(seen.deprecation).toMatch(/^@\d+$/);
      expect(seen.sunset).toMatch(/GMT$/);
      expect(seen.link).toContain('rel="successor-version"');
      // The wrong method reaches its 405 (not "Failed to fetch") and browser code can read Allow.
      expect(seen.wrongMethodStatus).toBe(405);
      expect(seen.allow).toBe('GET, POST');
      expect(seen.wrongMethodCode).toBe('METHOD_NOT_ALLOWED');
      expect(seen.petStatusAfterOrder).toBe('pending');
      expect(seen.deleteWithOpenOrder).toBe('PET_HAS_OPEN_ORDER');
    }
    expect(msw).toEqual(http);
    await tab.close();
  }, 60_000);

  it('the docs page shows all 18 operations, asking no other host', async () => {
    const tab = await browser.newPage();
    const requested: string[] = [];
    tab.on('request', (request) => requested.push(request.url()));
    await tab.goto(`${t.mock.url}/__mock/docs`);
    await tab.waitForFunction(() => document.querySelectorAll('.opblock').length >= 18, undefined, { timeout: 30_000 });
    await tab.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: true });
    const shown = await tab.$$eval('.opblock .opblock-summary-operation-id', (nodes) => nodes.map((n) => n.textContent?.trim() ?? ''));
    expect(new Set(shown)).toEqual(new Set(t.compiled.contract.operations.map((o) => o.operationId)));
    expect(shown).toHaveLength(18);
    const elsewhere = requested.filter((url) => !url.startsWith(`${t.mock.url}/`) && !url.startsWith('data:'));
    expect(elsewhere).toEqual([]);
    await tab.close();
  }, 60_000);
});
