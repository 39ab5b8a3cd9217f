/**
 * Shard 3 of the planted-bug runs of defective.test.ts (see there, and
 * test-support/planted-bugs.ts for why they are split over files).
 */
import { describePlantedBugs } from './test-support/planted-bugs.js';

describePlantedBugs(3);
