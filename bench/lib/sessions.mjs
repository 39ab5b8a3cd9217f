// Section 4 of `npm run bench`: X-Mock-Session at scale (issue 14). Sessions are
// copy-on-write forks of the initial data, so creating one must cost the same
// at 1,000,000 pets as at 10,000, reads in a session must cost what reads of
// the default store cost, and a session's memory must grow with its writes
// only. Every loop here is bounded by a count; the server is started and
// stopped by PID (procs.mjs).
import { readRss, request, startServer } from './procs.mjs';
import { fmt, fmtMiB, formatTable, median, percentileSorted, ratio } from './stats.mjs';

/** How many sessions are created (idle) and how many then write, each `WRITES` records. */
export const SESSION_COUNT = 1_000;
const WRITES = 10;
/**
 * Requests per read and per side (with and without a session), taking turns request by request. Blocks of 40
 * (the first way) let a busy moment of the machine fall on one side: the same code measured 0.80x at one size
 * and 1.18x at another. One request each way in turn, which of the two goes first alternating, keeps the two
 * samples exposed to the same moments; 1,000 a side cost under a second per read and size.
 */
const READS = 1_000;

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** The reads compared with and without a session; `{mid}` is a pet id in the middle of the data. */
const READ_PATHS = [
  { id: 'listPage', title: 'list page', path: () => '/pets?limit=20' },
  { id: 'filteredPage', title: 'filtered page', path: () => '/pets?status=sold&limit=20&offset=2000' },
  { id: 'getPet', title: 'getPet', path: (mid) => `/pets/${mid}` },
];

async function timed(url, options) {
  const res = await request(url, options);
  if (res.status >= 300) throw new Error(`${options.method ?? 'GET'} ${options.path}: ${res.status} ${res.body.slice(0, 200)}`);
  return res.ms;
}

/** Medians of READS requests with and without the session header, taking turns so drift hits both alike. */
async function compareReads(url, path, session) {
  const without = [];
  const withSession = [];
  const sessionHeaders = { 'x-mock-session': session };
  for (let i = 0; i < READS; i++) {
    for (const side of i % 2 === 0 ? ['without', 'with'] : ['with', 'without']) {
      const headers = side === 'with' ? sessionHeaders : {};
      (side === 'with' ? withSession : without).push(await timed(url, { path, headers }));
    }
  }
  return { withoutMs: median(without), withMs: median(withSession), ratio: ratio(median(withSession), median(without)) };
}

async function measureSize(o, pets, mockArgs, root) {
  const row = { pets };
  const mock = await startServer({
    name: `mock --pets ${pets} (sessions)`,
    args: mockArgs(o, ['--fixtures', 'none', '--seed', '1', '--pets', String(pets), '--max-sessions', String(2 * SESSION_COUNT + 10), '--max-session-memory', '8192']),
    cwd: root,
    timeoutMs: 120_000,
  });
  try {
    const mid = Math.max(1, Math.floor(pets / 2));
    for (let i = 0; i < 100; i++) await timed(mock.url, { path: `/pets/${mid}` });

    // 1. Creation: the first request of a new session against the same request without one, interleaved.
    const rss0 = readRss(mock.pid).current;
    const plain = [];
    const first = [];
    const createStarted = performance.now();
    for (let i = 0; i < SESSION_COUNT; i++) {
      plain.push(await timed(mock.url, { path: `/pets/${mid}` }));
      first.push(await timed(mock.url, { path: `/pets/${mid}`, headers: { 'x-mock-session': `idle-${i}` } }));
    }
    row.createWallMs = Math.round(performance.now() - createStarted);
    const rss1 = readRss(mock.pid).current;
    const sortedFirst = Float64Array.from(first).sort();
    row.firstRequestP50Ms = median(first);
    row.firstRequestP99Ms = percentileSorted(sortedFirst, 99);
    row.firstRequestMaxMs = sortedFirst[sortedFirst.length - 1];
    row.plainP50Ms = median(plain);
    // What creating a session adds to a request: the difference of the medians (never below 0).
    row.createMs = Math.max(0, row.firstRequestP50Ms - row.plainP50Ms);
    row.idleSessionBytes = Math.max(0, (rss1 - rss0) / SESSION_COUNT);

    // 2. Reads with and without a session that has written (so it holds copies of its own).
    const reader = 'reader';
    for (let i = 0; i < WRITES; i++) await timed(mock.url, { method: 'POST', path: '/pets', headers: { ...JSON_HEADERS, 'x-mock-session': reader }, body: JSON.stringify({ name: `Reader ${i}`, categoryId: 1 + (i % 8) }) });
    for (const read of READ_PATHS) {
      const path = read.path(mid);
      for (let i = 0; i < 30; i++) await timed(mock.url, { path, headers: { 'x-mock-session': reader } });
      row[read.id] = await compareReads(mock.url, path, reader);
    }

    // 3. 1,000 sessions each writing 10 records: 5 new pets, and 5 replaces of pets spread over the data
    //    (the costly case for copy-on-write: each lands in another piece of the shared indexes).
    const rss2 = readRss(mock.pid).current;
    const writeStarted = performance.now();
    let seed = 12345;
    const nextId = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return 1 + (seed % pets);
    };
    for (let s = 0; s < SESSION_COUNT; s++) {
      const headers = { ...JSON_HEADERS, 'x-mock-session': `writer-${s}` };
      for (let k = 0; k < WRITES; k++) {
        if (k % 2 === 0) await timed(mock.url, { method: 'POST', path: '/pets', headers, body: JSON.stringify({ name: `Writer ${s}.${k}`, categoryId: 1 + (k % 8) }) });
        else await timed(mock.url, { method: 'PUT', path: `/pets/${nextId()}`, headers, body: JSON.stringify({ name: `Replaced ${s}.${k}`, categoryId: 1 + (s % 8), status: 'sold' }) });
      }
    }
    row.writeWallMs = Math.round(performance.now() - writeStarted);
    const rss3 = readRss(mock.pid);
    row.writersRssBytes = rss3.current;
    row.writerSessionBytes = Math.max(0, (rss3.current - rss2) / SESSION_COUNT);
    row.peakRssBytes = rss3.peak;
    const health = await request(mock.url, { path: '/__mock/health' });
    row.sessionsHeld = JSON.parse(health.body).sessions;
  } finally {
    await mock.stop();
  }
  return row;
}

/** Runs the section for every size, one mock at a time (1,000,000 pets take ~0.6 GB on their own). */
export async function runSessions(o, { mockArgs, root }) {
  const sizes = [];
  for (const pets of o.sizes) {
    try {
      const row = await measureSize(o, pets, mockArgs, root);
      sizes.push(row);
      console.log(
        `  ${fmt(pets)} pets: a new session adds ${fmt(row.createMs, 3)} ms to its first request (p99 ${fmt(row.firstRequestP99Ms, 2)} ms, max ${fmt(row.firstRequestMaxMs, 2)} ms), ~${fmt(row.idleSessionBytes / 1024, 1)} KiB RSS each; ` +
          `reads with/without a session ${READ_PATHS.map((r) => `${r.title} ${fmt(row[r.id].ratio, 2)}x`).join(', ')}; ${SESSION_COUNT} sessions × ${WRITES} writes: RSS ${fmtMiB(row.writersRssBytes)}, ~${fmt(row.writerSessionBytes / 1024)} KiB each`,
      );
    } catch (error) {
      sizes.push({ pets, error: String(error.message ?? error) });
      console.log(`  ${fmt(pets)} pets: ERROR ${error.message ?? error}`);
    }
  }
  const ok = sizes.filter((s) => !s.error);
  const largest = ok.find((s) => s.pets === Math.max(...o.sizes));
  const smallest = ok.find((s) => s.pets === Math.min(...o.sizes));
  const checks = [];
  if (largest) {
    checks.push({ what: `${fmt(largest.pets)} pets: creating a session adds < 10 ms`, value: largest.createMs, unit: 'ms', pass: largest.createMs < 10 });
    checks.push({ what: `${fmt(largest.pets)} pets: an idle session costs < 10 MiB RSS`, value: largest.idleSessionBytes, unit: 'bytes', pass: largest.idleSessionBytes < 10 * 2 ** 20 });
  }
  for (const s of ok) {
    for (const read of READ_PATHS) {
      const r = s[read.id].ratio;
      checks.push({ what: `${fmt(s.pets)} pets: ${read.title} in a session / without <= 1.10`, value: r, unit: 'x', pass: r <= 1.1 });
    }
  }
  if (largest && smallest && largest !== smallest) {
    const r = ratio(largest.filteredPage.withMs, smallest.filteredPage.withMs);
    checks.push({ what: `filtered page in a session at ${fmt(largest.pets)} / at ${fmt(smallest.pets)} pets <= 2`, value: r, unit: 'x', pass: r <= 2 });
  }
  return { sessions: SESSION_COUNT, writesPerSession: WRITES, sizes, checks: checks.map((c) => ({ ...c, verdict: c.pass ? 'PASS' : 'MISS' })) };
}

export function printSessions(result) {
  const headers = ['pets', 'create ms', 'first req p99 ms', 'idle KiB/session', 'list p50 ms with/without', 'filtered p50 ms with/without', 'getPet p50 ms with/without', `${result.sessions}×${result.writesPerSession} writes: RSS`, 'KiB/writer', 'peak RSS'];
  const pair = (r) => `${fmt(r.withMs, 3)} / ${fmt(r.withoutMs, 3)} (${fmt(r.ratio, 2)}x)`;
  console.log(
    formatTable(
      headers,
      result.sizes.map((s) =>
        s.error
          ? [fmt(s.pets), 'error', '', '', '', '', '', '', '', '']
          : [fmt(s.pets), fmt(s.createMs, 3), fmt(s.firstRequestP99Ms, 2), fmt(s.idleSessionBytes / 1024, 1), pair(s.listPage), pair(s.filteredPage), pair(s.getPet), fmtMiB(s.writersRssBytes), fmt(s.writerSessionBytes / 1024), fmtMiB(s.peakRssBytes)],
      ),
      headers,
    ),
  );
  for (const c of result.checks) console.log(`  ${c.verdict}  ${c.what} (${c.unit === 'bytes' ? `${fmt(c.value / 1024, 1)} KiB` : c.unit === 'ms' ? `${fmt(c.value, 3)} ms` : `${fmt(c.value, 2)}x`})`);
}
