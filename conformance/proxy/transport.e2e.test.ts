/**
 * The proxy as a transport, against scripted upstreams on loopback (a real backend would not stall, reset or
 * stream slowly on request), judged by the bundled document:
 *
 * - the answer comes back unchanged (status, reason phrase, headers, repeated fields, body bytes), hop-by-hop
 *   fields handled per RFC 9110 §7.6.1 both ways, Via added (§7.6.3); streamed as it comes; keep-alive to the target;
 * - a target that is down, silent or breaks off is a 502/504 in the kit's Error shape or a cut connection, never a hang;
 * - --errors refuses an invalid request before the target sees it and replaces an invalid answer; without it,
 *   nothing is altered;
 * - bodies over the limit pass through whole and unjudged, with a note; compressed bodies are judged decoded;
 * - secrets (Authorization, cookies, --header values) never reach a line or a report.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createReporter, REPORT_FORMATS } from '../reporters/index.js';
import { startTestProxy, startUpstream, type Handler, type TestProxy } from './test-support/servers.js';

const PET = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function upstream(handler: Handler): Promise<Awaited<ReturnType<typeof startUpstream>>> {
  const started = await startUpstream(handler);
  open.push(started);
  return started;
}

async function proxyTo(target: string, extra: Partial<Parameters<typeof startTestProxy>[0]> = {}): Promise<TestProxy> {
  const proxy = await startTestProxy({ target, ...extra });
  open.push(proxy);
  return proxy;
}

/** A request with node:http, which shows the reason phrase and every header line as received. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<{ status: number; message: string; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, message: res.statusMessage ?? '', headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

function readAll(req: Parameters<Handler>[0]): Promise<Buffer> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks)));
  });
}

describe('the answer comes back as the target gave it', () => {
  it('status, reason phrase, headers (repeated ones too) and bytes; hop-by-hop fields out both ways; Via in', async () => {
    let seen: { headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer } | undefined;
    const body = Buffer.from(JSON.stringify([PET, { ...PET, id: 2, name: 'Zoë' }]));
    const target = await upstream(async (req, res) => {
      seen = { headers: req.headers, rawHeaders: req.rawHeaders, body: await readAll(req) };
      res.writeHead(200, 'Fine Thanks', [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(body.length)],
        ['X-Total-Count', '2'],
        ['Link', '</pets?offset=2>; rel="next"'],
        ['Link', '</pets?offset=0>; rel="first"'],
        ['Set-Cookie', 'a=1; Path=/'],
        ['Set-Cookie', 'b=2; Path=/'],
        ['Connection', 'X-Hop-Secret'],
        ['X-Hop-Secret', 'not for the client'],
        ['Keep-Alive', 'timeout=9'],
        ['X-Trace', 'abc'],
        ['Date', 'Wed, 01 Jan 2025 00:00:00 GMT'],
      ].flat());
      res.end(body);
    });
    const proxy = await proxyTo(target.url);
    const sent = Buffer.from('{"ignored":"by a GET"}');
    const answer = await raw(`${proxy.url}/pets?limit=2`, { method: 'GET', headers: { Connection: 'X-Client-Hop', 'X-Client-Hop': 'mine', 'X-Custom': 'v', Via: '1.0 edge', 'Content-Type': 'application/json', 'Content-Length': String(sent.length) }, body: sent });

    expect([answer.status, answer.message]).toEqual([200, 'Fine Thanks']);
    expect(answer.body.equals(body)).toBe(true);
    expect(answer.headers['link']).toBe('</pets?offset=2>; rel="next", </pets?offset=0>; rel="first"');
    expect(answer.rawHeaders.filter((_, i) => i % 2 === 0 && answer.rawHeaders[i]!.toLowerCase() === 'link')).toHaveLength(2);
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.headers['x-trace']).toBe('abc');
    expect(answer.headers['date']).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
    expect(answer.headers['x-total-count']).toBe('2');
    expect(answer.headers['content-length']).toBe(String(body.length));
    expect(answer.headers['via']).toBe('1.1 petstore-kit');
    expect(answer.headers['x-hop-secret']).toBeUndefined();
    // node:http's own keep-alive for the client's connection, not the target's.
    expect(answer.headers['keep-alive']).not.toBe('timeout=9');

    expect(seen!.headers['x-custom']).toBe('v');
    expect(seen!.headers['x-client-hop']).toBeUndefined();
    expect(seen!.headers['connection']).not.toContain('X-Client-Hop');
    expect(seen!.headers['via']).toBe('1.0 edge, 1.1 petstore-kit');
    expect(seen!.headers['host']).toBe(new URL(target.url).host);
    expect(seen!.body.equals(sent)).toBe(true);
  });

  it('streams: the client has the first chunk while the target still holds the rest', async () => {
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const target = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":1,"name":"Rex","categoryId":1}');
      void gate.then(() => res.end(',{"id":2,"name":"Tom","categoryId":2}]'));
    });
    const proxy = await proxyTo(target.url);
    const answer = await request(`${proxy.url}/pets`);
    const chunks: string[] = [];
    for await (const chunk of answer.body) {
      chunks.push(String(chunk));
      if (chunks.length === 1) letGo();
    }
    expect(chunks[0]).toBe('[{"id":1,"name":"Rex","categoryId":1}');
    expect(chunks.join('')).toBe('[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"Tom","categoryId":2}]');
    await proxy.close();
    // Judged once whole, like any answer (X-Total-Count is missing: the one finding).
    expect(proxy.violationLines()).toEqual(['violation: GET /pets → 200 response-headers at /header/x-total-count: header x-total-count is required by the document']);
  });

  it('keeps its connections to the target alive: one connection carries a session', async () => {
    let connections = 0;
    const target = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(PET));
    });
    target.server.on('connection', () => (connections += 1));
    const proxy = await proxyTo(target.url);
    for (let i = 0; i < 5; i++) await (await request(`${proxy.url}/categories/1`)).body.text();
    expect(connections).toBe(1);
  });
});

describe('a target that fails is answered for, never waited on forever', () => {
  it('down: 502 TARGET_UNREACHABLE in the Error shape', async () => {
    const gone = await startUpstream((_req, res) => res.end());
    const url = gone.url;
    await gone.close();
    const proxy = await proxyTo(url);
    const answer = await request(`${proxy.url}/pets`);
    expect(answer.statusCode).toBe(502);
    expect(await answer.body.json()).toEqual({ code: 'TARGET_UNREACHABLE', status: 502, message: expect.stringMatching(/did not answer GET \/pets: connection refused/) });
    expect(proxy.report().warnings?.some((w) => /got no answer from the target \(TARGET_UNREACHABLE\)/.test(w.message))).toBe(true);
  });

  it('silent: 504 TARGET_TIMEOUT once --timeout passes', { timeout: 10_000 }, async () => {
    const target = await upstream(() => undefined);
    const proxy = await proxyTo(target.url, { timeoutMs: 300 });
    const started = performance.now();
    const answer = await request(`${proxy.url}/pets`);
    expect(answer.statusCode).toBe(504);
    expect(((await answer.body.json()) as { code: string }).code).toBe('TARGET_TIMEOUT');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('breaking off mid-answer: the client connection is cut, not left waiting', { timeout: 10_000 }, async () => {
    const target = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":1,');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const proxy = await proxyTo(target.url);
    await expect(raw(`${proxy.url}/pets`)).rejects.toThrow();
    await proxy.close();
    expect(proxy.lines.some((l) => /GET \/pets 0 .*TARGET_UNREACHABLE: the target broke off its answer/.test(l)), proxy.lines.join('\n')).toBe(true);
  });
});

describe('--errors, and without it', () => {
  const badPet = { id: 'one', name: 'Rex', categoryId: 1 };
  const answering = (body: unknown, status = 200): Handler => (req, res) => {
    void readAll(req).then(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  };

  it('refuses a request that breaks the document before the target sees it (400 REQUEST_VIOLATES_CONTRACT)', async () => {
    let reached = 0;
    const target = await upstream((req, res) => {
      reached += 1;
      answering(PET, 201)(req, res);
    });
    const proxy = await proxyTo(target.url, { errors: true });
    const answer = await request(`${proxy.url}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 0, status: 'lost' }) });
    const body = (await answer.body.json()) as { code: string; status: number; details: { path: string; message: string }[] };
    expect([answer.statusCode, body.code, body.status]).toEqual([400, 'REQUEST_VIOLATES_CONTRACT', 400]);
    // Every problem, as the mock's VALIDATION_FAILED lists them.
    expect(body.details).toEqual([
      expect.objectContaining({ path: '/body/categoryId', message: expect.stringMatching(/^request-body: must be >= 1/) }),
      expect.objectContaining({ path: '/body/status', message: expect.stringMatching(/^request-body: /) }),
    ]);
    expect(reached).toBe(0);
    expect(proxy.report().results.find((r) => r.checkId === 'request-body' && r.verdict === 'failed')?.operationId).toBe('createPet');
  });

  it('replaces an answer that breaks the document (502 RESPONSE_VIOLATES_CONTRACT) and passes a valid one unchanged', async () => {
    const target = await upstream((req, res) => answering(req.url === '/categories/2' ? { id: 2, name: 'Cats' } : badPet)(req, res));
    const proxy = await proxyTo(target.url, { errors: true });
    const bad = await request(`${proxy.url}/categories/1`);
    const body = (await bad.body.json()) as { code: string; details: { path: string; message: string }[] };
    expect([bad.statusCode, body.code]).toEqual([502, 'RESPONSE_VIOLATES_CONTRACT']);
    expect(body.details).toContainEqual({ path: '/body/id', message: expect.stringMatching(/^response-schema: /) });
    const good = await request(`${proxy.url}/categories/2`);
    expect([good.statusCode, await good.body.text()]).toEqual([200, '{"id":2,"name":"Cats"}']);
  });

  it('without --errors, never alters the traffic: the invalid answer arrives as sent, and is counted', async () => {
    const target = await upstream(answering(badPet));
    const proxy = await proxyTo(target.url);
    const answer = await request(`${proxy.url}/categories/1`);
    expect([answer.statusCode, await answer.body.text()]).toEqual([200, JSON.stringify(badPet)]);
    const invalidRequest = await request(`${proxy.url}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":0}' });
    expect([invalidRequest.statusCode, await invalidRequest.body.text()]).toEqual([200, JSON.stringify(badPet)]);
    await proxy.close();
    expect(proxy.violations).toBe(2);
    expect(proxy.violationLines()).toEqual(expect.arrayContaining([expect.stringMatching(/^violation: POST \/pets → 200 request-body at \/body\/categoryId: must be >= 1/)]));
  });
});

describe('bounded and decoded', () => {
  it('passes a body over --max-body-bytes through whole and unjudged, and says so', async () => {
    const big = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i + 1, bad: true }))));
    let received = 0;
    const target = await upstream(async (req, res) => {
      received = (await readAll(req)).length;
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '200' });
      res.end(big);
    });
    const proxy = await proxyTo(target.url, { maxBodyBytes: 1000 });
    const answer = await request(`${proxy.url}/pets`, { method: 'GET' });
    expect((await answer.body.arrayBuffer()).byteLength).toBe(big.length);
    const sent = Buffer.alloc(5000, 'x');
    await (await request(`${proxy.url}/categories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent })).body.text();
    expect(received).toBe(5000);
    const report = proxy.report();
    expect(report.results.filter((r) => r.verdict === 'failed' && (r.checkId === 'response-schema' || r.checkId === 'request-body'))).toEqual([]);
    expect(report.warnings?.map((w) => w.message)).toEqual(expect.arrayContaining([expect.stringMatching(/answers? .*larger than --max-body-bytes and passed through unread/), expect.stringMatching(/request bod.* larger than --max-body-bytes/)]));
  });

  it('judges a gzip answer by what it encodes, and passes the encoded bytes on', async () => {
    const zipped = gzipSync(JSON.stringify({ id: 1, categoryId: 1 }));
    const target = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zipped);
    });
    const proxy = await proxyTo(target.url);
    const answer = await raw(`${proxy.url}/categories/1`, { headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.body.equals(zipped)).toBe(true);
    await proxy.close();
    expect(proxy.violationLines()).toEqual(['violation: GET /categories/1 → 200 response-schema at /body/name: is required']);
  });
});

describe('secrets', () => {
  it('never print nor write Authorization, cookies or --header values, even echoed by the target', async () => {
    const token = 'Bearer s3cr3t-token-value';
    const cookie = 'session=abcdef123456';
    const apiKey = 'k3y-k3y-k3y-k3y';
    let keyAtTarget: string | undefined;
    const target = await upstream((req, res) => {
      keyAtTarget = req.headers['x-api-key'] as string | undefined;
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=abcdef123456; HttpOnly' });
      // The echo breaks the schema, so the value is the finding's `actual`, the excerpt and the line.
      res.end(JSON.stringify({ id: 's3cr3t-token-value', name: 'abcdef123456', categoryId: apiKey }));
    });
    const proxy = await proxyTo(target.url, { headers: { 'X-Api-Key': apiKey } });
    await (await request(`${proxy.url}/categories/1?key=${apiKey}`, { headers: { authorization: token, cookie } })).body.text();
    await proxy.close();
    expect(keyAtTarget).toBe(apiKey);
    const texts = [proxy.lines.join('\n'), ...REPORT_FORMATS.map((format) => createReporter(format, { redact: proxy.redact, color: false, quiet: true }).render(proxy.report()))];
    expect(proxy.violationLines().length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).not.toContain('s3cr3t-token-value');
      expect(text).not.toContain('abcdef123456');
      expect(text).not.toContain(apiKey);
    }
  });
});

it('never prints the credentials the document’s security schemes name (an apiKey in the query or a header), even echoed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'proxy-apikey-'));
  const spec = join(dir, 'keyed.yaml');
  await writeFile(
    spec,
    [
      'openapi: 3.0.3',
      'info: { title: Keyed, version: 1.0.0 }',
      'security: [{ queryKey: [] }, { headerKey: [] }]',
      'components:',
      '  securitySchemes:',
      '    queryKey: { type: apiKey, in: query, name: api_key }',
      '    headerKey: { type: apiKey, in: header, name: X-Shop-Key }',
      'paths:',
      '  /things/{id}:',
      '    get:',
      '      operationId: getThing',
      '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
      '      responses:',
      "        '200': { description: A thing, content: { application/json: { schema: { type: object, required: [id], properties: { id: { type: integer } } } } } }",
    ].join('\n'),
  );
  open.push({ close: () => rm(dir, { recursive: true, force: true }) });
  const target = await upstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: `${new URL(req.url ?? '/', 'http://x').searchParams.get('api_key')}/${String(req.headers['x-shop-key'])}` }));
  });
  const proxy = await proxyTo(target.url, { specPath: spec });
  await (await request(`${proxy.url}/things/1?api_key=q-key-0123456789`, { headers: { 'x-shop-key': 'h-key-9876543210' } })).body.text();
  await proxy.close();
  const texts = [proxy.lines.join('\n'), ...REPORT_FORMATS.map((format) => createReporter(format, { redact: proxy.redact, color: false, quiet: true }).render(proxy.report()))];
  expect(proxy.violationLines()).toHaveLength(1);
  for (const text of texts) {
    expect(text).not.toContain('q-key-0123456789');
    expect(text).not.toContain('h-key-9876543210');
  }
});

it('passes a CORS preflight on without judging it as the API', async () => {
  const target = await upstream((_req, res) => {
    res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST' });
    res.end();
  });
  const proxy = await proxyTo(target.url);
  const answer = await request(`${proxy.url}/pets`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
  expect([answer.statusCode, answer.headers['access-control-allow-origin']]).toEqual([204, '*']);
  await proxy.close();
  expect(proxy.violations).toBe(0);
  expect(proxy.report().summary.exchanges).toBe(1);
});

it('judges a HEAD as the GET it stands for, without a body (RFC 9110 §9.3.2)', async () => {
  const target = await upstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '22' });
    res.end(req.method === 'HEAD' ? undefined : '{"id":1,"name":"Dogs"}');
  });
  const proxy = await proxyTo(target.url);
  const answer = await raw(`${proxy.url}/categories/1`, { method: 'HEAD' });
  expect([answer.status, answer.headers['content-length'], answer.body.length]).toEqual([200, '22', 0]);
  await proxy.close();
  expect(proxy.violationLines()).toEqual([]);
  expect(proxy.report().coverage.operations.find((o) => o.operationId === 'getCategory')?.exercised).toBe(true);
});

it('answers a request that is not HTTP/1.1 itself, in the Error shape, and never sends it on', async () => {
  let reached = 0;
  const target = await upstream((_req, res) => {
    reached += 1;
    res.end();
  });
  const proxy = await proxyTo(target.url);
  const { port } = new URL(proxy.url);
  const answer = await new Promise<string>((done, fail) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET /pets HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => done(text));
    socket.on('error', fail);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ code: 'PROXY_BAD_REQUEST', status: 400, message: expect.stringMatching(/not valid HTTP\/1\.1/) });
  expect(reached).toBe(0);
});
