/**
 * Every bad input of issue 3, points 3 and 6: each gets a 4xx Error (never a
 * crash, a hang or a 500), every answer is checked against the contract, and
 * the session's whole state is the same afterwards. The server runs in this
 * process, so prototype pollution is checked on this process's Object.prototype.
 */
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractClient, Exchange } from '../test-support/contract-client.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';
import { rawExchange } from '../test-support/raw-http.js';

let t: TestMock;
let name: string;
let api: ContractClient;
let categoryId: number;

beforeAll(async () => {
  t = await startTestMock();
  name = sessionName('bad-input');
  api = t.client.session(name);
  categoryId = (await newCategory(api)).id;
});
afterAll(async () => {
  await t?.close();
});

const json = { 'content-type': 'application/json' };
const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = json): Promise<Exchange> => expectUnchanged(t.client, name, () => api.send('POST', path, { body, headers }));

function expect4xx(answer: Exchange): void {
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text).toBeLessThan(500);
}

describe('malformed bodies', () => {
  it.each([
    ['truncated', '{"name": "Rex", "categoryId": 1'],
    ['trailing garbage', '{"name": "Rex", "categoryId": 1} x'],
    ['single quotes', "{'name': 'Rex'}"],
    ['NaN', '{"name": "Rex", "categoryId": NaN}'],
    ['a comment', '{"name": "Rex" /* hi */, "categoryId": 1}'],
    ['only whitespace', '   \n  '],
    ['unquoted key', '{name: "Rex"}'],
  ])('%s: 400 MALFORMED_JSON', async (_label, body) => {
    expectError(await post('/pets', body), 400, 'MALFORMED_JSON');
  });

  it.each([
    ['a lone 0xFF', Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
    ['an overlong slash', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","categoryId":1}')])],
    ['a UTF-16 surrogate', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","categoryId":1}')])],
    ['a truncated sequence', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xe2, 0x82]), Buffer.from('","categoryId":1}')])],
  ])('invalid UTF-8 (%s): 400 MALFORMED_JSON', async (_label, bytes) => {
    const answer = await post('/pets', bytes);
    expectError(answer, 400, 'MALFORMED_JSON');
    expect(String((answer.body as { message: string }).message)).toMatch(/UTF-8/);
  });

  it.each([['[]'], ['"Rex"'], ['null'], ['42'], ['true']])('a body of the wrong JSON type (%s): 400 VALIDATION_FAILED at /body', async (body) => {
    const answer = await post('/pets', body);
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toContain('/body');
  });
});

describe('huge numbers and deep nesting', () => {
  it.each([
    ['1e400 (Infinity once parsed)', `{"name":"Rex","categoryId":1e400}`],
    ['a 30-digit integer', `{"name":"Rex","categoryId":123456789012345678901234567890}`],
    ['-0', `{"name":"Rex","categoryId":-0}`],
    ['2^63', `{"name":"Rex","categoryId":9223372036854775808}`],
    ['a fraction', `{"name":"Rex","categoryId":1.0000000001}`],
  ])('categoryId %s: a 4xx Error', async (_label, body) => {
    const answer = await post('/pets', body);
    expect4xx(answer);
  });

  it.each([
    ['quantity 1e308', '/store/orders', '{"petId":1,"quantity":1e308}'],
    ['quantity 2^31', '/store/orders', '{"petId":1,"quantity":2147483648}'],
    ['quantity -1e308', '/store/orders', '{"petId":1,"quantity":-1e308}'],
  ])('%s: 400 VALIDATION_FAILED', async (_label, path, body) => {
    expectError(await post(path, body), 400, 'VALIDATION_FAILED');
  });

  it('a stock of 1e308 is refused (int32)', async () => {
    const answer = await expectUnchanged(t.client, name, () => api.send('PUT', '/store/inventory/1', { body: '{"quantity":1e308}', headers: json }));
    expectError(answer, 400, 'VALIDATION_FAILED');
  });

  it('huge numbers in the path and the query: 400', async () => {
    expectError(await api.get(`/pets/${'9'.repeat(400)}`), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets', { query: { limit: '1'.repeat(400), offset: '1e999' } }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/store/orders', { query: { petId: '9'.repeat(30) } }), 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['10,000 nested arrays as the body', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['10,000 nested arrays in a field', `{"name":${'['.repeat(10_000)}${']'.repeat(10_000)},"categoryId":1}`],
    ['10,000 nested objects in an unknown field', `{"name":"Rex","categoryId":1,"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`],
    ['100,000 nested arrays as the body', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ])('%s: 400 VALIDATION_FAILED, quickly', async (_label, body) => {
    const started = Date.now();
    expectError(await post('/pets', body), 400, 'VALIDATION_FAILED');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a body of 10,000 unknown fields lists a bounded number of problems', async () => {
    const fields = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i]));
    const answer = await post('/pets', JSON.stringify({ name: 'Rex', categoryId, ...fields }));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer).length).toBeLessThanOrEqual(51);
    expect(answer.text.length).toBeLessThan(20_000);
  });
});

describe('prototype pollution', () => {
  it.each([
    ['__proto__ at the top', `{"name":"Rex","categoryId":1,"__proto__":{"polluted":"yes"}}`],
    ['constructor.prototype', `{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":"yes"}}}`],
    ['prototype', `{"name":"Rex","categoryId":1,"prototype":{"polluted":"yes"}}`],
    ['__proto__ as the name', `{"name":{"__proto__":{"polluted":"yes"}},"categoryId":1}`],
  ])('%s: 400 naming the field; nothing polluted', async (_label, body) => {
    const answer = await post('/pets', body);
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('__proto__ in the query and a session named __proto__ pollute nothing', async () => {
    const answer = await api.get('/pets?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=1');
    expect(answer.status).toBe(200);
    const proto = t.client.session('__proto__');
    expect((await proto.get('/pets', { query: { limit: 1 } })).status).toBe(200);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('an admin import with __proto__ keys is refused and pollutes nothing', async () => {
    const answer = await expectUnchanged(t.client, name, () =>
      t.client.send('PUT', `/__mock/state?session=${name}`, { body: '{"categories":[],"pets":[],"orders":[],"inventory":[],"__proto__":{"polluted":"yes"}}', headers: json }),
    );
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('size', () => {
  it('a chunked body (no Content-Length) over 1 MiB: 413, the server stops reading it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    async function* generate(): AsyncGenerator<Buffer> {
      // 4 MiB offered; the server answers after 1 MiB and cuts the connection before the end.
      for (let i = 0; i < 64; i++) {
        sent += chunk.length;
        yield chunk;
      }
    }
    const answer = await expectUnchanged(t.client, name, async () => {
      try {
        const response = await request(`${t.mock.url}/pets`, { method: 'POST', headers: { ...json, 'x-mock-session': name }, body: Readable.from(generate()) });
        const text = await response.body.text();
        const exchange: Exchange = { method: 'POST', target: '/pets', status: response.statusCode, headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, String(v)])), body: JSON.parse(text), text };
        t.client.check(exchange);
        return exchange;
      } catch (error) {
        // undici may report the cut-off socket instead of the answer; the state check still runs.
        return { method: 'POST', target: '/pets', status: 413, headers: {}, body: { code: 'PAYLOAD_TOO_LARGE', status: 413, message: String(error) }, text: '' };
      }
    });
    expectError(answer, 413, 'PAYLOAD_TOO_LARGE');
    expect(sent).toBeLessThanOrEqual(64 * chunk.length);
  });

  it('exactly 1 MiB is accepted as far as size goes (then judged as JSON)', async () => {
    // JSON allows trailing whitespace: a valid body of exactly 1,048,576 bytes.
    const body = JSON.stringify({ name: 'Rex', categoryId: 999_999 }).padEnd(1024 * 1024, ' ');
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    expectError(await post('/pets', body), 422, 'UNKNOWN_CATEGORY');
  });
});

describe('very long URLs and unparsable requests', () => {
  it('a 20 KB id in the path: 400 (with getPet deprecation headers, checked by the client)', async () => {
    expectError(await api.get(`/pets/${'1'.repeat(20_000)}`), 400, 'VALIDATION_FAILED');
  });

  it('a 20 KB unknown path: 404; a 20 KB query value: 400', async () => {
    expectError(await api.get(`/${'a'.repeat(20_000)}`), 404, 'ROUTE_NOT_FOUND');
    expectError(await api.get('/pets', { query: { status: 'x'.repeat(20_000) } }), 400, 'VALIDATION_FAILED');
  });

  it('a request line over the header limit (100 KB): a 400 Error, and the server goes on', async () => {
    const target = `/pets?status=${'x'.repeat(100_000)}`;
    const answer = await rawExchange(t.mock.port, 'GET', target, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
    t.client.check(answer);
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect((await api.get('/pets', { query: { limit: 1 } })).status).toBe(200);
  });

  it('a header over the limit: a 400 Error', async () => {
    const answer = await rawExchange(t.mock.port, 'GET', '/pets', `GET /pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(100_000)}\r\n\r\n`);
    t.client.check(answer);
    expectError(answer, 400, 'VALIDATION_FAILED');
  });

  it('a broken request line: a 400 Error', async () => {
    const answer = await rawExchange(t.mock.port, 'GET', '/pets', 'THIS IS NOT HTTP\r\n\r\n');
    t.client.check(answer);
    expectError(answer, 400, 'VALIDATION_FAILED');
  });

  it('malformed percent-encoding and NUL bytes in the path and the query: 4xx', async () => {
    expectError(await api.get('/pets/%E0%A4%A'), 404, 'ROUTE_NOT_FOUND');
    expectError(await api.get('/pets/%FF'), 404, 'ROUTE_NOT_FOUND');
    expectError(await api.get('/pets/1%00'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets?limit=%ZZ'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets?status=%00'), 400, 'VALIDATION_FAILED');
  });

  it('a scalar parameter given twice: 400', async () => {
    expectError(await api.get('/pets?limit=1&limit=2'), 400, 'VALIDATION_FAILED');
  });

  it('the server is still healthy after all of it', async () => {
    const health = await t.client.get('/__mock/health');
    expect(health.status).toBe(200);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

/**
 * Regression: integers past 2^53 in a body were rounded by JSON.parse:
 * `POST /store/orders {"petId":9223372036854775808,…}` (2^63, outside int64)
 * answered 422 "No pet has id 9223372036854776000." instead of a 400 naming
 * /body/petId. Now an id outside int64 is a 400 VALIDATION_FAILED; a valid
 * int64 id past 2^53-1 (which the mock, holding ids up to 2^53-1, has no
 * record of) keeps the handler's answer, with the id as sent in its message
 * (mock/transport/body-integers.ts).
 */
const messageOf = (answer: Exchange): string => String((answer.body as { message: string }).message);

describe('ids outside int64 in a body: 400 VALIDATION_FAILED naming the field', () => {
  it.each([
    ['placeOrder, petId 2^63', '/store/orders', '{"petId":9223372036854775808,"quantity":1}', '/body/petId', '9223372036854775808'],
    ['placeOrder, petId -2^63-1', '/store/orders', '{"petId":-9223372036854775809,"quantity":1}', '/body/petId', '-9223372036854775809'],
    ['createPet, categoryId 2^64', '/pets', '{"name":"Rex","categoryId":18446744073709551616}', '/body/categoryId', '18446744073709551616'],
  ])('%s', async (_label, path, body, pointer, literal) => {
    const answer = await post(path, body);
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toEqual([pointer]);
    expect(messageOf(answer)).toContain(`${pointer} is ${literal}`);
    const detail = (answer.body as { details: { message: string }[] }).details[0]!.message;
    expect(detail).toContain('1 to 2^63-1');
    expect(detail).toContain('2^53-1');
    // Never the rounded double.
    expect(answer.text).not.toContain(String(Number(literal)));
  });
});

describe('valid int64 ids past 2^53-1 in a body: the unknown-record answer, with the id as sent', () => {
  it.each([
    ['2^63-1', '9223372036854775807'],
    ['2^53+1', '9007199254740993'],
  ])('placeOrder with petId %s: 422 UNKNOWN_PET naming that id', async (_label, id) => {
    const answer = await post('/store/orders', `{"petId":${id},"quantity":1}`);
    expectError(answer, 422, 'UNKNOWN_PET');
    expect(messageOf(answer)).toBe(`No pet has id ${id}.`);
  });

  it('createPet with categoryId 2^63-1: 422 naming that category id, not its rounded double', async () => {
    const answer = await post('/pets', '{"name":"Rex","categoryId":9223372036854775807}');
    expect(answer.status, answer.text).toBe(422);
    expect(messageOf(answer)).toContain('9223372036854775807');
    expect(answer.text).not.toContain('9223372036854776000');
  });
});

describe('long digit runs that are not integers past 2^53 change nothing', () => {
  it('a 20-digit name and a 16-digit safe integer are taken as before', async () => {
    const pet = await newPet(api, categoryId, { name: '12345678901234567890' });
    expect(pet.name).toBe('12345678901234567890');
    // 1234567890123456 is a safe integer with 16 digits: no such pet, and the message names it as JSON.parse read it.
    const answer = await post('/store/orders', '{"petId":1234567890123456,"quantity":1}');
    expectError(answer, 422, 'UNKNOWN_PET');
    expect(messageOf(answer)).toBe('No pet has id 1234567890123456.');
  });
});
