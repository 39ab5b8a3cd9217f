/**
 * getPet's deprecation, as contract.md has it: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and `Link` (successor-version and deprecation) on
 * every answer, errors included; 410 after the sunset, still with the three;
 * no other operation sends Deprecation. The clock is set per request with
 * `X-Mock-Now` or for the process with `now` (`--now`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../test-support/contract-client.js';
import { detailPaths, expectError, newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

const DEPRECATION = '@1767225600'; // 2026-01-01T00:00:00Z
const SUNSET = 'Wed, 30 Jun 2027 23:59:59 GMT';
const link = (id: string, base = ''): string =>
  `<${base}/pets?id=${id}>; rel="successor-version", <https://petstore.example.com/docs/deprecations#getPet>; rel="deprecation"; type="text/html"`;

function expectDeprecated(answer: Exchange, id: string, base = ''): void {
  expect(answer.headers['deprecation']).toBe(DEPRECATION);
  expect(answer.headers['sunset']).toBe(SUNSET);
  expect(answer.headers['link']).toBe(link(id, base));
}

let t: TestMock;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestMock({ quiet: false, log: (line) => lines.push(line) });
});
afterAll(async () => {
  await t?.close();
});

describe('getPet deprecation headers', () => {
  it('are on a 200, computed from the document', async () => {
    const api = t.client.session(sessionName('dep'));
    const pet = await newPet(api, (await newCategory(api)).id);
    const answer = await api.get(`/pets/${pet.id}`);
    expect(answer.status).toBe(200);
    expectDeprecated(answer, String(pet.id));
  });

  it('are on every error: 400, 404, 406, 413, and forced 500', async () => {
    expectDeprecated(await t.client.get('/pets/abc'), 'abc');
    expectDeprecated(await t.client.get('/pets/999999'), '999999');
    expectDeprecated(await t.client.get('/pets/1', { headers: { accept: 'text/html' } }), '1');
    expectDeprecated(await t.client.send('GET', '/pets/1', { body: new Uint8Array(1024 * 1024 + 10), headers: { 'content-type': 'application/json' } }), '1');
    expectDeprecated(await t.client.get('/pets/1', { headers: { prefer: 'code=500' } }), '1');
  });

  it('are sent by no other operation (the contract client checks every answer; here explicitly)', async () => {
    for (const path of ['/pets', '/categories', '/categories/1', '/store/orders', '/store/orders/1', '/store/inventory', '/store/inventory/1', '/nope']) {
      expect((await t.client.get(path)).headers['deprecation']).toBeUndefined();
    }
  });
});

describe('sunset', () => {
  it('X-Mock-Now at the sunset instant still serves; one second later answers 410 with the three headers', async () => {
    expect((await t.client.get('/pets/1', { headers: { 'x-mock-now': '2027-06-30T23:59:59Z' } })).status).toBe(200);
    const gone = await t.client.get('/pets/1', { headers: { 'x-mock-now': '2027-07-01T00:00:00Z' } });
    const body = expectError(gone, 410, 'OPERATION_SUNSET');
    expect(body['message']).toContain('/pets?id=1');
    expectDeprecated(gone, '1');
    // Any offset is understood: 02:00+02:00 is midnight UTC, after the sunset.
    expect((await t.client.get('/pets/1', { headers: { 'x-mock-now': '2027-07-01T02:00:00+02:00' } })).status).toBe(410);
    expect((await t.client.get('/pets/1', { headers: { 'x-mock-now': '2027-07-01T01:59:58+02:00' } })).status).toBe(200);
  });

  it('only getPet is sunset: its successor still answers', async () => {
    const successor = await t.client.get('/pets', { query: { id: 1 }, headers: { 'x-mock-now': '2030-01-01T00:00:00Z' } });
    expect(successor.status).toBe(200);
  });

  it('an invalid X-Mock-Now is a 400 naming the header, with the deprecation headers', async () => {
    for (const value of ['tomorrow', '2027-07-01', '2027-02-30T00:00:00Z', '2027-07-01T00:00:00', '2027-07-01T24:00:00Z']) {
      const answer = await t.client.get('/pets/1', { headers: { 'x-mock-now': value } });
      expectError(answer, 400, 'VALIDATION_FAILED');
      expect(detailPaths(answer)).toEqual(['/header/x-mock-now']);
      expectDeprecated(answer, '1');
    }
  });

  it('the process clock (--now) past the sunset gives 410; X-Mock-Now overrides it per request', async () => {
    const late = await startTestMock({ now: new Date('2028-01-01T00:00:00Z') });
    try {
      expectError(await late.client.get('/pets/1'), 410, 'OPERATION_SUNSET');
      expect((await late.client.get('/pets/1', { headers: { 'x-mock-now': '2026-06-01T00:00:00Z' } })).status).toBe(200);
    } finally {
      await late.close();
    }
  });
});

describe('the request log', () => {
  it('has one line per request with method, path, status and milliseconds, and a warning for the deprecated operation', async () => {
    lines.length = 0;
    await t.client.get('/pets', { query: { limit: 1 }, headers: { authorization: 'Bearer secret-token-123', cookie: 'sid=secret-cookie' } });
    await t.client.get('/pets/1', { headers: { authorization: 'Bearer secret-token-123' } });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/pets 200 [0-9.]+ms$/);
    expect(lines[1]).toMatch(/^GET \/pets\/1 200 [0-9.]+ms \| warning: getPet is deprecated \(sunset 2027-06-30T23:59:59Z\); use GET \/pets\?id=1$/);
    expect(lines.join('\n')).not.toMatch(/secret/);
  });

  it('--quiet logs nothing', async () => {
    const quiet: string[] = [];
    const q = await startTestMock({ quiet: true, log: (line) => quiet.push(line) });
    try {
      await q.client.get('/pets/1');
      expect(quiet).toEqual([]);
    } finally {
      await q.close();
    }
  });
});

describe('under a base path', () => {
  it('serves the contract under the prefix; Location and the successor Link include it', async () => {
    const based = await startTestMock({ basePath: '/api/v1' });
    try {
      const api = based.client.session(sessionName('based'));
      const created = await api.post('/api/v1/categories', { name: 'Prefixed' });
      expect(created.status).toBe(201);
      const id = (created.body as { id: number }).id;
      expect(created.headers['location']).toBe(`/api/v1/categories/${id}`);
      const pet = await api.post('/api/v1/pets', { name: 'P', categoryId: id });
      expect(pet.headers['location']).toBe(`/api/v1/pets/${(pet.body as { id: number }).id}`);
      expectDeprecated(await api.get('/api/v1/pets/1'), '1', '/api/v1');
      expectError(await api.get('/pets'), 404, 'ROUTE_NOT_FOUND');
      expect((await based.client.get('/__mock/health')).status).toBe(200);
    } finally {
      await based.close();
    }
  });
});
