/**
 * Issue 34's switch, for the kit's own tests: with PETSTORE_KIT_TEST_ENGINE=generic the Pet Store is served by the
 * generic engine and its rule file (fixtures/rules/petstore.rules.yaml, which names its behaviour module) wherever
 * the kit starts its mock: startMock (so the test harness, the tests that call it directly and the CLI in a child
 * process, which inherits the environment) and createMswMock. The Pet Store's existing tests then run unchanged
 * against the engine that is to replace its own handlers, and show what it still lacks. Unset, nothing changes; a
 * caller that chose an engine itself (`useGenericEngine` given) keeps its choice, and another document is untouched.
 */
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR, PACKAGE_ROOT } from '../src/package-info.js';

export const TEST_ENGINE_ENV = 'PETSTORE_KIT_TEST_ENGINE';

/** The Pet Store's rules for the generic engine: the overlay issue 34's seam serves it with. */
export const PETSTORE_RULES = join(PACKAGE_ROOT, 'fixtures', 'rules', 'petstore.rules.yaml');

interface EngineChoice {
  readonly useGenericEngine?: boolean;
  readonly mockOverlay?: string;
  readonly fixtures?: string;
  readonly seed?: number;
}

/** `options` as the switch would have them for the Pet Store (`petStore`): the generic engine, its rules, its fixtures. */
export function withTestEngine<T extends EngineChoice>(options: T, petStore: boolean, env: NodeJS.ProcessEnv = process.env): T {
  if (!petStore || env[TEST_ENGINE_ENV] !== 'generic' || options.useGenericEngine !== undefined) return options;
  // The generic engine reads no fixtures unless told (it would fill the collections from the document's examples);
  // the Pet Store's own handlers read fixtures/seed by default, so the switch names that folder.
  const fixtures = options.seed === undefined && options.fixtures === undefined ? { fixtures: DEFAULT_FIXTURES_DIR } : {};
  return { ...options, useGenericEngine: true, mockOverlay: options.mockOverlay ?? PETSTORE_RULES, ...fixtures };
}
