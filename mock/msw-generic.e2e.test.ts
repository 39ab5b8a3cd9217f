/**
 * Issue 23, point 3 with issue 22, point 5: `petstore-kit/msw/browser` leaves the generic engine (and faker's
 * English data) out of its module graph, so a page that mocks only the Pet Store does not carry them; a page that
 * mocks another document brings the engine from `petstore-kit/msw/generic`. Here that page's code runs in Node,
 * behind MSW's setupServer: the data goes through JSON as a fetched file would, and every answer is checked against
 * the document.
 */
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../src/kit-error.js';
import { sharedCompiledContract, type CompiledContract } from '../src/schema/index.js';
import { loadContract } from '../src/contract/index.js';
import { createRouter } from '../src/router.js';
import { createBrowserMock, type BrowserMockData, type MswMock } from './msw-browser.js';
import { genericEngine } from './msw-generic.js';
import { browserData } from './msw.js';

const ORIGIN = 'http://pets.example.test';
const SPEC = createRequire(import.meta.url).resolve('@readme/oas-examples/3.0/json/petstore-expanded.json');
const server = setupServer();
let data: BrowserMockData;
let compiled: CompiledContract;
let mock: MswMock;

beforeAll(async () => {
  // Through JSON, as the page fetches it.
  data = JSON.parse(JSON.stringify(await browserData({ specPath: SPEC }))) as BrowserMockData;
  compiled = sharedCompiledContract(await loadContract(SPEC));
  mock = createBrowserMock(data, { origin: ORIGIN, genericEngine });
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

/** Through the global fetch MSW intercepts; the answer is checked against the document before the test sees it. */
async function send(method: string, path: string, json?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${ORIGIN}${path}`, {
    method,
    ...(json !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } : {}),
  });
  const text = await response.text();
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  const match = createRouter(compiled.contract, '/api').match(method, path.split('?')[0]!);
  if (match.kind !== 'match') throw new Error(`${method} ${path} names no operation of the document`);
  const verdict = compiled.operations.get(match.operation.operationId)!.response(response.status, Object.fromEntries(response.headers), body);
  expect(verdict.statusKey, `${method} ${path} answered ${response.status}, undocumented: ${text.slice(0, 300)}`).toBeDefined();
  expect(verdict.diagnostics, `${method} ${path}: ${text.slice(0, 300)}`).toEqual([]);
  return { status: response.status, body };
}

describe('petstore-kit/msw/browser with a document that is not the Pet Store', () => {
  it('without the generic engine, says at once what to pass', () => {
    const attempt = (): unknown => createBrowserMock(data, { origin: ORIGIN });
    expect(attempt).toThrow(KitError);
    expect(attempt).toThrow(/genericEngine.*petstore-kit\/msw\/generic/);
  });

  it("with it, keeps state under the document's server path (/api): create, read back, list, delete, then the 404", async () => {
    const created = await send('POST', '/api/pets', { name: 'Rex', tag: 'dog' });
    expect(created.status).toBe(200);
    const pet = created.body as { id: number; name: string; tag: string };
    expect(pet).toMatchObject({ name: 'Rex', tag: 'dog' });
    expect((await send('GET', `/api/pets/${pet.id}`)).body).toEqual(pet);
    expect((await send('GET', '/api/pets?limit=100')).body).toContainEqual(pet);
    expect((await send('DELETE', `/api/pets/${pet.id}`)).status).toBe(204);
    expect((await send('GET', `/api/pets/${pet.id}`)).status).toBe(404);
  });

  // Regression: reset() emptied the Pet Store's registry, which the generic engine does not use: its records stayed.
  it('reset() brings the data back to the initial records, which the generic engine holds itself', async () => {
    const pet = (await send('POST', '/api/pets', { name: 'Gone after reset', tag: 'cat' })).body as { id: number };
    expect((await send('GET', `/api/pets/${pet.id}`)).status).toBe(200);
    mock.reset();
    expect((await send('GET', `/api/pets/${pet.id}`)).status).toBe(404);
  });
});
