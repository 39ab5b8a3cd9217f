/**
 * Regression (issue 20, point 6a): a `--header` value with a non-ASCII
 * character exited 2 as `TARGET_UNREACHABLE ... invalid authorization header`
 * although nothing was sent. It is a usage error about that header: exit 2,
 * `USAGE`, the header named, its value (a secret) never printed, and nothing
 * sent to the target.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli/main.js';

describe('a --header value a header cannot carry (issue 20, point 6a)', () => {
  let server: Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"code":"NOT_FOUND","message":"no"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it.each([
    ['a non-ASCII character', 'Authorization', 'Bearer s3cret-caf\u00e9-token', 'a non-ASCII character'],
    ['a character past Latin-1', 'Authorization', 'Bearer s3cret-\u2026-token', 'a non-ASCII character'],
    ['a CR LF that would start another header', 'X-Api-Key', 's3cret-key\r\nX-Injected: 1', 'a CR or LF'],
    ['a lone LF', 'X-Api-Key', 's3cret-key\nmore', 'a CR or LF'],
    ['a NUL', 'X-Api-Key', 's3cret-key\u0000more', 'a control character'],
  ])('%s: exit 2 USAGE naming the header, the value never printed, nothing sent', async (_what, name, value, kind) => {
    const written: string[] = [];
    const capture = (chunk: string | Uint8Array): boolean => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    let code: number;
    try {
      code = await main(['conformance', '--base-url', url, '--header', `${name}: ${value}`, '--timeout', '2000']);
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
    const output = written.join('');
    expect(code).toBe(2);
    expect(output).toMatch(new RegExp(`USAGE: .*--header value of ${name} holds ${kind}`));
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).not.toContain('s3cret');
    expect(requests).toBe(0);
  });
});
