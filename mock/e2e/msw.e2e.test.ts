/**
 * Issue 13, point 4: `petstore-kit/msw` runs the mock's scripted front-end session through MSW's `setupServer`
 * with the same results as over HTTP, because both transports call the one core (msw-adapter.ts). Every MSW
 * answer is also checked against openapi.yaml by the contract client's checker.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { createMswMock, servedOrigins, type MswMock } from '../msw/node.js';
import { toExchange } from '../test-support/contract-client.js';
import { runFrontEndSession, type Send } from '../test-support/frontend-session.js';
import { sessionName, startTestMock, TEST_NOW, type TestMock } from '../test-support/harness.js';

const ORIGIN = 'http://petstore.test';

let t: TestMock;
let seeded: TestMock;
let msw: MswMock;
let mswSeeded: MswMock;
let mswLoopback: MswMock;
const server = setupServer();
/** A port nothing here listens on: a request MSW did not answer fails instead of reaching some other server. */
const LOOPBACK_PORT = 4;

beforeAll(async () => {
  [t, seeded, msw, mswSeeded, mswLoopback] = await Promise.all([
    startTestMock(),
    startTestMock({ seed: 7, pets: 6 }),
    createMswMock({ origin: ORIGIN, now: TEST_NOW }),
    createMswMock({ origin: 'http://seeded.test', now: TEST_NOW, seed: 7, pets: 6 }),
    createMswMock({ origin: `http://localhost:${LOOPBACK_PORT}`, now: TEST_NOW }),
  ]);
  server.use(...msw.handlers, ...mswSeeded.handlers, ...mswLoopback.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await Promise.all([t?.close(), seeded?.close()]);
});

const overHttp: Send = async ({ method, target, headers, json }) => {
  const exchange = await t.client.send(method, target, { ...(headers ? { headers } : {}), ...(json !== undefined ? { json } : {}) });
  return { status: exchange.status, headers: exchange.headers, body: exchange.body };
};

/** Through global fetch, which MSW's setupServer intercepts; the answer is checked against the contract too. */
const overMsw = (origin: string): Send => async ({ method, target, headers, json }) => {
  const response = await fetch(`${origin}${target}`, {
    method,
    headers: { ...headers, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  const text = await response.text();
  const exchange = toExchange(method, target, response.status, Object.fromEntries(response.headers), text);
  t.client.check(exchange);
  return { status: exchange.status, headers: exchange.headers, body: exchange.body };
};

describe('MSW handlers backed by the same core', () => {
  it('the scripted front-end session gives the same transcript through setupServer as over HTTP', async () => {
    const session = sessionName('frontend');
    const [http, mocked] = [await runFrontEndSession(overHttp, session), await runFrontEndSession(overMsw(ORIGIN), session)];
    expect(mocked).toEqual(http);
    // Equal, and right: the state rules and errors a front end must meet are all there.
    const status = (label: string): number | undefined => mocked.find((s) => s.label === label)?.status;
    expect(status('add a pet')).toBe(201);
    expect(status('delete a pet with an open order')).toBe(409);
    expect(status('reopen it: refused')).toBe(409);
    expect(status('a wrong method is a 405 with Allow')).toBe(405);
    expect(status('rehearse the sunset')).toBe(410);
    expect(mocked.find((s) => s.label === 'read it the deprecated way')?.headers['deprecation']).toMatch(/^@\d+$/);
    expect(mocked.find((s) => s.label === 'a misspelled filter is named')?.headers['x-mock-unknown-query']).toBe('stauts');
  });

  it('reset() brings a session back to the initial data', async () => {
    const session = sessionName('msw-reset');
    const send = overMsw(ORIGIN);
    const created = await send({ method: 'POST', target: '/categories', headers: { 'x-mock-session': session }, json: { name: 'Reset me' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    expect((await send({ method: 'GET', target: `/categories/${id}`, headers: { 'x-mock-session': session } })).status).toBe(200);
    msw.reset(session);
    expect((await send({ method: 'GET', target: `/categories/${id}`, headers: { 'x-mock-session': session } })).status).toBe(404);
  });

  it('takes the same seed options as the HTTP mock: the same data for the same seed', async () => {
    const [http, mocked] = await Promise.all([seeded.client.get('/pets', { query: { limit: 100 } }), overMsw('http://seeded.test')({ method: 'GET', target: '/pets?limit=100' })]);
    expect((mocked.body as unknown[]).length).toBe(6);
    expect(mocked.body).toEqual(http.body);
  });

  it('the journal sees what came through MSW', () => {
    const entries = msw.app.journal.list({ operationId: 'createCategory' });
    expect(entries.some((e) => (e.body as { name?: string } | undefined)?.name === 'Reset me')).toBe(true);
  });
});

describe('the origins MSW answers (issue 23, point 4)', () => {
  it('a loopback origin is served under localhost, 127.0.0.1 and [::1] alike, one store behind them (regression: only localhost)', async () => {
    expect(mswLoopback.origins).toEqual([`http://localhost:${LOOPBACK_PORT}`, `http://127.0.0.1:${LOOPBACK_PORT}`, `http://[::1]:${LOOPBACK_PORT}`]);
    const session = sessionName('msw-loopback');
    const created = await overMsw(`http://127.0.0.1:${LOOPBACK_PORT}`)({ method: 'POST', target: '/categories', headers: { 'x-mock-session': session }, json: { name: 'Printed address' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    for (const origin of mswLoopback.origins) {
      const read = await overMsw(origin)({ method: 'GET', target: `/categories/${id}`, headers: { 'x-mock-session': session } });
      expect(read.status, origin).toBe(200);
    }
  });

  it('the default is the document\'s server, http://localhost:4010, and its loopback twins; another host is served as given', () => {
    expect(servedOrigins('http://localhost:4010')).toEqual(['http://localhost:4010', 'http://127.0.0.1:4010', 'http://[::1]:4010']);
    expect(servedOrigins('http://127.0.0.1:4010/')).toEqual(['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']);
    expect(servedOrigins(ORIGIN)).toEqual([ORIGIN]);
    expect(msw.origins).toEqual([ORIGIN]);
  });

  it("docs/frontend.md's openapi-fetch example under MSW is mock/readme-examples/msw-typed-client.test.ts, shown verbatim", async () => {
    const [readme, example] = await Promise.all([readFile(join(PACKAGE_ROOT, 'docs', 'frontend.md'), 'utf8'), readFile(join(PACKAGE_ROOT, 'mock', 'readme-examples', 'msw-typed-client.test.ts'), 'utf8')]);
    expect(readme).toContain(example.trim());
  });
});
