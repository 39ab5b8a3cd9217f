/**
 * A RunReport around hand-made results, for the reporters' tests: the
 * summary counted from the results, the checks named with their families,
 * the coverage listing the results' operations. Test support only.
 */
import { REPORT_FORMAT_VERSION, type CheckInfo, type CheckResult, type RunReport } from '../model.js';

export function reportAround(results: readonly CheckResult[], checks: readonly Pick<CheckInfo, 'id' | 'family'>[], extra: { target?: string; options?: Record<string, unknown> } = {}): RunReport {
  const count = (v: CheckResult['verdict']): number => results.filter((r) => r.verdict === v).length;
  const operations = [...new Set(results.map((r) => r.operationId).filter((id): id is string => id !== undefined))];
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    meta: {
      kit: { name: 'petstore-kit', version: '0.1.0' },
      document: { title: 'Pet Store API', version: '1.0.0', sha256: 'ab'.repeat(32), file: 'openapi.yaml' },
      target: extra.target ?? 'http://127.0.0.1:4010',
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:00:01.200Z',
      durationMs: 1200,
      seed: 1,
      options: extra.options ?? {},
      checks: checks.map((c) => ({ ...c, description: `${c.id} (fixture)`, writes: false })),
      selectedChecks: checks.map((c) => c.id),
    },
    summary: { total: results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), exchanges: 20, exchangesPerSecond: 16.7 },
    coverage: { operations: operations.map((operationId) => ({ operationId, exercised: true })), statuses: [], petStatuses: [] },
    results: [...results],
    cleanup: { deleted: 0, leftBehind: [] },
  };
}
