/**
 * `petstore-kit/msw/browser`: the mock inside a page, for `setupWorker(...mock.handlers)`. A browser has no disk,
 * so the document and the initial data come in as JSON that Node prepared (`browserData()` of `petstore-kit/msw`,
 * with the same fixtures or seed options as the HTTP mock); everything else is the same core and engine.
 *
 *   const data = await (await fetch('/petstore-mock.json')).json();
 *   const mock = createBrowserMock(data);
 *   await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 *
 * Every document is served by the one engine, which this entry brings (with faker's English data, most of a page's
 * bundle). The Pet Store is that engine plus its rule file (issue 34): `browserData()` puts the rule file in the data
 * as JSON, and this entry brings the rule file's behaviour module too (a page loads no file by path), so a Pet Store
 * page is `createBrowserMock(data)` as before. Another document's rules that name a module of their own:
 * `createBrowserMock(data, { behaviour })`.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { OasVersion } from '../../src/contract/load.js';
import { buildContract } from '../../src/contract/model.js';
import { KitError } from '../../src/kit-error.js';
import { compileContract } from '../../src/schema/index.js';
import type { Behaviour } from '../behaviour/hooks.js';
import type { StoreSnapshot } from '../behaviour/petstore/domain.js';
import type { MockOverlay } from '../engine/infer.js';
import type { FixtureFiles } from '../engine/initial.js';
import petStoreBehaviour from '../../fixtures/rules/petstore.behaviour.mjs';
import { servesPetStore } from '../engine/detect.js';
import { createGenericEngine } from '../engine/engine.js';
import { createMswMockFrom, type MswMock, type MswMockSettings } from './adapter.js';

export { DEFAULT_MSW_ORIGIN, mswHandlers, servedOrigins, type MswMock, type MswMockSettings } from './adapter.js';

/** What Node prepares for a page: the dereferenced document and the data every store starts from. */
export interface BrowserMockData {
  readonly document: OpenAPIV3.Document;
  readonly sha256: string;
  readonly initial: StoreSnapshot;
  readonly kitVersion: string;
  /** False for a document from elsewhere: its schemas are compiled leniently, as the HTTP mock does (absent: true). */
  readonly strict?: boolean;
  /** The dialect of the document's schemas (absent: 3.0). */
  readonly oasVersion?: OasVersion;
  /**
   * The generic engine's data, for the Pet Store served by it (issue 34) or a document given a rule file: the rule
   * file as JSON (its `behaviour` only the module's file name, which the page imports itself) and the records the
   * engine starts from. Present, the page must bring the engine (and the behaviour module the rules name).
   */
  readonly generic?: BrowserGenericData;
}

export interface BrowserGenericData {
  readonly overlay?: MockOverlay;
  readonly fixtures?: FixtureFiles | 'none';
  /** The records are the kit's own generator's (`seed`), valid by construction (GenericSettings.fixturesGenerated). */
  readonly fixturesGenerated?: boolean;
}

export interface BrowserMockSettings extends MswMockSettings {
  /** The behaviour module the rules name (`import behaviour from './petstore.behaviour.mjs'`): a page loads no file by path. */
  readonly behaviour?: Behaviour;
}

export function createBrowserMock(data: BrowserMockData, settings: BrowserMockSettings = {}): MswMock {
  const contract = buildContract({ file: 'openapi.yaml', sha256: data.sha256, document: data.document, ...(data.oasVersion ? { oasVersion: data.oasVersion } : {}) }, { strict: data.strict ?? true });
  const { behaviour: _module, ...rest } = settings;
  // The Pet Store's rule file names its module, which this entry brings; another document's, the page passes.
  const behaviour = settings.behaviour ?? (servesPetStore(contract) && data.generic?.overlay?.behaviour === PET_STORE_BEHAVIOUR ? petStoreBehaviour : undefined);
  return createMswMockFrom(compileContract(contract), data.kitVersion, { genericEngine: createGenericEngine, ...rest, ...genericSettings(data, settings.generic, behaviour) });
}

/** The file name the Pet Store's rule file gives its behaviour module (fixtures/rules/petstore.rules.yaml). */
const PET_STORE_BEHAVIOUR = 'petstore.behaviour.mjs';

/** The engine's settings from what Node prepared (`data.generic`) and the behaviour module. */
function genericSettings(data: BrowserMockData, given: MswMockSettings['generic'], module: Behaviour | undefined): Pick<MswMockSettings, 'generic'> {
  const generic = data.generic;
  if (generic === undefined) return module ? { generic: { ...given, behaviour: { module, file: 'behaviour' } } } : {};
  const named = generic.overlay?.behaviour;
  // Said at once: rules whose module is missing would serve quietly wrong.
  if (named !== undefined && module === undefined) {
    throw new KitError('USAGE', `The rules name the behaviour module ${named}, which a page cannot load by path: import it and pass createBrowserMock(data, { behaviour }).`);
  }
  const behaviour = module ? { behaviour: { module, file: named ?? 'behaviour' } } : {};
  return {
    generic: {
      ...given,
      ...(generic.overlay ? { overlay: generic.overlay } : {}),
      ...(generic.fixtures !== undefined ? { fixtures: generic.fixtures } : {}),
      ...(generic.fixturesGenerated ? { fixturesGenerated: true } : {}),
      ...behaviour,
    },
  };
}
