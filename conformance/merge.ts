/**
 * `petstore-kit merge-reports` (issue 33, point 6): the JSON reports of one run split with `--shard K/N` joined into
 * the report a single run would have written, in any format, with the same verdicts and exit code.
 *
 * How each part joins, and why it gives a single run's verdicts:
 * - A check's cases belong to their subject operation, which is in exactly one shard (shard.ts): those results are
 *   taken as they are.
 * - The passive checks (those that judge every answer: `response-schema`, `status-documented`, …) judged, in each
 *   shard, the answers of every operation the shard's requests reached. Per check and operation: failed when any
 *   shard failed it (each reason's listed exchanges kept up to the runner's cap, the rest counted in `alike`), else
 *   passed over the sum of the exchanges judged.
 * - What belongs to no operation (an unknown path; a check's one case over the shard's records, as stable-reads')
 *   every shard sent and reported: failed when any shard failed it (its failures kept once per reason), else as
 *   shard 1 reported it.
 * - `min-coverage` is held against the merged coverage: an operation is exercised, a status observed, when any
 *   shard exercised or observed it.
 */
import { KitError } from '../src/kit-error.js';
import { createAjv, toDiagnostics, type Diagnostic } from '../src/schema/index.js';
// The documented format itself, shipped with the kit (tsc copies an imported JSON file into dist/; the bundle inlines it).
import reportSchema from './report.schema.json' with { type: 'json' };
import { CHECKS, CHECK_IDS } from './checks/index.js';
import { coverageVerdict, MIN_COVERAGE_CHECK, type MinCoverage } from './min-coverage.js';
import { REPORT_FORMAT_VERSION, type CheckResult, type Coverage, type RunReport, type RunWarning, summarize } from './model.js';
import { normalizeReason } from './reporters/defects.js';

/** As runner.ts: past this many failing exchanges per check, operation and reason, the rest are counted in `alike`. */
const MAX_FAILURES_LISTED = 10;

const PASSIVE: ReadonlySet<string> = new Set(CHECKS.filter((check) => check.judge !== undefined).map((check) => check.id));

/** conformance/report.schema.json, compiled on first use. */
let reportValidator: ((value: unknown) => Diagnostic[]) | undefined;
function reportFormat(): (value: unknown) => Diagnostic[] {
  if (!reportValidator) {
    const validate = createAjv({ allErrors: false, verbose: false }).compile(reportSchema);
    reportValidator = (value) => (validate(value) ? [] : toDiagnostics(validate.errors, ''));
  }
  return reportValidator;
}

/** A report read from a file, checked to be one of this kit's JSON reports (the derived `defects` and `curl` dropped). */
export function readShardReport(text: string, file: string): RunReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new KitError('REPORT_UNREADABLE', `${file} is not JSON (${(error as Error).message}); give the files written by conformance --shard K/N --format json (or --report json=FILE).`, { file });
  }
  // The documented report format decides, every part of it: a report cut short or edited by hand is refused here,
  // naming where, rather than failing later as if the target had broken the contract (exit 1).
  const problems = reportFormat()(value);
  if (problems.length > 0) {
    const where = problems[0]!;
    throw new KitError('REPORT_UNREADABLE', `${file} is not a JSON report of petstore-kit (format version ${REPORT_FORMAT_VERSION}): at ${where.pointer || '/'} ${where.message}; give the files written by conformance --shard K/N --format json (or --report json=FILE).`, { file, pointer: where.pointer });
  }
  const report = value as RunReport & { defects?: unknown };
  const { defects: _derived, ...rest } = report;
  const results = (rest.results as (CheckResult & { curl?: unknown })[]).map(({ curl: _curl, ...result }) => result);
  return { ...(rest as RunReport), results };
}

interface ShardOf {
  readonly index: number;
  readonly total: number;
}

function shardOf(report: RunReport, file: string): ShardOf {
  const match = /^(\d+)\/(\d+)$/.exec(String(report.meta.options['shard'] ?? ''));
  if (!match) throw new KitError('REPORT_UNREADABLE', `${file} is the report of a whole run, not of a shard: only reports of conformance --shard K/N merge.`, { file });
  return { index: Number(match[1]), total: Number(match[2]) };
}

/** The N reports of one sharded run (any order) as one report; a missing, repeated or foreign shard is a REPORT_UNREADABLE error. */
export function mergeShardReports(inputs: readonly { readonly file: string; readonly report: RunReport }[]): RunReport {
  if (inputs.length === 0) throw new KitError('USAGE', 'petstore-kit merge-reports: give the JSON report of every shard, e.g. merge-reports reports/shard-*.json.');
  const shards = inputs.map(({ file, report }) => ({ file, report, shard: shardOf(report, file) }));
  const first = shards[0]!;
  const total = first.shard.total;
  // The target may differ: each job of a CI matrix may start its own mock, on a port of its own.
  for (const { file, report, shard } of shards) {
    const differs =
      shard.total !== total ? `a shard of ${shard.total}, not of ${total}` : report.meta.document.sha256 !== first.report.meta.document.sha256 ? 'another document' : report.meta.seed !== first.report.meta.seed ? 'another --seed' : undefined;
    if (differs) throw new KitError('REPORT_UNREADABLE', `${file} is not a shard of the same run as ${first.file}: ${differs}.`, { file });
  }
  const byIndex = new Map<number, (typeof shards)[number]>();
  for (const entry of shards) {
    const twin = byIndex.get(entry.shard.index);
    if (twin) throw new KitError('REPORT_UNREADABLE', `${entry.file} and ${twin.file} are both shard ${entry.shard.index}/${total}.`, { file: entry.file });
    byIndex.set(entry.shard.index, entry);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new KitError('REPORT_UNREADABLE', `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: a merged report of part of a run would pass what was never checked.`);
  const ordered = Array.from({ length: total }, (_, i) => byIndex.get(i + 1)!.report);

  const coverage = mergeCoverage(ordered.map((report) => report.coverage));
  const minCoverage = first.report.meta.options['minCoverage'] as MinCoverage | undefined;
  const merged = mergeResults(ordered.map((report) => report.results));
  const results = minCoverage ? [...merged, coverageVerdict(coverage, minCoverage)] : merged;
  const order = new Map([...CHECK_IDS, MIN_COVERAGE_CHECK.id].map((id, i) => [id, i]));
  results.sort((a, b) => (order.get(a.checkId) ?? order.size) - (order.get(b.checkId) ?? order.size));

  const startedAt = ordered.map((r) => r.meta.startedAt).sort()[0]!;
  const finishedAt = ordered.map((r) => r.meta.finishedAt ?? r.meta.startedAt).sort().at(-1)!;
  const durationMs = Math.max(...ordered.map((r) => r.meta.durationMs ?? 0));
  const exchanges = ordered.reduce((sum, r) => sum + r.summary.exchanges, 0);
  const { shard: _shard, ...options } = first.report.meta.options;
  const selectedChecks = [...new Set(ordered.flatMap((r) => r.meta.selectedChecks))].sort((a, b) => (order.get(a) ?? order.size) - (order.get(b) ?? order.size));
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    meta: { ...first.report.meta, startedAt, finishedAt, durationMs, options: { ...options, mergedShards: total }, selectedChecks },
    warnings: mergeWarnings(ordered.map((r) => r.warnings ?? [])),
    summary: summarize(results, exchanges, durationMs),
    coverage,
    results,
    cleanup: { deleted: ordered.reduce((sum, r) => sum + r.cleanup.deleted, 0), leftBehind: ordered.flatMap((r) => r.cleanup.leftBehind) },
  };
}

function mergeResults(perShard: readonly (readonly CheckResult[])[]): CheckResult[] {
  const out: CheckResult[] = [];
  /** A passive check's tally of one operation (`judged` set), per check and operation. */
  const tallies = new Map<string, { readonly shard: number; readonly result: CheckResult }[]>();
  /** The results of no operation, per check and title (ids and run tags taken out): the same case run by every shard. */
  const operationless = new Map<string, CheckResult[]>();
  /** A passive check's "no exchange judged", kept only if no shard judged one. */
  const unjudged: CheckResult[] = [];
  const seen = new Set<string>();
  for (const [shard, results] of perShard.entries()) {
    for (const result of results) {
      if (result.checkId === MIN_COVERAGE_CHECK.id) continue;
      if (result.judged !== undefined) {
        push(tallies, `${result.checkId}\u0000${result.operationId ?? ''}`, { shard, result });
      } else if (PASSIVE.has(result.checkId) && result.operationId === undefined && result.verdict === 'skipped') {
        unjudged.push(result);
      } else if (result.operationId === undefined) {
        push(operationless, `${result.checkId}\u0000${normalizeReason(result.title)}`, result);
      } else {
        // Disjoint by construction (a case runs in its subject's shard); the guard keeps a result reported twice once.
        const identity = JSON.stringify([result.checkId, result.operationId, result.title, result.verdict, result.reason]);
        if (seen.has(identity)) continue;
        seen.add(identity);
        out.push(result);
      }
    }
  }
  const judgedChecks = new Set([...tallies.values()].flat().map(({ result }) => result.checkId));
  const unjudgedKept = new Set<string>();
  for (const result of unjudged) {
    if (judgedChecks.has(result.checkId) || unjudgedKept.has(result.checkId)) continue;
    unjudgedKept.add(result.checkId);
    out.push(result);
  }
  for (const list of tallies.values()) out.push(...mergeTally(list));
  for (const list of operationless.values()) {
    const failed = list.filter((r) => r.verdict === 'failed');
    if (failed.length === 0) {
      // Every shard ran this case, each over its own records: one stands for all, a pass before a skip.
      out.push(list.find((r) => r.verdict === 'passed') ?? list[0]!);
      continue;
    }
    // The same failure seen by several shards is one defect.
    const reasons = new Set<string>();
    for (const result of failed) {
      const reason = normalizeReason(result.reason ?? '');
      if (reasons.has(reason)) continue;
      reasons.add(reason);
      out.push(result);
    }
  }
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One passive check on one operation, as judged in several shards: its counts added up, its failures kept per reason. */
function mergeTally(entries: readonly { readonly shard: number; readonly result: CheckResult }[]): CheckResult[] {
  // Every result a shard's tally gives for the operation carries that shard's count: each shard's is taken once.
  const perShard = new Map(entries.map(({ shard, result }) => [shard, result.judged ?? 0]));
  const judged = [...perShard.values()].reduce((sum, n) => sum + n, 0);
  const list = entries.map(({ result }) => result);
  const failures = list.filter((r) => r.verdict === 'failed');
  if (failures.length === 0) {
    const where = list[0]!.operationId ?? 'requests no operation matches';
    return [{ ...list[0]!, title: `${where}: ${judged} exchange${judged === 1 ? '' : 's'} judged`, judged }];
  }
  const byReason = new Map<string, { listed: CheckResult[]; more: number }>();
  for (const failure of failures) {
    const reason = normalizeReason(failure.reason ?? '');
    let same = byReason.get(reason);
    if (!same) byReason.set(reason, (same = { listed: [], more: 0 }));
    const { alike = 0, ...listed } = failure;
    same.more += alike;
    if (same.listed.length < MAX_FAILURES_LISTED) same.listed.push({ ...listed, judged });
    else same.more += 1;
  }
  return [...byReason.values()].flatMap(({ listed, more }) => listed.map((result, i) => (i === listed.length - 1 && more > 0 ? { ...result, alike: more } : result)));
}

function mergeCoverage(all: readonly Coverage[]): Coverage {
  const first = all[0]!;
  return {
    operations: first.operations.map((o, i) => ({ ...o, exercised: all.some((c) => c.operations[i]?.exercised === true) })),
    statuses: first.statuses.map((s, i) => ({ ...s, observed: all.some((c) => c.statuses[i]?.observed === true) })),
    petStatuses: first.petStatuses.map((p, i) => ({ ...p, sent: all.some((c) => c.petStatuses[i]?.sent === true), observed: all.some((c) => c.petStatuses[i]?.observed === true) })),
  };
}

function mergeWarnings(all: readonly (readonly RunWarning[])[]): RunWarning[] {
  const seen = new Set<string>();
  return all.flat().filter((warning) => {
    const key = `${warning.pointer}\u0000${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
