/**
 * Issue 10, points 1 and 2: one defect is one entry in every format, with how
 * many exchanges showed it, the exchange that broke the rule in full and a
 * curl command that replays it without carrying a secret.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { CheckResult, Exchange, ReportFormat, RunReport } from '../model.js';
import { curlCommand, curlLine, headerVariable } from './curl.js';
import { groupDefects, normalizeReason } from './defects.js';
import { createReporter, REDACTED } from './index.js';
import { reportAround } from '../test-support/report-fixture.js';

const TARGET = 'http://127.0.0.1:4010';

function exchange(method: string, path: string, status: number, body = '{}', request: Partial<Exchange['request']> = {}): Exchange {
  return {
    request: { method, url: `${TARGET}${path}`, headers: { accept: 'application/json' }, ...request },
    response: { status, headers: { 'content-type': 'application/json' }, bodyExcerpt: body, bodyBytes: body.length, truncated: false },
    durationMs: 2,
  };
}

/** createCategory answering 200: the one planted defect, seen on ten exchanges with their own ids and generated names. */
const planted: CheckResult[] = Array.from({ length: 10 }, (_, i) => ({
  checkId: 'status-documented',
  operationId: 'createCategory',
  title: `POST /categories → 200 (category ${100 + i})`,
  verdict: 'failed' as const,
  reason: `status 200 is not documented for createCategory (created id ${100 + i}, name "pkabc12def0-c${i}")`,
  findings: [{ pointer: '/status', keyword: 'status', message: 'the status is not documented', expected: ['201', '400', '409'], actual: 200 }],
  evidence: [exchange('POST', '/categories', 200, `{"id":${100 + i},"name":"pkabc12def0-c${i}"}`, { body: `{"name":"pkabc12def0-c${i}"}`, headers: { 'content-type': 'application/json', authorization: REDACTED } })],
  ...(i === 9 ? { alike: 2 } : {}),
}));

/** A workflow whose third step broke the rule: filed under that step's operation, with failedAt pointing at its exchange. */
const workflow: CheckResult = {
  checkId: 'workflow-order-reserves-stock',
  operationId: 'placeOrder',
  title: 'placing an order reserves stock',
  verdict: 'failed',
  reason: 'step 3 (placeOrder: order it): POST /store/orders answered 200, expected 201',
  findings: [{ pointer: '/steps/2/status', keyword: 'status', message: 'step 3: answered 200', expected: 201, actual: 200 }],
  evidence: [exchange('POST', '/categories', 201), exchange('POST', '/pets', 201), exchange('POST', '/store/orders', 200, '{"id":7}', { body: `{"petId":41,"quantity":1,"note":"it's"}` }), exchange('DELETE', '/pets/41', 409)],
  failedAt: 2,
};

const passed: CheckResult = { checkId: 'response-schema', operationId: 'listPets', title: 'listPets: 3 exchanges judged', verdict: 'passed', findings: [], evidence: [] };

function reportOf(results: CheckResult[]): RunReport {
  return reportAround(results, [
    { id: 'status-documented', family: 'response' },
    { id: 'response-schema', family: 'response' },
    { id: 'workflow-order-reserves-stock', family: 'workflow' },
  ], { target: TARGET, options: { headers: ['Authorization'] } });
}

function render(format: ReportFormat, report: RunReport): string {
  return createReporter(format, { color: false, quiet: true }).render(report);
}

function occurrencesOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('normalizeReason', () => {
  it.each([
    ['GET /pets/123 answered 404, not 200', 'GET /pets/{id} answered 404, not 200'],
    ['name "pkabc12def0-Rex7" is taken', 'name "…" is taken'],
    ['GET /pets?id=17&limit=20 lacks pet 17', 'GET /pets?id={value}&limit={value} lacks pet N'],
    ['X-Total-Count is 25, expected 20 (after 1234 ms)', 'X-Total-Count is N, expected N (after N ms)'],
    ['created pkabc12def0-c3 with 201', 'created {generated} with 201'],
    ['the response schema of listPets 200', 'the response schema of listPets 200'],
    ['200 is not a documented status of createCategory (documented: 201, 400)', '200 is not a documented status of createCategory (documented: 201, 400)'],
    ['listPets?id=5,143: 2 records match', 'listPets?id={value}: N records match'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeReason(input)).toBe(expected);
  });

  it('keeps different statuses apart: they are different defects', () => {
    expect(normalizeReason('POST /pets answered 200')).not.toBe(normalizeReason('POST /pets answered 500'));
  });
});

describe('a planted single defect yields exactly one grouped failure in every format', () => {
  const report = reportOf([...planted, passed]);

  it('groups ten failures that differ only in ids and generated names into one defect shown by twelve exchanges', () => {
    const defects = groupDefects(report);
    expect(defects).toHaveLength(1);
    expect(defects[0]).toMatchObject({ checkId: 'status-documented', operationId: 'createCategory', severity: 'high', exchanges: 12, results: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(defects[0]!.exchange?.request.body).toBe('{"name":"pkabc12def0-c0"}');
  });

  it('keeps the real values in the fix-first line and normalizes only the grouping key (issue 19, point 3)', () => {
    const [defect] = groupDefects(report);
    expect(defect?.reason).toBe('status 200 is not documented for createCategory (created id 100, name "pkabc12def0-c0")');
    expect(defect?.group).toBe(normalizeReason(defect!.reason));
    expect(defect?.group).not.toContain('100');
    const text = render('console', report);
    expect(text).toContain('created id 100');
    expect(render('markdown', report)).toContain('created id 100');
  });

  it('console: one fix-first line and one failure block, with the count', () => {
    const text = render('console', report);
    expect(text).toContain('Fix first (1 defect, most severe first)');
    expect(occurrencesOf(text, '✗ failed status-documented')).toBe(1);
    expect(text).toContain('shown by 12 exchanges');
    expect(occurrencesOf(text, 'POST http://127.0.0.1:4010/categories → 200')).toBe(1);
  });

  it('html: one fix-first item and one folded details block', () => {
    const html = render('html', report);
    expect(occurrencesOf(html, '<details id="defect-')).toBe(1);
    expect(occurrencesOf(html, '<li><span class="sev sev-high">')).toBe(1);
  });

  it('junit: one testcase for (status-documented, createCategory), failed once', () => {
    const xml = render('junit', report);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml) as {
      testsuites: { testsuite: { testcase: { '@name': string; failure?: unknown }[] }[] };
    };
    const cases = parsed.testsuites.testsuite.flatMap((s) => s.testcase);
    expect(cases.map((c) => c['@name']).sort()).toEqual(['response-schema on listPets', 'status-documented on createCategory']);
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(1);
  });

  it('json: one defect next to the ten results it groups', () => {
    const json = JSON.parse(render('json', report)) as { defects: unknown[]; results: { curl?: string }[] };
    expect(json.defects).toHaveLength(1);
    expect(json.results.filter((r) => r.curl !== undefined)).toHaveLength(10);
  });

  it('markdown: one table row', () => {
    const md = render('markdown', report);
    expect(md.split('\n').filter((line) => line.startsWith('| 1 |'))).toHaveLength(1);
    expect(md.split('\n').filter((line) => line.startsWith('| 2 |'))).toHaveLength(0);
    expect(md).toContain('FAILED');
  });
});

describe('a workflow failure', () => {
  const report = reportOf([workflow]);

  it('is filed under the operation that misbehaved and shows the exchange that broke the rule, not the last one', () => {
    const [defect] = groupDefects(report);
    expect(defect?.operationId).toBe('placeOrder');
    expect(defect?.exchange?.request.url).toBe(`${TARGET}/store/orders`);
    const text = render('console', report);
    expect(text).toContain('after 2 exchanges:');
    expect(text).toContain('POST http://127.0.0.1:4010/store/orders → 200');
    expect(text).toContain(`reproduce: curl -i -X POST '${TARGET}/store/orders'`);
    expect(text).not.toContain('more exchanges in the JSON report');
  });
});

describe('the exchange that broke the rule', () => {
  it('is the one whose status the finding names, not a later read that only looked', () => {
    const negative: CheckResult = {
      checkId: 'negative-body',
      operationId: 'createPet',
      title: 'POST /pets with an array',
      verdict: 'failed',
      reason: 'accepted: answered 201 to an invalid request',
      findings: [{ pointer: '/status', keyword: 'status', message: 'an invalid body must get a 4xx', expected: '4xx', actual: 201 }],
      evidence: [exchange('GET', '/pets?limit=1', 200), exchange('POST', '/pets', 201), exchange('GET', '/pets?limit=1', 200)],
    };
    expect(groupDefects(reportOf([negative]))[0]?.exchange?.request.method).toBe('POST');
  });

  it('is the one whose header shows the value the finding names', () => {
    const count: CheckResult = {
      checkId: 'status-documented',
      operationId: 'listPets',
      title: 'X-Total-Count across pages',
      verdict: 'failed',
      reason: 'X-Total-Count is 7, expected 2',
      findings: [{ pointer: '/header/x-total-count', keyword: 'count', message: 'wrong count', expected: 2, actual: 7 }],
      evidence: [
        { ...exchange('GET', '/pets?offset=0', 200), response: { status: 200, headers: { 'X-Total-Count': '7' }, bodyExcerpt: '[]', bodyBytes: 2, truncated: false } },
        { ...exchange('GET', '/pets?offset=1', 200), response: { status: 200, headers: { 'X-Total-Count': '2' }, bodyExcerpt: '[]', bodyBytes: 2, truncated: false } },
      ],
    };
    expect(groupDefects(reportOf([count]))[0]?.exchange?.request.url).toBe(`${TARGET}/pets?offset=0`);
  });
});

describe('curl', () => {
  it('replaces a redacted header by a variable and never carries the value', () => {
    const ex = exchange('GET', '/pets', 200, '[]', { headers: { accept: 'application/json', authorization: REDACTED, 'x-tenant': REDACTED, 'content-length': '0' } });
    const { command, variables } = curlCommand(ex);
    expect(command).toBe(`curl -i -X GET '${TARGET}/pets' -H 'accept: application/json' -H "authorization: $PETSTORE_HEADER_AUTHORIZATION" -H "x-tenant: $PETSTORE_HEADER_X_TENANT"`);
    expect(variables).toEqual(['PETSTORE_HEADER_AUTHORIZATION', 'PETSTORE_HEADER_X_TENANT']);
    expect(curlLine(ex)).toContain('# export PETSTORE_HEADER_AUTHORIZATION, PETSTORE_HEADER_X_TENANT first');
    expect(headerVariable('X-Api-Key')).toBe('PETSTORE_HEADER_X_API_KEY');
  });

  it('quotes a body with a single quote so the shell sends it byte for byte', () => {
    const { command } = curlCommand(workflow.evidence[2]!);
    expect(command).toContain(`--data-binary '{"petId":41,"quantity":1,"note":"it'\\''s"}'`);
  });

  it('appears on every failure of every format that shows failures', () => {
    const report = reportOf([...planted]);
    for (const format of ['console', 'junit', 'html', 'json', 'markdown'] as const) {
      const out = render(format, report);
      expect(out, format).toContain(`curl -i -X POST '${TARGET}/categories'`);
      expect(out, format).toContain('$PETSTORE_HEADER_AUTHORIZATION');
    }
  });
});
