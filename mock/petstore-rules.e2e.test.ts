/**
 * The Pet Store served by the generic engine with the contract's rule file (fixtures/rules/petstore.rules.yaml, its
 * behaviour module for rules 1 and 6), through the seam of issue 34 (`useGenericEngine`): the same state-rule
 * scenarios as the Pet Store's own handlers pass (test-support/state-rule-scenarios.ts), every answer checked against
 * openapi.yaml by the contract client, every refusal with the contract's code and nothing changed. The generic engine
 * is not yet the Pet Store's engine (docs/rules.md, "The Pet Store's rule file").
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { describeStateRules } from './test-support/state-rule-scenarios.js';
import { describeStoreScenarios } from './test-support/store-scenarios.js';

const GENERIC = {
  mockOverlay: join(PACKAGE_ROOT, 'fixtures/rules/petstore.rules.yaml'),
  fixtures: join(PACKAGE_ROOT, 'fixtures/seed'),
};

describeStateRules('state rules, stated in fixtures/rules/petstore.rules.yaml and served by the generic engine', GENERIC);
describeStoreScenarios('the generic engine with fixtures/rules/petstore.rules.yaml', GENERIC);
