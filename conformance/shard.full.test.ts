/**
 * `--shard K/N` and `merge-reports` on a whole run (issue 33, point 6; the fast tier runs a slice in
 * conformance/shard.test.ts): every check, three shards run as a CI matrix runs them (three processes of the command
 * line side by side, each against its own target as each job of a matrix starts its own mock, each writing its JSON
 * report), merged by the command line into every format, with the exit code a single run gives, against targets
 * with planted defects of each kind (passive, stateful, of no operation).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, BIN } from '../mock/test-support/child-mock.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { readShardReport } from './merge.js';
import { startTargetWithDefects, verdicts, type Target } from './test-support/shards.js';

function kit(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

const DEFECTS = ['pet-status-adopted', 'unknown-path-200', 'deleted-pet-still-readable', 'total-count-off-by-5', 'cancel-keeps-pet-pending'] as const;

describe('a sharded run merged, against a run in one piece', () => {
  /** One for the single run, one per shard. */
  const targets: Target[] = [];
  let dir: string;
  beforeAll(async () => {
    buildIfStale();
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-shards-'));
    for (let i = 0; i < 4; i++) targets.push(await startTargetWithDefects(DEFECTS));
  });
  afterAll(async () => {
    for (const target of targets) await target.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same verdicts, coverage and exit code, in every format', async () => {
    const common = ['conformance', '--seed', '1', '--quiet', '--origin', 'http://localhost:5173', '--min-coverage', 'operations=100'];
    const single = await kit([...common, '--base-url', targets[0]!.url, '--format', 'json', '--output', join(dir, 'single.json')]);
    const shards = await Promise.all([1, 2, 3].map((k) => kit([...common, '--base-url', targets[k]!.url, '--shard', `${k}/3`, '--format', 'json', '--output', join(dir, `shard-${k}.json`)])));
    expect(single.code, single.stderr).toBe(1);
    for (const shard of shards) expect([0, 1], shard.stderr).toContain(shard.code);

    const merged = await kit(['merge-reports', ...[3, 1, 2].map((k) => join(dir, `shard-${k}.json`)), '--format', 'json', '--output', join(dir, 'merged.json'), '--report', `junit=${join(dir, 'merged.xml')}`, '--report', `html=${join(dir, 'merged.html')}`, '--report', `markdown=${join(dir, 'merged.md')}`]);
    expect(merged.code, merged.stderr).toBe(single.code);

    const one = readShardReport(readFileSync(join(dir, 'single.json'), 'utf8'), 'single.json');
    const all = readShardReport(readFileSync(join(dir, 'merged.json'), 'utf8'), 'merged.json');
    expect(verdicts(all)).toEqual(verdicts(one));
    const { exchanges: _a, exchangesPerSecond: _b, ...counts } = one.summary;
    expect(all.summary).toMatchObject(counts);
    // The passive checks' counts add up across the shards (each answer judged where it was received).
    const judged = (report: typeof one): number => report.results.reduce((sum, r) => sum + (r.judged ?? 0), 0);
    expect(judged(all)).toBeGreaterThan(0);
    expect(all.coverage).toEqual(one.coverage);
    expect(all.results.find((r) => r.checkId === 'min-coverage')?.verdict).toBe('passed');
    expect(XMLValidator.validate(readFileSync(join(dir, 'merged.xml'), 'utf8'))).toBe(true);
    expect(readFileSync(join(dir, 'merged.html'), 'utf8')).toContain('response-schema');
    expect(readFileSync(join(dir, 'merged.md'), 'utf8')).toMatch(/FAILED|failed/);
  });

  it('a shard missing is exit 2 with REPORT_UNREADABLE, never a pass', async () => {
    const partial = await kit(['merge-reports', join(dir, 'shard-1.json'), join(dir, 'shard-2.json')]);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('REPORT_UNREADABLE');
    expect(partial.stderr).toContain('3/3 missing');
  });
});
