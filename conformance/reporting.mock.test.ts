/**
 * Issue 10 against real servers: the reports of real runs. Two runs against
 * the mock give the same JUnit test names, none twice (server-assigned ids
 * and generated values once leaked into them); a single planted defect is one
 * grouped failure in every format; a workflow that breaks at a step is filed
 * under that step's operation with that exchange; a wrong --base-url prefix stops before any
 * check with exit 2's kit error; --min-coverage turns a hollow run into a
 * failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectiveServer } from '../fixtures/defective/index.js';
import { answer, jsonOf, isObject, operationOf } from '../fixtures/defective/helpers.js';
import { startProxy } from '../fixtures/defective/proxy.js';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { isKitError } from '../src/kit-error.js';
import type { ReportFormat, RunReport } from './model.js';
import { createReporter, groupDefects } from './reporters/index.js';
import { runConformance } from './runner.js';

const RUN_TIMEOUT = 120_000;

function junitNames(report: RunReport): string[] {
  const xml = createReporter('junit').render(report);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml) as {
    testsuites: { testsuite: { testcase: { '@name': string; '@classname': string }[] }[] };
  };
  return parsed.testsuites.testsuite.flatMap((s) => s.testcase.map((c) => `${c['@classname']} ${c['@name']}`));
}

describe('JUnit names across runs', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('two runs against the mock give identical JUnit test-name sets, with no duplicates', { timeout: RUN_TIMEOUT }, async () => {
    // The same mock for both: the second run meets the ids and records the first one moved on, as a CI rerun would.
    const first = await runConformance({ baseUrl: mock.url, seed: 1, minCoverage: { operations: 100 } });
    const second = await runConformance({ baseUrl: mock.url, seed: 1, minCoverage: { operations: 100 } });
    const a = junitNames(first);
    const b = junitNames(second);
    expect(new Set(a).size, 'duplicate names in the first run').toBe(a.length);
    expect(new Set(b).size, 'duplicate names in the second run').toBe(b.length);
    expect([...b].sort()).toEqual([...a].sort());
    for (const name of a) expect(name).not.toMatch(/\/\d+|pk[0-9a-z]{9}/);
    // --min-coverage 100 on operations holds for a full run.
    expect(first.results.find((r) => r.checkId === 'min-coverage')?.verdict).toBe('passed');
  });

  it('--min-coverage turns a run that --only left hollow into a failure', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runConformance({ baseUrl: mock.url, seed: 1, only: ['unknown-path-404'], minCoverage: { operations: 90, statuses: 10 } });
    const verdict = report.results.find((r) => r.checkId === 'min-coverage');
    expect(verdict?.verdict).toBe('failed');
    expect(verdict?.reason).toMatch(/operations exercised \d+(\.\d+)?% < 90%, documented statuses observed \d+(\.\d+)?% < 10%/);
    expect(report.summary.failed).toBeGreaterThan(0);
    expect(report.meta.selectedChecks).toEqual(['unknown-path-404', 'min-coverage']);
  });
});

describe('a planted single defect (createCategory answers 200)', () => {
  let mock: RunningMock;
  let report: RunReport;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    const proxy = await startDefectiveServer('create-category-200', mock.url);
    try {
      report = await runConformance({ baseUrl: proxy.url, seed: 1 });
    } finally {
      await proxy.close();
    }
  }, RUN_TIMEOUT);
  afterAll(async () => {
    await mock.close();
  });

  const render = (format: ReportFormat): string => createReporter(format, { color: false, quiet: true }).render(report);

  it('is one defect, shown by every exchange that met it', () => {
    const defects = groupDefects(report);
    expect(defects.map((d) => [d.checkId, d.operationId])).toEqual([['status-documented', 'createCategory']]);
    expect(defects[0]!.exchanges).toBeGreaterThan(1);
    expect(defects[0]!.curl).toMatch(/^curl -i -X POST '.*\/categories'/);
  });

  it('is one grouped failure in every format', () => {
    const console = render('console');
    expect(console).toContain('Fix first (1 defect, most severe first)');
    expect(console.split('✗ failed status-documented')).toHaveLength(2);
    const html = render('html');
    expect(html.split('<details id="defect-')).toHaveLength(2);
    const junit = render('junit');
    expect(junit.split('<failure ')).toHaveLength(2);
    expect(junit).toContain('name="status-documented on createCategory"');
    const json = JSON.parse(render('json')) as { defects: unknown[] };
    expect(json.defects).toHaveLength(1);
    const markdown = render('markdown');
    expect(markdown.split('\n').filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(1);
  });
});

describe('a workflow that breaks at a step of another operation', () => {
  it('is filed under that operation and shows that exchange, with its curl', { timeout: RUN_TIMEOUT }, async () => {
    const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    // cancelOrder "cancels" a complete order (204) instead of refusing it (rule 4): workflow-order-complete-sells, whose subject is updateOrder, breaks at its cancelOrder step.
    const proxy = await startProxy(async (request, next) => {
      const response = await next(request);
      const body = jsonOf(response);
      if (operationOf(request) === 'cancelOrder' && response.status === 409 && isObject(body) && body['code'] === 'ORDER_ALREADY_COMPLETE') return answer(204, undefined);
      return response;
    }, mock.url);
    try {
      const report = await runConformance({ baseUrl: proxy.url, seed: 1, only: ['workflow'] });
      const defect = groupDefects(report).find((d) => d.checkId === 'workflow-order-complete-sells');
      expect(defect?.operationId).toBe('cancelOrder');
      expect(defect?.exchange?.request.method).toBe('DELETE');
      expect(defect?.exchange?.response?.status).toBe(204);
      expect(defect?.curl).toMatch(/^curl -i -X DELETE '.*\/store\/orders\/\d+'/);
      const text = createReporter('console', { color: false, quiet: true }).render(report);
      expect(text).toMatch(/✗ cancelOrder[^\n]*\n[\s\S]*✗ failed workflow-order-complete-sells/);
      expect(text).toMatch(/DELETE http:\/\/127\.0\.0\.1:\d+\/store\/orders\/\d+ → 204/);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});

describe('a wrong --base-url prefix', () => {
  let mock: RunningMock;
  let html404: Server;
  let html404Url: string;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true, basePath: '/api/v1' });
    // What a reverse proxy or a web framework answers for a path it does not route: an HTML page.
    html404 = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((resolve) => html404.listen(0, '127.0.0.1', resolve));
    html404Url = `http://127.0.0.1:${(html404.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await mock.close();
    await new Promise((resolve) => html404.close(resolve));
  });

  it.each([
    ['the mock served under /api/v1, targeted at its root', () => mock.url],
    ['a server answering an HTML 404 to every path', () => html404Url],
  ])('stops before any check with BASE_URL_MISMATCH and the paths it tried: %s', { timeout: RUN_TIMEOUT }, async (_name, url) => {
    const events: string[] = [];
    const outcome = await runConformance({ baseUrl: url(), seed: 1, onEvent: (e) => events.push(e.type) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isKitError(outcome) && outcome.code).toBe('BASE_URL_MISMATCH');
    const message = outcome instanceof Error ? outcome.message : '';
    expect(message).toContain('path prefix');
    expect(message).toContain(`GET ${url()}/pets → 404`);
    expect(message).toContain(`GET ${url()}/store/inventory → 404`);
    expect(events).not.toContain('check-finished');
  });

  it('runs normally with the right prefix', { timeout: RUN_TIMEOUT }, async () => {
    const report = await runConformance({ baseUrl: `${mock.url}/api/v1`, seed: 1, only: ['unknown-path-404'] });
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(0);
  });
});
