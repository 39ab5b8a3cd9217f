/**
 * Runner findings a sweep of mock and runner over every document of @readme/oas-examples showed were the runner's
 * (2026-11-27), each fixed as a class and kept here as a regression case, against our generic mock:
 *
 * - a read documented with no body (`200: { description }` only, readme.com's legacy API): an empty 200 is what the
 *   document allows, so create-read-back looks for no field in it (it reported every sent field "missing");
 * - a record named by a field its create's Location ends with (readme.com's changelog `slug`, bound as
 *   `$response.header.Location#last-segment`): that field names the record, so patch-keeps-fields does not patch it
 *   (it patched the slug, read the old path, and blamed the server for the slug it kept).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const EXAMPLES = join(PACKAGE_ROOT, 'node_modules', '@readme', 'oas-examples');

function failures(report: RunReport): string[] {
  return report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
}

describe.each([
  { document: '3.0/json/readme-legacy.json', checks: ['create-read-back', 'replace-visible'], passes: 'create-read-back' },
  { document: '3.1/json/readme.json', checks: ['patch-keeps-fields', 'replace-visible'], passes: 'patch-keeps-fields' },
])('the runner against the mock of $document', ({ document, checks, passes }) => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, specPath: join(EXAMPLES, document), quiet: true, log: () => {} });
  });
  afterAll(() => mock?.close());

  it(`finds nothing with ${checks.join(' and ')}, and ${passes} passes`, async () => {
    const report = await runConformance({ baseUrl: `${mock.url}${mock.app.basePath}`, specPath: join(EXAMPLES, document), seed: 1, only: checks });
    expect(failures(report)).toEqual([]);
    expect(report.results.filter((r) => r.checkId === passes && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 120_000);
});
