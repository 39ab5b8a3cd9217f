/**
 * `petstore-kit/msw/browser`: the mock inside a page, for `setupWorker(...mock.handlers)`. A browser has no disk,
 * so the document and the initial data come in as JSON that Node prepared (`browserData()` of `petstore-kit/msw`,
 * with the same fixtures or seed options as the HTTP mock); everything else is the same core and store.
 *
 *   const data = await (await fetch('/petstore-mock.json')).json();
 *   const mock = createBrowserMock(data);
 *   await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 *
 * A document that is not the Pet Store is served by the generic engine, which this entry leaves out (it and faker's
 * English data were three fifths of the bundle): bring it from `petstore-kit/msw/generic`,
 * `createBrowserMock(data, { genericEngine })`.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { OasVersion } from '../src/contract/load.js';
import { buildContract } from '../src/contract/model.js';
import { compileContract } from '../src/schema/index.js';
import type { StoreSnapshot } from './domain.js';
import { createMswMockFrom, type MswMock, type MswMockSettings } from './msw-adapter.js';

export { DEFAULT_MSW_ORIGIN, mswHandlers, servedOrigins, type MswMock, type MswMockSettings } from './msw-adapter.js';

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
}

export function createBrowserMock(data: BrowserMockData, settings: MswMockSettings = {}): MswMock {
  const contract = buildContract({ file: 'openapi.yaml', sha256: data.sha256, document: data.document, ...(data.oasVersion ? { oasVersion: data.oasVersion } : {}) }, { strict: data.strict ?? true });
  return createMswMockFrom(compileContract(contract), data.initial, data.kitVersion, settings);
}
