/**
 * The order a run starts its checks in (schedule.ts): a run keeps the registry's; --fail-fast starts the probing
 * families last, so a defect a cheap check sees is found before hundreds of probes are sent. Every check still starts
 * exactly once, and an exclusive check still runs alone.
 */
import { describe, expect, it } from 'vitest';
import { startDefectiveServer } from '../fixtures/defective/index.js';
import { CHECKS } from './checks/index.js';
import { PROBING_FAMILIES, startOrder } from './schedule.js';
import { failed, runAgainst, RUN_TIMEOUT } from './test-support/defective-runs.js';

const ids = (checks: readonly { id: string }[]): string[] => checks.map((check) => check.id);
const runnable = CHECKS.filter((check) => check.run);

describe('startOrder', () => {
  it("a run without --fail-fast keeps the registry's order: side by side, then the exclusive checks alone", () => {
    const phases = startOrder(runnable, false);
    expect(phases).toHaveLength(1);
    expect(ids(phases[0]!.together)).toEqual(ids(runnable.filter((check) => !check.exclusive)));
    expect(ids(phases[0]!.alone)).toEqual(ids(runnable.filter((check) => check.exclusive)));
  });

  it('--fail-fast: the probing families in a second phase; each check once, in registry order within its list; exclusive ones alone', () => {
    const phases = startOrder(runnable, true);
    expect(phases).toHaveLength(2);
    const [cheap, probing] = phases as [(typeof phases)[0], (typeof phases)[0]];
    for (const check of [...cheap.together, ...cheap.alone]) expect(PROBING_FAMILIES.has(check.family), check.id).toBe(false);
    for (const check of [...probing.together, ...probing.alone]) expect(PROBING_FAMILIES.has(check.family), check.id).toBe(true);
    for (const phase of phases) {
      expect(phase.together.every((check) => !check.exclusive)).toBe(true);
      expect(phase.alone.every((check) => check.exclusive)).toBe(true);
    }
    const started = phases.flatMap((phase) => [...phase.together, ...phase.alone]);
    expect(ids(started).sort()).toEqual(ids(runnable).sort());
    const rank = new Map(ids(runnable).map((id, i) => [id, i]));
    for (const list of phases.flatMap((phase) => [phase.together, phase.alone])) {
      const ranks = list.map((check) => rank.get(check.id)!);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
    // Both phases hold checks on the registry of today: otherwise the split would say nothing.
    expect(cheap.together.length + cheap.alone.length).toBeGreaterThan(0);
    expect(probing.together.length + probing.alone.length).toBeGreaterThan(0);
  });

  it('a list with no probing check is one phase under --fail-fast too', () => {
    const cheapOnly = runnable.filter((check) => !PROBING_FAMILIES.has(check.family));
    expect(startOrder(cheapOnly, true)).toEqual(startOrder(cheapOnly, false));
  });
});

describe('--fail-fast against a planted stateful defect', () => {
  it('stops before any probing check starts: the defect is found by a check of the first phase', { timeout: RUN_TIMEOUT }, async () => {
    // A deleted category still listed: delete-removes (a stateful check, a few requests a resource) owns it.
    const report = await runAgainst((upstream) => startDefectiveServer('deleted-category-listed', upstream), undefined, { failFast: true });
    expect(failed(report).length).toBeGreaterThan(0);
    const families = new Map(CHECKS.map((check) => [check.id, check.family]));
    const probingResults = report.results.filter((result) => PROBING_FAMILIES.has(families.get(result.checkId) ?? ''));
    expect(probingResults.length).toBeGreaterThan(0);
    expect(probingResults.filter((result) => !(result.verdict === 'skipped' && /failed first \(--fail-fast\)/.test(result.reason ?? ''))).map((r) => `${r.checkId}: ${r.verdict}`)).toEqual([]);
  });
});
