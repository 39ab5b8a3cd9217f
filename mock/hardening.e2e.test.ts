/**
 * Issue 12: hostile input never takes the mock down, and strangers cannot
 * touch its state. Each test is named after the finding it fixes. Memory is
 * measured as the peak resident set of a mock in a child process (VmHWM), never as a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DIAGNOSTICS } from '../src/schema/index.js';
import { IMPORT_FLOOR_BYTES } from './state-import.js';
import { CAN_MEASURE_RSS, peakRssMiB, startChildMock, useChildMocks } from './test-support/child-mock.js';
import type { Exchange } from './test-support/contract-client.js';
import { detailPaths, expectError, expectUnchanged, sessionName, startTestMock, type TestMock } from './test-support/harness.js';
import { rawExchange } from './test-support/raw-http.js';

const clientFor = await useChildMocks();

const MiB = 1024 * 1024;
/** What a state-changing admin call must carry (finding 4). */
const ADMIN = 'X-Mock-Admin: 1\r\n';

/** `{"categories":[],"pets":[0,0,…],…}` of about `bytes` bytes: every pet of the wrong type. */
function zeros(bytes: number): Buffer {
  const count = Math.floor((bytes - 60) / 2);
  return Buffer.from(`{"categories":[],"orders":[],"inventory":[],"pets":[${'0,'.repeat(count)}0]}`);
}

/** `[[[…` of `bytes` bytes, never closed. */
function nested(bytes: number): Buffer {
  return Buffer.alloc(bytes, '[');
}

function putState(port: number, body: Buffer, framing: 'length' | 'chunked'): Promise<Exchange> {
  const length = framing === 'length' ? `Content-Length: ${body.length}\r\n` : 'Transfer-Encoding: chunked\r\n';
  const head = Buffer.from(`PUT /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${ADMIN}${length}\r\n`);
  const framed = framing === 'length' ? [head, body] : [head, Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')];
  return rawExchange(port, 'PUT', '/__mock/state', Buffer.concat(framed), 60_000);
}

describe('issue 12 finding 1: one hostile PUT /__mock/state does not kill the mock', () => {
  it.skipIf(!CAN_MEASURE_RSS)('refuses 63 MiB of [0,…] and 57 MiB of nested [ with a 4xx, answers others meanwhile, and stays within 400 MB', async () => {
    const mock = await startChildMock(['--port', '0', '--quiet']);
    const api = clientFor(mock.url);
    const pid = mock.child.pid!;

    const hostile = [
      putState(mock.port, zeros(63 * MiB), 'length'),
      putState(mock.port, zeros(63 * MiB), 'chunked'),
      putState(mock.port, nested(57 * MiB), 'length'),
      putState(mock.port, nested(57 * MiB), 'chunked'),
    ];
    // Others are answered meanwhile.
    const others = Array.from({ length: 5 }, () => api.get('/pets'));
    for (const answer of await Promise.all(hostile)) {
      api.check(answer);
      expectError(answer, 413, 'PAYLOAD_TOO_LARGE');
    }
    for (const answer of await Promise.all(others)) expect(answer.status).toBe(200);

    // Just under the limit, sized to the data: read, then refused at the first bounded batch of problems.
    const many = await putState(mock.port, zeros(IMPORT_FLOOR_BYTES - 1024), 'length');
    api.check(many);
    expectError(many, 400, 'VALIDATION_FAILED');
    const details = (many.body as { details: { path: string }[] }).details;
    expect(details.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS + 1);
    expect(details[0]?.path).toBe('/body/pets/0');
    const deep = await putState(mock.port, nested(IMPORT_FLOOR_BYTES - 1024), 'length');
    api.check(deep);
    expectError(deep, 400, 'VALIDATION_FAILED');

    expect((await api.get('/pets')).status).toBe(200);
    // It was 4.95 GB and a heap-limit crash for the 63 MiB body alone.
    expect(peakRssMiB(pid)).toBeLessThan(400);
    process.kill(pid, 'SIGTERM');
    expect(await mock.exit).toBe(0);
  }, 120_000);
});

describe('issue 12 finding 5: an import obeys every bound of the document', () => {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock();
  });
  afterAll(async () => {
    await t?.close();
  });
  const base = { categories: '[{"id":1,"name":"Dogs"}]', pets: '[{"id":1,"name":"Rex","categoryId":1,"status":"available"}]', orders: '[]', inventory: '[{"petId":1,"quantity":1}]' };
  const state = (part: Partial<typeof base>): string => {
    const all = { ...base, ...part };
    return `{"categories":${all.categories},"pets":${all.pets},"orders":${all.orders},"inventory":${all.inventory}}`;
  };

  it.each([
    ['a pet id past 2^53-1', state({ pets: '[{"id":9007199254740993,"name":"Rex","categoryId":1}]', inventory: '[{"petId":9007199254740993,"quantity":1}]' }), '/body/pets/0/id'],
    ['a category id of 1e300', state({ categories: '[{"id":1e300,"name":"Dogs"}]' }), '/body/categories/0/id'],
    ['a categoryId past 2^53-1', state({ pets: '[{"id":1,"name":"Rex","categoryId":9007199254740993}]' }), '/body/pets/0/categoryId'],
    ['an order id of 1e300', state({ orders: '[{"id":1e300,"petId":1,"quantity":1,"complete":true}]' }), '/body/orders/0/id'],
    ['an order petId past 2^53-1', state({ orders: '[{"id":1,"petId":9007199254740993,"quantity":1,"complete":true}]' }), '/body/orders/0/petId'],
    ['an inventory petId of 1e300', state({ inventory: '[{"petId":1,"quantity":1},{"petId":1e300,"quantity":1}]' }), '/body/inventory/1/petId'],
    ['an id of 0', state({ categories: '[{"id":0,"name":"Dogs"}]' }), '/body/categories/0/id'],
    ['a stock past int32', state({ inventory: '[{"petId":1,"quantity":2147483648}]' }), '/body/inventory/0/quantity'],
    ['a name over 100 characters', state({ pets: `[{"id":1,"name":"${'x'.repeat(101)}","categoryId":1}]` }), '/body/pets/0/name'],
  ])('refuses %s with a 400 pointing at it, and changes nothing', async (_label, body, pointer) => {
    const name = sessionName('finding-5');
    const answer = await expectUnchanged(t.client, name, () =>
      t.client.send('PUT', '/__mock/state', { query: { session: name }, body, headers: { 'content-type': 'application/json', 'x-mock-admin': '1' } }),
    );
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toContain(pointer);
  });

  it('imports the largest safe id', async () => {
    const name = sessionName('finding-5-max');
    const max = Number.MAX_SAFE_INTEGER;
    const body = state({ pets: `[{"id":${max},"name":"Rex","categoryId":1}]`, inventory: `[{"petId":${max},"quantity":1}]` });
    const answer = await t.client.send('PUT', '/__mock/state', { query: { session: name }, body, headers: { 'content-type': 'application/json', 'x-mock-admin': '1' } });
    expect(answer.status, answer.text).toBe(200);
    expect(((await t.client.session(name).get(`/pets?id=${max}`)).body as { id: number }[]).map((p) => p.id)).toEqual([max]);
  });
});
