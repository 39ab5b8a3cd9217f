/** Issue 10, point 6: --explain CHECK from the registry, and --min-coverage's parsing. */
import { describe, expect, it } from 'vitest';
import { isKitError } from '../src/kit-error.js';
import { CHECKS } from './checks/index.js';
import { explainCheck } from './explain.js';
import { coverageVerdict, parseMinCoverage } from './min-coverage.js';

describe('--explain', () => {
  it('every check of the registry says why it matters and what a conformant answer looks like', () => {
    for (const check of CHECKS) {
      expect(check.explain.why.length, check.id).toBeGreaterThan(40);
      expect(check.explain.conformant.length, check.id).toBeGreaterThan(15);
      expect(check.explain.why, check.id).not.toBe(check.description);
    }
  });

  it('prints what the check verifies, why, and a conformant answer', () => {
    const text = explainCheck('status-documented');
    expect(text).toContain('status-documented (response, reads only)');
    expect(text).toContain('What it verifies: Every response status is documented for its operation.');
    expect(text).toMatch(/^Why: .+/m);
    expect(text).toContain('A conformant answer: One of the statuses the operation documents');
    expect(explainCheck('workflow-order-reserves-stock')).toContain('sends writes');
    expect(explainCheck('min-coverage')).toContain('hollow');
  });

  it('an unknown check is a USAGE error that suggests near ids', () => {
    let error: unknown;
    try {
      explainCheck('status');
    } catch (e) {
      error = e;
    }
    expect(isKitError(error) && error.code).toBe('USAGE');
    expect(error instanceof Error && error.message).toContain('status-documented');
  });
});

describe('--min-coverage', () => {
  it.each([
    [['80'], { operations: 80 }],
    [['operations=90,statuses=40'], { operations: 90, statuses: 40 }],
    [['statuses=12.5%'], { statuses: 12.5 }],
    [['operations=50', 'statuses=10'], { operations: 50, statuses: 10 }],
  ])('%j → %j', (values, expected) => {
    expect(parseMinCoverage(values)).toEqual(expected);
  });

  it.each([['101'], ['most'], ['lines=50'], ['-5']])('%s is a USAGE error', (value) => {
    expect(() => parseMinCoverage([value])).toThrow(/--min-coverage takes/);
  });

  it('fails below the floor, with the shares in the reason, and passes at it', () => {
    const coverage = {
      operations: [{ operationId: 'a', exercised: true }, { operationId: 'b', exercised: false }],
      statuses: [{ operationId: 'a', status: '200', observed: true }],
      petStatuses: [],
    };
    const short = coverageVerdict(coverage, { operations: 60 });
    expect(short.verdict).toBe('failed');
    expect(short.reason).toContain('operations exercised 50% < 60%');
    expect(coverageVerdict(coverage, { operations: 50, statuses: 100 }).verdict).toBe('passed');
  });
});
