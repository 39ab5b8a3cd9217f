/**
 * `petstore-kit merge-reports SHARD.json... [--format F] [--output FILE] [--report FORMAT=FILE]`: the JSON reports of
 * a run split with `--shard K/N` (one per machine of a CI matrix) joined into one report, in every format the runner
 * writes, exiting as the single run would have (merge.ts): 0 passed, 1 a check failed, 2 incomplete or unreadable.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { choiceOption, parseCommandLine } from '../src/cli/parse.js';
import { KitError } from '../src/kit-error.js';
import { exitCodeOf, writeReport } from './cli.js';
import { mergeShardReports, readShardReport } from './merge.js';
import type { ReportFormat } from './model.js';
import { parseReportFiles, writeReportFiles } from './report-files.js';
import { createReporter, REPORT_FORMATS } from './reporters/index.js';

/** A report is the runner's own output; one past this size is not one (every file the kit reads has a cap: issue 31). */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

export async function runMergeReportsCommand(argv: readonly string[]): Promise<number> {
  const { values: raw, operands: files } = parseCommandLine('merge-reports', argv);
  const format: ReportFormat = choiceOption('merge-reports', 'format', raw.format, REPORT_FORMATS) ?? 'console';
  const reportFiles = parseReportFiles(raw.report ?? [], 'merge-reports');
  const inputs = [];
  for (const file of files) inputs.push({ file, report: readShardReport(await readCapped(file), file) });
  const report = mergeShardReports(inputs);
  // The shards' reports were redacted when written: nothing secret is left to redact.
  const consoleText = createReporter('console', { quiet: true }).render(report);
  const text = format === 'console' ? consoleText : createReporter(format, {}).render(report);
  if (raw.output) {
    await writeReport(raw.output, text);
    process.stdout.write(`${consoleText}\nreport written to ${resolve(raw.output)} (${format})\n`);
  } else {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  for (const line of await writeReportFiles(report, reportFiles, {})) process.stdout.write(`${line}\n`);
  return exitCodeOf(report);
}

async function readCapped(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new KitError('REPORT_UNREADABLE', `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, { file });
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_REPORT_BYTES) throw new KitError('REPORT_UNREADABLE', `${file} has ${size} bytes, more than a report of this kit (${MAX_REPORT_BYTES} at most).`, { file });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
