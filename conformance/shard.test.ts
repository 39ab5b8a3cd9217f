/**
 * `--shard K/N` and `merge-reports` (issue 33, point 6): every operation in exactly one shard, the same split
 * everywhere, a resource kept whole; and the merged report of the shards gives a single run's verdicts. The fast
 * tier runs a slice (a few check families, two shards); conformance/shard.full.test.ts runs every check in three.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { DEFAULT_SPEC_PATH } from '../src/package-info.js';
import { PUBLISHED_DOCUMENTS } from '../fixtures/published/index.js';
import { mergeShardReports, readShardReport } from './merge.js';
import type { RunReport } from './model.js';
import { createJsonReporter } from './reporters/index.js';
import { runConformance } from './runner.js';
import { parseShard, resourceKey, shardOperations, shardPlan } from './shard.js';
import { startTargetWithDefects, verdicts, type Target } from './test-support/shards.js';

describe('the shard plan', () => {
  it('puts every operation in exactly one shard, a resource whole, the same on every call, balanced', async () => {
    // Ours, and published documents of many resources (Twilio's nested, suffixed paths among them).
    const documents = [DEFAULT_SPEC_PATH, ...PUBLISHED_DOCUMENTS.filter((doc) => doc.bytes < 700_000 && doc.operations >= 20).slice(0, 2).map((doc) => doc.file)];
    for (const path of documents) {
      const contract = await loadContract(path);
      for (const total of [1, 2, 3, 7]) {
        const plan = shardPlan(contract, total);
        expect(plan).toHaveLength(total);
        const all = plan.flatMap((shard) => [...shard]);
        expect(all.sort(), path).toEqual(contract.operations.map((op) => op.operationId).sort());
        expect(shardPlan(contract, total)).toEqual(plan);
        for (const op of contract.operations) {
          const home = plan.findIndex((shard) => shard.has(op.operationId));
          for (const other of contract.operations.filter((o) => resourceKey(o.pathTemplate) === resourceKey(op.pathTemplate))) expect(plan[home]!.has(other.operationId)).toBe(true);
        }
        // Largest first onto the emptiest: no shard exceeds another by more than the largest resource.
        const sizes = plan.map((shard) => shard.size);
        const largest = Math.max(...[...new Set(contract.operations.map((op) => resourceKey(op.pathTemplate)))].map((key) => contract.operations.filter((op) => resourceKey(op.pathTemplate) === key).length));
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(largest);
        if (total === 2) expect(shardOperations(contract, parseShard('2/2'))).toEqual(plan[1]);
      }
    }
  });

  it('groups a collection with its items, and suffixed paths with theirs', () => {
    expect(resourceKey('/pets')).toBe('/pets');
    expect(resourceKey('/pets/{petId}')).toBe('/pets');
    expect(resourceKey('/pets/{petId}/photos')).toBe('/pets/{petId}/photos');
    expect(resourceKey('/Accounts/{AccountSid}/Calls.json')).toBe('/Accounts/{AccountSid}/Calls');
    expect(resourceKey('/Accounts/{AccountSid}/Calls/{Sid}.json')).toBe('/Accounts/{AccountSid}/Calls');
    expect(resourceKey('/{id}')).toBe('/');
  });

  it('--shard takes K/N and says what it takes otherwise', () => {
    expect(parseShard('3/4')).toEqual({ index: 3, total: 4 });
    for (const bad of ['0/4', '5/4', '4', '1/0', 'a/b', '1/1001', '-1/2']) expect(() => parseShard(bad), bad).toThrow(/--shard takes K\/N/);
  });
});

describe('merge-reports', () => {
  let target: Target;
  beforeAll(async () => {
    // A passive defect (a body breaks its schema), one of no operation (an unknown path answered 200), a stateful one.
    target = await startTargetWithDefects(['pet-status-adopted', 'unknown-path-200', 'deleted-pet-still-readable']);
  });
  afterAll(() => target?.close());

  const asFile = (report: RunReport, index: number): { file: string; report: RunReport } => ({ file: `shard-${index}.json`, report: readShardReport(createJsonReporter().render(report), `shard-${index}.json`) });

  it('the merged report of two shards gives a single run’s verdicts, through the JSON files', async () => {
    const only = ['response', 'routing', 'stateful'];
    const single = await runConformance({ baseUrl: target.url, seed: 1, only });
    const shards = [];
    for (const index of [1, 2]) shards.push(await runConformance({ baseUrl: target.url, seed: 1, only, shard: { index, total: 2 } }));
    // Each shard ran its own subjects: neither alone holds every verdict.
    for (const shard of shards) expect(verdicts(shard)).not.toEqual(verdicts(single));
    const merged = mergeShardReports(shards.map((report, i) => asFile(report, i + 1)));
    expect(verdicts(merged)).toEqual(verdicts(single));
    expect(merged.summary.failed > 0).toBe(single.summary.failed > 0);
    expect(merged.summary.skipped).toBe(single.summary.skipped);
    expect([...verdicts(single).keys()].some((key) => key.endsWith(' failed'))).toBe(true);
    expect(merged.summary.failed > 0).toBe(single.summary.failed > 0);
    expect(merged.coverage.operations.filter((o) => o.exercised).map((o) => o.operationId)).toEqual(single.coverage.operations.filter((o) => o.exercised).map((o) => o.operationId));
    expect(merged.meta.options['mergedShards']).toBe(2);
  });

  it('refuses a set that is not one whole run: a shard missing, given twice, or of another run', async () => {
    const only = ['unknown-path-404'];
    const one = asFile(await runConformance({ baseUrl: target.url, seed: 1, only, shard: { index: 1, total: 2 } }), 1);
    const two = asFile(await runConformance({ baseUrl: target.url, seed: 1, only, shard: { index: 2, total: 2 } }), 2);
    const otherSeed = asFile(await runConformance({ baseUrl: target.url, seed: 2, only, shard: { index: 2, total: 2 } }), 2);
    const whole = asFile(await runConformance({ baseUrl: target.url, seed: 1, only }), 0);
    expect(() => mergeShardReports([one])).toThrow(/shard 2\/2 missing/);
    expect(() => mergeShardReports([one, one, two])).toThrow(/both shard 1\/2/);
    expect(() => mergeShardReports([one, otherSeed])).toThrow(/another --seed/);
    expect(() => mergeShardReports([whole])).toThrow(/not of a shard/);
    expect(() => readShardReport('{"formatVersion": 1}', 'old.json')).toThrow(/not a JSON report of petstore-kit/);
    expect(() => readShardReport('nope', 'x.json')).toThrow(/not JSON/);
    expect(mergeShardReports([two, one]).summary.failed).toBeGreaterThan(0);
  });
});
