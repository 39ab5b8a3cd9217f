/**
 * Issue 13, points 6 and 7: answers browser code can read, and honest conveniences. Each test names the defect it
 * fixes: a wrong method that only ever failed as "Failed to fetch", headers a page could not read, a
 * `Preference-Applied` for a preference that was not honoured, a forced 409 about a category on deletePet, a
 * forced 201 pointing at another pet, a misspelled filter answered in silence, a base path nobody was told about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJournal, MAX_JOURNAL_BODY_BYTES } from '../conveniences/journal.js';
import { detailPaths, expectError, newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

const ORIGIN = { origin: 'http://localhost:5173' };
const logged: string[] = [];

let t: TestMock;
let strict: TestMock;
let prefixed: TestMock;
beforeAll(async () => {
  [t, strict, prefixed] = await Promise.all([
    startTestMock({ quiet: false, log: (line) => logged.push(line) }),
    startTestMock({ validation: 'strict' }),
    startTestMock({ basePath: '/api/v1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), strict?.close(), prefixed?.close()]);
});

describe('a wrong method reaches its 405 from a browser (regression: preflight refused it, "Failed to fetch")', () => {
  it('a preflight for an undocumented method on a known path allows it, so the real request gets its 405', async () => {
    const preflight = await t.client.send('OPTIONS', '/pets', { headers: { ...ORIGIN, 'access-control-request-method': 'PATCH' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']?.split(', ')).toContain('PATCH');
    const actual = await t.client.send('PATCH', '/pets', { headers: ORIGIN, json: {} });
    expectError(actual, 405, 'METHOD_NOT_ALLOWED');
    expect(actual.headers['allow']).toBe('GET, POST');
    expect(actual.headers['access-control-allow-origin']).toBe('*');
  });

  it('exposes Allow, Preference-Applied and the unknown-query notice along with the documented headers', async () => {
    const answer = await t.client.get('/pets', { headers: ORIGIN });
    const exposed = (answer.headers['access-control-expose-headers'] ?? '').split(', ');
    for (const name of ['Allow', 'Preference-Applied', 'X-Mock-Unknown-Query', 'Location', 'X-Total-Count', 'Deprecation', 'Sunset', 'Link']) expect(exposed).toContain(name);
  });
});

describe('Preference-Applied names only what was applied (regression: sent for refused preferences)', () => {
  it('a request refused with 400 before the forced answer does not claim code=200, but its delay was applied', async () => {
    const answer = await t.client.get('/pets', { query: { limit: 0 }, headers: { prefer: 'code=200, delay=1' } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(answer.headers['preference-applied']).toBe('delay=1');
  });

  it('a sunset answer (410) does not claim a forced 200', async () => {
    const answer = await t.client.get('/pets/1', { headers: { prefer: 'code=200', 'x-mock-now': '2028-01-01T00:00:00Z' } });
    expectError(answer, 410, 'OPERATION_SUNSET');
    expect(answer.headers['preference-applied']).toBeUndefined();
  });
});

describe('Prefer: code answers as THIS operation would, about THIS request', () => {
  it('deletePet forced to 409 is its own conflict about the pet in the path (regression: "A category named Dogs")', async () => {
    const answer = await t.client.delete('/pets/7', { headers: { prefer: 'code=409' } });
    const body = expectError(answer, 409, 'PET_HAS_OPEN_ORDER');
    expect(body['message']).toMatch(/^Pet 7 /);
  });

  it("names the pet's real open order, or none (regression: DELETE /pets/7 named the example's \"open order 1\", pet 2's)", async () => {
    const [open] = (await t.client.get('/store/orders', { query: { petId: 7, complete: false } })).body as { id: number }[];
    expect(open?.id).toBe(3);
    expect(expectError(await t.client.delete('/pets/7', { headers: { prefer: 'code=409' } }), 409, 'PET_HAS_OPEN_ORDER')['message']).toBe('Pet 7 has the open order 3; complete or cancel it first.');
    expect(expectError(await t.client.delete('/pets/1', { headers: { prefer: 'code=409' } }), 409, 'PET_HAS_OPEN_ORDER')['message']).toBe('Pet 1 has no open order; this 409 was asked for with Prefer: code=409.');
  });

  it('getPet forced to 200 and 404 names the id in the path', async () => {
    expect((await t.client.get('/pets/7', { headers: { prefer: 'code=200' } })).body).toMatchObject({ id: 7 });
    expect((await t.client.get('/pets/7', { headers: { prefer: 'code=404' } })).body).toMatchObject({ message: 'No pet has id 7.' });
  });

  it('placeOrder forced to 422 names the petId of the body', async () => {
    const answer = await t.client.post('/store/orders', { petId: 12, quantity: 1 }, { headers: { prefer: 'code=422' } });
    expect(expectError(answer, 422, 'UNKNOWN_PET')['message']).toBe('No pet has id 12.');
  });

  it("createPet forced to 201 echoes the body and its Location names no existing pet (regression: another pet's Location)", async () => {
    const name = sessionName('forced-201');
    const client = t.client.session(name);
    const category = await newCategory(client);
    const real = await newPet(client, category.id); // takes id 21, the example's id
    const forced = await client.post('/pets', { name: 'Forced', categoryId: category.id, status: 'pending' }, { headers: { prefer: 'code=201' } });
    expect(forced.status).toBe(201);
    const body = forced.body as { id: number; name: string; categoryId: number; status: string };
    expect(body).toMatchObject({ name: 'Forced', categoryId: category.id, status: 'pending' });
    expect(body.id).not.toBe(real.id);
    expect(forced.headers['location']).toBe(`/pets/${body.id}`);
    expect((await client.get(forced.headers['location']!)).status).toBe(404);
  });
});

describe('an unknown query parameter is named (regression: ?stauts=sold silently listed every pet)', () => {
  it('is answered, and named in X-Mock-Unknown-Query and in the log', async () => {
    const answer = await t.client.get('/pets', { query: { stauts: 'sold' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-mock-unknown-query']).toBe('stauts');
    expect(logged.some((line) => line.startsWith('GET /pets 200') && line.includes('unknown query parameter stauts'))).toBe(true);
  });

  it('is refused with a 400 naming it under --validation strict', async () => {
    const answer = await strict.client.get('/pets', { query: { stauts: 'sold', limit: 5 } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toEqual(['/query/stauts']);
    expect(answer.headers['x-mock-unknown-query']).toBe('stauts');
    expect((await strict.client.get('/pets', { query: { status: 'sold' } })).status).toBe(200);
  });
});

describe('--base-path', () => {
  it('a request that misses the base path gets a 404 saying where the API is (regression: a plain 404)', async () => {
    const answer = await prefixed.client.get('/pets');
    const body = expectError(answer, 404, 'ROUTE_NOT_FOUND');
    expect(body['message']).toContain('base path /api/v1');
    expect(body['message']).toContain('/api/v1/pets');
    expect((await prefixed.client.get('/api/v1/pets')).status).toBe(200);
  });
});

describe('the request journal: GET /__mock/requests', () => {
  it('lists what the front end sent, filtered by operationId, method, path and session; DELETE clears it', async () => {
    const name = sessionName('journal');
    const client = t.client.session(name);
    const category = await newCategory(client);
    await client.post('/pets', { name: 'Journalled', categoryId: category.id }, { headers: { authorization: 'Bearer secret-token' } });
    await client.get('/pets', { query: { status: 'available' } });

    const created = await t.client.get('/__mock/requests', { query: { operationId: 'createPet', session: name } });
    expect(created.status).toBe(200);
    const { requests } = created.body as { requests: { method: string; path: string; body: unknown; status: number; headers: Record<string, string> }[] };
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/pets', status: 201, body: { name: 'Journalled', categoryId: category.id } });
    expect(JSON.stringify(created.body)).not.toContain('secret-token');

    const listed = await t.client.get('/__mock/requests', { query: { method: 'get', path: '/pets', session: name } });
    expect((listed.body as { requests: { query: unknown }[] }).requests.map((r) => r.query)).toEqual([{ status: 'available' }]);

    expectError(await t.client.get('/__mock/requests', { query: { opId: 'x' } }), 400, 'VALIDATION_FAILED');
    const cleared = await t.client.delete('/__mock/requests');
    expect(cleared.status).toBe(200);
    expect(((await t.client.get('/__mock/requests', { query: { session: name } })).body as { count: number }).count).toBe(0);
  });

  it('keeps only the newest entries past its bound', () => {
    const journal = createJournal(3);
    for (let i = 1; i <= 5; i++) journal.record({ method: 'GET', path: `/pets/${i}`, query: {}, headers: {} }, 200, 'getPet', false);
    expect(journal.list({}).map((e) => e.path)).toEqual(['/pets/3', '/pets/4', '/pets/5']);
    expect(journal.list({ path: '/pets/4' }).map((e) => e.seq)).toEqual([4]);
  });

  it('keeps the size, not the content, of a body too large to hold a thousand of', () => {
    const journal = createJournal(2);
    const big = new TextEncoder().encode(JSON.stringify({ big: 'x'.repeat(MAX_JOURNAL_BODY_BYTES) }));
    journal.record({ method: 'POST', path: '/pets', query: {}, headers: {}, body: { kind: 'bytes', bytes: big } }, 400, 'createPet', true);
    journal.record({ method: 'POST', path: '/pets', query: {}, headers: {}, body: { kind: 'bytes', bytes: new TextEncoder().encode('{"small":true}') } }, 201, 'createPet', true);
    expect(journal.list({}).map((e) => [e.body, e.bodyBytesOmitted])).toEqual([
      [undefined, big.byteLength],
      [{ small: true }, undefined],
    ]);
  });

  // The ring holds bytes (journal.ts); what comes back out must be what went in, whatever fits a slot or not.
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  it.each([
    ['an ASCII request', '/pets/7', { 'content-type': 'application/json', 'x-mock-session': 'a' }, '{"name":"Rex","categoryId":1}'],
    ['non-ASCII path, header and body', '/categories/%C3%A9t%C3%A9', { prefer: 'example=été', origin: 'http://localhost:5173' }, '{"name":"Chat noir ✓ 🐈"}'],
    ['a path longer than a slot', `/pets/${'9'.repeat(3000)}`, { accept: 'application/json' }, '{"a":1}'],
    ['a header value cut at 200 characters', '/pets', { prefer: 'x'.repeat(500), accept: '*/*' }, undefined],
    ['a body that fills more than a slot', '/pets', { 'content-type': 'application/json' }, JSON.stringify({ name: 'n'.repeat(5000) })],
    ['a body with a byte order mark', '/pets', { 'content-type': 'application/json' }, '\uFEFF{"name":"Bom"}'],
    ['a header value that starts with U+FEFF', '/pets', { prefer: '\uFEFFexample=x' }, undefined],
  ])('gives back %s as it was recorded', (_what, path, headers, bodyText) => {
    const journal = createJournal(4);
    const body = bodyText === undefined ? undefined : ({ kind: 'bytes', bytes: encode(bodyText) } as const);
    journal.record({ method: 'PUT', path, query: { q: ['1', '2'] }, headers: { ...headers, authorization: 'Bearer secret' }, ...(body ? { body } : {}) }, 201, 'op', body !== undefined);
    const [entry] = journal.list({});
    const kept = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.length > 200 ? `${value.slice(0, 200)}…` : value]));
    expect(entry).toEqual({ seq: 1, method: 'PUT', path, query: { q: ['1', '2'] }, operationId: 'op', headers: kept, ...(bodyText !== undefined ? { body: JSON.parse(bodyText.replace(/^\uFEFF/, '')) } : {}), status: 201 });
  });

  it('keeps a body an adapter had already parsed (MSW), and none of an operation that takes no body', () => {
    const journal = createJournal(2);
    journal.record({ method: 'POST', path: '/pets', query: {}, headers: {}, body: { kind: 'json', value: { name: 'Parsed' } } }, 201, 'createPet', true);
    journal.record({ method: 'GET', path: '/pets/1', query: {}, headers: {}, body: { kind: 'bytes', bytes: encode('{"ignored":true}') } }, 200, 'getPet', false);
    expect(journal.list({}).map((e) => e.body)).toEqual([{ name: 'Parsed' }, undefined]);
    expect(journal.list({ operationId: 'getPet' }).map((e) => e.seq)).toEqual([2]);
    expect(journal.clear()).toBe(2);
    expect(journal.list({})).toEqual([]);
    journal.record({ method: 'GET', path: '/pets/2', query: {}, headers: {}, body: undefined }, 200, 'getPet', false);
    expect(journal.list({}).map((e) => e.seq)).toEqual([3]);
  });
});
