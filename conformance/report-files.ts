/**
 * `--report FORMAT=FILE` (repeatable): one run, several report files. A CI
 * job keeps JUnit for the test tab, HTML for people and JSON for tools, and
 * writes Markdown to the job summary; running the suite once per format
 * would double the load on the target and could disagree between runs.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { KitError } from '../src/kit-error.js';
import type { ReportFormat, RunReport } from './model.js';
import { createReporter, isReportFormat, type RedactOptions } from './reporters/index.js';

export interface ReportFile {
  readonly format: ReportFormat;
  readonly file: string;
}

/** `html=report.html` → { format: 'html', file: '/abs/report.html' }; anything else is a USAGE error. */
export function parseReportFiles(values: readonly string[], command = 'conformance'): ReportFile[] {
  return values.map((value) => {
    const eq = value.indexOf('=');
    const format = eq > 0 ? value.slice(0, eq) : '';
    const file = eq > 0 ? value.slice(eq + 1) : '';
    if (!isReportFormat(format) || file === '') {
      throw new KitError('USAGE', `petstore-kit ${command}: --report takes FORMAT=FILE with FORMAT one of console, json, junit, html, markdown (e.g. --report html=conformance.html); got '${value}'.`);
    }
    return { format, file: resolve(file) };
  });
}

/** Writes each report file; the console format is written without colour. Returns one line per file for the console. */
export async function writeReportFiles(report: RunReport, files: readonly ReportFile[], redact: RedactOptions): Promise<string[]> {
  const lines: string[] = [];
  for (const { format, file } of files) {
    const text = createReporter(format, { redact, color: false, quiet: true }).render(report);
    try {
      await writeFile(file, text.endsWith('\n') ? text : `${text}\n`);
    } catch (error) {
      throw new KitError('REPORT_WRITE_FAILED', `cannot write the report to ${file}: ${(error as Error).message}`, { file });
    }
    lines.push(`report written to ${file} (${format})`);
  }
  return lines;
}
