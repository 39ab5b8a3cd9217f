/**
 * Regression (issue 20, point 6c): the mock answered 200 to a request with two
 * `Host` header fields. RFC 9112 §3.2: a server MUST answer such a request 400.
 * Node keeps the first Host and drops the rest, so a proxy routing on the other
 * and the mock would disagree about the host the request is for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestMock, type TestMock } from '../test-support/harness.js';
import { rawExchange } from '../test-support/raw-http.js';

let t: TestMock;

beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

describe('a request with more than one Host (issue 20, point 6c)', () => {
  it.each([
    ['two Host lines', 'Host: 127.0.0.1\r\nHost: evil.test\r\n'],
    ['the same host twice', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n'],
    ['names in other cases', 'host: 127.0.0.1\r\nHOST: evil.test\r\n'],
  ])('%s: 400 in the Error shape, and the connection closed', async (_label, hosts) => {
    const answer = await rawExchange(t.mock.port, 'GET', '/pets', `GET /pets?limit=1 HTTP/1.1\r\n${hosts}\r\n`);
    t.client.check(answer);
    const body = expectError(answer, 400, 'VALIDATION_FAILED');
    expect(String(body['message'])).toMatch(/more than one Host/);
    expect(answer.headers['connection']).toBe('close');
  });

  it('with a body: 400 all the same, nothing created', async () => {
    const before = await t.client.get('/pets', { query: { limit: 1 } });
    const body = JSON.stringify({ name: 'Twohosts', categoryId: 1 });
    const answer = await rawExchange(
      t.mock.port,
      'POST',
      '/pets',
      `POST /pets HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    t.client.check(answer);
    expectError(answer, 400, 'VALIDATION_FAILED');
    const after = await t.client.get('/pets', { query: { limit: 1 } });
    expect(after.headers['x-total-count']).toBe(before.headers['x-total-count']);
  });

  it('one Host is answered as always', async () => {
    const answer = await rawExchange(t.mock.port, 'GET', '/pets', 'GET /pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    t.client.check(answer);
    expect(answer.status).toBe(200);
  });
});
