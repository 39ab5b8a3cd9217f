/**
 * `petstore-kit conformance`: flags from the one options table
 * (src/cli/options.ts) → runConformance → a reporter. Exit codes as
 * contract.md fixes them: 0 every check passed, 1 a check failed, 2 the run
 * could not happen (a KitError, reported by src/cli/main.ts on one line).
 * Ctrl-C (SIGINT) or SIGTERM stops starting checks, cleans up what the run
 * created, reports what it has, and exits 130 or 143; the same signal again
 * exits at once. A run that cannot happen still writes its --output report,
 * saying why (reporters/could-not-run.ts).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { choiceOption, generationBudgetOption, integerOption, parseCommand, type RawOptions } from '../src/cli/parse.js';
import { isKitError, KitError } from '../src/kit-error.js';
import { CHECKS } from './checks/index.js';
import { explainCheck } from './explain.js';
import { parseMinCoverage } from './min-coverage.js';
import { parseReportFiles, writeReportFiles, type ReportFile } from './report-files.js';
import type { ReportFormat, RunReport } from './model.js';
import { renderCouldNotRun } from './reporters/could-not-run.js';
import { neutralise } from './reporters/safe-text.js';
import { createReporter, isReportFormat, REPORT_FORMATS, type RedactOptions } from './reporters/index.js';
import { MAX_REQUESTS_PER_RUN } from './http.js';
import { NOT_RUN_PREFIX } from './context.js';
import { MAX_PROBED_BODY_BYTES } from './checks/payload-too-large-413.js';
import { runConformance } from './runner.js';
import { parseShard } from './shard.js';

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
  // Known from here on: whatever stops the run now (exit 2), the report file still says why.
  const output = raw.output;
  const requested = raw.format;
  const reportFormat: ReportFormat = requested !== undefined && isReportFormat(requested) ? requested : 'console';
  let redact: RedactOptions = {};
  try {
    const headers = parseHeaders(raw.header ?? []);
    redact = { headerNames: Object.keys(headers), secrets: Object.values(headers) };
    return await run(raw, headers, redact);
  } catch (error) {
    if (isKitError(error) && error.code !== 'REPORT_WRITE_FAILED') {
      const failure = { code: error.code, message: error.message, at: new Date(), ...(raw['base-url'] ? { target: raw['base-url'] } : {}) };
      if (output) {
        await writeReport(output, renderCouldNotRun(reportFormat, failure, redact));
        process.stderr.write(`report written to ${resolve(output)} (${reportFormat}): the run could not happen\n`);
      }
      // Every --report file too: a CI job that keeps them as artifacts must find them saying why (issue 10, point 5).
      for (const { format, file } of reportFilesOrNone(raw.report)) {
        await writeReport(file, renderCouldNotRun(format, failure, redact));
        process.stderr.write(`report written to ${file} (${format}): the run could not happen\n`);
      }
      // The message may quote the document (a $ref, an operationId): src/cli/main.ts prints it on a terminal.
      throw new KitError(error.code, neutralise(error.message), error.details);
    }
    throw error;
  }
}

/** The --report files, or none when the flag itself is what was wrong. */
function reportFilesOrNone(values: readonly string[] | undefined): ReportFile[] {
  try {
    return parseReportFiles(values ?? []);
  } catch {
    return [];
  }
}

/** The signals that stop a run the same way: SIGINT (Ctrl-C) and SIGTERM (CI cancelling a job, `kill`), with their numbers for the exit code 128+n. */
const STOP_SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

async function run(raw: RawOptions<'conformance'>, headers: Record<string, string>, redact: RedactOptions): Promise<number> {
  const baseUrl = raw['base-url'];
  if (!baseUrl) throw new KitError('USAGE', 'petstore-kit conformance: --base-url URL is required (the target, e.g. http://127.0.0.1:4010). See petstore-kit conformance --help.');
  const format: ReportFormat = choiceOption('conformance', 'format', raw.format, REPORT_FORMATS) ?? 'console';
  const reportFiles = parseReportFiles(raw.report ?? []);
  const options = {
    baseUrl,
    ...(raw.spec ? { specPath: raw.spec } : {}),
    ...(raw['allow-refs'] ? { allowRefs: raw['allow-refs'] } : {}),
    ...(raw.strict === true ? { strictSchema: true } : {}),
    headers,
    readOnly: raw['read-only'] === true,
    ...(raw['fail-fast'] === true ? { failFast: true } : {}),
    ...(raw['no-cleanup'] === true ? { cleanup: false } : {}),
    only: splitList(raw.only),
    skip: splitList(raw.skip),
    timeoutMs: integerOption('conformance', 'timeout', raw.timeout, 1, 600_000) ?? 10_000,
    concurrency: integerOption('conformance', 'concurrency', raw.concurrency, 1, 64) ?? 4,
    rate: integerOption('conformance', 'rate', raw.rate, 0, 100_000) ?? 0,
    maxRequests: integerOption('conformance', 'max-requests', raw['max-requests'], 1, 10_000_000) ?? MAX_REQUESTS_PER_RUN,
    ...(raw['max-body-bytes'] ? { bodyLimitBytes: integerOption('conformance', 'max-body-bytes', raw['max-body-bytes'], 1, MAX_PROBED_BODY_BYTES) } : {}),
    seed: integerOption('conformance', 'seed', raw.seed, 0, 2 ** 31 - 1) ?? 1,
    ...(raw.origin ? { origin: raw.origin } : {}),
    ...(raw['min-coverage'] ? { minCoverage: parseMinCoverage(raw['min-coverage']) } : {}),
    ...(raw.shard !== undefined ? { shard: parseShard(raw.shard) } : {}),
    ...(raw['generation-budget'] ? { generationBudget: generationBudgetOption('conformance', raw['generation-budget']) } : {}),
  };
  const consoleReporter = createReporter('console', { stream: process.stderr, quiet: raw.quiet === true, redact });

  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const onSignal = (signal: StopSignal): void => {
    if (controller.signal.aborted) process.exit(128 + STOP_SIGNALS[signal]);
    stoppedBy = signal;
    process.stderr.write(`\ninterrupted (${signal}): finishing the current check and deleting what the run created (send it again to quit at once)\n`);
    controller.abort();
  };
  const listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((signal) => [signal, () => onSignal(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  let report;
  try {
    report = await runConformance({ ...options, signal: controller.signal, ...(consoleReporter.onEvent ? { onEvent: (event) => consoleReporter.onEvent?.(event) } : {}) });
  } finally {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  }

  const text = format === 'console' ? consoleReporter.render(report) : createReporter(format, { redact }).render(report);
  const output = raw.output;
  if (output) {
    await writeReport(output, text);
    process.stdout.write(`${consoleReporter.render(report)}\n`);
    process.stdout.write(`report written to ${resolve(output)} (${format})\n`);
  } else {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  for (const line of await writeReportFiles(report, reportFiles, redact)) process.stdout.write(`${line}\n`);
  if (stoppedBy) return 128 + STOP_SIGNALS[stoppedBy];
  return exitCodeOf(report);
}

/** 1 when a check failed; 2 when the request budget left checks unrun (incomplete, not a pass: issue 21, point 3); else 0. */
export function exitCodeOf(report: RunReport): number {
  if (report.summary.failed > 0) return 1;
  return report.results.some((r) => r.verdict === 'skipped' && r.reason?.startsWith(NOT_RUN_PREFIX)) ? 2 : 0;
}

export async function writeReport(output: string, text: string): Promise<void> {
  try {
    await writeFile(resolve(output), text.endsWith('\n') ? text : `${text}\n`);
  } catch (error) {
    throw new KitError('REPORT_WRITE_FAILED', `cannot write the report to ${resolve(output)}: ${(error as Error).message}`, { file: resolve(output) });
  }
}

/** `--header 'Name: value'`, repeatable (the proxy's --header too). */
export function parseHeaders(values: readonly string[], command: 'conformance' | 'proxy' = 'conformance'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon > 0 ? value.slice(0, colon).trim() : '';
    if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      // The value may be a secret: the message names the flag, never echoes it.
      throw new KitError('USAGE', `petstore-kit ${command}: --header takes 'Name: value' with a valid header name (RFC 9110 §5.1).`);
    }
    const headerValue = value.slice(colon + 1).trim();
    // RFC 9110 §5.5: a field value is visible ASCII, space and tab (obs-text is obsolete, and undici refuses much of it
    // later as if the target were unreachable); a CR or LF would end the field and start another (RFC 9112 §2.2).
    // Refused here as the usage error it is, before anything is sent, naming the header and never the value.
    if (!/^[\t\x20-\x7e]*$/.test(headerValue)) {
      const kind = /[\r\n]/.test(headerValue) ? 'a CR or LF' : /[^\x00-\x7f]/.test(headerValue) ? 'a non-ASCII character' : 'a control character';
      throw new KitError('USAGE', `petstore-kit ${command}: the --header value of ${name} holds ${kind}; a header value takes visible ASCII, spaces and tabs only (RFC 9110 §5.5). The value is not shown.`);
    }
    headers[name] = headerValue;
  }
  return headers;
}

/** `--only a --only b,c` → [a, b, c]. */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

function listChecks(): string {
  const width = Math.max(...CHECKS.map((c) => c.id.length));
  const familyWidth = Math.max(...CHECKS.map((c) => c.family.length));
  const lines = CHECKS.map((c) => `${c.id.padEnd(width)}  ${c.family.padEnd(familyWidth)}  ${c.writes ? 'writes' : 'reads '}  ${c.description}`);
  return [`${'id'.padEnd(width)}  ${'family'.padEnd(familyWidth)}  mode    description`, ...lines].join('\n');
}
