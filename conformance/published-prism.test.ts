/**
 * Issue 21, point 4: the runner on published third-party documents (fixtures/published: committed with their
 * licences, or from @octokit/openapi pinned in the lock file; no network), OpenAPI 3.0 and 3.1, small and
 * large, each against Prism's mock of the same document. Prism is not a correct server of these APIs (it keeps
 * no state, it has its own error answers, it serves the document's examples as they are), so the runner
 * does report findings here. The point is that every one of them was read and is Prism's or the document's
 * fault, never the runner's: each is put in a class below, with why; a finding no class explains fails the
 * test. The classes were written from reading the reports, not to fit a count: each names what it
 * recognises in the evidence, as narrowly as the evidence allows.
 *
 * Secured documents get dummy credentials of the kind their schemes name (Prism checks that they are there,
 * not what they are), so that the checks reach the operations; credentials.test.ts covers a run without them.
 * The largest documents run on their first operations only (`only`): the rest of their operations repeat what
 * the smaller documents show, at minutes of Prism's time each. Prism and the runner get the document cut to
 * those operations and the components they reach (test-support/document-subset.ts): Prism reads every
 * operation of what it is given before it answers one.
 *
 * Tiers (issue 33): this file runs the fast tier's slice, the smallest document of OpenAPI 3.0 and of 3.1 in the
 * table; published-prism.full.test.ts runs every other one.
 */
import { describe, expect, it } from 'vitest';
import { describePublishedPrism, documentNamed, fastPrismSlice, RUNS } from './test-support/published-prism-suite.js';

describe('the table of published documents run against Prism', () => {
  it('runs at least 15 published documents, OpenAPI 3.0 and 3.1, from a few KB to over 1 MB', () => {
    const outcomes = RUNS.map((run) => ({ document: documentNamed(run.name) }));
    expect(outcomes.length).toBeGreaterThanOrEqual(15);
    expect(new Set(outcomes.map((o) => o.document.version))).toEqual(new Set(['3.0', '3.1']));
    expect(Math.min(...outcomes.map((o) => o.document.bytes))).toBeLessThan(20_000);
    expect(Math.max(...outcomes.map((o) => o.document.bytes))).toBeGreaterThan(1_000_000);
  });

});

describePublishedPrism(fastPrismSlice());
