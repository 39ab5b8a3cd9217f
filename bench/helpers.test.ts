// The bench's pure helpers. Nothing here is timed: the bench's figures are
// reported by `npm run bench`, never asserted by `npm test`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCpuList } from './lib/pinning.mjs';
import { compareMetrics, flattenMetrics, fmt, formatTable, median, percentileSorted, ratio, verdict } from './lib/stats.mjs';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('ignores values that are not finite and is NaN without any', () => {
    expect(median([Number.NaN, 5, Infinity, 1])).toBe(3);
    expect(median([])).toBeNaN();
  });
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('percentileSorted', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  it('uses the nearest rank', () => {
    expect(percentileSorted(hundred, 50)).toBe(50);
    expect(percentileSorted(hundred, 99)).toBe(99);
    expect(percentileSorted(hundred, 100)).toBe(100);
    expect(percentileSorted([7], 99)).toBe(7);
    expect(percentileSorted(Float64Array.from([1, 2, 3]), 0)).toBe(1);
  });
  it('is NaN for no samples', () => {
    expect(percentileSorted([], 50)).toBeNaN();
  });
});

describe('ratio and verdict', () => {
  it('divides, and is NaN when the divisor is 0 or a side is missing', () => {
    expect(ratio(8, 10)).toBeCloseTo(0.8);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 1)).toBeNaN();
  });
  it('passes a ratio at or above the target, never NaN', () => {
    expect(verdict(0.8, 0.8)).toBe('PASS');
    expect(verdict(0.79, 0.8)).toBe('MISS');
    expect(verdict(Number.NaN, 0.8)).toBe('MISS');
  });
});

describe('formatTable', () => {
  it('pads columns, right-aligns the numeric ones and rules the header', () => {
    const text = formatTable(
      ['scenario', 'req/s'],
      [
        ['GET /pets/{petId}', fmt(31234)],
        ['POST /pets', fmt(980)],
      ],
      ['req/s'],
    );
    expect(text.split('\n')).toEqual([
      'scenario            req/s',
      '-----------------  ------',
      'GET /pets/{petId}  31,234',
      'POST /pets            980',
    ]);
  });
  it('prints a dash for a missing number', () => {
    expect(fmt(Number.NaN)).toBe('-');
    expect(fmt(undefined)).toBe('-');
    expect(fmt(0.1234, 2)).toBe('0.12');
  });
});

describe('comparison with the committed figures', () => {
  const run = (rps: number, p50: number, startupMs: number) => ({
    scenarios: [{ id: 'getPet', ratio: rps / 30000, cpuRatio: 0.8, mock: { rps, p50Ms: p50, p99Ms: 2, cpuUsPerRequest: 30, peakRssBytes: 60e6 }, baseline: { rps: 30000 } }],
    scale: { sizes: [{ pets: 10000, startupMs, peakRssBytes: 80e6, pageP50Ms: 0.2 }], latencyRatio: 1.1 },
    runner: { runs: [{ label: 'fixtures', wallMs: 1500, exchangesPerSecond: 400 }] },
  });

  it('flattens the figures with the direction that is better', () => {
    const m = flattenMetrics(run(25000, 1, 500));
    expect(m['getPet.mock.rps']).toEqual({ value: 25000, better: 'higher' });
    expect(m['getPet.mock.p50Ms']).toEqual({ value: 1, better: 'lower' });
    expect(m['getPet.cpuRatio']).toEqual({ value: 0.8, better: 'higher' });
    expect(m['getPet.mock.p99Ms']).toBeUndefined(); // too noisy to compare
    expect(m['scale.10000.startupMs']).toEqual({ value: 500, better: 'lower' });
    expect(m['runner.fixtures.wallMs']).toEqual({ value: 1500, better: 'lower' });
  });

  it('takes the proxy section’s figures: its throughput and ratios, its added p50, its CPU per request', () => {
    const m = flattenMetrics({ proxy: { kinds: [{ id: 'getPet', ours: { rps: 3600, cpuUsPerRequest: 170, singleP99Ms: 9 }, oursOverBare: 0.6, oursOverPrism: 8, addedP50Ms: { ours: 0.36 }, addedP99Ms: { ours: 8.7 } }] } });
    expect(m['proxy.getPet.ours.rps']).toEqual({ value: 3600, better: 'higher' });
    expect(m['proxy.getPet.oursOverPrism']).toEqual({ value: 8, better: 'higher' });
    expect(m['proxy.getPet.addedP50Ms']).toEqual({ value: 0.36, better: 'lower' });
    expect(m['proxy.getPet.ours.cpuUsPerRequest']).toEqual({ value: 170, better: 'lower' });
    expect(Object.keys(m).filter((name) => name.includes('P99'))).toEqual([]); // too noisy to compare
  });

  it('flags a change of more than 20% in the worse direction, in either kind of figure', () => {
    const rows = compareMetrics(flattenMetrics(run(19000, 1.3, 500)), flattenMetrics(run(25000, 1, 500)));
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['getPet.mock.rps']?.regression).toBe(true); // -24% throughput
    expect(byName['getPet.mock.p50Ms']?.regression).toBe(true); // +30% latency
    expect(byName['scale.10000.startupMs']?.regression).toBe(false);
  });

  it('does not flag changes within 20%, and reports big improvements as such', () => {
    const rows = compareMetrics(flattenMetrics(run(21000, 0.5, 500)), flattenMetrics(run(25000, 1, 500)));
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['getPet.mock.rps']?.regression).toBe(false); // -16%
    expect(byName['getPet.mock.p50Ms']).toMatchObject({ regression: false, improvement: true });
  });

  it('skips figures that only one side has', () => {
    const rows = compareMetrics({ a: { value: 1, better: 'higher' } }, { b: { value: 1, better: 'higher' } });
    expect(rows).toEqual([]);
  });
});

describe('parseCpuList (which CPUs the bench may pin to, from /proc/self/status)', () => {
  it.each([
    ['0-1', [0, 1]],
    ['0', [0]],
    ['0-3,8,10-11', [0, 1, 2, 3, 8, 10, 11]],
    ['2,0-1', [0, 1, 2]],
    [' 4-5\n', [4, 5]],
  ])('%j is %j', (text, cpus) => {
    expect(parseCpuList(text)).toEqual(cpus);
  });

  it.each(['', 'ff', '3-1', '0-1,,2', '0-99999'])('%j cannot be read, so nothing is pinned', (text) => {
    expect(parseCpuList(text)).toEqual([]);
  });
});

describe('the floor of the runner-cost section (http-floor.mjs)', () => {
  it('sends COUNT requests in turn from the list, each body padded back to the Content-Length it was sent with', async () => {
    const seen: { method: string; url: string; bytes: number }[] = [];
    const server = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', bytes });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const folder = await mkdtemp(join(tmpdir(), 'floor-'));
    try {
      const list = join(folder, 'requests.json');
      await writeFile(list, JSON.stringify([
        { method: 'GET', url: `http://127.0.0.1:1/pets?limit=2`, headers: { accept: 'application/json' } },
        { method: 'POST', url: 'http://127.0.0.1:1/pets', headers: { 'content-type': 'application/json', 'content-length': '300' }, body: '{"name":"clipped"' },
      ]));
      const out = await new Promise<string>((done, fail) =>
        execFile(process.execPath, ['bench/lib/http-floor.mjs', `http://127.0.0.1:${port}`, list, '5', '2'], { timeout: 30_000 }, (error, stdout) => (error ? fail(error) : done(stdout))),
      );
      expect(JSON.parse(out)).toEqual({ sent: 5, failed: 0 });
      expect(seen).toHaveLength(5);
      expect(seen.filter((x) => x.method === 'GET').every((x) => x.url === '/pets?limit=2')).toBe(true);
      expect(seen.filter((x) => x.method === 'POST').map((x) => x.bytes)).toEqual([300, 300]);
    } finally {
      server.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
