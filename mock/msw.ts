/**
 * `petstore-kit/msw`: the mock as MSW request handlers for Node tests (`setupServer(...mock.handlers)`), backed by
 * the same core (app.ts) and store as the HTTP mock, with the same data options (`fixtures`, `seed`/`pets`), clock
 * (`now`), base path and validation mode, and a `reset()`. For a browser (`setupWorker`), see msw-browser.ts.
 *
 *   const mock = await createMswMock({ origin: 'http://localhost:4010' });
 *   const server = setupServer(...mock.handlers);
 *   beforeAll(() => server.listen()); afterEach(() => mock.reset()); afterAll(() => server.close());
 */
import type { HttpHandler } from 'msw';
import { loadContract } from '../src/contract/index.js';
import { DEFAULT_SPEC_PATH, KIT_VERSION } from '../src/package-info.js';
import { compileContract } from '../src/schema/index.js';
import { createMockApp, type MockApp } from './app.js';
import { mswHandlers } from './msw-adapter.js';
import { initialData, type MockOptions } from './server.js';
import { createStoreRegistry } from './store.js';

export { DEFAULT_MSW_ORIGIN, mswHandlers, toFetchResponse, toMockRequest } from './msw-adapter.js';

export interface MswMockOptions extends Pick<MockOptions, 'specPath' | 'fixtures' | 'seed' | 'pets' | 'now' | 'basePath' | 'validation' | 'maxSessions'> {
  /** The origin the front end calls (scheme, host, port): its requests are answered, others pass through. Default http://localhost:4010. */
  readonly origin?: string;
}

export interface MswMock {
  /** Spread into `setupServer(...)` or `server.use(...)`. */
  readonly handlers: HttpHandler[];
  /** The core, for in-process checks (the journal: `mock.app.journal.list({})`). */
  readonly app: MockApp;
  /** Back to the initial data: every store, or one X-Mock-Session; the journal is emptied with it. */
  reset(session?: string): void;
}

export async function createMswMock(options: MswMockOptions = {}): Promise<MswMock> {
  const contract = await loadContract(options.specPath ?? DEFAULT_SPEC_PATH);
  const compiled = compileContract(contract);
  const registry = createStoreRegistry(await initialData(options, compiled), { ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}) });
  const app = createMockApp({
    compiled,
    registry,
    kitVersion: KIT_VERSION,
    notes: false,
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    ...(options.validation !== undefined ? { validation: options.validation } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  return {
    handlers: mswHandlers(app, options.origin),
    app,
    reset(session) {
      registry.reset(session);
      if (session === undefined) app.journal.clear();
    },
  };
}
