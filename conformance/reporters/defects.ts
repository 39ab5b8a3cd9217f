/**
 * One defect, one entry (issue 10, point 1): failures of the same check on
 * the same operation for the same reason, once ids, generated values and
 * numbers are taken out of the reason, are one defect. Every reporter groups
 * through here (console, HTML, JUnit, Markdown and the JSON report's
 * `defects`), so they can never disagree about what "one defect" is; the
 * runner uses the same normalization to fold the failures of its passive
 * checks.
 */
import type { CheckResult, Exchange, Finding, RunReport } from '../model.js';
import { curlLine } from './curl.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/**
 * How much a defect hurts a client, for the "fix first" order: a crash or a
 * broken state rule loses data; a wrong answer breaks the client that reads
 * it; a wrong error or a lax validation misleads it; deprecation and CORS
 * headers matter to fewer clients.
 */
const SEVERITY_BY_CHECK: Readonly<Record<string, Severity>> = { 'no-server-error': 'critical', 'prototype-keys': 'critical', 'min-coverage': 'high' };
const SEVERITY_BY_FAMILY: Readonly<Record<string, Severity>> = {
  workflow: 'critical',
  stateful: 'critical',
  response: 'high',
  errors: 'medium',
  negative: 'medium',
  routing: 'medium',
  deprecation: 'low',
  cors: 'low',
};

export function severityOf(checkId: string, family: string): Severity {
  return SEVERITY_BY_CHECK[checkId] ?? SEVERITY_BY_FAMILY[family] ?? 'medium';
}

/** A defect as the JSON report's `defects` carries it, and as every reporter shows it. */
export interface Defect {
  readonly checkId: string;
  readonly operationId?: string;
  readonly family: string;
  readonly severity: Severity;
  /**
   * The first failure's reason in its own words, values and all (`Sunset: 2027-06-30T23:59:59Z is not an
   * IMF-fixdate`): what a person reads to fix it. Grouping uses `group` instead (issue 19, point 3).
   */
  readonly reason: string;
  /** The reason with ids, generated values and numbers taken out: what makes two failures one defect. */
  readonly group: string;
  /** How many exchanges showed it (the listed results and those only counted). */
  readonly exchanges: number;
  /** Indices into the report's `results` of the failures it groups, the first one first. */
  readonly results: readonly number[];
  /** The first failure: what was tried, its findings, and the exchange that broke the rule, in full. */
  readonly title: string;
  readonly findings: readonly Finding[];
  readonly exchange?: Exchange;
  /** True when the failure was run again on fresh records and reproduced (conformance/recheck.ts). */
  readonly rechecked?: boolean;
  /** Indices into `results` of failures of other checks that read an answer this defect broke: its consequences, not defects of their own. */
  readonly consequences?: readonly number[];
  /** The exchange as a curl command; redacted header values are `$PETSTORE_HEADER_<NAME>` variables. */
  readonly curl?: string;
}

/** A three-digit number from 100 to 599 is taken for an HTTP status (part of what a defect is) unless it follows one of these words: then it is an id or a count. */
const VALUE_CONTEXT = /(?:id|ids|pet|order|category|item|offset|limit|quantity|count|total|is|of|was|=)\s*$/i;

/**
 * The reason with what changes from one exchange to the next taken out:
 * quoted values (generated names, echoed input) become "…", ids in paths
 * and query strings {id}, the run's generated tokens {generated}, and other
 * numbers N, while HTTP statuses stay, since "answered 200" and "answered
 * 500" are different defects.
 */
export function normalizeReason(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\bpk[0-9a-z]{9}[-\w.]*/g, '{generated}')
    .replace(/\/\d+(?=[/?#\s,;:)\]]|$)/g, '/{id}')
    .replace(/([?&][\w.-]+)=[^&\s;)]*?(?=[&\s;)]|:\s|:$|$)/g, '$1={value}')
    .replace(/-?\b\d+(?:\.\d+)?\b/g, (match, offset: number, whole: string) =>
      /^[1-5]\d\d$/.test(match) && !VALUE_CONTEXT.test(whole.slice(Math.max(0, offset - 12), offset)) ? match : 'N',
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a failure says about itself, before normalization. */
export function reasonOf(result: CheckResult): string {
  return result.reason ?? result.findings[0]?.message ?? result.title;
}

/**
 * The exchange of a failure that broke the rule: the one `failedAt` names;
 * else the last one whose answer shows the first finding (the status or the
 * header value it names as actual), since a check may read again after the
 * answer that broke the rule (negative-body looks whether anything changed);
 * else the last one.
 */
export function failingExchange(result: CheckResult): Exchange | undefined {
  if (result.failedAt !== undefined && result.evidence[result.failedAt]) return result.evidence[result.failedAt];
  const finding = result.findings[0];
  if (finding && 'actual' in finding) {
    const header = /^\/header\/(.+)$/.exec(finding.pointer)?.[1]?.toLowerCase();
    const shows = (ex: Exchange): boolean => {
      if (!ex.response) return false;
      if (finding.pointer === '/status') return ex.response.status === finding.actual;
      if (header === undefined) return false;
      const value = Object.entries(ex.response.headers).find(([name]) => name.toLowerCase() === header)?.[1];
      return value !== undefined && finding.actual !== undefined && finding.actual !== null && value === String(finding.actual);
    };
    const match = result.evidence.findLast(shows);
    if (match) return match;
  }
  return result.evidence.at(-1);
}

/** The grouping key of one failure. */
export function defectKey(checkId: string, operationId: string | undefined, reason: string): string {
  return JSON.stringify([checkId, operationId ?? '', normalizeReason(reason)]);
}

/** The report's failures as defects, most severe first, then the most frequent, then in report order. */
export function groupDefects(report: Pick<RunReport, 'meta' | 'results'>): Defect[] {
  const families = new Map(report.meta.checks.map((c) => [c.id, c.family]));
  const family = (checkId: string): string => families.get(checkId) ?? 'other';
  const groups = new Map<string, number[]>();
  // A failure filed as the consequence of a cause the report holds goes under that cause (issue 19, point 3).
  const causes = new Set(report.results.filter((r) => r.verdict === 'failed').map((r) => JSON.stringify([r.checkId, r.operationId ?? ''])));
  const causeKey = (r: CheckResult): string | undefined => {
    const key = r.consequenceOf ? JSON.stringify([r.consequenceOf.checkId, r.consequenceOf.operationId ?? '']) : undefined;
    return key !== undefined && causes.has(key) ? key : undefined;
  };
  const consequences = new Map<string, number[]>();
  report.results.forEach((r, index) => {
    if (r.verdict !== 'failed') return;
    const cause = causeKey(r);
    if (cause !== undefined) {
      const list = consequences.get(cause);
      if (list) list.push(index);
      else consequences.set(cause, [index]);
      return;
    }
    const key = defectKey(r.checkId, r.operationId, reasonOf(r));
    const list = groups.get(key);
    if (list) list.push(index);
    else groups.set(key, [index]);
  });
  const claimed = new Set<string>();
  const defects = [...groups.values()].map((indices): Defect => {
    const first = report.results[indices[0]!]!;
    const exchange = failingExchange(first);
    const fam = family(first.checkId);
    const pair = JSON.stringify([first.checkId, first.operationId ?? '']);
    // The consequences go to the first defect of their cause's (check, operation): one entry holds them.
    const followers = claimed.has(pair) ? undefined : consequences.get(pair);
    claimed.add(pair);
    return {
      checkId: first.checkId,
      ...(first.operationId !== undefined ? { operationId: first.operationId } : {}),
      family: fam,
      // A cause is as severe as the worst of what followed from it (a string id that breaks every state rule is critical).
      severity: SEVERITIES[Math.min(...[first, ...(followers ?? []).map((i) => report.results[i]!)].map((r) => SEVERITIES.indexOf(severityOf(r.checkId, family(r.checkId)))))]!,
      reason: reasonOf(first),
      group: normalizeReason(reasonOf(first)),
      exchanges: indices.reduce((sum, i) => sum + 1 + (report.results[i]!.alike ?? 0), 0),
      results: indices,
      title: first.title,
      findings: first.findings,
      ...(first.rechecked ? { rechecked: true } : {}),
      ...(followers ? { consequences: followers } : {}),
      ...(exchange ? { exchange, curl: curlLine(exchange) } : {}),
    };
  });
  const rank = (d: Defect): number => SEVERITIES.indexOf(d.severity) - (d.consequences && d.consequences.length > 0 ? 0.5 : 0);
  return defects.sort((a, b) => rank(a) - rank(b) || b.exchanges - a.exchanges || a.results[0]! - b.results[0]!);
}

/** A (check, operation) pair: the unit of a JUnit testcase and of the per-operation lists. */
export interface CheckOnOperation {
  readonly checkId: string;
  readonly operationId?: string;
  readonly results: readonly CheckResult[];
  readonly defects: readonly Defect[];
  readonly verdict: CheckResult['verdict'];
}

/** Results by (check, operation), in report order, each with its defects; failed if any result failed, passed if any passed, else skipped. */
export function byCheckAndOperation(report: Pick<RunReport, 'meta' | 'results'>, defects: readonly Defect[] = groupDefects(report)): CheckOnOperation[] {
  const pairs = new Map<string, { checkId: string; operationId?: string; results: CheckResult[] }>();
  for (const r of report.results) {
    const key = JSON.stringify([r.checkId, r.operationId ?? '']);
    const pair = pairs.get(key);
    if (pair) pair.results.push(r);
    else pairs.set(key, { checkId: r.checkId, ...(r.operationId !== undefined ? { operationId: r.operationId } : {}), results: [r] });
  }
  return [...pairs.values()].map((pair) => {
    const own = defects.filter((d) => d.checkId === pair.checkId && d.operationId === pair.operationId);
    const verdict = pair.results.some((r) => r.verdict === 'failed') ? 'failed' : pair.results.some((r) => r.verdict === 'passed') ? 'passed' : 'skipped';
    return { ...pair, defects: own, verdict };
  });
}
