/**
 * The six state rules of the contract (contract.md, "State rules") and its "Details", and what the Pet Store's former
 * store promised, end to end over HTTP against the Pet Store mock: the generic engine with the contract's rule file
 * (fixtures/rules/petstore.rules.yaml, its behaviour module for rules 1 and 6), named here as startMock names it by
 * default. The scenarios (test-support/state-rule-scenarios.ts, store-scenarios.ts) check every answer against
 * openapi.yaml with the contract client, every refusal with the contract's code and nothing changed.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { describeStateRules } from '../test-support/state-rule-scenarios.js';
import { describeStoreScenarios } from '../test-support/store-scenarios.js';

const GENERIC = {
  mockOverlay: join(PACKAGE_ROOT, 'fixtures/rules/petstore.rules.yaml'),
  fixtures: join(PACKAGE_ROOT, 'fixtures/seed'),
};

describeStateRules('state rules, stated in fixtures/rules/petstore.rules.yaml and served by the generic engine', GENERIC);
describeStoreScenarios('the generic engine with fixtures/rules/petstore.rules.yaml', GENERIC);
