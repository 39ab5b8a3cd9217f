/**
 * The order a run starts its checks in. Pure: the runner (runner.ts) runs each phase's `together` side by side, then
 * its `alone` one at a time, then the next phase.
 *
 * A run keeps the registry's order: the checks that share no records side by side, then those that compare
 * whole-collection counts (`exclusive`), each alone, after them.
 *
 * With --fail-fast the run ends at its first failure, so what it costs is what it sends before then. It starts
 * first the checks whose cost does not grow with the document's schemas, and leaves the probing families for a
 * second phase. Those families send a request for each parameter, body field, media type and size: hundreds on a
 * small document, where the others send a few per operation or resource. A defect any cheap check sees is then
 * found before the probing families start. Each phase keeps the rule that an exclusive check runs alone.
 */
import type { CheckDefinition } from './checks/index.js';

export interface Phase {
  /** Started side by side, up to the run's concurrency. */
  readonly together: readonly CheckDefinition[];
  /** Then each alone, in this order. */
  readonly alone: readonly CheckDefinition[];
}

/** The families whose checks probe every parameter, body field and media type of an operation. */
export const PROBING_FAMILIES: ReadonlySet<string> = new Set(['negative', 'acceptance']);

export function startOrder(checks: readonly CheckDefinition[], failFast: boolean): Phase[] {
  const phase = (of: readonly CheckDefinition[]): Phase => ({ together: of.filter((check) => !check.exclusive), alone: of.filter((check) => check.exclusive) });
  if (!failFast) return [phase(checks)];
  const probing = (check: CheckDefinition): boolean => PROBING_FAMILIES.has(check.family);
  return [phase(checks.filter((check) => !probing(check))), phase(checks.filter(probing))].filter((p) => p.together.length + p.alone.length > 0);
}
