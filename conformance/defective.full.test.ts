/**
 * The runner against deliberately defective servers, the full tier's share (issue 33): every planted bug the fast
 * tier's slice (conformance/defective.test.ts, which says what is proved and why) leaves out.
 */
import { DEFECT_NAMES } from '../fixtures/defective/index.js';
import { describePlantedBugs, fastDefectSlice } from './test-support/defective-runs.js';

const fast = new Set(fastDefectSlice());
describePlantedBugs(DEFECT_NAMES.filter((name) => !fast.has(name)));
