/**
 * --max-body-bytes (issue 30, class 5): the target's body limit where the document states none, or a smaller one
 * than it states. Against the mock, whose limit is 1 MiB: told the limit is 2 KiB, payload-too-large-413 sends a
 * valid body of 2,049 bytes, which the mock rightly takes, so the check fails on it (the flag is the limit the run
 * holds the target to); told 1 MiB, it passes. The flag is a whole number of bytes up to 64 MiB, else a USAGE error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { runConformanceCommand } from './cli.js';
import { runConformance } from './runner.js';

describe('--max-body-bytes', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('is the limit payload-too-large-413 holds the target to: a body one byte over it, with a Content-Length and chunked, must get the 413', async () => {
    const report = await runConformance({ baseUrl: mock.url, only: ['payload-too-large-413', 'createCategory'], bodyLimitBytes: 2048, seed: 1 });
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => r.title)).toEqual(expect.arrayContaining(['POST /categories with a body of 2049 bytes', 'POST /categories with a chunked body of 2049 bytes (no Content-Length)']));
    expect(failed.every((r) => r.checkId === 'payload-too-large-413')).toBe(true);
  });

  it('passes a server whose limit it is', async () => {
    const report = await runConformance({ baseUrl: mock.url, only: ['payload-too-large-413', 'createCategory'], bodyLimitBytes: 1024 * 1024, seed: 1 });
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => r.title)).toEqual([]);
    expect(report.results.filter((r) => r.verdict === 'passed').map((r) => r.title)).toEqual(
      expect.arrayContaining(['POST /categories with a body of 1048577 bytes', 'POST /categories with a chunked body of 1048577 bytes (no Content-Length)', 'POST /categories with a body of 1048576 bytes, at the limit']),
    );
  });

  it('takes a whole number of bytes up to 64 MiB', async () => {
    await expect(runConformanceCommand(['--base-url', mock.url, '--max-body-bytes', '0'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('--max-body-bytes') });
    await expect(runConformanceCommand(['--base-url', mock.url, '--max-body-bytes', '1.5'])).rejects.toMatchObject({ code: 'USAGE' });
    await expect(runConformanceCommand(['--base-url', mock.url, '--max-body-bytes', String(64 * 1024 * 1024 + 1)])).rejects.toMatchObject({ code: 'USAGE' });
  });
});
