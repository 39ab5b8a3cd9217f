/**
 * Review 1, finding 7: `--record` writes only what the mock reads, and says what it left out. The fast slice: a record
 * nested deeper than the mock reads a fixtures file (DOCUMENT_CAPS.maxDepth) is left out and counted, and the rest
 * replays. The byte bounds (a collection's file within FILE_CAPS.fixturesBytes; a long session's memory flat) take
 * some hundred megabytes of traffic: record-bounds.full.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENT_CAPS } from '../../src/contract/caps.js';
import { startMock } from '../../mock/transport/server.js';
import { startTestProxy } from './test-support/servers.js';
import { THINGS_SPEC, thingsTarget } from './test-support/things.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** JSON nested `depth` arrays deep. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

describe('--record leaves out what the mock would refuse', () => {
  it('a record nested past the mock’s depth cap: counted, named, and the rest replays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-record-depth-'));
    dirs.push(dir);
    const spec = join(dir, 'things.yaml');
    await writeFile(spec, THINGS_SPEC);
    // Thing 3 nests as deep as a record may in a file the mock reads (the record itself, then its notes); thing 4 one level more.
    const target = await thingsTarget((id) => (id === 3 ? nested(DOCUMENT_CAPS.maxDepth - 3) : id === 4 ? nested(DOCUMENT_CAPS.maxDepth - 2) : 'plain'));
    try {
      const proxy = await startTestProxy({ target: target.url, specPath: spec, record: join(dir, 'rec'), quiet: true });
      for (let id = 1; id <= 4; id += 1) expect((await request(`${proxy.url}/things/${id}`)).statusCode).toBe(200);
      const closed = await proxy.close();
      expect(closed.recorded).toMatchObject({ records: 3, dropped: 1, droppedWhy: [`1 record of things: the record nests deeper than the ${DOCUMENT_CAPS.maxDepth - 2} levels the mock reads`] });
      expect(proxy.report().warnings?.some((w) => w.message.startsWith('--record kept no more of 1 record'))).toBe(true);
      expect(closed.recorded?.problem).toBeUndefined();
      const mock = await startMock({ port: 0, quiet: true, specPath: spec, fixtures: join(dir, 'rec'), log: () => undefined });
      try {
        const answer = await request(`${mock.url}/things`);
        expect(((await answer.body.json()) as { id: number }[]).map((t) => t.id)).toEqual([1, 2, 3]);
      } finally {
        await mock.close();
      }
    } finally {
      await target.close();
    }
  }, 60_000);
});
