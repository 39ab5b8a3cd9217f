/** --report FORMAT=FILE: several report files from one run. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isKitError } from '../src/kit-error.js';
import { parseReportFiles, writeReportFiles } from './report-files.js';
import { reportAround } from './test-support/report-fixture.js';

describe('--report FORMAT=FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-reports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses each FORMAT=FILE, and refuses anything else with a USAGE error', () => {
    expect(parseReportFiles(['html=a.html', 'junit=out/b.xml'])).toEqual([
      { format: 'html', file: join(process.cwd(), 'a.html') },
      { format: 'junit', file: join(process.cwd(), 'out', 'b.xml') },
    ]);
    for (const bad of ['pdf=a.pdf', 'html', 'html=', '=a.html']) {
      let error: unknown;
      try {
        parseReportFiles([bad]);
      } catch (e) {
        error = e;
      }
      expect(isKitError(error) && error.code, bad).toBe('USAGE');
    }
  });

  it('writes every file from the same report, the console one without colour', async () => {
    const report = reportAround([{ checkId: 'status-documented', operationId: 'createPet', title: 't', verdict: 'passed', findings: [], evidence: [] }], [{ id: 'status-documented', family: 'response' }]);
    const files = parseReportFiles([`json=${join(dir, 'r.json')}`, `markdown=${join(dir, 'r.md')}`, `console=${join(dir, 'r.txt')}`]);
    const lines = await writeReportFiles(report, files, {});
    expect(lines).toHaveLength(3);
    expect((JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { defects: unknown[] }).defects).toEqual([]);
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toContain('PASSED');
    expect(readFileSync(join(dir, 'r.txt'), 'utf8')).not.toContain('\x1b');
  });

  it('a file that cannot be written is REPORT_WRITE_FAILED', async () => {
    const report = reportAround([], []);
    await expect(writeReportFiles(report, parseReportFiles([`json=${join(dir, 'no', 'such', 'dir', 'r.json')}`]), {})).rejects.toMatchObject({ code: 'REPORT_WRITE_FAILED' });
  });
});
