/**
 * What every human- or CI-facing reporter derives the same way from a
 * RunReport: grouping by operation, check families, coverage gaps and short
 * text forms of values and exchanges. One place, so console, JUnit and HTML
 * never disagree about a count. They work on a report already made safe
 * (safe-text.ts: every string neutralised), so nothing here escapes.
 */
import { NOT_RUN_PREFIX, type CheckResult, type Exchange, type RunReport } from '../model.js';
import { groupDefects, reasonOf, type Defect } from './defects.js';

/** Results that belong to no operation (an unknown path, a run-wide workflow) are grouped under this name. */
export const RUN_WIDE = '(no operation)';

export interface OperationGroup {
  readonly name: string;
  readonly operationId?: string;
  readonly results: readonly CheckResult[];
}

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

export function countVerdicts(results: readonly CheckResult[]): Counts {
  const counts: Counts = { total: 0, passed: 0, failed: 0, skipped: 0 };
  for (const r of results) {
    counts.total += 1;
    counts[r.verdict] += 1;
  }
  return counts;
}

/** checkId → family, from the run's own check list; a check the list lacks is in family "other". */
export function familyLookup(report: Pick<RunReport, 'meta'>): (checkId: string) => string {
  const families = new Map(report.meta.checks.map((c) => [c.id, c.family]));
  return (checkId) => families.get(checkId) ?? 'other';
}

/** The families in the order the run's check list names them, then any other family seen in the results. */
export function familiesOf(report: RunReport): string[] {
  const family = familyLookup(report);
  const seen = new Set<string>(report.meta.checks.map((c) => c.family));
  for (const r of report.results) seen.add(family(r.checkId));
  return [...seen];
}

/** Operations in the document's order (coverage lists them all), then operations only results name, then the run-wide group. */
export function groupByOperation(report: RunReport): OperationGroup[] {
  const byOperation = new Map<string, CheckResult[]>();
  const runWide: CheckResult[] = [];
  for (const r of report.results) {
    if (r.operationId === undefined) {
      runWide.push(r);
      continue;
    }
    const list = byOperation.get(r.operationId);
    if (list) list.push(r);
    else byOperation.set(r.operationId, [r]);
  }
  const order = report.coverage.operations.map((o) => o.operationId);
  for (const id of [...byOperation.keys()].sort()) if (!order.includes(id)) order.push(id);
  const groups: OperationGroup[] = [];
  for (const id of order) {
    const results = byOperation.get(id);
    if (results) groups.push({ name: id, operationId: id, results });
  }
  if (runWide.length > 0) groups.push({ name: RUN_WIDE, results: runWide });
  return groups;
}

export interface CoverageGaps {
  readonly operations: readonly string[];
  readonly statuses: readonly { readonly operationId: string; readonly status: string }[];
  readonly petStatusesNeverSent: readonly string[];
  readonly petStatusesNeverObserved: readonly string[];
}

export function coverageGaps(report: RunReport): CoverageGaps {
  const c = report.coverage;
  return {
    operations: c.operations.filter((o) => !o.exercised).map((o) => o.operationId),
    statuses: c.statuses.filter((s) => !s.observed).map((s) => ({ operationId: s.operationId, status: s.status })),
    petStatusesNeverSent: c.petStatuses.filter((p) => !p.sent).map((p) => p.value),
    petStatusesNeverObserved: c.petStatuses.filter((p) => !p.observed).map((p) => p.value),
  };
}

export function hasGaps(gaps: CoverageGaps): boolean {
  return gaps.operations.length + gaps.statuses.length + gaps.petStatusesNeverSent.length + gaps.petStatusesNeverObserved.length > 0;
}

/**
 * Unobserved statuses, folded for reading: a status no operation was ever
 * seen answering (406, 413, 500 are typical: the runner rarely provokes them)
 * is named once, and each operation lists only the rest.
 */
export function statusGapsByOperation(report: RunReport): { everywhere: string[]; byOperation: { operationId: string; statuses: string[] }[] } {
  const documentedBy = new Map<string, number>();
  const missingFrom = new Map<string, number>();
  for (const s of report.coverage.statuses) {
    documentedBy.set(s.status, (documentedBy.get(s.status) ?? 0) + 1);
    if (!s.observed) missingFrom.set(s.status, (missingFrom.get(s.status) ?? 0) + 1);
  }
  const everywhere = [...missingFrom].filter(([status, n]) => n > 1 && n === documentedBy.get(status)).map(([status]) => status);
  const map = new Map<string, string[]>();
  for (const { operationId, status, observed } of report.coverage.statuses) {
    if (observed || everywhere.includes(status)) continue;
    const list = map.get(operationId);
    if (list) list.push(status);
    else map.set(operationId, [status]);
  }
  return { everywhere: everywhere.sort(), byOperation: [...map].map(([operationId, statuses]) => ({ operationId, statuses })) };
}

/** A value for one line of text: JSON, cut so a huge `actual` cannot flood a report. */
export function formatValue(value: unknown, max = 200): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return clip(text, max);
}

/** A header's value whatever case the recorder kept the name in (HTTP names are case-insensitive, RFC 9110 section 5.1). */
export function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** "POST http://host/pets → 201 (12 ms)", or the reason there was no response. */
export function exchangeLine(ex: Exchange): string {
  const request = `${ex.request.method} ${ex.request.url}`;
  const time = `${Math.round(ex.durationMs)} ms`;
  if (ex.response) return `${request} → ${ex.response.status} (${time})`;
  if (ex.error) return `${request} → no response: ${ex.error.code}: ${ex.error.message} (${time})`;
  return `${request} → no response (${time})`;
}

/** The start of a response body for a report: at most `maxLines` lines and `maxChars` characters. */
export function bodyExcerpt(ex: Exchange, maxChars = 400, maxLines = 8): string | undefined {
  const response = ex.response;
  if (!response || response.bodyExcerpt === '') return undefined;
  let text = response.bodyExcerpt;
  const lines = text.split(/\r?\n/);
  if (lines.length > maxLines) text = `${lines.slice(0, maxLines).join('\n')}\n…`;
  text = clip(text, maxChars);
  if (response.truncated) text += `\n… (body cut at the runner's cap; ${response.bodyBytes} bytes read)`;
  return text;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '?';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The counts of a run, the same words in the console's header and footer and the HTML banner. */
export function countsLine(report: Pick<RunReport, 'summary' | 'meta'>, defects: number): string {
  const s = report.summary;
  const checks = report.meta.selectedChecks.length;
  return `${defects} defect${defects === 1 ? '' : 's'} · ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${s.total} results of ${checks} checks, ${s.exchanges} requests)`;
}

export function summaryLine(report: RunReport, defects: number = groupDefects(report).length): string {
  const unrun = report.results.filter((r) => r.verdict === 'skipped' && r.reason?.startsWith(NOT_RUN_PREFIX)).length;
  const incomplete = unrun > 0 ? ` · INCOMPLETE: ${unrun} not run, the run reached its request budget (raise it with --max-requests)` : '';
  return `${countsLine(report, defects)} in ${formatDuration(report.meta.durationMs)}${incomplete}`;
}

/** The words that say how often a defect showed: "1 exchange" or "12 exchanges (the first shown; all in the JSON report)". */
export function occurrences(defect: Defect): string {
  const shown = defect.exchanges === 1 ? 'shown by 1 exchange' : `shown by ${defect.exchanges} exchanges (the first here; every one in the JSON report)`;
  const followed = defect.consequences && defect.consequences.length > 0 ? `; ${defect.consequences.length} failure${defect.consequences.length === 1 ? '' : 's'} of other checks read that answer and follow from it (grouped here)` : '';
  return `${defect.rechecked ? `${shown}; re-checked on fresh records, and it reproduced` : shown}${followed}`;
}

/** A plain-text block for one defect: why it failed, where, the exchange that broke the rule and the curl to replay it. Used by JUnit. */
export function defectText(defect: Defect, report: Pick<RunReport, 'results'>): string {
  const first = report.results[defect.results[0]!]!;
  const lines: string[] = [`[${defect.severity}] ${reasonOf(first)}`, occurrences(defect)];
  if (first.mutation) lines.push(`mutation: ${first.mutation.kind} at ${first.mutation.pointer || '(the whole body)'}: ${first.mutation.description}`);
  for (const f of first.findings) {
    lines.push(`at ${f.pointer} (${f.keyword}): ${f.message}`);
    if ('expected' in f) lines.push(`  expected: ${formatValue(f.expected)}`);
    if ('actual' in f) lines.push(`  actual:   ${formatValue(f.actual)}`);
  }
  const ex = defect.exchange;
  if (ex) {
    lines.push(exchangeLine(ex));
    if (ex.request.body !== undefined && ex.request.body !== '') lines.push(`  request body: ${clip(ex.request.body, 400)}`);
    const body = bodyExcerpt(ex);
    if (body !== undefined) lines.push(`  response body: ${body}`);
  }
  if (defect.curl) lines.push(`reproduce: ${defect.curl}`);
  return lines.join('\n');
}

/** How many of the document's warnings the console and Markdown list; the HTML and JSON reports hold them all. */
export const WARNINGS_LISTED = 5;

/** One warning of the document in a line: where, what, and what went unchecked. */
export function warningLine(w: NonNullable<RunReport['warnings']>[number]): string {
  return `${w.pointer}: ${clip(w.message, 160)} (skipped: ${clip(w.skipped, 160)})`;
}

/** The heading of the warnings list: `3 warnings about the document (the run went without what they name)`. */
export function warningsHeading(count: number): string {
  return `${count} warning${count === 1 ? '' : 's'} about the document: parts the runner could not use, so the checks named went without them`;
}
