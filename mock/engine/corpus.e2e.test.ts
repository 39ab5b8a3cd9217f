/**
 * The generic engine against the corpus of real published documents (fixtures/published, issue 22 point 9). On
 * each: the mock starts; the kit's own runner (runConformance, in this process: a process of its own per document cost
 * a start and a cold JIT each, a third of the file's CPU; the command line is tested in conformance/) finds nothing; and a create / read / list / replace / update / delete round trip passes on
 * every inferred resource, every answer checked against the document by our validators and, through Stoplight
 * Prism's validation proxy in front of the mock, by Prism's (given the document cut to the resources' paths and the
 * components they reach, all the round trips call). One mock, one runner and one Prism per document, the runner and
 * Prism started together.
 *
 * Tiers (issue 33): this file runs the fast tier's slice, three small documents of three publishers
 * (test-support/corpus-slice.ts); corpus.e2e.full.test.ts runs every other one.
 *
 * What the runner reports that contradicts another of its own checks, or the document, is named below
 * (RUNNER_MISTAKES) with the reason. GitHub's three 11-14 MB descriptions get the start and
 * the round trips only: the runner's pass over their 1,000+ operations, and Prism's start on them, take minutes.
 */
import { PUBLISHED_DOCUMENTS } from '../../fixtures/published/index.js';
import { describeCorpus } from './test-support/corpus-suite.js';
import { fastCorpusSlice } from './test-support/corpus-slice.js';

describeCorpus(fastCorpusSlice(PUBLISHED_DOCUMENTS));
