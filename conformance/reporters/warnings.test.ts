/**
 * Issue 11, point 1: what the kit could not use in a document (Contract.warnings)
 * reaches the report, with what went unchecked because of it: every warning
 * in the JSON report (valid by report.schema.json), the first few in the
 * console and Markdown summaries, all of them in the HTML report.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schema/index.js';
import { REPORT_FORMAT_VERSION, type RunReport, type RunWarning } from '../model.js';
import { createReporter } from './index.js';
import { WARNINGS_LISTED } from './view.js';

const WARNINGS: readonly RunWarning[] = Array.from({ length: WARNINGS_LISTED + 2 }, (_, i) => ({
  pointer: `/components/schemas/Thing${i}/properties/size`,
  message: `format "decimal-${i}" is not one the kit knows`,
  skipped: `values of Thing${i}.size are not checked against the format`,
}));

function reportWith(warnings: readonly RunWarning[] | undefined): RunReport {
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    meta: {
      kit: { name: 'petstore-kit', version: '0.1.0' },
      document: { title: 'Things', version: '1.0.0', sha256: 'cd'.repeat(32), file: 'things.yaml' },
      target: 'http://127.0.0.1:4010',
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:00:01.000Z',
      durationMs: 1000,
      seed: 1,
      options: {},
      checks: [{ id: 'status-documented', family: 'response', description: 'the status is documented', writes: false }],
      selectedChecks: ['status-documented'],
    },
    ...(warnings ? { warnings } : {}),
    summary: { total: 1, passed: 1, failed: 0, skipped: 0, exchanges: 1, exchangesPerSecond: 1 },
    coverage: { operations: [{ operationId: 'listThings', exercised: true }], statuses: [], petStatuses: [] },
    results: [{ checkId: 'status-documented', operationId: 'listThings', title: 'GET /things → 200', verdict: 'passed', findings: [], evidence: [] }],
    cleanup: { deleted: 0, leftBehind: [] },
  };
}

const render = (format: 'console' | 'json' | 'html' | 'markdown', report: RunReport): string => createReporter(format, { color: false, quiet: true }).render(report);

describe('the document warnings in the reports', () => {
  it('the JSON report carries every warning and validates against report.schema.json', () => {
    const validate = createAjv().compile(JSON.parse(readFileSync(new URL('../report.schema.json', import.meta.url), 'utf8')) as object);
    const parsed = JSON.parse(render('json', reportWith(WARNINGS))) as RunReport;
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(parsed.warnings).toEqual(WARNINGS);
    // A warning without what it skipped is not a warning the format allows.
    expect(validate({ ...parsed, warnings: [{ pointer: '/x', message: 'm' }] })).toBe(false);
  });

  it('the console and Markdown list the first few with what they skipped, and say how many more', () => {
    for (const format of ['console', 'markdown'] as const) {
      const text = render(format, reportWith(WARNINGS));
      expect(text, format).toContain(`${WARNINGS.length} warnings about the document`);
      expect(text, format).toContain(WARNINGS[0]!.pointer);
      expect(text, format).toContain(WARNINGS[0]!.skipped);
      expect(text, format).not.toContain(WARNINGS[WARNINGS_LISTED]!.pointer);
      expect(text, format).toContain(`and ${WARNINGS.length - WARNINGS_LISTED} more`);
    }
  });

  it('the HTML report lists all of them', () => {
    const html = render('html', reportWith(WARNINGS));
    expect(html).toContain('<h2>Document warnings</h2>');
    for (const w of WARNINGS) expect(html).toContain(w.pointer);
  });

  it('a run without warnings shows no warnings section', () => {
    for (const format of ['console', 'markdown', 'html'] as const) {
      for (const report of [reportWith([]), reportWith(undefined)]) expect(render(format, report), format).not.toMatch(/warnings? about the document/);
    }
  });
});
