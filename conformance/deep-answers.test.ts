/**
 * Regression (issue 20, point 6b): an answer nested 400,000 levels deep cost
 * 190 ms of CPU an exchange (80 s a run) to parse and collect, for nothing a
 * check can judge. Now JSON nested past MAX_JSON_DEPTH is refused before it is
 * parsed (RFC 8259 §9 lets a reader limit the depth): each such answer is one
 * bounded "too deep to judge" finding, and the run ends with its report.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan, parseJsonBody } from './json.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const DEPTH = 400_000;

describe('a target answering a 400,000-deep array to every request (issue 20, point 6b)', () => {
  let server: Server;
  let report: RunReport;
  let requests = 0;

  beforeAll(async () => {
    const deep = Buffer.from(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': String(deep.length) });
      res.end(deep);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    report = await runConformance({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      only: ['response-schema', 'create-read-back', 'stable-reads', 'error-shape'],
      seed: 11,
      timeoutMs: 10_000,
    });
  }, 180_000);

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('the run ends with a report whose findings say the answers were too deep to judge', () => {
    expect(requests).toBeGreaterThan(5);
    expect(report.summary.failed).toBeGreaterThan(0);
    const messages = report.results.flatMap((r) => r.findings.map((f) => f.message));
    expect(messages.some((m) => m.includes(`nested deeper than ${MAX_JSON_DEPTH} levels, too deep to judge`))).toBe(true);
    expect(report.results.filter((r) => /internal error|Maximum call stack/.test(r.reason ?? ''))).toEqual([]);
    expect(JSON.stringify(report).length).toBeLessThan(5_000_000);
  });
});

describe('nestedDeeperThan', () => {
  it('counts brackets outside strings only, and refuses a body past the cap before parsing it', () => {
    expect(nestedDeeperThan(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(false);
    expect(nestedDeeperThan(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify({ text: '['.repeat(5_000), quote: '\\"[[[' }))).toBe(false);
    expect(() => parseJsonBody(`${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`)).toThrow(/too deep to judge/);
    expect(parseJsonBody('[[[1]]]').value).toEqual([[[1]]]);
  });
});
