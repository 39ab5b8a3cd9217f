/**
 * Issue 13, point 2: the mock serves its document and a page to browse it, from local files only (regression:
 * `/`, `/openapi.yaml` and `/__mock/docs` were all 404). The page itself is loaded in a real browser by
 * browser.e2e.test.ts; here, what the server answers.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from '../../src/package-info.js';
import { expectError, startTestMock, type TestMock } from '../test-support/harness.js';

/** Outside the contract (HTML, YAML), so read with plain undici rather than the contract-checking client. */
async function get(mock: TestMock, path: string, method: 'GET' | 'POST' = 'GET'): Promise<{ status: number; type: string; text: string; headers: Record<string, unknown> }> {
  const answer = await request(`${mock.mock.url}${path}`, { method });
  const text = await answer.body.text();
  return { status: answer.statusCode, type: String(answer.headers['content-type']), text, headers: answer.headers };
}

let t: TestMock;
let prefixed: TestMock;
beforeAll(async () => {
  [t, prefixed] = await Promise.all([startTestMock(), startTestMock({ basePath: '/api/v1' })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), prefixed?.close()]);
});

describe('the document', () => {
  it('GET /openapi.yaml serves the file as written', async () => {
    const answer = await get(t, '/openapi.yaml');
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/yaml/);
    expect(answer.text).toBe(await readFile(DEFAULT_SPEC_PATH, 'utf8'));
  });

  it('GET /openapi.json serves it as JSON, with this mock (and its base path) as the first server', async () => {
    const plain = JSON.parse((await get(t, '/openapi.json')).text) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    expect(plain.openapi).toBe('3.0.3');
    expect(Object.keys(plain.paths)).toContain('/pets/{petId}');
    expect(plain.servers[0]?.url).toBe('/');
    expect(plain.servers[1]?.url).toBe('{base_url}');
    const under = JSON.parse((await get(prefixed, '/openapi.json')).text) as { servers: { url: string }[] };
    expect(under.servers[0]?.url).toBe('/api/v1');
  });
});

describe('the docs page, /__mock/docs', () => {
  it('is Swagger UI from local files: every script and style sheet it names is served by the mock', async () => {
    const page = await get(t, '/__mock/docs');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const referenced = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(referenced.length).toBeGreaterThanOrEqual(3);
    for (const url of referenced) {
      expect(url.startsWith('/__mock/docs/'), url).toBe(true);
      const asset = await get(t, url);
      expect(asset.status, url).toBe(200);
    }
    const init = await get(t, '/__mock/docs/init.js');
    expect(init.text).toContain("url: '/openapi.json'");
    // Swagger UI would otherwise fetch a validity badge from validator.swagger.io.
    expect(init.text).toContain('validatorUrl: null');
  });

  it('refuses other methods and unknown files in the Error shape', async () => {
    const post = await get(t, '/openapi.yaml', 'POST');
    expect(post.status).toBe(405);
    expect(JSON.parse(post.text)).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
    expect(post.headers['allow']).toBe('GET, HEAD');
    expectError(await t.client.get('/__mock/docs/package.json'), 404, 'ROUTE_NOT_FOUND');
  });

  it('the 404 for an unknown path points to it', async () => {
    const answer = await t.client.get('/petz');
    expect(expectError(answer, 404, 'ROUTE_NOT_FOUND')['message']).toContain('/__mock/docs');
  });
});
