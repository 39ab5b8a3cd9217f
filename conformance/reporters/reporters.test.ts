import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schema/index.js';
import { REPORT_FORMAT_VERSION, type CheckResult, type Exchange, type ReportFormat, type RunEvent, type RunReport } from '../model.js';
import { colorWanted, createReporter, REDACTED } from './index.js';
import { escapeAttr, escapeText } from './safe-text.js';

/** Credentials in headers: redacted by the header's name, with no need to know the value. */
const SECRETS = {
  bearer: 'Bearer sk-live-4f9a8b7c6d5e',
  staging: 'staging-token-31415926',
  cookie: 'session=abcdef0123456789',
};
/** A --header value the target echoed in a body: only scrubbed because the CLI hands the values to the reporter. */
const ECHOED = 'tenant-secret-27182818';

const T0 = '2026-11-20T10:00:00.000Z';
const TARGET = 'http://127.0.0.1:4010/api/v1';

function exchange(method: string, path: string, status: number, body: string, extra: Partial<Exchange> = {}): Exchange {
  return {
    request: {
      method,
      url: `${TARGET}${path}`,
      // The runner should have redacted these; the fixture plays a runner that did not, so the reporters must.
      headers: { accept: 'application/json', authorization: SECRETS.bearer, 'x-staging-token': SECRETS.staging },
    },
    response: {
      status,
      headers: { 'content-type': 'application/json', 'set-cookie': SECRETS.cookie },
      bodyExcerpt: body,
      bodyBytes: Buffer.byteLength(body),
      truncated: false,
    },
    durationMs: 3.2,
    ...extra,
  };
}

const results: CheckResult[] = [
  {
    checkId: 'response-schema',
    operationId: 'listPets',
    title: 'GET /pets answers Pets',
    verdict: 'failed',
    reason: 'The body does not match the response schema of listPets 200.',
    findings: [
      { pointer: '/body/0/status', keyword: 'enum', message: 'must be one of "available", "pending", "sold"', expected: ['available', 'pending', 'sold'], actual: 'adopted' },
    ],
    evidence: [exchange('GET', '/pets?limit=20', 200, '[{"id":1,"name":"Rex","categoryId":1,"status":"adopted"}]')],
  },
  { checkId: 'status-documented', operationId: 'listPets', title: 'GET /pets answers a documented status', verdict: 'passed', findings: [], evidence: [] },
  {
    checkId: 'negative-body',
    operationId: 'createPet',
    title: 'POST /pets with /body/name removed',
    verdict: 'failed',
    reason: 'An invalid body was accepted with 201.',
    findings: [{ pointer: '/status', keyword: 'status', message: 'an invalid body must get a 4xx', expected: '4xx', actual: 201 }],
    evidence: [
      {
        ...exchange('POST', '/pets', 201, `{"id":99,"categoryId":1,"echo":"${ECHOED}","ctl":"\u0000\u001b[31m\u0007<&>"}`),
        request: {
          method: 'POST',
          url: `${TARGET}/pets`,
          headers: { 'content-type': 'application/json', 'x-staging-token': REDACTED, cookie: SECRETS.cookie },
          body: '{"categoryId":1}',
        },
      },
    ],
    mutation: { kind: 'remove-required', pointer: '/body/name', description: 'removed the required field name' },
  },
  {
    checkId: 'deprecation-headers',
    operationId: 'getPet',
    title: 'GET /pets/{petId} sends Deprecation, Sunset and Link',
    verdict: 'skipped',
    reason: 'no pet to read: listPets answered an empty page',
    findings: [],
    evidence: [],
  },
  {
    checkId: 'no-server-error',
    operationId: 'getPet',
    title: 'GET /pets/1 does not answer 5xx',
    verdict: 'failed',
    reason: 'timeout after 10000 ms',
    findings: [],
    evidence: [{ request: { method: 'GET', url: `${TARGET}/pets/1`, headers: {} }, error: { code: 'TIMEOUT', message: 'no answer within 10000 ms' }, durationMs: 10000 }],
  },
  {
    checkId: 'unknown-path-404',
    title: 'GET /no-such-path answers 404',
    verdict: 'passed',
    findings: [],
    evidence: [exchange('GET', '/no-such-path', 404, '{"code":"ROUTE_NOT_FOUND","message":"No operation matches.","status":404}')],
  },
  {
    checkId: 'workflow-order-reserves-stock',
    title: 'placing an order reserves stock',
    verdict: 'skipped',
    reason: 'skipped under --read-only: it sends POST',
    findings: [],
    evidence: [],
  },
];

function countOf(verdict: CheckResult['verdict']): number {
  return results.filter((r) => r.verdict === verdict).length;
}

const report: RunReport = {
  formatVersion: REPORT_FORMAT_VERSION,
  meta: {
    kit: { name: 'petstore-kit', version: '0.1.0' },
    document: { title: 'Pet Store API', version: '1.0.0', sha256: 'ab'.repeat(32), file: 'openapi.yaml' },
    target: TARGET,
    startedAt: T0,
    finishedAt: '2026-11-20T10:00:03.500Z',
    durationMs: 3500,
    seed: 1,
    options: { readOnly: false, concurrency: 4, headers: ['Authorization', 'X-Staging-Token'], origin: 'http://localhost:5173' },
    checks: [
      { id: 'status-documented', family: 'response', description: 'the status is documented for the operation', writes: false },
      { id: 'response-schema', family: 'response', description: 'a 2xx body validates against the response schema', writes: false },
      { id: 'no-server-error', family: 'errors', description: 'no 5xx', writes: false },
      { id: 'negative-body', family: 'negative', description: 'invalid bodies get a 4xx and create nothing', writes: true },
      { id: 'unknown-path-404', family: 'routing', description: 'an unknown path is a 404', writes: false },
      { id: 'workflow-order-reserves-stock', family: 'workflow', description: 'an order reserves stock', writes: true },
      { id: 'deprecation-headers', family: 'deprecation', description: 'Deprecation, Sunset, Link', writes: false },
    ],
    selectedChecks: ['status-documented', 'response-schema', 'no-server-error', 'negative-body', 'unknown-path-404', 'workflow-order-reserves-stock', 'deprecation-headers'],
  },
  summary: { total: results.length, passed: countOf('passed'), failed: countOf('failed'), skipped: countOf('skipped'), exchanges: 42, exchangesPerSecond: 12 },
  coverage: {
    operations: [
      { operationId: 'listPets', exercised: true },
      { operationId: 'createPet', exercised: true },
      { operationId: 'getPet', exercised: true },
      { operationId: 'updateInventory', exercised: false },
    ],
    statuses: [
      { operationId: 'listPets', status: '200', observed: true },
      { operationId: 'getPet', status: '410', observed: false },
      { operationId: 'createPet', status: '422', observed: false },
      { operationId: 'listPets', status: '500', observed: false },
      { operationId: 'createPet', status: '500', observed: false },
    ],
    petStatuses: [
      { value: 'available', sent: true, observed: true },
      { value: 'pending', sent: false, observed: true },
      { value: 'sold', sent: false, observed: false },
    ],
  },
  results,
  cleanup: { deleted: 3, leftBehind: [{ resource: 'pet', url: `${TARGET}/pets/99`, reason: 'DELETE answered 409 PET_HAS_OPEN_ORDER' }] },
};

const FORMATS: readonly ReportFormat[] = ['console', 'json', 'junit', 'html', 'markdown'];

function render(format: ReportFormat, r: RunReport = report): string {
  return createReporter(format, { color: false, quiet: true }).render(r);
}

function loadSchema(): object {
  return JSON.parse(readFileSync(new URL('../report.schema.json', import.meta.url), 'utf8')) as object;
}

/** The kit's strict Ajv, with strict-mode warnings turned into failures so the schema cannot rot into "works with a warning". */
function compileReportSchema() {
  const warnings: unknown[] = [];
  const logger = { log: () => undefined, warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => warnings.push(args) };
  const validate = createAjv({ logger }).compile(loadSchema());
  expect(warnings).toEqual([]);
  return validate;
}

describe('json reporter', () => {
  it('validates against report.schema.json with the kit strict Ajv', () => {
    const validate = compileReportSchema();
    const parsed: unknown = JSON.parse(render('json'));
    expect(validate(parsed), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('writes the report as it is, apart from redaction', () => {
    const parsed = JSON.parse(render('json')) as RunReport;
    expect(parsed.summary).toEqual(report.summary);
    expect(parsed.results.map((r) => [r.checkId, r.verdict])).toEqual(report.results.map((r) => [r.checkId, r.verdict]));
    expect(parsed.results[0]?.findings).toEqual(report.results[0]?.findings);
    expect(parsed.results[0]?.evidence[0]?.request.headers['authorization']).toBe(REDACTED);
  });

  it('the schema documents the format version the runner writes', () => {
    const schema = loadSchema() as { properties: { formatVersion: { const: unknown } } };
    expect(schema.properties.formatVersion.const).toBe(REPORT_FORMAT_VERSION);
  });

  it('the schema rejects what the format does not allow', () => {
    const validate = compileReportSchema();
    const good = JSON.parse(render('json')) as Record<string, unknown> & RunReport & { defects: Record<string, unknown>[] };
    const bad: unknown[] = [
      { ...good, formatVersion: 1 },
      { ...good, defects: [{ ...good.defects[0], severity: 'urgent' }] },
      { ...good, defects: [{ ...good.defects[0], results: [] }] },
      { ...good, results: [{ ...good.results[0], curl: 'wget http://x' }] },
      { ...good, results: [{ ...good.results[0], verdict: 'maybe' }] },
      { ...good, results: [{ ...good.results[1], verdict: 'skipped' }] }, // a skip without a reason
      { ...good, results: [{ ...good.results[1], verdict: 'failed' }] }, // a failure saying nothing
      { ...good, summary: { ...good.summary, failed: -1 } },
      { ...good, meta: { ...good.meta, document: { ...good.meta.document, sha256: 'not-a-hash' } } },
      { ...good, extra: true },
    ];
    for (const doc of bad) expect(validate(doc)).toBe(false);
  });
});

describe('junit reporter', () => {
  const xml = render('junit');
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml) as {
    testsuites: {
      '@tests': string;
      '@failures': string;
      '@skipped': string;
      '@errors': string;
      testsuite: { '@name': string; '@tests': string; '@failures': string; '@skipped': string; testcase: Record<string, unknown>[] }[];
    };
  };

  it('is well-formed XML', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  // Each (check, operation) pair of this fixture has one result, so the testcase counts equal the summary's.
  it('counts tests, failures and skips per (check, operation), overall and summed over suites', () => {
    const root = parsed.testsuites;
    expect(Number(root['@tests'])).toBe(report.summary.total);
    expect(Number(root['@failures'])).toBe(report.summary.failed);
    expect(Number(root['@skipped'])).toBe(report.summary.skipped);
    expect(Number(root['@errors'])).toBe(0);
    const sum = (key: '@tests' | '@failures' | '@skipped') => root.testsuite.reduce((n, s) => n + Number(s[key]), 0);
    expect(sum('@tests')).toBe(report.summary.total);
    expect(sum('@failures')).toBe(report.summary.failed);
    expect(sum('@skipped')).toBe(report.summary.skipped);
    const cases = root.testsuite.flatMap((s) => s.testcase);
    expect(cases).toHaveLength(report.summary.total);
    expect(cases.filter((c) => 'failure' in c)).toHaveLength(report.summary.failed);
    expect(cases.filter((c) => 'skipped' in c)).toHaveLength(report.summary.skipped);
    for (const s of root.testsuite) expect(Number(s['@tests'])).toBe(s.testcase.length);
  });

  it('has one suite per operation, and run-wide results by family', () => {
    expect(parsed.testsuites.testsuite.map((s) => s['@name'])).toEqual(['listPets', 'createPet', 'getPet', 'routing (no operation)', 'workflow (no operation)']);
  });

  it('carries the evidence in the failure, control characters made visible', () => {
    expect(xml).toContain('at /body/0/status (enum)');
    expect(xml).toContain('\\u0000\\u001b[31m\\u0007&lt;&amp;&gt;');
    expect(xml).toContain('message="The body does not match the response schema of listPets 200. (1×)"');
    expect(xml).toContain("reproduce: curl -i -X GET 'http://127.0.0.1:4010/api/v1/pets?limit=20'");
  });
});

describe('html reporter', () => {
  const html = render('html');

  it('is well-formed (parses as XML)', () => {
    expect(XMLValidator.validate(html)).toBe(true);
  });

  it('is self-contained: no scripts, stylesheets, fonts or images from elsewhere', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b[^>]*rel="?stylesheet/i);
    expect(html).not.toMatch(/\bsrc\s*=\s*["']?https?:/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toMatch(/<style>/);
  });

  it('holds what a vendor needs to hand it over, the matrix, the failures and coverage', () => {
    for (const text of ['Pet Store API', '1.0.0', 'ab'.repeat(32), 'petstore-kit 0.1.0', TARGET, T0, '<dt>Seed</dt><dd>1</dd>']) expect(html).toContain(text);
    expect(html).toContain('Operations × check families');
    expect(html).toContain('<details id="defect-1">');
    expect(html).toContain('<ol class="fix-first">');
    expect(html).toContain('/body/0/status');
    expect(html).toContain('"adopted"');
    expect(html).toContain('updateInventory');
    expect(html).toContain('DELETE answered 409 PET_HAS_OPEN_ORDER');
  });
});

describe('console reporter', () => {
  const text = render('console');

  it('shows each failure with request, status, response excerpt, pointer, expected, actual and mutation', () => {
    expect(text).toContain('GET http://127.0.0.1:4010/api/v1/pets?limit=20 → 200');
    expect(text).toContain('"status":"adopted"');
    expect(text).toContain('at /body/0/status (enum)');
    expect(text).toContain('expected: ["available","pending","sold"]');
    expect(text).toContain('actual:   "adopted"');
    expect(text).toContain('mutation: remove-required at /body/name');
    expect(text).toContain('no response: TIMEOUT: no answer within 10000 ms');
  });

  it('groups by operation and lists skips with reasons, coverage gaps, leftovers and a summary', () => {
    expect(text.indexOf('listPets')).toBeLessThan(text.indexOf('createPet'));
    expect(text).toContain('skipped deprecation-headers: GET /pets/{petId} sends Deprecation, Sunset and Link — no pet to read');
    expect(text).toContain('operations never exercised: updateInventory');
    expect(text).toContain('getPet: status 410 never observed');
    expect(text).toContain('status 500 never observed on any operation that documents it');
    expect(text).toContain('createPet: status 422 never observed'); // 500 is folded into the line above
    expect(text).toContain('PetStatus values never sent: pending, sold');
    expect(text).toContain('pet http://127.0.0.1:4010/api/v1/pets/99: DELETE answered 409');
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 defects · 2 passed, 3 failed, 2 skipped (7 results of 7 checks, 42 requests) in 3.5 s');
  });

  it('prints no escape sequence without color, not even one a server sent', () => {
    expect(text).not.toContain('\x1b');
    expect(createReporter('console', { color: true, quiet: true }).render(report)).toContain('\x1b[31m');
  });

  it('colors only a TTY, and never with NO_COLOR', () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    expect(colorWanted(tty, {})).toBe(true);
    expect(colorWanted(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted(new PassThrough(), {})).toBe(false);
  });

  function progress(options: { progress?: boolean; quiet?: boolean }): string {
    const stream = Object.assign(new PassThrough(), { isTTY: true });
    let written = '';
    stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const reporter = createReporter('console', { stream, color: false, ...options });
    const total = report.meta.selectedChecks.length;
    const events: RunEvent[] = [
      { type: 'run-started', meta: report.meta },
      ...results.map((result, i): RunEvent => ({ type: 'check-finished', result, done: i + 1 })),
      ...report.meta.selectedChecks.map((checkId, i): RunEvent => ({ type: 'check-completed', checkId, completed: i + 1, total })),
      { type: 'run-finished', report },
    ];
    for (const event of events) reporter.onEvent?.(event);
    return written;
  }

  it('rewrites one progress line with a total on a TTY, the same check count as the header and footer', () => {
    const tty = progress({ progress: true });
    expect(tty).toContain('(7 checks, seed 1)');
    expect(tty).toContain('\r[7/7 checks] 7 results, 3 failed');
    expect(tty.endsWith('\x1b[2K\r')).toBe(true);
    expect(render('console')).toContain('(7 results of 7 checks, 42 requests)');
  });

  it('says the records a 409 kept are kept by the state rules, and only the others are to delete by hand (regression: "delete them by hand" of complete orders)', () => {
    expect(text).toContain("Cleanup: 3 deleted, 1 left behind: 1 kept by the target's state rules (it answered 409; the contract keeps complete orders: they cannot be cancelled or deleted)");
    expect(text).not.toContain('delete them by hand');
    const mixed = render('console', { ...report, cleanup: { deleted: 0, leftBehind: [...report.cleanup.leftBehind, { resource: 'category', url: `${TARGET}/categories/9`, reason: 'deleteCategory failed: socket hang up' }] } });
    expect(mixed).toContain("2 left behind: 1 kept by the target's state rules (it answered 409; the contract keeps complete orders: they cannot be cancelled or deleted); 1 to delete by hand");
  });

  it('prints no progress at all when output is not a TTY, or with --quiet', () => {
    expect(progress({ progress: false })).toBe('');
    expect(progress({ progress: true, quiet: true })).toBe('');
  });
});

describe('secrets', () => {
  it.each(FORMATS)('no credential header value appears in the %s report, even when the runner failed to redact it', (format) => {
    const out = render(format);
    for (const secret of Object.values(SECRETS)) expect(out).not.toContain(secret);
    if (format === 'json' || format === 'html') expect(out).toContain(REDACTED); // these two show headers
  });

  it.each(FORMATS)('a password in the target URL never appears in the %s report', (format) => {
    const out = render(format, { ...report, meta: { ...report.meta, target: 'https://ci:hunter2-pass@staging.example.com/api' } });
    expect(out).not.toContain('hunter2-pass');
  });

  it.each(FORMATS)('--header values handed to the %s reporter are scrubbed wherever they appear', (format) => {
    const leaky: RunReport = { ...report, meta: { ...report.meta, options: { headers: ['X-Tenant: tenant-7f3e9'] }, target: `${TARGET}?k=tenant-7f3e9` } };
    const out = createReporter(format, { color: false, quiet: true, redact: { headerNames: ['X-Tenant'], secrets: [ECHOED] } }).render(leaky);
    expect(out).not.toContain('tenant-7f3e9'); // from the options, even in "Name: value" form
    expect(out).not.toContain(ECHOED); // echoed by the target in a body
    if (format !== 'console' && format !== 'markdown') expect(out).toContain('X-Tenant'); // the name stays: the options record it
  });
});

describe('xml escaping', () => {
  it('escapes markup and makes characters XML cannot hold visible', () => {
    expect(escapeText('a<b>&c\u0000\ufffe\ud800')).toBe('a&lt;b&gt;&amp;c\\u0000\\ufffe\\ud800');
    expect(escapeText('😀\t\n')).toBe('😀\t\n');
    expect(escapeAttr(`"it's"\n`)).toBe('&quot;it&#39;s&quot;&#10;');
  });
});
