/**
 * Issue 11: the runner on OpenAPI 3.0 documents written by others. The
 * corpus is installed from the npm registry (@readme/oas-examples: the
 * OpenAPI Initiative's examples and a vendor's feature fixtures), never
 * copied into the repository.
 *
 * 1. Every 3.0.x document of the corpus that swagger-parser validates loads
 *    through our loader (warnings allowed) and compiles every validator; one
 *    it refuses, we refuse too, with SPEC_INVALID.
 * 2. Against Prism's mock of a handful of them, and of our construct
 *    documents (fixtures/documents), the runner finishes without crashing and
 *    reports none of the findings issue 11 point 4 names: our contract's
 *    conventions imposed on a document that does not declare them.
 *
 * Tiers (issue 33): this file loads the five smallest documents of the corpus and runs Prism on the two construct
 * documents the regressions below read; conformance/foreign-docs.full.test.ts does the rest.
 */
import { describe, expect, it } from 'vitest';
import { describeLoading, describePrismRuns, FAST_LOADS, FAST_PRISM_RUNS, files } from './test-support/foreign-docs-suite.js';

describe('the corpus of third-party OpenAPI 3.0 documents (@readme/oas-examples)', () => {
  it('holds at least 15 documents', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });
});

describeLoading(FAST_LOADS);
describePrismRuns(FAST_PRISM_RUNS, true);
