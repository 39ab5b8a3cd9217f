/**
 * Review 1, finding 2: the proxy sends on only what it is a gateway for. A request-target in absolute-form (which
 * would let a client pick the target's virtual host, the `--header` token attached), authority-form, or `*` for
 * anything but OPTIONS gets the proxy's own 400 and never reaches the target; `OPTIONS *` is answered by the proxy;
 * dot-segments are removed before the path goes under the --target prefix, and a path that would climb out of it is
 * refused. The `--header` values go to the configured target only: not to the fallback mock. No stack trace in the log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_HEADER } from './fallback.js';
import { startTestProxy, startUpstream, type TestProxy } from './test-support/servers.js';

const TENANT = 'tenant-secret-123';
const PET = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

interface Seen {
  readonly url: string;
  readonly tenant: string | undefined;
}

/** One request written as it is on a fresh connection; the answer's status line, headers and body as text. */
function rawExchange(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => {
      const split = text.indexOf('\r\n\r\n');
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, split), body: text.slice(split + 4) });
    });
    socket.on('error', fail);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${head}`)));
  });
}

describe('request-targets the proxy does not send on', () => {
  let dir: string;
  let proxy: TestProxy;
  let port: number;
  const targetSaw: Seen[] = [];
  const mockSaw: Seen[] = [];
  let target: Awaited<ReturnType<typeof startUpstream>>;
  let mock: Awaited<ReturnType<typeof startUpstream>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proxy-request-target-'));
    const answering = (seen: Seen[]) => (req: Parameters<Parameters<typeof startUpstream>[0]>[0], res: Parameters<Parameters<typeof startUpstream>[0]>[1]): void => {
      seen.push({ url: req.url ?? '', tenant: req.headers['x-tenant'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url?.includes('/pets/') ? PET : [PET]));
    };
    target = await startUpstream(answering(targetSaw));
    mock = await startUpstream(answering(mockSaw));
    proxy = await startTestProxy({ target: `${target.url}/api/v1`, headers: { 'X-Tenant': TENANT }, fallbackUrl: mock.url, mock: ['listPets'], record: dir });
    port = Number(new URL(proxy.url).port);
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await target?.close();
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['absolute-form', 'GET http://example.com/items/2 HTTP/1.1', /a full URL \(absolute-form/],
    ['absolute-form naming the proxy', `GET http://127.0.0.1:0/pets/1 HTTP/1.1`, /a full URL \(absolute-form/],
    ['authority-form', 'CONNECT example.com:443 HTTP/1.1', /not a path \(origin-form/],
    ['* for GET', 'GET * HTTP/1.1', /for OPTIONS only/],
    ['a fragment', 'GET /pets/1#x HTTP/1.1', /fragment/],
    ['.. out of the prefix', 'GET /../../admin/x HTTP/1.1', /climbs above its root/],
    ['.. out of the prefix, encoded', 'GET /pets/%2e%2e/%2E%2E/admin HTTP/1.1', /climbs above its root/],
    ['.. behind an encoded slash', 'GET /pets/..%2f..%2f..%2fadmin HTTP/1.1', /only a further decoding/],
    ['.. behind a backslash', 'GET /pets/..\\..\\admin HTTP/1.1', /only a further decoding/],
  ])('%s: the proxy’s own 400 PROXY_BAD_REQUEST, nothing sent on', async (_name, line, message) => {
    const before = targetSaw.length + mockSaw.length;
    const answer = await rawExchange(port, line);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ code: 'PROXY_BAD_REQUEST', status: 400, message: expect.stringMatching(message) });
    expect(targetSaw.length + mockSaw.length).toBe(before);
  });

  it('OPTIONS *: answered by the proxy, with the methods the document takes', async () => {
    const before = targetSaw.length;
    const answer = await rawExchange(port, 'OPTIONS * HTTP/1.1');
    expect(answer.status).toBe(204);
    expect(/^allow: (.*)$/im.exec(answer.headers)?.[1]?.split(', ')).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(targetSaw.length).toBe(before);
  });

  it('removes dot-segments inside the prefix, and sends the --header value to the target only', async () => {
    const answer = await rawExchange(port, 'GET /pets/9/./../1?x=%2e%2e HTTP/1.1');
    expect(answer.status).toBe(200);
    expect(targetSaw.at(-1)).toEqual({ url: '/api/v1/pets/1?x=%2e%2e', tenant: TENANT });
    const mocked = await request(`${proxy.url}/pets?limit=1`);
    expect([mocked.statusCode, mocked.headers[FALLBACK_HEADER]]).toEqual([200, 'mock (--mock listPets)']);
    await mocked.body.text();
    expect(mockSaw).toEqual([{ url: '/pets?limit=1', tenant: undefined }]);
    expect(targetSaw.every((seen) => seen.url.startsWith('/api/v1/') && seen.tenant === TENANT)).toBe(true);
  });

  it('logs each refusal in a line of its own, no stack trace, no internal error; the HAR file holds what was sent', async () => {
    await proxy.close();
    const lines = proxy.lines.join('\n');
    expect(lines).not.toMatch(/internal error|\n\s+at /);
    expect(lines).not.toContain('example.com');
    expect(proxy.lines.filter((line) => / 400 .*\| PROXY_BAD_REQUEST: /.test(line))).toHaveLength(9);
    expect(proxy.report().warnings?.some((w) => /9 requests got no answer from the target \(PROXY_BAD_REQUEST\)/.test(w.message))).toBe(true);
    const har = JSON.parse(await readFile(join(dir, 'session.har'), 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    expect(har.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/api/v1/pets/1', '/pets']);
  });
});
