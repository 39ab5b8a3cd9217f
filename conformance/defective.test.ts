/**
 * The runner against deliberately defective servers (issue 4, "Tests that
 * must exist"; architecture principle 11): each planted bug must be flagged
 * by the check that owns it and by no other, so a defect is reported once
 * and a report points at the right cause. A transparent proxy comes first:
 * through it every check passes, so whatever fails later is the defect's
 * doing, not the proxy's.
 *
 * Tiers (issue 33): this file runs the transparent proxy and the first planted bug of each check family (by its
 * owner's family, in the catalogue's order); conformance/defective.full.test.ts runs every other planted bug.
 *
 * The transparent proxy gets a full run (all checks, CORS included), and so
 * does each planted bug whose owner judges every exchange. Any other planted
 * bug gets a run of its owner's family plus the families that judge every
 * exchange of a run (response, errors): those are where a second report of
 * the same defect would show, and a full run per bug (over 70 of them, each
 * sending some 2,000 requests) would cost minutes on two cores.
 */
import { readFileSync } from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { startMock } from '../mock/transport/server.js';
import { createAjv } from '../src/schema/index.js';
import { DEFECTS, DEFECT_NAMES } from '../fixtures/defective/index.js';
import { startProxy } from '../fixtures/defective/proxy.js';
import type { RunReport } from './model.js';
import { createReporter } from './reporters/index.js';
import { runConformance } from './runner.js';
import { describePlantedBugs, explain, failed, fastDefectSlice, runAgainst, RUN_TIMEOUT } from './test-support/defective-runs.js';

describe('through a transparent proxy', () => {
  let report: RunReport | undefined;
  const reportOf = async (): Promise<RunReport> => (report ??= await runAgainst((upstream) => startProxy((request, next) => next(request), upstream)));

  it('every check passes, so the proxy adds no defect of its own', { timeout: RUN_TIMEOUT }, async () => {
    const r = await reportOf();
    expect(failed(r), explain(failed(r))).toEqual([]);
    expect(r.summary.passed).toBeGreaterThan(0);
  });

  it('the real report validates against report.schema.json, and renders in every format', { timeout: RUN_TIMEOUT }, async () => {
    const r = await reportOf();
    const schema = JSON.parse(readFileSync(new URL('./report.schema.json', import.meta.url), 'utf8')) as object;
    const validate = createAjv().compile(schema);
    const json: unknown = JSON.parse(createReporter('json').render(r));
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true);
    expect(XMLValidator.validate(createReporter('junit').render(r))).toBe(true);
    expect(XMLValidator.validate(createReporter('html').render(r))).toBe(true);
    expect(createReporter('console', { color: false, quiet: true }).render(r)).toContain('0 failed');
  });
});

describe('every check family has at least two planted bugs', () => {
  it('and every owner is a check the runner has', { timeout: RUN_TIMEOUT }, async () => {
    const mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    try {
      const r = await runConformance({ baseUrl: mock.url, only: ['unknown-path-404'], seed: 1 });
      const families = new Map(r.meta.checks.map((c) => [c.id, c.family]));
      const perFamily = new Map<string, number>();
      for (const name of DEFECT_NAMES) {
        const family = families.get(DEFECTS[name].owner);
        expect(family, `${name}: no check ${DEFECTS[name].owner}`).toBeDefined();
        if (family) perFamily.set(family, (perFamily.get(family) ?? 0) + 1);
      }
      for (const family of new Set(families.values())) expect(perFamily.get(family) ?? 0, family).toBeGreaterThanOrEqual(2);
    } finally {
      await mock.close();
    }
  });
});

describePlantedBugs(fastDefectSlice());
