/**
 * The full tier of record-bounds.e2e.test.ts (review 1, finding 7): `--record` bounded in bytes.
 * - A collection's file never passes what the mock reads as one fixtures file (FILE_CAPS.fixturesBytes): as many
 *   records as fit are kept, the rest counted and named, and a mock started from the recording serves them.
 * - A long session of large answers keeps the proxy's memory flat once that bound is reached: read from the
 *   proxy's own process (`petstore-kit proxy`, /proc/PID/status), and the exit says what was left out.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CAPS } from '../../src/contract/bounded-files.js';
import { buildIfStale, killChildren } from '../../mock/test-support/child-mock.js';
import { startMock } from '../../mock/transport/server.js';
import { startChildProxy, startTestProxy, type startUpstream } from './test-support/servers.js';
import { THINGS_SPEC, thingsTarget } from './test-support/things.js';

let dir: string;
let spec: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proxy-record-bounds-'));
  spec = join(dir, 'things.yaml');
  await writeFile(spec, THINGS_SPEC);
});
afterAll(async () => {
  killChildren();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('--record keeps each collection within the mock’s fixtures cap', () => {
  /** Ten things of 7.5 MB each: 75 MB, past the 64 MiB a fixtures file may hold. */
  const THINGS = 10;
  const NOTES_BYTES = 7_500_000;
  /** How many fit in one file: the cap is bytes, not a count (each line is the notes and some 40 bytes more). */
  const FIT = Math.floor(FILE_CAPS.fixturesBytes / (NOTES_BYTES + 60));
  let target: Awaited<ReturnType<typeof startUpstream>>;
  let closed: Awaited<ReturnType<Awaited<ReturnType<typeof startTestProxy>>['close']>>;
  let warnings: string[];

  beforeAll(async () => {
    const notes = 'n'.repeat(NOTES_BYTES);
    target = await thingsTarget(() => notes);
    // Bodies this large are judged and recorded only under a --max-body-bytes that takes them.
    const proxy = await startTestProxy({ target: target.url, specPath: spec, record: join(dir, 'capped'), quiet: true, maxBodyBytes: 16 * 1024 * 1024 });
    for (let id = 1; id <= THINGS; id += 1) {
      const answer = await request(`${proxy.url}/things/${id}`);
      expect([answer.statusCode, (await answer.body.text()).length > NOTES_BYTES]).toEqual([200, true]);
    }
    closed = await proxy.close();
    warnings = (proxy.report().warnings ?? []).map((w) => w.message);
  }, 120_000);
  afterAll(async () => {
    await target?.close();
  });

  it('writes no file past the cap, and counts the records it left out', async () => {
    expect(FIT).toBeLessThan(THINGS);
    expect((await stat(join(dir, 'capped', 'things.json'))).size).toBeLessThanOrEqual(FILE_CAPS.fixturesBytes);
    expect(closed.recorded).toMatchObject({ records: FIT, dropped: THINGS - FIT });
    expect(closed.recorded?.droppedWhy).toEqual([`${THINGS - FIT} records of things: its file would pass 64 MiB, what the mock reads as one fixtures file`]);
    expect(warnings.some((w) => w.includes(`--record kept no more of ${THINGS - FIT} records`) && w.includes('things: its file would pass 64 MiB'))).toBe(true);
  });

  it('writes what the mock reads: it says nothing is wrong, and a mock started from it serves the things', async () => {
    expect(closed.recorded?.problem).toBeUndefined();
    const mock = await startMock({ port: 0, quiet: true, specPath: spec, fixtures: join(dir, 'capped'), log: () => undefined });
    try {
      const answer = await request(`${mock.url}/things`);
      const things = (await answer.body.json()) as { id: number; notes?: string }[];
      expect(answer.statusCode).toBe(200);
      expect(things.filter((t) => t.notes?.length === NOTES_BYTES).map((t) => t.id)).toEqual(Array.from({ length: FIT }, (_, i) => i + 1));
    } finally {
      await mock.close();
    }
  }, 60_000);
});

/** The resident memory of a process, in bytes (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) * 1024;
}

describe.skipIf(process.platform !== 'linux')('a long --record session of large answers', () => {
  it('keeps the proxy’s memory flat past the bound, and says on exit what it left out', async () => {
    buildIfStale();
    // 300 answers of 1.5 MB: 450 MB crossed, seven times what one collection may keep.
    const NOTES_BYTES = 1_500_000;
    const COUNT = 300;
    const notes = 'n'.repeat(NOTES_BYTES);
    const target = await thingsTarget(() => notes);
    const proxy = await startChildProxy(['--target', target.url, '--spec', spec, '--record', join(dir, 'long'), '--port', '0', '--quiet', '--max-body-bytes', String(2 * 1024 * 1024)]);
    let before = 0;
    let peak = 0;
    let stopped: Awaited<ReturnType<typeof proxy.stop>>;
    try {
      const get = async (id: number): Promise<void> => {
        const answer = await request(`${proxy.url}/things/${id}`);
        expect(answer.statusCode).toBe(200);
        await answer.body.arrayBuffer();
      };
      for (let id = 1; id <= 20; id += 1) await get(id);
      before = peak = await rssOf(proxy.pid);
      for (let id = 21; id <= COUNT; id += 1) {
        await get(id);
        if (id % 20 === 0) peak = Math.max(peak, await rssOf(proxy.pid));
      }
    } finally {
      stopped = await proxy.stop();
      await target.close();
    }
    // What one collection may keep (64 MiB of text), and room for the answers in flight and the collector's slack;
    // unbounded, the 280 later answers alone would keep some 420 MB.
    expect(peak - before).toBeLessThan(FILE_CAPS.fixturesBytes + 96 * 1024 * 1024);
    expect(stopped.code).toBe(0);
    const fit = Math.floor(FILE_CAPS.fixturesBytes / (NOTES_BYTES + 60));
    expect(stopped.stderr).toContain(`recorded ${fit} records in 1 file`);
    expect(stopped.stderr).toContain(`note: ${COUNT - fit} more records were not recorded, so that the mock reads the recording and the proxy's memory stays bounded: ${COUNT - fit} records of things: its file would pass 64 MiB`);
    expect(stopped.stderr).not.toContain('the mock would refuse');
    expect((await stat(join(dir, 'long', 'things.json'))).size).toBeLessThanOrEqual(FILE_CAPS.fixturesBytes);
  }, 300_000);
});
