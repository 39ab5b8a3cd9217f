/**
 * The six state rules of the contract (contract.md, "State rules") and its "Details", end to end over HTTP against
 * the Pet Store's own handlers (the scenarios: test-support/state-rule-scenarios.ts).
 */
import { describeStateRules } from './test-support/state-rule-scenarios.js';
import { describeStoreScenarios } from './test-support/store-scenarios.js';

describeStateRules('state rules');
describeStoreScenarios("the Pet Store's own handlers");
