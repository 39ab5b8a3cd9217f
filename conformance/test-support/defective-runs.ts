/**
 * What conformance/defective.test.ts (the fast tier: the transparent proxy and one planted bug per check family)
 * and defective.full.test.ts (every other planted bug) share: a run against the mock behind a defective proxy, and
 * the assertion that each planted bug is flagged by its owner and by no other check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/transport/server.js';
import { DEFECTS, DEFECT_NAMES, startDefectiveServer, type DefectName } from '../../fixtures/defective/index.js';
import { CHECKS } from '../checks/index.js';
import type { CheckResult, RunReport } from '../model.js';
import { runConformance } from '../runner.js';
import { pool } from './pool.js';

export const ORIGIN = 'http://localhost:5173';
/** A full run takes a few seconds alone; several share two CPU cores in CI. Bounds a hang: at 120 s (240 s per planted bug), runs timed out on a loaded machine with nothing wrong. */
export const RUN_TIMEOUT = 300_000;

/**
 * Checks a defect may trip besides its owner, each with the reason it cannot
 * be avoided. Empty is the goal: a planted bug that trips a second check is
 * first made more precise.
 */
const ALLOWED_CO_FAILURES: Partial<Record<DefectName, { readonly checks: readonly string[]; readonly why: string }>> = {};

/** The families that judge every exchange, whatever check made it. */
const JUDGING_FAMILIES = ['response', 'errors'];

/**
 * What a planted bug's run selects: its owner's family and the judging
 * families; everything (undefined) when the owner itself judges every
 * exchange, since its defect shows on whatever request any check sends.
 */
function selectionFor(name: DefectName): string[] | undefined {
  const owner = CHECKS.find((check) => check.id === DEFECTS[name].owner);
  if (!owner || owner.judge) return undefined;
  return [...new Set([owner.family, ...JUDGING_FAMILIES])];
}

export async function runAgainst(plant: (upstream: string) => Promise<{ url: string; close(): Promise<void> }>, only?: readonly string[], options: { readonly failFast?: boolean } = {}): Promise<RunReport> {
  const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  try {
    const proxy = await plant(mock.url);
    try {
      // The mock is thrown away after the run, so the run leaves its records there (--no-cleanup): the clean-up's
      // read-back and delete of each record are not what a planted bug is judged on, and the clean runs judge them.
      return await runConformance({ baseUrl: proxy.url, origin: ORIGIN, seed: 1, cleanup: false, ...(only ? { only } : {}), ...options });
    } finally {
      await proxy.close();
    }
  } finally {
    await mock.close();
  }
}

export function failed(report: RunReport): CheckResult[] {
  return report.results.filter((r) => r.verdict === 'failed');
}

/** What a failed assertion prints: enough to see why each check failed without rerunning. */
export function explain(results: readonly CheckResult[]): string {
  return results
    .map((r) => {
      const finding = r.findings[0];
      const where = finding ? ` at ${finding.pointer}: ${finding.message}` : '';
      const ex = r.evidence[0];
      const exchange = ex ? ` [${ex.request.method} ${ex.request.url} → ${ex.response?.status ?? ex.error?.code ?? '?'}]` : '';
      return `${r.checkId} ${r.operationId ?? ''} "${r.title}": ${r.reason ?? ''}${where}${exchange}`;
    })
    .join('\n');
}

/**
 * Runs in flight at once. A run mostly waits on loopback round trips (the
 * runner, the proxy and the mock share this process), so several overlap
 * well even on two cores. Measured on 2 cores: 56 runs took ~127 s five at a
 * time (vitest's per-file default), ~68 s eight at a time, ~64 s fourteen at a
 * time (by then one core is saturated).
 */
const PARALLEL_RUNS = 8;

type Outcome = { readonly report: RunReport } | { readonly error: unknown };

/** One test per planted bug: flagged by its owner and by no other check. */
export function describePlantedBugs(names: readonly DefectName[]): void {
  describe.concurrent('each planted bug is flagged by its owner and by no other check', () => {
    const started = Date.now();
    const outcomes = new Map<DefectName, Promise<Outcome>>();

    beforeAll(() => {
      // All runs are queued at once, so the pool (not vitest's per-file test concurrency) decides how many overlap.
      const limit = pool(PARALLEL_RUNS);
      for (const name of names) {
        outcomes.set(
          name,
          limit(() => runAgainst((upstream) => startDefectiveServer(name, upstream), selectionFor(name))).then(
            (report): Outcome => ({ report }),
            (error: unknown): Outcome => ({ error }),
          ),
        );
      }
    });

    afterAll(async () => {
      await Promise.all(outcomes.values());
      // Kept visible so a slow-down of the suite is noticed.
      console.info(`defective servers: ${names.length} runs (full, or the owner's family + ${JUDGING_FAMILIES.join(', ')}), ${PARALLEL_RUNS} at a time, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });

    it.each(names)('%s', { timeout: RUN_TIMEOUT * 2 }, async (name) => {
      const { owner } = DEFECTS[name];
      const outcome = await outcomes.get(name);
      if (!outcome || 'error' in outcome) throw outcome?.error ?? new Error(`${name} was never run`);
      const failures = failed(outcome.report);
      const allowed = new Set([owner, ...(ALLOWED_CO_FAILURES[name]?.checks ?? [])]);
      expect(
        failures.map((r) => r.checkId),
        `${owner} did not fire; failures:\n${explain(failures)}`,
      ).toContain(owner);
      const unrelated = failures.filter((r) => !allowed.has(r.checkId));
      expect(unrelated, `unrelated checks fired:\n${explain(unrelated)}`).toEqual([]);
    });
  });
}

/** The fast tier's planted bugs: the first of each check family, by its owner's family, in the catalogue's order. */
export function fastDefectSlice(): DefectName[] {
  const families = new Map(CHECKS.map((check) => [check.id, check.family]));
  const seen = new Set<string>();
  return DEFECT_NAMES.filter((name) => {
    const family = families.get(DEFECTS[name].owner) ?? DEFECTS[name].owner;
    if (seen.has(family)) return false;
    seen.add(family);
    return true;
  });
}
