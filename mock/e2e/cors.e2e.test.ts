/**
 * CORS for front-ends on another origin (Fetch standard §3.2): any origin by
 * default, preflights answered from the path's documented methods, and the
 * document's response headers exposed to browser code. `corsOrigin`
 * (`--cors-origin`) restricts it to one origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../test-support/harness.js';

// The document's response headers, and the mock's own X-Mock-* headers.
const EXPOSED = ['Allow', 'Deprecation', 'Link', 'Location', 'Preference-Applied', 'Sunset', 'X-Mock-Chaos', 'X-Mock-Session-Dropped', 'X-Mock-Unknown-Query', 'X-Total-Count'];
const exposed = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim()).sort();

let open: TestMock;
let strict: TestMock;
beforeAll(async () => {
  [open, strict] = await Promise.all([startTestMock(), startTestMock({ corsOrigin: 'http://localhost:5173' })]);
});
afterAll(async () => {
  await Promise.all([open?.close(), strict?.close()]);
});

describe('CORS, any origin (the default)', () => {
  it('answers carry Access-Control-Allow-Origin: * and expose the documented headers, errors included', async () => {
    for (const path of ['/pets', '/pets/1', '/pets/abc', '/nope']) {
      const answer = await open.client.get(path, { headers: { origin: 'http://example.test' } });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(exposed(answer.headers['access-control-expose-headers'])).toEqual(EXPOSED);
    }
  });

  it('a preflight gets 204 with the path’s documented methods and the requested headers echoed', async () => {
    const answer = await open.client.send('OPTIONS', '/pets/1', {
      headers: { origin: 'http://example.test', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type, x-mock-session, prefer' },
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
    expect(answer.headers['access-control-allow-headers']).toBe('content-type, x-mock-session, prefer');
    expect(Number(answer.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('a preflight for an unknown path is a 404; for an admin path a 403 without a grant (issue 12 finding 4, hardening.e2e)', async () => {
    const unknown = await open.client.send('OPTIONS', '/nope', { headers: { origin: 'http://example.test', 'access-control-request-method': 'GET' } });
    expect(unknown.status).toBe(404);
    const admin = await open.client.send('OPTIONS', '/__mock/state', { headers: { origin: 'http://example.test', 'access-control-request-method': 'PUT' } });
    expect(admin.status).toBe(403);
    expect(admin.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('requested headers that are not a token list are not echoed', async () => {
    const answer = await open.client.send('OPTIONS', '/pets', { headers: { origin: 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, <script>' } });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('OPTIONS without Access-Control-Request-Method is not a preflight: 405 with Allow', async () => {
    const answer = await open.client.send('OPTIONS', '/pets', { headers: { origin: 'http://example.test' } });
    expect(answer.status).toBe(405);
  });
});

describe('CORS restricted to one origin', () => {
  it('grants that origin, with Vary: Origin', async () => {
    const answer = await strict.client.get('/pets', { headers: { origin: 'http://localhost:5173' } });
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(answer.headers['vary']).toMatch(/Origin/);
    expect(exposed(answer.headers['access-control-expose-headers'])).toEqual(EXPOSED);
  });

  it('grants no other origin, in answers and preflights', async () => {
    const answer = await strict.client.get('/pets', { headers: { origin: 'http://evil.test' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['vary']).toMatch(/Origin/);
    const preflight = await strict.client.send('OPTIONS', '/pets', { headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });
});
