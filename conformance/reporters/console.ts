/**
 * The report a person reads in a terminal or a CI log: a progress line while
 * the run goes (on a TTY only), the counts, a "fix first" list of the grouped
 * defects, then results grouped by operation, every defect once with what is
 * needed to act on it (request, status, response excerpt, JSON pointer,
 * expected vs actual, the mutation), skips with their reasons, coverage gaps,
 * cleanup leftovers and one summary line (architecture principle 14).
 */
import { KEPT_BY_REQUEST, type CheckResult, type Exchange, type RunEvent, type RunReport } from '../model.js';
import { redactorFor, type RedactOptions } from './redact.js';
import { neutralise, reportToRender } from './safe-text.js';
import { groupDefects, reasonOf, type Defect } from './defects.js';
import {
  bodyExcerpt,
  clip,
  countsLine,
  countVerdicts,
  coverageGaps,
  exchangeLine,
  formatValue,
  groupByOperation,
  hasGaps,
  headerValue,
  occurrences,
  RUN_WIDE,
  warningLine,
  WARNINGS_LISTED,
  warningsHeading,
  statusGapsByOperation,
  summaryLine,
} from './view.js';

export interface ConsoleReporterOptions {
  /** Where the progress goes; the rendered report is returned, not written. Default: process.stderr. */
  readonly stream?: NodeJS.WritableStream;
  /**
   * Colors in the progress line and the rendered report. Default: the
   * progress line is colored when `stream` is a TTY, the report when stdout
   * (where a report is usually printed) is one; never with NO_COLOR
   * (https://no-color.org). Pass `false` for a report bound for a file.
   */
  readonly color?: boolean;
  /** No progress output at all. */
  readonly quiet?: boolean;
  /** A progress line on `stream`; default: only when both `stream` and stdout are TTYs. */
  readonly progress?: boolean;
  readonly redact?: RedactOptions;
  /** Evidence exchanges shown per failure; more are counted, not printed. */
  readonly maxExchanges?: number;
}

type Paint = (text: string) => string;

interface Palette {
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

function palette(enabled: boolean): Palette {
  const sgr = (open: number, close: number): Paint => (enabled ? (t) => `\x1b[${open}m${t}\x1b[${close}m` : (t) => t);
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

function isTty(stream: NodeJS.WritableStream): boolean {
  return 'isTTY' in stream && stream.isTTY === true;
}

/** NO_COLOR set to any non-empty value turns color off (https://no-color.org). */
export function colorWanted(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return isTty(stream);
}

export function createConsoleReporter(options: ConsoleReporterOptions = {}) {
  const stream = options.stream ?? process.stderr;
  // A progress line only helps a person watching; in a CI log or a pipe it is noise (issue 10, point 9).
  const progress = !options.quiet && (options.progress ?? (isTty(stream) && isTty(process.stdout)));
  const progressPaint = palette(options.color ?? colorWanted(stream));
  const paint = palette(options.color ?? colorWanted(process.stdout));
  const maxExchanges = options.maxExchanges ?? 3;
  let failed = 0;
  let results = 0;
  let lineOpen = false;

  const onEvent = (event: RunEvent): void => {
    if (!progress) return;
    switch (event.type) {
      case 'run-started': {
        failed = 0;
        results = 0;
        const doc = event.meta.document;
        const target = redactorFor({ meta: event.meta }, options.redact).text(event.meta.target);
        stream.write(neutralise(`conformance: ${doc.title} ${doc.version} against ${target} (${event.meta.selectedChecks.length} checks, seed ${event.meta.seed})\n`));
        return;
      }
      case 'check-finished':
        results += 1;
        if (event.result.verdict === 'failed') failed += 1;
        return;
      case 'check-completed': {
        const status = `[${String(event.completed).padStart(String(event.total).length)}/${event.total} checks] ${results} results${failed ? `, ${failed} failed` : ''}`;
        // \x1b[2K clears the previous, possibly longer, line before the carriage return rewrites it.
        stream.write(`\x1b[2K\r${failed ? progressPaint.red(status) : status} ${neutralise(clip(event.checkId, 50))}`);
        lineOpen = true;
        return;
      }
      case 'run-finished':
        if (lineOpen) stream.write('\x1b[2K\r');
        lineOpen = false;
        return;
    }
  };

  const render = (input: RunReport): string => {
    const report = reportToRender(input, options.redact);
    return renderConsole(report, paint, maxExchanges);
  };

  return { onEvent, render };
}

function renderConsole(report: RunReport, paint: Palette, maxExchanges: number): string {
  const out: string[] = [];
  const { meta } = report;
  const defects = groupDefects(report);
  out.push(paint.bold(`${meta.document.title} ${meta.document.version} — conformance of ${meta.target}`));
  out.push(
    paint.dim(
      `document ${meta.document.file} (sha256 ${meta.document.sha256}) · ${meta.kit.name} ${meta.kit.version} · seed ${meta.seed} · started ${meta.startedAt}`,
    ),
  );
  out.push(countsLine(report, defects.length));

  if (defects.length > 0) {
    out.push('', paint.bold(paint.red(`Fix first (${defects.length} defect${defects.length === 1 ? '' : 's'}, most severe first)`)));
    defects.forEach((d, i) => out.push(`  ${String(i + 1).padStart(2)}. ${fixFirstLine(d)}`));
  }
  out.push('');

  for (const group of groupByOperation(report)) {
    const counts = countVerdicts(group.results);
    const mark = counts.failed ? paint.red('✗') : counts.passed ? paint.green('✓') : paint.yellow('-');
    const own = defects.filter((d) => (d.operationId ?? RUN_WIDE) === group.name);
    const tally = [`${counts.passed} passed`, counts.failed ? paint.red(`${counts.failed} failed`) : '', counts.skipped ? `${counts.skipped} skipped` : '', own.length ? paint.red(`${own.length} defect${own.length === 1 ? '' : 's'}`) : '']
      .filter(Boolean)
      .join(', ');
    out.push(`${mark} ${paint.bold(group.name)}  ${paint.dim(tally)}`);
    for (const d of own) out.push(...defectLines(d, report, paint, maxExchanges));
    for (const r of group.results) {
      if (r.verdict === 'skipped') out.push(`    ${paint.yellow('- skipped')} ${r.checkId}: ${r.title}${r.reason ? paint.dim(` — ${r.reason}`) : ''}`);
    }
  }

  const warnings = report.warnings ?? [];
  if (warnings.length) {
    out.push('', paint.bold(paint.yellow(warningsHeading(warnings.length))));
    for (const w of warnings.slice(0, WARNINGS_LISTED)) out.push(`  ${warningLine(w)}`);
    if (warnings.length > WARNINGS_LISTED) out.push(paint.dim(`  … and ${warnings.length - WARNINGS_LISTED} more in the HTML and JSON reports`));
  }

  const gaps = coverageGaps(report);
  if (hasGaps(gaps)) {
    out.push('', paint.bold('Coverage gaps'));
    if (gaps.operations.length) out.push(`  operations never exercised: ${gaps.operations.join(', ')}`);
    const statusGaps = statusGapsByOperation(report);
    if (statusGaps.everywhere.length) out.push(`  status ${statusGaps.everywhere.join(', ')} never observed on any operation that documents it`);
    for (const { operationId, statuses } of statusGaps.byOperation) out.push(`  ${operationId}: status ${statuses.join(', ')} never observed`);
    if (gaps.petStatusesNeverSent.length) out.push(`  PetStatus values never sent: ${gaps.petStatusesNeverSent.join(', ')}`);
    if (gaps.petStatusesNeverObserved.length) out.push(`  PetStatus values never observed: ${gaps.petStatusesNeverObserved.join(', ')}`);
  }

  const { cleanup } = report;
  const kept = cleanup.leftBehind.filter((l) => l.reason === KEPT_BY_REQUEST).length;
  if (kept > 0 && kept === cleanup.leftBehind.length) {
    // Asked for: one line, not hundreds (the JSON and HTML reports list each record).
    out.push('', paint.dim(`Cleanup: skipped (--no-cleanup); ${kept} record${kept === 1 ? '' : 's'} the run created ${kept === 1 ? 'is' : 'are'} left on the target.`));
  } else if (cleanup.leftBehind.length) {
    out.push('', paint.bold(paint.yellow(`Cleanup: ${cleanup.deleted} deleted, ${cleanup.leftBehind.length} left behind${leftBehindWhy(cleanup.leftBehind)}`)));
    for (const l of cleanup.leftBehind) out.push(`  ${l.resource} ${l.url}: ${l.reason}`);
  } else if (cleanup.deleted) {
    out.push('', paint.dim(`Cleanup: ${cleanup.deleted} records the run created were deleted.`));
  }

  const line = summaryLine(report, defects.length);
  out.push('', report.summary.failed ? paint.red(paint.bold(line)) : paint.green(paint.bold(line)));
  return `${out.join('\n')}\n`;
}

/**
 * Why records stayed, in two kinds: those the target refused to delete with a 409 (its state rules keep them: the
 * Pet Store contract keeps complete orders, which cannot be cancelled, so deleting them by hand is refused as
 * well), and the others, which a person may delete. Regression (issue 23, point 6): it said "delete them by hand"
 * of complete orders too.
 */
function leftBehindWhy(leftBehind: readonly { readonly reason: string }[]): string {
  const kept = leftBehind.filter((l) => / answered 409\b/.test(l.reason)).length;
  const others = leftBehind.length - kept;
  const parts = [
    kept ? `${kept} kept by the target's state rules (it answered 409; the contract keeps complete orders: they cannot be cancelled or deleted)` : '',
    others ? `${others} to delete by hand` : '',
  ].filter(Boolean);
  return `: ${parts.join('; ')}`;
}

/** One line of the "fix first" list: severity, check, operation, reason, how often. */
export function fixFirstLine(d: Defect): string {
  const followed = d.consequences && d.consequences.length > 0 ? `, and ${d.consequences.length} failure${d.consequences.length === 1 ? '' : 's'} of other checks that follow from it` : '';
  return `[${d.severity}] ${d.checkId} on ${d.operationId ?? RUN_WIDE}: ${clip(d.reason, 160)} (${d.exchanges} exchange${d.exchanges === 1 ? '' : 's'}${followed})`;
}

function defectLines(d: Defect, report: RunReport, paint: Palette, maxExchanges: number): string[] {
  const r = report.results[d.results[0]!]!;
  const lines = [`    ${paint.red('✗ failed')} ${paint.bold(r.checkId)} ${paint.dim(`[${d.severity}]`)}: ${r.title}`];
  lines.push(`      ${reasonOf(r)}`);
  lines.push(paint.dim(`      ${occurrences(d)}`));
  if (r.mutation) lines.push(`      mutation: ${r.mutation.kind} at ${r.mutation.pointer || '(the whole body)'} — ${r.mutation.description}`);
  for (const f of r.findings) {
    lines.push(`      at ${paint.bold(f.pointer)} ${paint.dim(`(${f.keyword})`)} ${f.message}`);
    if ('expected' in f) lines.push(`        expected: ${paint.green(formatValue(f.expected))}`);
    if ('actual' in f) lines.push(`        actual:   ${paint.red(formatValue(f.actual))}`);
  }
  // The exchanges before the one that broke the rule (a workflow's earlier steps), one line each; then that one in full.
  const culprit = d.exchange;
  const before = culprit ? r.evidence.slice(0, r.evidence.indexOf(culprit)) : [];
  if (before.length > 0) {
    lines.push(paint.dim(`      after ${before.length} exchange${before.length === 1 ? '' : 's'}:`));
    for (const ex of before.slice(-maxExchanges)) lines.push(paint.dim(`        ${exchangeLine(ex)}`));
    if (before.length > maxExchanges) lines.push(paint.dim(`        (${before.length - maxExchanges} earlier ones in the JSON report)`));
  }
  if (culprit) lines.push(...exchangeLines(culprit, paint));
  if (d.curl) lines.push(`      reproduce: ${d.curl}`);
  return lines;
}
function exchangeLines(ex: Exchange, paint: Palette): string[] {
  const lines = [`      ${exchangeLine(ex)}`];
  if (ex.request.body !== undefined && ex.request.body !== '') lines.push(paint.dim(`        sent: ${clip(oneLine(ex.request.body), 200)}`));
  const body = bodyExcerpt(ex, 300, 6);
  if (body !== undefined) {
    const contentType = ex.response ? headerValue(ex.response.headers, 'content-type') : undefined;
    lines.push(paint.dim(`        got${contentType ? ` (${contentType})` : ''}:`));
    for (const line of body.split('\n')) lines.push(paint.dim(`          ${line}`));
  }
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}
