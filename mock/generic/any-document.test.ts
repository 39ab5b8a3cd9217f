/**
 * The generic engine on documents nobody has seen (issue 32, point 2): each case is a small OpenAPI document drawn from
 * the shapes real APIs use (test-support/document-shapes.ts), seeded. For each: the mock starts; the kit's own runner,
 * every check of it, finds nothing (every request it generates from the document gets an answer the document allows,
 * judged by the runner's checks; a valid request is never refused); and a create / read / list / replace / update /
 * delete round trip passes on every inferred resource, every answer checked against the document by our validators
 * (foreign-client.ts). The fast tier draws a few seeds, the full tier many more; a seed that once failed is kept below
 * with what it showed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { compileContract } from '../../src/schema/index.js';
import { casesForTier } from '../../src/test-tier.js';
import { startMock } from '../server.js';
import { inferResources } from './infer.js';
import { generateDocument } from './test-support/document-shapes.js';
import { createForeignClient, roundTrips } from './test-support/foreign-client.js';

/** Seeds that once failed, with what they showed: each stays a case of its own, in both tiers. */
const REGRESSIONS: readonly { readonly seed: number; readonly showed: string }[] = [
  { seed: 1166, showed: 'a slug the mock made from its pattern broke its maxLength (43 characters for 40): a create answered what its schema refuses' },
  { seed: 1001, showed: "a composite key (`ab:12`) in a Location: the round trip read it back encoded twice (the test client's mistake)" },
  { seed: 1004, showed: 'the runner, run concurrently, saw a record another of its checks was replacing as changed by a rejected request' },
  { seed: 1057, showed: 'a PUT that creates, at a slug or composite key: the round trip sent an id its pattern refuses (the test client\'s mistake)' },
];

/**
 * What the runner reports that the document does not promise, with the reason: its owners' to fix, named here so a
 * run shows it rather than hides it. Matched against `checkId operationId: reason`.
 */
const RUNNER_GAPS: readonly { readonly finding: RegExp; readonly why: string }[] = [
  {
    finding: /^create-read-back \S+: (\S+ answered 409 CONFLICT to a valid body|(id|\w+_id|\w+Id) differs from what was sent)/,
    why: "the runner sends a writable integer key at its schema's minimum (1), which the mock's initial data holds; the mock rightly answers the create's documented 409, or, where none is documented, hands out a free id as a server that keeps ids unique does. The runner tags text keys to keep them free (README), not integer ones.",
  },
];

const DRAWN = casesForTier({ fast: 4, full: 200 });
const seeds = [...new Set([...REGRESSIONS.map((r) => r.seed), ...Array.from({ length: DRAWN }, (_, i) => 1000 + i)])];
const work = mkdtempSync(join(tmpdir(), 'any-document-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(seeds)('generated document, seed %i', (seed) => {
  it('starts; the runner finds nothing; the round trips hold', async (context) => {
    const { document, shapes } = generateDocument(seed);
    const file = join(work, `seed-${seed}.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));
    const what = `seed ${seed} (${file}): ${shapes.join('; ')}`;
    const mock = await startMock({ port: 0, specPath: file, quiet: true, log: () => {} });
    const compiled = compileContract(mock.app.contract);
    const client = createForeignClient(mock.url, compiled, mock.app.basePath);
    try {
      const map = inferResources(mock.app.contract);
      const trips = await roundTrips(client, compiled, map);
      for (const trip of trips) expect(trip.steps.filter((step) => step.startsWith('skipped')), `${what}\n${trip.resource}`).toEqual([]);
      // One request at a time: run concurrently, the runner's "changed nothing" observations (negative-parameters,
      // stable-reads) read a record another of its checks is writing (a PUT that creates at an id the data holds),
      // and blame the target for it. The runner's race, reported to its owners; not a defect of the mock.
      const report = await runConformance({ baseUrl: `${mock.url}${mock.app.basePath}`, specPath: file, seed, concurrency: 1 });
      const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
      const excused = failed.filter((finding) => RUNNER_GAPS.some((gap) => gap.finding.test(finding)));
      if (excused.length > 0) context.annotate(`runner gaps (named in RUNNER_GAPS): ${excused.join(' | ')}`);
      expect(failed.filter((finding) => !excused.includes(finding)), what).toEqual([]);
    } finally {
      await client.close();
      await mock.close();
    }
  }, 120_000);
});
