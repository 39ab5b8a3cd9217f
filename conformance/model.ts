/**
 * What the runner produces and the reporters consume (architecture
 * principle 8): the runner emits RunEvents and builds a RunReport; it never
 * prints. Reporters render a RunReport for people (console, html) or machines
 * (json, junit). The JSON reporter writes this structure as it is, so a change
 * here is a change of the documented, versioned report format
 * (conformance/report.schema.json, REPORT_FORMAT_VERSION).
 */
import type { Diagnostic } from '../src/schema/index.js';

/** 2: grouped `defects`, `meta.selectedChecks`, `alike`, `failedAt` and `curl` on results. */
export const REPORT_FORMAT_VERSION = 2;

export type Verdict = 'passed' | 'failed' | 'skipped';

/** One HTTP exchange as evidence. Header values the user passed with --header are replaced by "[redacted]". */
export interface Exchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    /** The exact bytes sent, as text (clipped past 2 KiB). */
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** The first 2 KiB of the body, as text. */
    readonly bodyExcerpt: string;
    readonly bodyBytes: number;
    /** True when the body was cut at the runner's size cap. */
    readonly truncated: boolean;
  };
  /** Why there is no response: refused, reset, timeout, redirect not followed, … */
  readonly error?: { readonly code: string; readonly message: string };
  readonly durationMs: number;
}

/** Why a check failed: where (JSON pointer into the exchange), what was expected and what came. */
export type Finding = Diagnostic;

export interface CheckResult {
  /** The check's stable public id, from the registry (e.g. `response-schema`). */
  readonly checkId: string;
  readonly operationId?: string;
  /** What exactly was tried, e.g. "POST /pets with /body/name removed". */
  readonly title: string;
  readonly verdict: Verdict;
  /** For a skip: why; for a failure: a one-line summary. */
  readonly reason?: string;
  readonly findings: readonly Finding[];
  readonly evidence: readonly Exchange[];
  /** For a negative check: the mutation applied to a valid input. */
  readonly mutation?: { readonly kind: string; readonly pointer: string; readonly description: string };
  /** For a failure: the index in `evidence` of the exchange that broke the rule (default: the last one). */
  readonly failedAt?: number;
  /** For a failure: how many more exchanges showed this same failure and were counted, not listed. */
  readonly alike?: number;
  /**
   * For a result of a check that judges every answer (`response-schema`, `status-documented`, …): how many exchanges
   * of this operation it judged in the run, failing or not. `merge-reports` adds them up across shards.
   */
  readonly judged?: number;
  /** For a stateful failure: it was run again on fresh records and failed the same way (recheck.ts). */
  readonly rechecked?: boolean;
  /**
   * For a failure whose evidence holds an answer that already broke the document (its schema or media type):
   * the check and operation that reported that answer. The failure is then a consequence, grouped under that
   * cause in the reports (issue 19, point 3), not a defect of its own.
   */
  readonly consequenceOf?: { readonly checkId: string; readonly operationId?: string };
}

export interface CheckInfo {
  readonly id: string;
  readonly family: string;
  readonly description: string;
  /** True when the check sends POST, PUT, PATCH or DELETE (skipped under --read-only). */
  readonly writes: boolean;
}

export interface RunMeta {
  readonly kit: { readonly name: 'petstore-kit'; readonly version: string };
  readonly document: { readonly title: string; readonly version: string; readonly sha256: string; readonly file: string };
  readonly target: string;
  readonly startedAt: string;
  readonly finishedAt?: string;
  readonly durationMs?: number;
  readonly seed: number;
  /** The options of the run; `--header` appears by name only. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly checks: readonly CheckInfo[];
  /** The ids of the checks --only/--skip left in: the run's total of checks, in header, progress and footer. */
  readonly selectedChecks: readonly string[];
}

export interface Coverage {
  readonly operations: readonly { readonly operationId: string; readonly exercised: boolean }[];
  readonly statuses: readonly { readonly operationId: string; readonly status: string; readonly observed: boolean }[];
  readonly petStatuses: readonly { readonly value: string; readonly sent: boolean; readonly observed: boolean }[];
}

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly exchanges: number;
  readonly exchangesPerSecond: number;
}

/** The summary of a run's results: what the runner writes, and what merge-reports writes for the shards joined. */
export function summarize(results: readonly CheckResult[], exchanges: number, durationMs: number): Summary {
  return {
    total: results.length,
    passed: results.filter((r) => r.verdict === 'passed').length,
    failed: results.filter((r) => r.verdict === 'failed').length,
    skipped: results.filter((r) => r.verdict === 'skipped').length,
    exchanges,
    exchangesPerSecond: durationMs > 0 ? Math.round((exchanges / durationMs) * 1000 * 10) / 10 : 0,
  };
}

/** The reason a record is left behind when the run was told not to clean up (`--no-cleanup`); reporters group by it. */
export const KEPT_BY_REQUEST = 'not deleted: --no-cleanup';

export interface CleanupReport {
  readonly deleted: number;
  /** What the run created and could not delete, so a person can. */
  readonly leftBehind: readonly { readonly resource: string; readonly url: string; readonly reason: string }[];
}

/**
 * What the kit could not use in the document (Contract.warnings: an
 * extension in a shape it does not read, a format it does not know), and
 * what it left unchecked because of it (issue 11, point 1).
 */
export interface RunWarning {
  /** JSON pointer into the document. */
  readonly pointer: string;
  readonly message: string;
  /** The checks, or parts of them, that went without it. */
  readonly skipped: string;
}

export interface RunReport {
  readonly formatVersion: typeof REPORT_FORMAT_VERSION;
  readonly meta: RunMeta;
  /** The document's warnings met by the run; absent in reports written before the runner took documents from elsewhere. */
  readonly warnings?: readonly RunWarning[];
  readonly summary: Summary;
  readonly coverage: Coverage;
  readonly results: readonly CheckResult[];
  readonly cleanup: CleanupReport;
}

export type RunEvent =
  | { readonly type: 'run-started'; readonly meta: RunMeta }
  | { readonly type: 'check-finished'; readonly result: CheckResult; readonly done: number }
  /** One selected check has reported all its results: `completed` of `total` (meta.selectedChecks) for a progress line. */
  | { readonly type: 'check-completed'; readonly checkId: string; readonly completed: number; readonly total: number }
  | { readonly type: 'run-finished'; readonly report: RunReport };

export type ReportFormat = 'console' | 'json' | 'junit' | 'html' | 'markdown';

/** A reporter turns a finished run into text; the console one may also follow the events for a progress line. */
export interface Reporter {
  onEvent?(event: RunEvent): void;
  render(report: RunReport): string;
}

/** How the reason of a case the request budget stopped begins: the CLI exits 2 and the summary says INCOMPLETE when any result says so. */
export const NOT_RUN_PREFIX = 'not run (REQUEST_BUDGET):';

/** How the reason of a case begins when the breaker kept its request back (http.ts): the failures are the requests before it. */
export const BREAKER_PREFIX = 'not run (BREAKER_OPEN):';
