/**
 * --min-coverage (issue 10, point 6): a run whose filters left too little
 * (`--only response-schema` once sent one request and exited 0) must not
 * pass. The share of the document's operations exercised and of its
 * documented statuses observed is held against a floor; below it the run
 * gets a failed `min-coverage` result, so it exits 1 like any finding.
 */
import { KitError } from '../src/kit-error.js';
import type { CheckInfo, CheckResult, Coverage } from './model.js';

export interface MinCoverage {
  /** Percent of the document's operations that got at least one answer. */
  readonly operations?: number;
  /** Percent of the documented statuses (per operation) that were observed. */
  readonly statuses?: number;
}

/**
 * `80` (operations), `operations=80`, `statuses=40`, or both comma-separated
 * (`operations=90,statuses=40`); each a percent from 0 to 100.
 */
export function parseMinCoverage(values: readonly string[]): MinCoverage | undefined {
  if (values.length === 0) return undefined;
  const out: { operations?: number; statuses?: number } = {};
  for (const part of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
    const m = /^(?:(operations|statuses)=)?(\d{1,3}(?:\.\d+)?)%?$/.exec(part);
    const value = m ? Number(m[2]) : NaN;
    if (!m || value > 100) {
      throw new KitError('USAGE', `petstore-kit conformance: --min-coverage takes a percent of operations (80), or operations=N and/or statuses=N (operations=90,statuses=40); got '${part}'.`);
    }
    out[(m[1] ?? 'operations') as 'operations' | 'statuses'] = value;
  }
  return out;
}

/** The runner's own check under --min-coverage: it judges the run, not the target, but a hollow run must not pass. */
export const MIN_COVERAGE_CHECK: CheckInfo = {
  id: 'min-coverage',
  family: 'coverage',
  description: 'The run exercised at least the --min-coverage share of the operations and observed that share of the documented statuses.',
  writes: false,
};

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.floor((part / whole) * 1000) / 10;
}

export function coverageVerdict(c: Coverage, minimum: MinCoverage): CheckResult {
  const exercised = c.operations.filter((o) => o.exercised).length;
  const observed = c.statuses.filter((s) => s.observed).length;
  const measured = [
    ...(minimum.operations !== undefined ? [{ what: 'operations exercised', part: exercised, whole: c.operations.length, least: minimum.operations }] : []),
    ...(minimum.statuses !== undefined ? [{ what: 'documented statuses observed', part: observed, whole: c.statuses.length, least: minimum.statuses }] : []),
  ];
  const lines = measured.map((m) => ({ ...m, share: percent(m.part, m.whole) }));
  const short = lines.filter((m) => m.share < m.least);
  const title = lines.map((m) => `${m.what}: ${m.part} of ${m.whole} (${m.share}%), at least ${m.least}%`).join('; ');
  if (short.length === 0) return { checkId: MIN_COVERAGE_CHECK.id, title, verdict: 'passed', findings: [], evidence: [] };
  return {
    checkId: MIN_COVERAGE_CHECK.id,
    title,
    verdict: 'failed',
    reason: `the run is too hollow to vouch for the target: ${short.map((m) => `${m.what} ${m.share}% < ${m.least}%`).join(', ')} (widen --only/--skip, drop --read-only, or see the coverage gaps)`,
    findings: short.map((m) => ({ pointer: `/coverage/${m.what.startsWith('operations') ? 'operations' : 'statuses'}`, keyword: 'minimum', message: `${m.what}: ${m.share}% is below --min-coverage ${m.least}%`, expected: m.least, actual: m.share })),
    evidence: [],
  };
}
