/**
 * Issue 21 point 1, through the command line: `petstore-kit conformance`
 * runs an OpenAPI 3.1 document (it used to exit 2, SPEC_UNSUPPORTED_VERSION)
 * against a small loopback server that answers as the document says.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const SPEC = join(PACKAGE_ROOT, 'fixtures', 'documents', 'openapi-3.1', 'schemas.yaml');

/** A conforming Things server: creates a thing from any JSON object, reads it back, 404 for anything else. */
function thingsServer(): Server {
  const things = new Map<number, Record<string, unknown>>();
  return createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const send = (status: number, body?: unknown): void => {
        if (body === undefined) res.writeHead(status).end();
        else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'POST' && path === '/things') {
        let input: unknown;
        try {
          input = JSON.parse(text);
        } catch {
          return send(400);
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input)) return send(400);
        const id = things.size + 1;
        const { secret: _secret, ...kept } = input as Record<string, unknown>;
        const stored = { ...kept, id, kind: 'thing', name: typeof kept['name'] === 'string' ? kept['name'] : 'Rex', nickname: null, point: [0, 0] };
        things.set(id, stored);
        return send(201, stored);
      }
      const match = /^\/things\/(\d+)$/.exec(path);
      if (req.method === 'GET' && match) {
        const stored = things.get(Number(match[1]));
        return stored ? send(200, stored) : send(404);
      }
      return send(404);
    });
  });
}

let server: Server;
let url: string;

beforeAll(async () => {
  server = thingsServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the conformance runner on an OpenAPI 3.1 document', () => {
  it('starts, runs the operations and writes its report (no exit 2)', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'petstore-kit-oas31-')), 'report.json');
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'conformance', '--quiet', '--spec', SPEC, '--base-url', url, '--format', 'json', '--output', report, '--concurrency', '2'], { cwd: PACKAGE_ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
      });
    });
    expect(run.stderr).not.toContain('SPEC_');
    expect([0, 1]).toContain(run.code);
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as { results?: { operationId?: string }[] };
    const operations = new Set((parsed.results ?? []).map((result) => result.operationId));
    expect(operations).toContain('createThing');
    expect(operations).toContain('getThing');
  });
});
