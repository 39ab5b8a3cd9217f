/**
 * `petstore-kit conformance`: flags from the one options table
 * (src/cli/options.ts) → runConformance → a reporter. Exit codes as
 * contract.md fixes them: 0 every check passed, 1 a check failed, 2 the run
 * could not happen (a KitError, reported by src/cli/main.ts on one line).
 * Ctrl-C stops starting checks, cleans up what the run created, reports
 * what it has, and exits 130; a second Ctrl-C exits at once.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { choiceOption, integerOption, parseCommand } from '../src/cli/parse.js';
import { KitError } from '../src/kit-error.js';
import { CHECKS } from './checks/index.js';
import { explainCheck } from './explain.js';
import { parseMinCoverage } from './min-coverage.js';
import { parseReportFiles, writeReportFiles } from './report-files.js';
import type { ReportFormat } from './model.js';
import { createReporter, REPORT_FORMATS } from './reporters/index.js';
import { runConformance } from './runner.js';

export async function runConformanceCommand(argv: readonly string[]): Promise<number> {
  const raw = parseCommand('conformance', argv);
  if (raw['list-checks']) {
    process.stdout.write(`${listChecks()}\n`);
    return 0;
  }
  if (raw.explain !== undefined) {
    process.stdout.write(explainCheck(raw.explain));
    return 0;
  }
  const baseUrl = raw['base-url'];
  if (!baseUrl) throw new KitError('USAGE', 'petstore-kit conformance: --base-url URL is required (the target, e.g. http://127.0.0.1:4010). See petstore-kit conformance --help.');
  const headers = parseHeaders(raw.header ?? []);
  const format: ReportFormat = choiceOption('conformance', 'format', raw.format, REPORT_FORMATS) ?? 'console';
  const reportFiles = parseReportFiles(raw.report ?? []);
  const options = {
    baseUrl,
    ...(raw.spec ? { specPath: raw.spec } : {}),
    headers,
    readOnly: raw['read-only'] === true,
    only: splitList(raw.only),
    skip: splitList(raw.skip),
    timeoutMs: integerOption('conformance', 'timeout', raw.timeout, 1, 600_000) ?? 10_000,
    concurrency: integerOption('conformance', 'concurrency', raw.concurrency, 1, 64) ?? 4,
    rate: integerOption('conformance', 'rate', raw.rate, 0, 100_000) ?? 0,
    seed: integerOption('conformance', 'seed', raw.seed, 0, 2 ** 31 - 1) ?? 1,
    ...(raw.origin ? { origin: raw.origin } : {}),
    ...(raw['min-coverage'] ? { minCoverage: parseMinCoverage(raw['min-coverage']) } : {}),
  };
  const redact = { headerNames: Object.keys(headers), secrets: Object.values(headers) };
  const consoleReporter = createReporter('console', { stream: process.stderr, quiet: raw.quiet === true, redact });

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\ninterrupted: finishing the current check and deleting what the run created (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let report;
  try {
    report = await runConformance({ ...options, signal: controller.signal, ...(consoleReporter.onEvent ? { onEvent: (event) => consoleReporter.onEvent?.(event) } : {}) });
  } finally {
    process.off('SIGINT', onSigint);
  }

  const output = raw.output;
  if (output) {
    const text = format === 'console' ? consoleReporter.render(report) : createReporter(format, { redact }).render(report);
    try {
      await writeFile(resolve(output), text.endsWith('\n') ? text : `${text}\n`);
    } catch (error) {
      throw new KitError('REPORT_WRITE_FAILED', `cannot write the report to ${resolve(output)}: ${(error as Error).message}`, { file: resolve(output) });
    }
    process.stdout.write(`${consoleReporter.render(report)}\n`);
    process.stdout.write(`report written to ${resolve(output)} (${format})\n`);
  } else {
    const text = format === 'console' ? consoleReporter.render(report) : createReporter(format, { redact }).render(report);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  for (const line of await writeReportFiles(report, reportFiles, redact)) process.stdout.write(`${line}\n`);
  if (controller.signal.aborted) return 130;
  return report.summary.failed > 0 ? 1 : 0;
}

/** `--header 'Name: value'`, repeatable. */
function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon > 0 ? value.slice(0, colon).trim() : '';
    if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      // The value may be a secret: the message names the flag, never echoes it.
      throw new KitError('USAGE', "petstore-kit conformance: --header takes 'Name: value' with a valid header name (RFC 9110 §5.1).");
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** `--only a --only b,c` → [a, b, c]. */
function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

function listChecks(): string {
  const width = Math.max(...CHECKS.map((c) => c.id.length));
  const familyWidth = Math.max(...CHECKS.map((c) => c.family.length));
  const lines = CHECKS.map((c) => `${c.id.padEnd(width)}  ${c.family.padEnd(familyWidth)}  ${c.writes ? 'writes' : 'reads '}  ${c.description}`);
  return [`${'id'.padEnd(width)}  ${'family'.padEnd(familyWidth)}  mode    description`, ...lines].join('\n');
}
