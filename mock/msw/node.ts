/**
 * `petstore-kit/msw`: the mock as MSW request handlers for Node tests (`setupServer(...mock.handlers)`), backed by
 * the same core (app.ts) and store as the HTTP mock, with the same data options (`fixtures`, `seed`/`pets`), clock
 * (`now`), base path and validation mode, and a `reset()`. For a browser (`setupWorker`), `browserData()` prepares
 * the JSON that msw-browser.ts (`petstore-kit/msw/browser`) starts from.
 *
 *   const mock = await createMswMock({ origin: 'http://localhost:4010' });
 *   const server = setupServer(...mock.handlers);
 *   beforeAll(() => server.listen()); afterEach(() => mock.reset()); afterAll(() => server.close());
 */
import { basename } from 'node:path';
import { loadContract } from '../../src/contract/index.js';
import { DEFAULT_FIXTURES_DIR, DEFAULT_SPEC_PATH, KIT_VERSION } from '../../src/package-info.js';
import { sharedCompiledContract } from '../../src/schema/index.js';
import { servesPetStore } from '../engine/detect.js';
import { createGenericEngine, type GenericSettings } from '../engine/engine.js';
import { readBehaviour, readFixtureFiles, readOverlay } from '../engine/files.js';
import { createMswMockFrom, type MswMock, type MswMockSettings } from './adapter.js';
import type { BrowserGenericData, BrowserMockData } from './browser.js';
import { EMPTY_SNAPSHOT, generateSnapshot } from '../behaviour/petstore/seed.js';
import { withoutCounters, type MockOptions } from '../transport/server.js';
import { withPetStoreRules } from '../behaviour/petstore/options.js';

export { DEFAULT_MSW_ORIGIN, mswHandlers, servedOrigins, toFetchResponse, toMockRequest, type MswMock } from './adapter.js';

export interface MswMockOptions extends MswMockSettings, Pick<MockOptions, 'specPath' | 'fixtures' | 'seed' | 'pets' | 'mockOverlay' | 'behaviour'> {}

/**
 * The document (dereferenced) and the initial data as one JSON-ready value, for `createBrowserMock` in a page:
 * write it to a file the page fetches, e.g.
 * `node -e "import('petstore-kit/msw').then(async (m) => process.stdout.write(JSON.stringify(await m.browserData())))" > public/petstore-mock.json`
 */
export async function browserData(given: Pick<MswMockOptions, 'specPath' | 'fixtures' | 'seed' | 'pets' | 'mockOverlay'> = {}): Promise<BrowserMockData> {
  const contract = await loadContract(given.specPath ?? DEFAULT_SPEC_PATH);
  // The Pet Store is the generic engine with its rule file (petstore-rules.ts), as createMswMock serves it.
  const petStore = servesPetStore(contract);
  const options = withPetStoreRules(given, petStore);
  const generic = await browserGenericData(options, petStore);
  // `initial` is the older data's field, kept empty: every store's records are the generic engine's (`generic`).
  return { document: contract.document, sha256: contract.sha256, initial: EMPTY_SNAPSHOT, kitVersion: KIT_VERSION, strict: contract.strict, oasVersion: contract.oasVersion, ...(generic ? { generic } : {}) };
}

/**
 * The generic engine's part of a page's data: the rule file as JSON and, for the Pet Store, its records. The rule
 * file's behaviour module is named by its file name only (the page imports it; a path of this machine means nothing there).
 */
async function browserGenericData(options: Pick<MswMockOptions, 'mockOverlay' | 'seed' | 'pets' | 'fixtures'>, petStore: boolean): Promise<BrowserGenericData | undefined> {
  const read = options.mockOverlay !== undefined ? await readOverlay(options.mockOverlay) : undefined;
  const overlay = read?.behaviour !== undefined ? { ...read, behaviour: basename(read.behaviour) } : read;
  const petStoreData = petStore ? await genericPetStoreData(options) : undefined;
  return overlay || petStoreData ? { ...(overlay ? { overlay } : {}), ...petStoreData } : undefined;
}

export async function createMswMock(given: MswMockOptions = {}): Promise<MswMock> {
  const contract = await loadContract(given.specPath ?? DEFAULT_SPEC_PATH);
  // Compiled once per process for our document, as the HTTP mock does (server.ts): every test file's MSW set-up reuses it.
  const compiled = sharedCompiledContract(contract);
  // The Pet Store is the generic engine with its rule file and, unless told otherwise, its fixtures (petstore-rules.ts).
  const petStore = servesPetStore(contract);
  const options = withPetStoreRules(given, petStore);
  // A foreign document's corrections and rules (`mockOverlay`, as --mock-overlay), read here: the browser entry has no disk.
  const overlay = options.mockOverlay !== undefined ? await readOverlay(options.mockOverlay) : undefined;
  const behaviourFile = options.behaviour ?? overlay?.behaviour;
  const behaviour = behaviourFile !== undefined ? await readBehaviour(behaviourFile) : undefined;
  // The Pet Store's fixtures folder, or its own generator's data for a seed, as the HTTP mock reads them (server.ts).
  const petStoreData = petStore ? await genericPetStoreData(options) : undefined;
  const generic = overlay || behaviour || petStoreData ? { ...options.generic, ...petStoreData, ...(overlay ? { overlay } : {}), ...(behaviour ? { behaviour } : {}) } : options.generic;
  return createMswMockFrom(compiled, KIT_VERSION, { genericEngine: createGenericEngine, ...options, ...(generic ? { generic } : {}) });
}

/** The Pet Store's initial records for the generic engine: generated from a seed, read from a fixtures folder, or none. */
async function genericPetStoreData(options: Pick<MswMockOptions, 'seed' | 'pets' | 'fixtures'>): Promise<Pick<GenericSettings, 'fixtures' | 'fixturesGenerated'>> {
  if (options.seed !== undefined) {
    return { fixtures: withoutCounters(await generateSnapshot(options.seed, options.pets ?? 20)), fixturesGenerated: true };
  }
  if (options.fixtures === 'none') return { fixtures: 'none' };
  return { fixtures: await readFixtureFiles(options.fixtures ?? DEFAULT_FIXTURES_DIR) };
}
