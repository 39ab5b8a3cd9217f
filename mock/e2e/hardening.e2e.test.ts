/**
 * Issue 12: hostile input never takes the mock down, and strangers cannot
 * touch its state. Each test is named after the finding it fixes. Memory is
 * measured as the peak resident set of a mock in a child process (VmHWM), never as a time.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DIAGNOSTICS } from '../../src/schema/index.js';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { ADMIN_ERROR_CODES, createAdminAccess, reachabilityWarning } from '../admin/access.js';
import { KitError } from '../../src/kit-error.js';
import { mockOptionsFrom } from '../transport/cli.js';
import { IMPORT_FLOOR_BYTES } from '../admin/import-bounds.js';
import { CAN_MEASURE_RSS, peakRssMiB, startChildMock, useChildMocks } from '../test-support/child-mock.js';
import { toExchange, type Exchange } from '../test-support/contract-client.js';
import { detailPaths, expectError, expectUnchanged, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';
import { rawExchange } from '../test-support/raw-http.js';

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

/** A request as a browser page or a bare script sends it: none of the test client's admin headers. */
async function bare(mock: TestMock, method: 'GET' | 'POST' | 'PUT' | 'OPTIONS', target: string, headers: Record<string, string> = {}, body?: string): Promise<Exchange> {
  const answer = await request(`${mock.mock.url}${target}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const exchange = toExchange(method, target, answer.statusCode, answer.headers, await answer.body.text());
  mock.client.check(exchange);
  return exchange;
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

describe('issue 12 finding 4: strangers cannot touch the mock\'s state', () => {
  const page = 'http://evil.test';
  let t: TestMock;
  let restricted: TestMock;
  let guarded: TestMock;
  const lines: string[] = [];
  const TOKEN = 's3cret-admin-token';
  beforeAll(async () => {
    [t, restricted, guarded] = await Promise.all([
      startTestMock(),
      startTestMock({ corsOrigin: 'http://localhost:5173' }),
      startTestMock({ adminToken: TOKEN, quiet: false, log: (line) => lines.push(line) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), restricted?.close(), guarded?.close()]);
  });

  const noCorsGrant = (exchange: Exchange): void => {
    expect(Object.keys(exchange.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  };

  it('answers a page of another origin with a 403 and no CORS grant, reads and preflights included', async () => {
    for (const mock of [t, restricted]) {
      const read = await bare(mock, 'GET', '/__mock/state', { origin: page });
      expectError(read, 403, 'ADMIN_ORIGIN_REFUSED');
      noCorsGrant(read);
      const preflight = await bare(mock, 'OPTIONS', '/__mock/reset', { origin: page, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-mock-admin' });
      expect(preflight.status).toBe(403);
      noCorsGrant(preflight);
      // Even the front-end origin --cors-origin allows gets no grant here.
      noCorsGrant(await bare(mock, 'GET', '/__mock/health', { origin: 'http://localhost:5173' }));
    }
  });

  it('refuses a simple cross-origin POST /__mock/reset (no preflight needed) and changes nothing', async () => {
    const name = sessionName('finding-4');
    await restricted.client.session(name).post('/categories', { name: 'Kept' });
    const answer = await expectUnchanged(restricted.client, name, () => bare(restricted, 'POST', `/__mock/reset?session=${name}`, { origin: page, 'content-type': 'text/plain' }));
    expectError(answer, 403, 'ADMIN_ORIGIN_REFUSED');
  });

  it('refuses a name rebound to 127.0.0.1 (DNS rebinding): its Host is not a loopback name', async () => {
    expectError(await bare(t, 'GET', '/__mock/state', { host: 'evil.test', origin: page }), 403, 'ADMIN_ORIGIN_REFUSED');
    expectError(await bare(t, 'GET', '/__mock/state', { host: `evil.test:${t.mock.port}` }), 403, 'ADMIN_ORIGIN_REFUSED');
  });

  it('needs X-Mock-Admin: 1 for a state-changing call, which a page cannot send without a preflight', async () => {
    const name = sessionName('finding-4-header');
    await t.client.session(name).post('/categories', { name: 'Kept' });
    expectError(await expectUnchanged(t.client, name, () => bare(t, 'POST', `/__mock/reset?session=${name}`)), 403, 'ADMIN_HEADER_REQUIRED');
    const empty = JSON.stringify({ categories: [], pets: [], orders: [], inventory: [] });
    expectError(await expectUnchanged(t.client, name, () => bare(t, 'PUT', `/__mock/state?session=${name}`, { 'content-type': 'application/json' }, empty)), 403, 'ADMIN_HEADER_REQUIRED');
    expect((await bare(t, 'GET', `/__mock/state?session=${name}`)).status).toBe(200);
    expect((await bare(t, 'POST', `/__mock/reset?session=${name}`, { 'x-mock-admin': '1' })).status).toBe(200);
  });

  it('with --admin-token, every admin call needs the token, the API does not, and the token is never printed', async () => {
    expectError(await bare(guarded, 'GET', '/__mock/state'), 403, 'ADMIN_TOKEN_REQUIRED');
    expectError(await bare(guarded, 'POST', '/__mock/reset', { 'x-mock-admin': '1' }), 403, 'ADMIN_TOKEN_REQUIRED');
    const wrong = await bare(guarded, 'GET', '/__mock/health', { 'x-mock-admin-token': `${TOKEN}x` });
    expectError(wrong, 403, 'ADMIN_TOKEN_REQUIRED');
    expect(wrong.text).not.toContain(TOKEN);
    expect((await bare(guarded, 'GET', '/__mock/state', { 'x-mock-admin-token': TOKEN })).status).toBe(200);
    expect((await bare(guarded, 'POST', '/__mock/reset', { 'x-mock-admin-token': TOKEN })).status).toBe(200);
    expect((await bare(guarded, 'GET', '/pets')).status).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('beyond loopback: warns, and keeps the admin surface closed unless a token is set or --admin-open is given', () => {
    const json = { host: '192.0.2.1:4010' };
    expect(reachabilityWarning({ host: '127.0.0.1' })).toBeUndefined();
    expect(reachabilityWarning({ host: '0.0.0.0' })).toMatch(/listens on 0\.0\.0\.0, reachable from other machines; its \/__mock\/ admin surface is closed/);
    expect(reachabilityWarning({ host: '0.0.0.0', token: TOKEN })).not.toContain(TOKEN);
    expect(reachabilityWarning({ host: '::', open: true })).toMatch(/OPEN/);

    expect(createAdminAccess({ host: '0.0.0.0' })('GET', json)?.code).toBe('ADMIN_CLOSED');
    expect(createAdminAccess({ host: '0.0.0.0' })('POST', { ...json, 'x-mock-admin': '1' })?.code).toBe('ADMIN_CLOSED');
    expect(createAdminAccess({ host: '0.0.0.0', open: true })('POST', { ...json, 'x-mock-admin': '1' })).toBeUndefined();
    expect(createAdminAccess({ host: '0.0.0.0', token: TOKEN })('GET', json)?.code).toBe('ADMIN_TOKEN_REQUIRED');
    expect(createAdminAccess({ host: '0.0.0.0', token: TOKEN })('PUT', { ...json, 'x-mock-admin-token': TOKEN })).toBeUndefined();
    expect(ADMIN_ERROR_CODES.ADMIN_CLOSED).toBe(403);
  });

  it('takes the token from --admin-token or PETSTORE_KIT_ADMIN_TOKEN, and never echoes a bad one', () => {
    expect(mockOptionsFrom(['--admin-token', TOKEN], {}).adminToken).toBe(TOKEN);
    expect(mockOptionsFrom([], { PETSTORE_KIT_ADMIN_TOKEN: TOKEN }).adminToken).toBe(TOKEN);
    expect(mockOptionsFrom(['--host', '0.0.0.0', '--admin-open'], {})).toMatchObject({ host: '0.0.0.0', adminOpen: true });
    const bad = 'short\u0007';
    expect(() => mockOptionsFrom(['--admin-token', bad], {})).toThrow(KitError);
    try {
      mockOptionsFrom(['--admin-token', bad], {});
    } catch (error) {
      expect((error as KitError).code).toBe('USAGE');
      expect((error as KitError).message).not.toContain('short');
    }
  });
});

/** A raw GET whose answer the client does not read until `resume()`; `done` resolves with every byte once the connection closes. */
function stalledGet(port: number, target: string): { socket: Socket; resume(): void; done: Promise<Buffer> } {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {
    // A cut connection may end in a reset; what arrived is what is checked.
  });
  const done = new Promise<Buffer>((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks))));
  socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return { socket, resume: () => socket.resume(), done };
}

/**
 * A raw answer's body, de-chunked when it came chunked (RFC 9112 §7.1), and whether all of it arrived:
 * the Content-Length reached, or the last (empty) chunk seen.
 */
function answerBody(raw: Buffer): { complete: boolean; body: Buffer } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, split).toString('latin1');
  const rest = raw.subarray(split + 4);
  const length = /^content-length: *([0-9]+)/im.exec(head)?.[1];
  if (length !== undefined) return { complete: rest.length >= Number(length), body: rest.subarray(0, Number(length)) };
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = rest.indexOf('\r\n', at);
    if (eol === -1) return { complete: false, body: Buffer.concat(parts) };
    const size = Number.parseInt(rest.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return { complete: true, body: Buffer.concat(parts) };
    if (eol + 2 + size > rest.length) return { complete: false, body: Buffer.concat([...parts, rest.subarray(eol + 2)]) };
    parts.push(rest.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

describe('issue 12 finding 6: a client that stops reading does not hold the mock\'s memory', () => {
  it.skipIf(!CAN_MEASURE_RSS)('cuts stalled downloads after --idle-timeout, round after round, within a bounded peak', async () => {
    // About 9 MB of export, more than the kernel buffers of one loopback connection hold.
    const mock = await startChildMock(['--port', '0', '--seed', '1', '--pets', '100000', '--idle-timeout', '1000']);
    const pid = mock.child.pid!;
    const cuts = (): number => mock.stderr().match(/ cut: nothing moved for 1000 ms/g)?.length ?? 0;
    for (let round = 1; round <= 3; round++) {
      const stalled = Array.from({ length: 6 }, () => stalledGet(mock.port, '/__mock/state'));
      // The mock logs each cut; wait for this round's (bounded: the test's own timeout).
      while (cuts() < 6 * round) await sleep(100);
      for (const download of stalled) download.resume();
      for (const raw of await Promise.all(stalled.map((d) => d.done))) {
        expect(raw.toString('latin1', 0, 15)).toBe('HTTP/1.1 200 OK');
        expect(answerBody(raw).complete).toBe(false);
      }
    }
    expect((await clientFor(mock.url).get('/pets')).status).toBe(200);
    // 18 stalled copies of the export held for ever would be well past this (it was 2.29 GB for 40): written as
    // the client reads, each stalled download holds its socket's buffer and the state it exports, not its text.
    expect(peakRssMiB(pid)).toBeLessThan(600);
    process.kill(pid, 'SIGTERM');
    expect(await mock.exit).toBe(0);
  }, 120_000);
});

describe('issue 12 finding 7: SIGTERM delivers every answer already started', () => {
  it('a slow reader gets the whole export although the mock was told to stop mid-answer, and the mock exits 0', async () => {
    const mock = await startChildMock(['--port', '0', '--quiet', '--seed', '1', '--pets', '100000']);
    const download = stalledGet(mock.port, '/__mock/state');
    // The answer is under way (its first bytes have arrived) before the signal.
    await new Promise<void>((resolve) => download.socket.once('readable', () => resolve()));
    process.kill(mock.child.pid!, 'SIGTERM');
    await sleep(1_000);
    download.resume();
    const { complete, body } = answerBody(await download.done);
    expect(complete).toBe(true);
    expect((JSON.parse(body.toString('utf8')) as { pets: unknown[] }).pets).toHaveLength(100_000);
    expect(await mock.exit).toBe(0);
  }, 60_000);
});

describe('issue 12 finding 8: a connection cap, and Expect: 100-continue over the limit', () => {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock({ maxConnections: 20 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('silent connections past --max-connections make room for a client that speaks', async () => {
    const silent = await Promise.all(
      Array.from({ length: 100 }, () => new Promise<Socket>((resolve) => {
        const socket = connect(t.mock.port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      })),
    );
    try {
      const answer = await bare(t, 'GET', '/pets');
      expect(answer.status).toBe(200);
      // The mock holds at most 20 of them: the others were closed to make room.
      await sleep(200);
      expect(silent.filter((socket) => !socket.readableEnded && !socket.destroyed).length).toBeLessThanOrEqual(20);
    } finally {
      for (const socket of silent) socket.destroy();
    }
  });

  it('answers 413 without 100 Continue when the declared length is over the limit, and 100 Continue below it', async () => {
    const over = await rawExchange(t.mock.port, 'PUT', '/pets/1', `PUT /pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n`);
    expect(over.status).toBe(413);
    t.client.check(over);
    expectError(over, 413, 'PAYLOAD_TOO_LARGE');

    const socket = connect(t.mock.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const body = JSON.stringify({ name: 'Birds' });
    socket.write(`POST /categories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Mock-Session: ${sessionName('continue')}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    socket.end(body);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(text).toMatch(/\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
  });
});

describe('a client too slow to send its request gets a 408 in the Error shape (RFC 9110 §15.5.9), then the connection closes', () => {
  let t: TestMock;
  beforeAll(async () => {
    t = await startTestMock({ headersTimeoutMs: 400, requestTimeoutMs: 1_200 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The contract's Error schema and its x-error-codes: a 408 belongs to no operation, so it is checked against those. */
  const expectTimeoutError = (answer: Exchange): void => {
    expectError(answer, 408, 'REQUEST_TIMEOUT');
    const errorSchema = t.compiled.contract.document.components?.schemas?.['Error'] as OpenAPIV3.SchemaObject;
    expect(t.compiled.validate(errorSchema, answer.body, 'response')).toEqual([]);
    expect(t.compiled.contract.errorCodes.get('REQUEST_TIMEOUT')?.status).toBe(408);
    expect(answer.headers['connection']).toBe('close');
  };

  it('headers that stop half-way: a 408 naming the time limits (regression: the socket was closed without a word)', async () => {
    const answer = await rawExchange(t.mock.port, 'GET', '/pets', 'GET /pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n');
    expectTimeoutError(answer);
    expect((answer.body as { message: string }).message).toContain('0.4 s');
  });

  it('a body that stops half-way: a 408, and nothing was created', async () => {
    const before = (await t.client.get('/pets', { query: { limit: 1 } })).headers['x-total-count'];
    const answer = await rawExchange(t.mock.port, 'POST', '/pets', 'POST /pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"name":"Half');
    expectTimeoutError(answer);
    expect((await t.client.get('/pets', { query: { limit: 1 } })).headers['x-total-count']).toBe(before);
  });
});
