/**
 * A check: a stable public id, a family, a one-line description, whether it
 * writes, and what it does. A check either judges every exchange the run
 * makes (`judge`: the response family, errors, deprecation headers) or sends
 * its own requests (`run`), or both. The registry (index.ts) lists them; the
 * id is what --only/--skip, the docs and the reports use.
 */
import type { RunContext } from '../context.js';
import type { JudgedExchange, Judgement } from '../judge.js';
import type { CheckInfo } from '../model.js';

/** What `--explain CHECK` prints beside the description (what the check verifies). */
export interface CheckExplanation {
  /** Why the rule matters to a client, with the RFC or OpenAPI section it comes from where there is one. */
  readonly why: string;
  /** What a conformant answer looks like, concretely. */
  readonly conformant: string;
}

/**
 * What a check that judges one exchange may read of its surroundings: the document, its validators, the
 * credentials sent, the settings, and where it notes the document's silences. A run's RunContext is one; the
 * validating proxy (conformance/proxy/) builds another around live traffic, so the same judges judge it.
 */
export type JudgeContext = Pick<RunContext, 'contract' | 'compiled' | 'credentials' | 'settings' | 'silentOnErrors' | 'silentOnSuccess'>;

export interface CheckDefinition extends CheckInfo {
  readonly explain: CheckExplanation;
  /** Judges one exchange; runs on every exchange of the run (or of the proxy's traffic) that has a response. */
  readonly judge?: (exchange: JudgedExchange, ctx: JudgeContext) => Judgement;
  /** Sends its own requests and reports one CheckResult per case. */
  readonly run?: (ctx: RunContext) => Promise<void>;
  /** Only meaningful with --origin: skipped without it. */
  readonly needsOrigin?: boolean;
  /**
   * Writes nothing, but sends what --read-only forbids (a method other than GET, HEAD and OPTIONS, a malformed
   * request): skipped under --read-only with this reason, as a check that `writes` is.
   */
  readonly unsafeUnderReadOnly?: string;
  /**
   * Runs alone: it compares counts of whole collections (X-Total-Count before
   * and after, or across pages), which the records other checks create side by
   * side would move. Other checks run a few at a time (up to --concurrency).
   */
  readonly exclusive?: boolean;
}
