/**
 * Review 1, finding 12: the proxy judges the request it sent, not only the one it received.
 * - `--header` values take the place of the client's (server.ts): the request rules judge the headers as forwarded,
 *   so a header parameter the proxy supplies is there, and one it supplies wrong is a violation, its value redacted
 *   in every line, report and Error answer.
 * - A request body with a Content-Encoding (RFC 9110 §8.4: gzip, deflate, br) is judged by what it decodes to, as
 *   answers are, and passed on as it came.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReporter, REPORT_FORMATS } from '../reporters/index.js';
import { startTestProxy, startUpstream, type TestProxy } from './test-support/servers.js';

const SPEC = [
  'openapi: 3.0.3',
  'info: { title: Items, version: 1.0.0 }',
  'paths:',
  '  /items:',
  '    get:',
  '      operationId: listItems',
  "      parameters: [{ name: X-Tenant, in: header, required: true, schema: { type: string, pattern: '^tenant-' } }]",
  "      responses: { '200': { description: Items, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Item' } } } } } }",
  '    post:',
  '      operationId: createItem',
  '      requestBody: { required: true, content: { application/json: { schema: { type: object, additionalProperties: false, required: [name], properties: { name: { type: string } } } } } }',
  "      responses: { '201': { description: Created, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }, '400': { description: Refused } }",
  'components:',
  '  schemas:',
  '    Item: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string } } }',
].join('\n');

let dir: string;
let spec: string;
let target: Awaited<ReturnType<typeof startUpstream>>;
const seen: { tenant: string | undefined; encoding: string | undefined; bytes: Buffer }[] = [];
const open: TestProxy[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proxy-as-sent-'));
  spec = join(dir, 'items.yaml');
  await writeFile(spec, SPEC);
  target = await startUpstream((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ tenant: req.headers['x-tenant'] as string | undefined, encoding: req.headers['content-encoding'], bytes: Buffer.concat(chunks) });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(req.method === 'POST' ? '{"id":1,"name":"one"}' : '[]');
    });
  });
});
afterEach(async () => {
  for (const proxy of open.splice(0)) await proxy.close();
});
afterAll(async () => {
  await target?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function proxyWith(options: Partial<Parameters<typeof startTestProxy>[0]> = {}): Promise<TestProxy> {
  const proxy = await startTestProxy({ target: target.url, specPath: spec, ...options });
  open.push(proxy);
  return proxy;
}

function texts(proxy: TestProxy): string[] {
  return [proxy.lines.join('\n'), ...REPORT_FORMATS.map((format) => createReporter(format, { redact: proxy.redact, color: false, quiet: true }).render(proxy.report()))];
}

describe('--header: the headers are judged as they were forwarded', () => {
  it('a required header the proxy supplies is there, whatever the client sent', async () => {
    const proxy = await proxyWith({ headers: { 'X-Tenant': 'tenant-secret-123' } });
    for (const headers of [{}, { 'x-tenant': 'wrong' }]) {
      const answer = await request(`${proxy.url}/items`, { headers });
      expect(answer.statusCode).toBe(200);
      await answer.body.text();
    }
    await proxy.close();
    expect(seen.slice(-2).map((s) => s.tenant)).toEqual(['tenant-secret-123', 'tenant-secret-123']);
    expect(proxy.violationLines()).toEqual([]);
    expect(proxy.report().results.find((r) => r.checkId === 'request-parameters')).toMatchObject({ verdict: 'passed', title: 'listItems: 2 exchanges judged' });
  });

  it('a header the proxy supplies wrong is a violation, its value redacted in lines, reports and the Error answer', async () => {
    const proxy = await proxyWith({ headers: { 'X-Tenant': 'bad-secret-456' } });
    await (await request(`${proxy.url}/items`)).body.text();
    const strict = await proxyWith({ headers: { 'X-Tenant': 'bad-secret-456' }, errors: true });
    const refused = await request(`${strict.url}/items`);
    const body = await refused.body.text();
    await proxy.close();
    await strict.close();
    expect(proxy.violationLines()).toEqual(['violation: GET /items → 200 request-parameters at /header/x-tenant: must match pattern "^tenant-" (value: "[redacted]")']);
    expect([refused.statusCode, (JSON.parse(body) as { code: string }).code]).toEqual([400, 'REQUEST_VIOLATES_CONTRACT']);
    for (const text of [...texts(proxy), ...texts(strict), body]) expect(text).not.toContain('bad-secret-456');
  });
});

describe('a request body with a Content-Encoding is judged by what it decodes to', () => {
  const valid = Buffer.from('{"name":"one"}');
  const invalid = Buffer.from('{"nam":1}');
  const codings: [string, (bytes: Buffer) => Buffer][] = [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ];

  it.each(codings)('%s: a valid body passes, unchanged on the wire; an invalid one breaks the schema, not JSON', async (coding, encode) => {
    const dirRecord = await mkdtemp(join(dir, `record-${coding}-`));
    const proxy = await proxyWith({ record: dirRecord });
    const send = async (bytes: Buffer): Promise<number> => {
      const answer = await request(`${proxy.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: encode(bytes) });
      await answer.body.text();
      return answer.statusCode;
    };
    expect(await send(valid)).toBe(201);
    expect(seen.at(-1)).toMatchObject({ encoding: coding, bytes: encode(valid) });
    expect(await send(invalid)).toBe(201);
    await proxy.close();
    expect(proxy.violationLines()).toEqual([
      'violation: POST /items → 201 request-body at /body/name: is required',
    ]);
    // The HAR file shows the body as it decodes, as it shows answers.
    const har = JSON.parse(await readFile(join(dirRecord, 'session.har'), 'utf8')) as { log: { entries: { request: { postData?: { text: string } } }[] } };
    expect(har.log.entries.map((e) => e.request.postData?.text)).toEqual([valid.toString(), invalid.toString()]);
  });

  it('a body that does not decode as its Content-Encoding says is a violation that says so', async () => {
    const proxy = await proxyWith();
    await (await request(`${proxy.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: valid })).body.text();
    await proxy.close();
    expect(proxy.violationLines()).toEqual(['violation: POST /items → 201 request-body at /body: the body does not decode as its Content-Encoding (gzip) says']);
  });
});
