// Section 6 of `npm run bench` (issue 35, point 5): what `petstore-kit proxy` adds to a request, against the least a
// proxy does and against Prism's validating proxy, in the same run. One upstream, the bench's bare node:http server
// (bench/baseline-server.mjs, answering the Pet Store's getPet, listPets and createPet with fixed valid answers), and
// in front of it, each in its own process on the same CPU:
//   - nothing (the upstream itself, "direct"): what a request costs without a proxy;
//   - bench/bare-proxy.mjs: node:http in, http.request out, piped, no validation (the yardstick);
//   - `petstore-kit proxy --target UPSTREAM --quiet`: ours, judging every exchange against openapi.yaml;
//   - `prism proxy openapi.yaml UPSTREAM`: Stoplight Prism 5's validating proxy (@stoplight/prism-cli, a devDependency).
// Interleaved rounds per request kind: throughput with --connections connections, and latency with one connection
// (no queueing, so p50 through a proxy minus p50 direct is what the proxy adds). Targets: added p50 under 1 ms, and
// at least 5x Prism's throughput.
import net from 'node:net';
import path from 'node:path';
import { runLoad } from './load.mjs';
import { readCpuUs, readRss, request, startServer } from './procs.mjs';
import { fmt, formatTable, median, ratio } from './stats.mjs';

export const ADDED_P50_TARGET_MS = 1;
export const PRISM_THROUGHPUT_TARGET = 5;

/** What the proxies are asked, each a valid request of the bundled document whose answer the upstream gives valid. */
const KINDS = [
  { id: 'getPet', title: 'GET /pets/{petId} (deprecated: Deprecation, Sunset, Link)', requests: [{ method: 'GET', path: '/pets/1', headers: { accept: 'application/json' } }], expected: [200] },
  { id: 'listPets', title: 'GET /pets?limit=20 (a page of 20, X-Total-Count)', requests: [{ method: 'GET', path: '/pets?limit=20', headers: { accept: 'application/json' } }], expected: [200] },
  {
    id: 'createPet',
    title: 'POST /pets (a body validated both ways)',
    requests: [{ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }) }],
    expected: [201],
  },
];

const round3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `cpu` is the proxies' CPU; `upstreamCpu` the upstream's (the load generator's, so that each proxy has a core of
 * its own, as each server does in section 1, and the upstream's work does not count against the proxy it serves).
 * @param {{ rounds: number, seconds: number, warmup: number, connections: number, kinds?: string[] }} o
 * @param {{ root: string, cpu?: number, upstreamCpu?: number }} where
 */
export async function runProxySection(o, { root, cpu, upstreamCpu }) {
  const started = performance.now();
  const servers = {};
  const stops = [];
  try {
    const upstream = await startServer({ name: 'upstream (bench/baseline-server.mjs)', args: ['bench/baseline-server.mjs', '--port', '0'], cwd: root, cpu: upstreamCpu });
    stops.push(upstream);
    servers.direct = upstream;
    servers.bare = await startServer({ name: 'bare node:http proxy', args: ['bench/bare-proxy.mjs', '--target', upstream.url, '--port', '0'], cwd: root, cpu });
    stops.push(servers.bare);
    servers.ours = await startServer({ name: 'petstore-kit proxy', args: ['bin/petstore-kit.js', 'proxy', '--target', upstream.url, '--port', '0', '--quiet'], cwd: root, cpu, timeoutMs: 60_000 });
    stops.push(servers.ours);
    const prismPort = await freePort();
    const prismBin = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
    // Prism took over 45 s to start on the shared 2-core machine (mock/e2e/prism-referee.test.ts): bounded at 180 s.
    servers.prism = await startServer({ name: 'prism proxy', args: [prismBin, 'proxy', 'openapi.yaml', upstream.url, '--port', String(prismPort), '--host', '127.0.0.1'], cwd: root, cpu, timeoutMs: 180_000 });
    stops.push(servers.prism);
    const names = ['direct', 'bare', 'ours', 'prism'];

    // Every proxy must pass the answer on: a proxy that answered 4xx/5xx would be measured doing less.
    for (const kind of KINDS) {
      for (const name of names) {
        const { method, path: target, headers, body } = kind.requests[0];
        const answer = await request(servers[name].url, { method, path: target, headers, ...(body !== undefined ? { body } : {}) });
        if (!kind.expected.includes(answer.status)) throw new Error(`${name} answered ${kind.id} with ${answer.status}: ${answer.body.slice(0, 200)}`);
        if (name === 'prism' && answer.headers['sl-violations']) console.log(`  note: Prism reports violations on ${kind.id}: ${answer.headers['sl-violations']}`);
      }
    }

    const kinds = [];
    for (const kind of KINDS.filter((k) => !o.kinds || o.kinds.includes(k.id))) {
      const load = async (name, connections, seconds) => {
        const server = servers[name];
        const cpu0 = readCpuUs(server.pid);
        const result = await runLoad({ url: server.url, connections, seconds, requests: kind.requests, expected: kind.expected });
        result.cpuUsPerRequest = (readCpuUs(server.pid) - cpu0) / result.count;
        return result;
      };
      if (o.warmup > 0) for (const name of names) await load(name, o.connections, o.warmup);
      const rounds = Object.fromEntries(names.map((name) => [name, { throughput: [], latency: [] }]));
      for (let r = 0; r < o.rounds; r++) {
        // Alternate who goes first, so a drift of the machine hits all alike.
        for (const name of r % 2 === 0 ? names : [...names].reverse()) {
          rounds[name].throughput.push(await load(name, o.connections, o.seconds));
          rounds[name].latency.push(await load(name, 1, o.seconds));
        }
        const t = (name) => fmt(rounds[name].throughput[r].rps);
        const l = (name) => fmt(rounds[name].latency[r].p50Ms, 3);
        console.log(`  ${kind.id} round ${r + 1}/${o.rounds}: req/s direct ${t('direct')}, bare ${t('bare')}, ours ${t('ours')}, prism ${t('prism')}; p50 ms (1 connection) direct ${l('direct')}, bare ${l('bare')}, ours ${l('ours')}, prism ${l('prism')}`);
      }
      const summary = Object.fromEntries(
        names.map((name) => {
          const { throughput, latency } = rounds[name];
          return [
            name,
            {
              rps: round3(median(throughput.map((x) => x.rps))),
              p50Ms: round3(median(throughput.map((x) => x.p50Ms))),
              p99Ms: round3(median(throughput.map((x) => x.p99Ms))),
              singleP50Ms: round3(median(latency.map((x) => x.p50Ms))),
              singleP99Ms: round3(median(latency.map((x) => x.p99Ms))),
              cpuUsPerRequest: round3(median(throughput.map((x) => x.cpuUsPerRequest))),
              unexpected: [...throughput, ...latency].reduce((sum, x) => sum + x.unexpected, 0),
            },
          ];
        }),
      );
      const added = (name, key) => round3(summary[name][key] - summary.direct[key]);
      kinds.push({
        id: kind.id,
        title: kind.title,
        ...summary,
        addedP50Ms: { bare: added('bare', 'singleP50Ms'), ours: added('ours', 'singleP50Ms'), prism: added('prism', 'singleP50Ms') },
        addedP99Ms: { bare: added('bare', 'singleP99Ms'), ours: added('ours', 'singleP99Ms'), prism: added('prism', 'singleP99Ms') },
        oursOverBare: round3(ratio(summary.ours.rps, summary.bare.rps)),
        oursOverPrism: round3(ratio(summary.ours.rps, summary.prism.rps)),
        cpuOursOverBare: round3(ratio(summary.bare.cpuUsPerRequest, summary.ours.cpuUsPerRequest)),
        cpuOursOverPrism: round3(ratio(summary.prism.cpuUsPerRequest, summary.ours.cpuUsPerRequest)),
      });
    }
    const peakRss = Object.fromEntries(names.map((name) => [name, readRss(servers[name].pid).peak]));
    const checks = kinds.flatMap((k) => [
      { what: `${k.id}: p50 added by the proxy (one connection) < ${ADDED_P50_TARGET_MS} ms`, value: k.addedP50Ms.ours, pass: k.addedP50Ms.ours < ADDED_P50_TARGET_MS, unit: 'ms' },
      { what: `${k.id}: throughput >= ${PRISM_THROUGHPUT_TARGET}x Prism's proxy`, value: k.oursOverPrism, pass: k.oursOverPrism >= PRISM_THROUGHPUT_TARGET, unit: 'x' },
      { what: `${k.id}: every answer passed on (no unexpected status or error)`, value: k.ours.unexpected, pass: k.ours.unexpected === 0, unit: '' },
    ]);
    return { kinds, peakRss, checks: checks.map((c) => ({ ...c, verdict: c.pass ? 'PASS' : 'MISS' })), wallMs: Math.round(performance.now() - started) };
  } finally {
    for (const server of stops.reverse()) await server.stop();
  }
}

export function printProxySection(section) {
  const headers = ['request', 'req/s direct', 'bare proxy', 'ours', 'prism', 'ours/bare', 'ours/prism', 'added p50 ms bare/ours/prism', 'added p99 ms bare/ours/prism', 'CPU µs/req bare/ours/prism'];
  console.log(
    formatTable(
      headers,
      section.kinds.map((k) => [
        k.id,
        fmt(k.direct.rps),
        fmt(k.bare.rps),
        fmt(k.ours.rps),
        fmt(k.prism.rps),
        `${fmt(k.oursOverBare, 2)}x`,
        `${fmt(k.oursOverPrism, 2)}x`,
        `${fmt(k.addedP50Ms.bare, 3)} / ${fmt(k.addedP50Ms.ours, 3)} / ${fmt(k.addedP50Ms.prism, 3)}`,
        `${fmt(k.addedP99Ms.bare, 3)} / ${fmt(k.addedP99Ms.ours, 3)} / ${fmt(k.addedP99Ms.prism, 3)}`,
        `${fmt(k.bare.cpuUsPerRequest)} / ${fmt(k.ours.cpuUsPerRequest)} / ${fmt(k.prism.cpuUsPerRequest)}`,
      ]),
      headers.slice(1),
    ),
  );
  const mib = (bytes) => fmt(bytes / 2 ** 20, 1);
  console.log(`  peak RSS MiB: direct ${mib(section.peakRss.direct)}, bare ${mib(section.peakRss.bare)}, ours ${mib(section.peakRss.ours)}, prism ${mib(section.peakRss.prism)}`);
  for (const c of section.checks) console.log(`  ${c.verdict}  ${c.what} (${fmt(c.value, c.unit === '' ? 0 : 3)}${c.unit})`);
}
