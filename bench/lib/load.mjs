// The load generator: autocannon's programmatic API, in the bench process,
// with the same settings for every server. Latency percentiles and status
// counts are taken from autocannon's per-response event (float milliseconds),
// because its own histogram rounds to whole milliseconds, which is too coarse
// for a server that answers in a fraction of one.
import autocannon from 'autocannon';
import { percentileSorted } from './stats.mjs';

/**
 * @typedef {object} LoadResult
 * @property {number} rps          completed responses per second of wall time
 * @property {number} count        completed responses
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {Record<string, number>} statuses  responses per HTTP status
 * @property {number} non2xx
 * @property {number} unexpected   responses with a status not in `expected`, plus errors and timeouts
 * @property {number} errors
 * @property {number} timeouts
 * @property {number} bytesPerResponse  mean bytes on the wire per response (status line, headers, body)
 */

/**
 * Runs one load of `seconds` against `url`.
 * @param {{ url: string, connections: number, seconds: number, requests: object[], expected: readonly number[] }} o
 * @returns {Promise<LoadResult>}
 */
export async function runLoad({ url, connections, seconds, requests, expected }) {
  let times = new Float64Array(1 << 16);
  let n = 0;
  let bytes = 0;
  const statuses = {};
  const started = performance.now();
  const instance = autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests,
  });
  instance.on('response', (_client, status, resBytes, responseTime) => {
    if (n === times.length) {
      const bigger = new Float64Array(times.length * 2);
      bigger.set(times);
      times = bigger;
    }
    times[n++] = responseTime;
    bytes += resBytes;
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = times.subarray(0, n).sort();
  let non2xx = 0;
  let unexpected = result.errors + result.timeouts;
  for (const [status, count] of Object.entries(statuses)) {
    const s = Number(status);
    if (s < 200 || s > 299) non2xx += count;
    if (!expected.includes(s)) unexpected += count;
  }
  return {
    rps: n / elapsedS,
    count: n,
    p50Ms: percentileSorted(sorted, 50),
    p99Ms: percentileSorted(sorted, 99),
    statuses,
    non2xx,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: n ? bytes / n : Number.NaN,
  };
}
