/** Regression: the redactor walked values by recursion, so a finding holding a hostile target's 100,000-deep answer overflowed the stack. */
import { describe, expect, it } from 'vitest';
import { REPORT_FORMAT_VERSION, type RunReport } from '../model.js';
import { createRedactor, REDACTED } from './redact.js';

const SECRET = 'tenant-secret-27182818';
const DEPTH = 100_000;

/** [[[…["…tenant-secret…"]…]]], DEPTH arrays deep, built without recursion. */
function deepArray(leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < DEPTH; i += 1) value = [value];
  return value;
}

/** The innermost value of deepArray's nesting, and how deep it sat. */
function innermost(value: unknown): { leaf: unknown; depth: number } {
  let depth = 0;
  let current = value;
  while (Array.isArray(current)) {
    current = current[0];
    depth += 1;
  }
  return { leaf: current, depth };
}

function reportWith(actual: unknown, option: unknown): RunReport {
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    meta: {
      kit: { name: 'petstore-kit', version: '0.1.0' },
      document: { title: 'Pet Store API', version: '1.0.0', sha256: 'ab'.repeat(32), file: 'openapi.yaml' },
      target: 'http://127.0.0.1:4010',
      startedAt: '2026-11-20T10:00:00.000Z',
      seed: 1,
      options: { nested: option },
      checks: [],
      selectedChecks: ['response-schema'],
    },
    summary: { total: 1, passed: 0, failed: 1, skipped: 0, exchanges: 1, exchangesPerSecond: 1 },
    coverage: { operations: [], statuses: [], petStatuses: [] },
    results: [
      {
        checkId: 'response-schema',
        title: 'GET /pets answers a body of its schema',
        verdict: 'failed',
        findings: [{ pointer: '/body', keyword: 'type', message: 'must be array', expected: 'array', actual }],
        evidence: [],
      },
    ],
    cleanup: { deleted: 0, leftBehind: [] },
  };
}

describe('redactor on deep values (iterative walk)', () => {
  it('scrubs a secret inside a 100,000-deep finding value and option without overflowing the stack', () => {
    const redactor = createRedactor({ secrets: [SECRET] });
    const redacted = redactor.report(reportWith(deepArray(`echoed ${SECRET}`), deepArray({ token: SECRET })));
    const actual = innermost(redacted.results[0]!.findings[0]!.actual);
    expect(actual).toEqual({ leaf: `echoed ${REDACTED}`, depth: DEPTH });
    expect(innermost(redacted.meta.options['nested'])).toEqual({ leaf: { token: REDACTED }, depth: DEPTH });
  });

  it('keeps a __proto__ key a plain field of the copy, not the copy\'s prototype', () => {
    const hostile: unknown = JSON.parse(`{"__proto__":{"polluted":"${SECRET}"},"n":1}`);
    const redacted = createRedactor({ secrets: [SECRET] }).report(reportWith(hostile, 1));
    const actual = redacted.results[0]!.findings[0]!.actual;
    expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(actual, '__proto__')?.value).toEqual({ polluted: REDACTED });
    expect(actual).toMatchObject({ n: 1 });
  });
});
