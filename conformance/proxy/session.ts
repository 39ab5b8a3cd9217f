/**
 * A session of live traffic as the runner's report model (model.ts): the verdicts of every exchange tallied per
 * rule and operation (passive-tally.ts, bounded: counts, and a few exchanges per defect as evidence), coverage
 * counted as exchanges pass (coverage.ts), and on demand a RunReport that every reporter of the runner renders
 * (console, JSON, JUnit, HTML, Markdown). Memory stays bounded however long the session runs: nothing grows with
 * the number of exchanges but counters.
 */
import { KIT_VERSION } from '../../src/package-info.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { CoverageRecorder } from '../coverage.js';
import type { JudgeContext } from '../checks/index.js';
import { describeExchange, type Judgement } from '../judge.js';
import { coverageVerdict, MIN_COVERAGE_CHECK, type MinCoverage } from '../min-coverage.js';
import { REPORT_FORMAT_VERSION, type CheckInfo, type CheckResult, type Exchange, type Finding, type RunReport, type RunWarning } from '../model.js';
import { PassiveTally, type PassiveFailure } from '../passive-tally.js';
import { summarize } from '../model.js';
import type { Redactor } from '../reporters/index.js';
import { silentOnErrorsWarnings, silentOnSuccessWarnings } from '../runner.js';
import type { LiveVerdict } from './validate-exchange.js';

/** Evidence kept per rule, operation and reason; the rest are counted (`alike`). */
const MAX_LISTED = 5;
/** Distinct reasons kept per rule and operation: a target whose every answer fails differently cannot grow the report. */
const MAX_REASONS = 50;

export interface SessionSettings {
  readonly compiled: CompiledContract;
  /** The target as reports show it (without user info). */
  readonly target: string;
  /** Every rule the session applies, in the order reports list them: the request rules, then the passive checks. */
  readonly checks: readonly CheckInfo[];
  /** What the reports say about how the proxy ran; `--header` by name only. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly silences: Pick<JudgeContext, 'silentOnErrors' | 'silentOnSuccess'>;
  readonly minCoverage?: MinCoverage;
  /** What else the report must say about the session (the secrets past their bound, the recording's dropped records). */
  readonly notes?: () => readonly RunWarning[];
}

/** One failing rule of one exchange, for the violation line. */
export interface FailedRule {
  readonly checkId: string;
  readonly finding?: Finding;
  readonly reason: string;
}

export class ProxySession {
  private readonly tally = new PassiveTally({ maxListed: MAX_LISTED, maxReasons: MAX_REASONS, noneJudged: 'no exchange of the session was one this rule judges' });
  private readonly coverage: CoverageRecorder;
  private readonly startedAt = new Date();
  private readonly started = performance.now();
  private judged = 0;
  private violating = 0;
  private mocked = 0;
  private readonly mockedOperations = new Set<string>();
  private readonly failures = new Map<string, number>();
  private unvalidatedRequests = 0;
  private unvalidatedResponses = 0;
  private unjudged = 0;

  constructor(private readonly settings: SessionSettings) {
    this.coverage = new CoverageRecorder(settings.compiled.contract);
  }

  /**
   * Tallies one judged exchange; returns the rules it broke (none for a clean exchange). What is kept of it as
   * evidence is scrubbed now, by `redactor` (the one that knows this exchange's credentials: secrets.ts).
   */
  observe(verdict: LiveVerdict, redactor: Redactor): FailedRule[] {
    this.judged += 1;
    // An answer the proxy gave itself (--errors refused the request) reached no operation of the target.
    if (verdict.answeredBy === 'target') this.coverage.observe(verdict.record);
    if (verdict.unvalidated === 'request-body' || verdict.unvalidated === 'both') this.unvalidatedRequests += 1;
    if (verdict.unvalidated === 'response-body' || verdict.unvalidated === 'both') this.unvalidatedResponses += 1;
    const failed: FailedRule[] = [];
    for (const { checkId, verdict: judgement } of verdict.verdicts) {
      this.tally.add(checkId, verdict.operationKey, judgement, () => kept(checkId, judgement, describeExchange(verdict.record), verdict.record.result.exchange, redactor));
      if (judgement.verdict === 'fail') failed.push({ checkId, reason: judgement.reason, ...(judgement.findings[0] ? { finding: judgement.findings[0] } : {}) });
    }
    if (failed.length > 0) this.violating += 1;
    return failed;
  }

  /** An exchange the fallback mock answered: not the target's, so not judged; the report names the operations. */
  observeMocked(operationId: string | undefined): void {
    this.mocked += 1;
    if (operationId !== undefined && this.mockedOperations.size < 1000) this.mockedOperations.add(operationId);
  }

  /** An exchange with no answer to judge: the target failed (502/504), or the request left the API's paths. */
  observeUnjudged(failure?: string): void {
    this.unjudged += 1;
    if (failure !== undefined) this.failures.set(failure, (this.failures.get(failure) ?? 0) + 1);
  }

  /** Exchanges that broke at least one rule so far: the exit code's business. */
  get violations(): number {
    return this.violating;
  }

  get exchanges(): number {
    return this.judged + this.mocked + this.unjudged;
  }

  report(): RunReport {
    const { compiled, checks } = this.settings;
    const contract = compiled.contract;
    const results: CheckResult[] = checks.flatMap((check) => this.tally.results(check, contract));
    const coverage = this.coverage.report();
    if (this.settings.minCoverage) results.push(coverageVerdict(coverage, this.settings.minCoverage));
    const durationMs = Math.round(performance.now() - this.started);
    const exchanges = this.exchanges;
    const allChecks = this.settings.minCoverage ? [...checks, MIN_COVERAGE_CHECK] : [...checks];
    return {
      formatVersion: REPORT_FORMAT_VERSION,
      meta: {
        kit: { name: 'petstore-kit', version: KIT_VERSION },
        document: { title: contract.title, version: contract.version, sha256: contract.sha256, file: contract.file },
        target: this.settings.target,
        startedAt: this.startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        durationMs,
        seed: 0,
        options: this.settings.options,
        checks: allChecks,
        selectedChecks: allChecks.map((check) => check.id),
      },
      warnings: [...contract.warnings.map(({ pointer, message, skipped }) => ({ pointer, message, skipped })), ...silentOnErrorsWarnings(this.settings.silences), ...silentOnSuccessWarnings(this.settings.silences), ...this.notes()],
      summary: summarize(results, exchanges, durationMs),
      coverage,
      results,
      cleanup: { deleted: 0, leftBehind: [] },
    };
  }

  /** What the session could not judge, said once each, so a clean report is not mistaken for a complete one. */
  private notes(): RunWarning[] {
    const notes: RunWarning[] = [];
    if (this.mocked > 0) {
      const names = [...this.mockedOperations];
      notes.push({ pointer: '/paths', message: `${this.mocked} exchange${this.mocked === 1 ? ' was' : 's were'} answered by the fallback mock, not the target (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`, skipped: 'every rule, on those exchanges: they say nothing of the target' });
    }
    if (this.unvalidatedResponses > 0) {
      notes.push({ pointer: '/paths', message: `${this.unvalidatedResponses} answer${this.unvalidatedResponses === 1 ? ' was' : 's were'} larger than --max-body-bytes and passed through unread`, skipped: 'the body rules (response-schema, error-shape) on those answers; their status and headers were judged' });
    }
    if (this.unvalidatedRequests > 0) {
      notes.push({ pointer: '/paths', message: `${this.unvalidatedRequests} request bod${this.unvalidatedRequests === 1 ? 'y was' : 'ies were'} larger than --max-body-bytes and passed through unread`, skipped: 'request-body on those requests' });
    }
    for (const [failure, count] of this.failures) {
      notes.push({ pointer: '', message: `${count} request${count === 1 ? '' : 's'} got no answer from the target (${failure}): the proxy answered them itself`, skipped: 'every rule, on those exchanges' });
    }
    notes.push(...(this.settings.notes?.() ?? []));
    return notes;
  }
}

/** A failing exchange as the tally keeps it (asked of failures only): title, reason, findings and evidence scrubbed of the secrets known now. */
function kept(checkId: string, judgement: Exclude<Judgement, { verdict: 'n/a' }>, title: string, exchange: Exchange, redactor: Redactor): PassiveFailure {
  const reason = judgement.verdict === 'fail' ? judgement.reason : '';
  const scrubbed = redactor.result({ checkId, title, verdict: 'failed', reason, findings: judgement.verdict === 'fail' ? judgement.findings : [], evidence: [exchange] });
  return { title: scrubbed.title, exchange: scrubbed.evidence[0] ?? exchange, reason: scrubbed.reason ?? reason, findings: scrubbed.findings };
}
