/**
 * The runner against Prism's mock of published documents, the full tier's share (issue 33): every document of the
 * table the fast tier's slice (conformance/published-prism.test.ts, which says what is proved) leaves out.
 */
import { describePublishedPrism, fastPrismSlice, RUNS } from './test-support/published-prism-suite.js';

const fast = new Set(fastPrismSlice());
describePublishedPrism(RUNS.filter((run) => !fast.has(run)));
