/**
 * The runner against Prism's static mock of the same document (issue 4):
 * an implementation we did not write must not be failed on schema, so every
 * response-schema result on its 2xx answers passes; and since Prism keeps no
 * state, the stateful checks fail, as they should.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from '../src/package-info.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

/** Prism takes a few seconds to start on a busy machine; the wait is bounded. */
const START_TIMEOUT_MS = 45_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startPrism(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism'), ['mock', DEFAULT_SPEC_PATH, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-2000)}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  // Keep draining its log so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

describe('against Prism 5 static mock of the same document', () => {
  let prism: { url: string; child: ChildProcess } | undefined;
  let report: RunReport;

  beforeAll(async () => {
    prism = await startPrism();
    // Prism answers slowly: more requests in flight keep the run short.
    report = await runConformance({ baseUrl: prism.url, seed: 5, concurrency: 8 });
  }, 120_000);

  afterAll(async () => {
    const child = prism?.child;
    const running = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;
    if (child?.pid !== undefined && running()) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (running()) process.kill(child.pid, 'SIGKILL');
    }
  });

  it('passes response-schema on every 2xx answer', () => {
    const schema = report.results.filter((r) => r.checkId === 'response-schema');
    expect(schema.length).toBeGreaterThan(10);
    const failed = schema.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.title}: ${r.reason}`)).toEqual([]);
    // Every operation's successes were judged, not skipped.
    expect(new Set(schema.filter((r) => r.verdict === 'passed').map((r) => r.operationId)).size).toBe(18);
  });

  it('fails the stateful checks, since a static mock keeps nothing', () => {
    for (const id of ['create-read-back', 'replace-visible', 'list-contains-created', 'delete-removes']) {
      const results = report.results.filter((r) => r.checkId === id);
      expect(results.length, id).toBeGreaterThan(0);
      expect(
        results.some((r) => r.verdict === 'failed'),
        `${id}: ${results.map((r) => `${r.verdict} ${r.reason ?? ''}`).join('; ')}`,
      ).toBe(true);
    }
  });

  it('produces a report with coverage and a cleanup section, without crashing', () => {
    expect(report.summary.total).toBe(report.results.length);
    expect(report.coverage.operations.every((o) => o.exercised)).toBe(true);
    expect(Array.isArray(report.cleanup.leftBehind)).toBe(true);
  });
});
