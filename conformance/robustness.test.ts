/**
 * The runner against faulty servers (issue 4, point 7): each is a small
 * node:http server written here that forwards to our mock and breaks one
 * thing. Whatever the fault, the check that met it fails with that reason,
 * the run goes on, a report comes back, and nothing crashes.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { BREAKER_OPEN, HttpClient } from './http.js';
import { BREAKER_PREFIX, type CheckResult, type RunReport } from './model.js';
import { runConformance } from './runner.js';

/** What a fault does with a request: answer it itself (true), or let it through to the mock (false). */
type Fault = (req: IncomingMessage, res: ServerResponse, seen: number) => boolean;

interface Faulty {
  readonly url: string;
  close(): Promise<void>;
}

async function startFaulty(upstream: string, fault: Fault): Promise<Faulty & { server: Server; sockets: Set<Socket> }> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let seen = 0;
  const server = createServer((req, res) => {
    seen += 1;
    if (fault(req, res, seen)) return;
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

function failedWith(report: RunReport, pattern: RegExp): CheckResult[] {
  return report.results.filter((r) => r.verdict === 'failed' && (pattern.test(r.reason ?? '') || r.findings.some((f) => pattern.test(f.message))));
}

/** The report is whole: a summary that adds up and meta with the run's end. */
function expectWholeReport(report: RunReport): void {
  expect(report.summary.total).toBe(report.results.length);
  expect(report.summary.passed + report.summary.failed + report.summary.skipped).toBe(report.summary.total);
  expect(report.meta.finishedAt).toBeDefined();
  // The run went on past the fault: checks of other families still passed.
  expect(report.summary.passed).toBeGreaterThan(0);
}

describe('faulty servers', () => {
  let mock: RunningMock;
  const opened: Faulty[] = [];
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  });
  afterAll(async () => {
    for (const server of opened) await server.close();
    await mock?.close();
  });
  const faulty = async (fault: Fault): Promise<Faulty & { server: Server; sockets: Set<Socket> }> => {
    const server = await startFaulty(mock.url, fault);
    opened.push(server);
    return server;
  };

  it('connection refused mid-run: checks fail with that reason, what was created is listed as left behind', async () => {
    let closed = false;
    const server = await faulty((_req, res, seen) => {
      if (seen < 150) return false;
      if (!closed) {
        closed = true;
        server.server.close();
        for (const socket of server.sockets) socket.destroy();
      }
      res.destroy();
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1 });
    expectWholeReport(report);
    expect(failedWith(report, /connection (refused|reset)/).length).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind.length).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind.every((left) => /refused|reset|failed/.test(left.reason))).toBe(true);
  });

  it('connection reset on one operation: its checks fail with that reason, the others pass, and the requests the breaker keeps back fail nothing', async () => {
    // Every GET /categories is reset: after five in a row the breaker keeps the next requests back (whatever operation
    // they are for) until a probe gets through. A kept-back request was never sent: its case is skipped, saying so.
    const server = await faulty((req) => {
      if (req.method !== 'GET' || pathOf(req) !== '/categories') return false;
      req.socket.destroy();
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1 });
    expectWholeReport(report);
    expect(failedWith(report, /reset|closed by the target/).length).toBeGreaterThan(0);
    expect(report.results.some((r) => r.operationId === 'listPets' && r.verdict === 'passed')).toBe(true);
    const keptBack = report.results.filter((r) => r.verdict === 'skipped' && r.reason?.startsWith(BREAKER_PREFIX));
    expect(keptBack.length).toBeGreaterThan(0);
    // Every transport failure a failed case holds is a request that was sent: none the breaker kept back.
    const failures = report.results.filter((r) => r.verdict === 'failed').flatMap((r) => r.evidence.filter((x) => x.error !== undefined && x.response === undefined).map((x) => ({ r, x })));
    expect(failures.some(({ x }) => x.request.method === 'GET' && new URL(x.request.url).pathname === '/categories')).toBe(true);
    for (const { r, x } of failures) {
      expect(x.error!.code, `${r.checkId} ${r.title}: ${x.error!.message}`).not.toBe(BREAKER_OPEN);
      expect(x.error!.message, `${r.checkId} ${r.title}`).not.toMatch(/not sent/);
    }
  });

  it('a timeout: the check fails with it after --timeout, and the run goes on', async () => {
    const server = await faulty((req) => {
      // Never answers reads of one inventory entry (the socket is closed when the test ends).
      return req.method === 'GET' && /^\/store\/inventory\/[^/]+$/.test(pathOf(req));
    });
    const started = performance.now();
    // Two operations keep the test short: every request to the silent one waits out its timeout.
    const report = await runConformance({ baseUrl: server.url, seed: 1, timeoutMs: 250, only: ['getInventoryItem', 'getCategory'] });
    expectWholeReport(report);
    expect(failedWith(report, /no complete answer within 250 ms/).length).toBeGreaterThan(0);
    expect(report.results.some((r) => r.operationId === 'getCategory' && r.verdict === 'passed')).toBe(true);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('an HTML body: content-type fails, saying what came', async () => {
    const server = await faulty((req, res) => {
      if (req.method !== 'GET' || !/^\/categories\/[^/]+$/.test(pathOf(req))) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1 });
    expectWholeReport(report);
    const contentType = report.results.filter((r) => r.checkId === 'content-type' && r.verdict === 'failed');
    expect(contentType.length).toBeGreaterThan(0);
    expect(contentType[0]?.reason).toContain('text/html');
    expect(contentType[0]?.evidence[0]?.response?.bodyExcerpt).toContain('<h1>Welcome</h1>');
  });

  it('a body that claims JSON but is not: response-schema fails, saying so', async () => {
    const server = await faulty((req, res) => {
      if (req.method !== 'GET' || pathOf(req) !== '/store/inventory') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '1' });
      res.end('<html>oops</html>');
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1 });
    expectWholeReport(report);
    const schema = report.results.filter((r) => r.checkId === 'response-schema' && r.operationId === 'listInventory' && r.verdict === 'failed');
    expect(schema[0]?.reason).toMatch(/not valid JSON/);
  });

  it('a 10 MB body: read up to the 1 MiB cap, marked truncated, and reported', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const written: number[] = [];
    const server = await faulty((req, res) => {
      if (req.method !== 'GET' || pathOf(req) !== '/categories') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '1' });
      res.write('[');
      const total = 10 * 1024 * 1024;
      let sent = 0;
      const index = written.push(0) - 1;
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length;
          written[index] = sent;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(']');
      };
      res.on('error', () => undefined);
      pump();
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1, only: ['listCategories'] });
    expectWholeReport(report);
    const failed = report.results.filter((r) => r.checkId === 'response-schema' && r.verdict === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const exchange = failed[0]!.evidence[0]!;
    expect(exchange.response?.truncated).toBe(true);
    expect(exchange.response?.bodyBytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(exchange.response?.bodyExcerpt.length).toBeLessThanOrEqual(2048);
    expect(failed[0]?.reason).toMatch(/larger than the runner's cap/);
    // The runner stopped reading: the server could not finish a single 10 MB answer before the socket was dropped.
    expect(written.length).toBeGreaterThan(0);
    expect(Math.max(...written)).toBeLessThan(10 * 1024 * 1024);
  });

  it('a redirect: not followed, and the check that met it fails saying so', async () => {
    const server = await faulty((req, res) => {
      if (req.method !== 'GET' || pathOf(req) !== '/store/inventory') return false;
      res.writeHead(302, { location: 'http://example.invalid/elsewhere' });
      res.end();
      return true;
    });
    const report = await runConformance({ baseUrl: server.url, seed: 1 });
    expectWholeReport(report);
    const redirected = failedWith(report, /redirect/);
    expect(redirected.length).toBeGreaterThan(0);
    expect(redirected[0]?.evidence.some((e) => e.error?.code === 'REDIRECT' && e.response?.status === 302)).toBe(true);
    // Nothing ever went to the other host.
    expect(report.results.flatMap((r) => r.evidence).some((e) => e.request.url.includes('example.invalid'))).toBe(false);
  });
});

describe('the HTTP client', () => {
  let server: Server;
  let url: string;
  const received: { headers: IncomingMessage['headers'] }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push({ headers: req.headers });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ echo: req.headers['authorization'] ?? null }));
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends --header values but records them, and any echo of them, as [redacted]', async () => {
    const client = new HttpClient({ baseUrl: url, headers: { Authorization: 'Bearer t0p-s3cret' }, timeoutMs: 2000, concurrency: 2, rate: 0 });
    const result = await client.send({ method: 'GET', path: '/x' });
    await client.close();
    expect(received.at(-1)?.headers['authorization']).toBe('Bearer t0p-s3cret');
    expect(JSON.stringify(result.exchange)).not.toContain('t0p-s3cret');
    expect(result.exchange.request.headers['authorization']).toBe('[redacted]');
    expect(result.exchange.response?.bodyExcerpt).toContain('[redacted]');
  });

  it('keeps to the concurrency cap and the rate cap', async () => {
    maxInFlight = 0;
    const client = new HttpClient({ baseUrl: url, timeoutMs: 2000, concurrency: 2, rate: 50 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 10 }, () => client.send({ method: 'GET', path: '/y' })));
    const elapsed = performance.now() - started;
    await client.close();
    expect(maxInFlight).toBeLessThanOrEqual(2);
    // 10 requests at 50/s start at least 20 ms apart: 180 ms at the very least.
    expect(elapsed).toBeGreaterThanOrEqual(170);
  });

  it('an interrupted run aborts the requests on the wire at once (ABORTED, not their timeout) and sends no more', { timeout: 20_000 }, async () => {
    // A target that reads each request and never answers: only the run's signal can end these (their timeout is 60 s).
    const hung: ServerResponse[] = [];
    let arrived: () => void = () => undefined;
    const allArrived = new Promise<void>((resolve) => (arrived = resolve));
    const silent = createServer((_req, res) => {
      hung.push(res);
      if (hung.length === 3) arrived();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const controller = new AbortController();
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, timeoutMs: 60_000, concurrency: 3, rate: 0, signal: controller.signal });
    try {
      const sent = Array.from({ length: 3 }, (_, i) => client.send({ method: 'GET', path: `/wait/${i}` }));
      await allArrived;
      controller.abort();
      const results = await Promise.all(sent);
      expect(results.map((result) => result.error?.code)).toEqual(['ABORTED', 'ABORTED', 'ABORTED']);
      const after = await client.send({ method: 'GET', path: '/late' });
      expect(after.error).toEqual({ code: 'ABORTED', message: 'not sent: the run was interrupted' });
      expect(hung).toHaveLength(3);
    } finally {
      await client.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('records an answer header that echoes a --header value as [redacted], and leaves the others as they came', async () => {
    const echo = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-api-key']), 'x-plain': 'kept' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const address = echo.address();
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, headers: { 'X-Api-Key': 'k3y-v4lue' }, timeoutMs: 2000, concurrency: 1, rate: 0 });
    try {
      const result = await client.send({ method: 'GET', path: '/' });
      expect(result.response?.headers['x-echo']).toBe('k3y-v4lue');
      expect(result.exchange.response?.headers['x-echo']).toBe('[redacted]');
      expect(result.exchange.response?.headers['x-plain']).toBe('kept');
      expect(result.exchange.request.headers['x-api-key']).toBe('[redacted]');
    } finally {
      await client.close();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('turns a refused connection into an error, never an exception', async () => {
    const client = new HttpClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 1000, concurrency: 1, rate: 0 });
    const result = await client.send({ method: 'GET', path: '/' });
    await client.close();
    expect(result.error?.code).toBe('ECONNREFUSED');
    expect(result.exchange.response).toBeUndefined();
  });
});
