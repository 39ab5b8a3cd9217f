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
import petStoreBehaviour from '../../fixtures/rules/petstore.behaviour.mjs';
import { KitError } from '../../src/kit-error.js';
import { sharedCompiledContract, type CompiledContract } from '../../src/schema/index.js';
import { loadContract } from '../../src/contract/index.js';
import { createRouter } from '../../src/router.js';
import { createBrowserMock, type BrowserMockData, type MswMock } from '../msw/browser.js';
import { genericEngine } from '../msw/generic.js';
import { browserData } from '../msw/node.js';
import { PETSTORE_RULES } from '../behaviour/petstore/options.js';

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
  it('brings the engine itself: no engine passed, the document is served', async () => {
    const own = createBrowserMock(data, { origin: ORIGIN });
    expect(own.handlers.length).toBeGreaterThan(0);
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

/**
 * Issue 34: the Pet Store on the generic engine inside a page. browserData puts the rule file in the data as JSON
 * (its behaviour module named, not loaded), and the entry brings the engine and the module, bundled with it.
 * Run here in Node behind setupServer, through JSON as a fetched file would be; browser.e2e.test.ts runs it in
 * Chromium.
 */
describe('petstore-kit/msw/browser serving the Pet Store on the generic engine', () => {
  const PET_STORE_ORIGIN = 'http://petstore.example.test';
  let petStoreData: BrowserMockData;

  beforeAll(async () => {
    petStoreData = JSON.parse(JSON.stringify(await browserData({ mockOverlay: PETSTORE_RULES }))) as BrowserMockData;
    // As a page does: the data alone; the entry brings the engine and the Pet Store's behaviour module.
    const petStore = createBrowserMock(petStoreData, { origin: PET_STORE_ORIGIN });
    // The file's one server (two would each intercept fetch), with this origin's handlers added.
    server.use(...petStore.handlers);
  });

  it("the data carries the rule file as JSON and the seed folder's records; the Pet Store's own store starts empty", () => {
    expect(petStoreData.generic?.overlay?.behaviour).toBe('petstore.behaviour.mjs');
    expect(petStoreData.generic?.overlay?.paths?.['/store/orders']).toHaveProperty('x-mock-states');
    expect(Object.keys(petStoreData.generic?.fixtures as object).sort()).toEqual(['categories', 'inventory', 'orders', 'pets']);
    expect(petStoreData.initial.pets).toEqual([]);
  });

  it('a Pet Store page is createBrowserMock(data) as before the one engine: the entry brings the engine and the module', async () => {
    const plain = createBrowserMock(petStoreData, { origin: PET_STORE_ORIGIN });
    expect(plain.handlers.length).toBeGreaterThan(0);
  });

  it('rules of another document that name a module of their own, not given: says at once what to pass', () => {
    const named = { ...petStoreData, generic: { ...petStoreData.generic, overlay: { ...petStoreData.generic?.overlay, behaviour: 'their.behaviour.mjs' } } };
    expect(() => createBrowserMock(named, { origin: PET_STORE_ORIGIN })).toThrow(/their\.behaviour\.mjs.*behaviour/);
  });

  it('keeps the stated rules and the behaviour module\'s: a new pet is available with stock 1 (rule 1), an order makes it pending (rule 2), it cannot go while ordered (rule 5)', async () => {
    const json = { 'content-type': 'application/json', 'x-mock-session': 'browser-generic' };
    const session = { 'x-mock-session': 'browser-generic' };
    const category = (await (await fetch(`${PET_STORE_ORIGIN}/categories`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Page birds' }) })).json()) as { id: number };
    const pet = (await (await fetch(`${PET_STORE_ORIGIN}/pets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Tweety', categoryId: category.id }) })).json()) as { id: number; status: string };
    // Rule 1 is the behaviour module's (createPet's after hook): without it the status would be absent.
    expect(pet.status).toBe('available');
    expect(await (await fetch(`${PET_STORE_ORIGIN}/store/inventory/${pet.id}`, { headers: session })).json()).toEqual({ petId: pet.id, quantity: 1, status: 'available' });
    expect((await fetch(`${PET_STORE_ORIGIN}/store/orders`, { method: 'POST', headers: json, body: JSON.stringify({ petId: pet.id, quantity: 1 }) })).status).toBe(201);
    expect(((await (await fetch(`${PET_STORE_ORIGIN}/pets/${pet.id}`, { headers: session })).json()) as { status: string }).status).toBe('pending');
    const refused = await fetch(`${PET_STORE_ORIGIN}/pets/${pet.id}`, { method: 'DELETE', headers: session });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe('PET_HAS_OPEN_ORDER');
  });

  // mock/store.test.ts's "the initial data is copied": the page's data object is the page's, before and after.
  it('keeps its own copy of the data: a page that changes the object afterwards changes no answer', async () => {
    const origin = 'http://petstore-copy.example.test';
    const given = structuredClone(petStoreData) as { generic: { fixtures: { pets: { id: number; name: string }[] } } } & BrowserMockData;
    const copyMock = createBrowserMock(given, { origin, genericEngine, behaviour: petStoreBehaviour });
    server.use(...copyMock.handlers);
    const first = given.generic.fixtures.pets[0]!;
    first.name = 'Changed by the page';
    given.generic.fixtures.pets.push({ id: 999, name: 'Pushed by the page' });
    const pets = (await (await fetch(`${origin}/pets?id=${first.id}&id=999`)).json()) as { id: number; name: string }[];
    expect(pets.map((p) => p.name)).toEqual([(petStoreData.generic!.fixtures as { pets: { name: string }[] }).pets[0]!.name]);
  });
});
