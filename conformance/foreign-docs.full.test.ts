/**
 * The runner on documents written by others, the full tier's share (issue 33): every document of the corpus, and
 * every Prism run, the fast tier's slice (conformance/foreign-docs.test.ts, which says what is proved) leaves out.
 */
import { describeLoading, describePrismRuns, FAST_LOADS, FAST_PRISM_RUNS, files, PRISM_RUNS } from './test-support/foreign-docs-suite.js';

describeLoading(files.filter((file) => !FAST_LOADS.includes(file)));
describePrismRuns(PRISM_RUNS.map(([name]) => name).filter((name) => !FAST_PRISM_RUNS.includes(name)), false);
