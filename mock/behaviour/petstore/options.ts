/**
 * The Pet Store is the generic engine plus its rule file (issue 34): fixtures/rules/petstore.rules.yaml states its
 * rules and names its behaviour module (petstore.behaviour.mjs) for what a statement cannot say. Wherever the kit
 * starts a mock from a file (startMock, so the command line; createMswMock; browserData) the Pet Store's options are
 * completed here: its rule file unless another is given, and its fixtures folder unless data was chosen.
 */
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR, PACKAGE_ROOT } from '../../../src/package-info.js';

/** The Pet Store's rules for the generic engine. */
export const PETSTORE_RULES = join(PACKAGE_ROOT, 'fixtures', 'rules', 'petstore.rules.yaml');

interface DataChoice {
  readonly mockOverlay?: string;
  readonly fixtures?: string;
  readonly seed?: number;
}

/** `options` for the Pet Store (`petStore`): its rule file and, unless a seed or a folder was chosen, fixtures/seed. */
export function withPetStoreRules<T extends DataChoice>(options: T, petStore: boolean): T {
  if (!petStore) return options;
  // The generic engine reads no fixtures unless told (it would fill the collections from the document's examples);
  // the Pet Store starts from fixtures/seed by default.
  const fixtures = options.seed === undefined && options.fixtures === undefined ? { fixtures: DEFAULT_FIXTURES_DIR } : {};
  return { ...options, mockOverlay: options.mockOverlay ?? PETSTORE_RULES, ...fixtures };
}
