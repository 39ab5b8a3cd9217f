#!/usr/bin/env node
// The mock, the floor and the bare baseline side by side, for GET /pets/{petId}
// and POST /pets (issue 14, point 4): which part of the mock's distance to bare
// node:http is the mock's own design, and which part is the work any correct
// implementation has to do (bench/floor-server.mjs says what that work is).
//
//   node bench/floor.mjs [--scenario getPet,createPet] [--rounds 7] [--seconds 2] [--connections 10] [--no-pin]
//
// Same method as section 1 of `npm run bench`: each server in its own process,
// pinned to one CPU and the load generator (autocannon, in this process) to
// another; a warm-up, then interleaved rounds whose order rotates, so a drift
// of the machine hits all three alike; medians of req/s and of the server's own
// CPU per request (/proc/PID/stat). Run `npm run build` first (the mock and the
// floor run from dist/). Every server is stopped by its PID at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.mjs';
import { planPinning, setAffinity } from './lib/pinning.mjs';
import { closeRequestAgent, installCleanupHandlers, readCpuUs, startServer } from './lib/procs.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { fmt, formatTable, median } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'getPet,createPet' },
    rounds: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    'no-pin': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const wanted = values.scenario.split(',').map((s) => s.trim());
const unknown = wanted.filter((id) => id !== 'getPet' && id !== 'createPet');
if (unknown.length > 0) {
  console.error(`bench/floor.mjs: the floor serves getPet and createPet only; not ${unknown.join(', ')}`);
  process.exit(2);
}
if (!fs.existsSync(path.join(ROOT, 'dist/src/cli/main.js'))) {
  console.error('bench/floor.mjs: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

installCleanupHandlers();
const pinning = values['no-pin'] ? { reason: '--no-pin' } : planPinning();
const cpu = 'server' in pinning ? pinning.server : undefined;
if ('server' in pinning) setAffinity(process.pid, pinning.load);
console.log(`servers ${'server' in pinning ? `on CPU ${pinning.server}, load generator on CPU ${pinning.load}` : `unpinned (${pinning.reason})`}; ${rounds} rounds of ${seconds} s, ${connections} connections`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-floor-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const results = [];
for (const scenario of SCENARIOS.filter((s) => wanted.includes(s.id))) {
  const mock = await startServer({ name: 'mock', args: ['bin/petstore-kit.js', 'mock', '--port', '0', '--quiet'], cwd: ROOT, timeoutMs: 60_000, cpu });
  const started = [mock];
  try {
    const { ctx, recorded } = await scenario.setup(mock.url);
    const file = path.join(tmp, `${scenario.id}.json`);
    fs.writeFileSync(file, JSON.stringify(recorded));
    const floor = await startServer({ name: 'floor', args: ['bench/floor-server.mjs', '--port', '0', '--responses', file], cwd: ROOT, cpu });
    started.push(floor);
    const baseline = await startServer({ name: 'baseline', args: ['bench/baseline-server.mjs', '--port', '0', '--responses', file], cwd: ROOT, cpu });
    started.push(baseline);
    const servers = [
      { name: 'mock', kind: 'mock', proc: mock, rps: [], cpu: [], bytes: [], unexpected: 0 },
      { name: 'floor', kind: 'baseline', proc: floor, rps: [], cpu: [], bytes: [], unexpected: 0 },
      { name: 'baseline', kind: 'baseline', proc: baseline, rps: [], cpu: [], bytes: [], unexpected: 0 },
    ];
    const load = async (server, duration) => {
      const requests = await scenario.load(ctx, { kind: server.kind, url: server.proc.url }, connections);
      const cpu0 = readCpuUs(server.proc.pid);
      const result = await runLoad({ url: server.proc.url, connections, seconds: duration, requests, expected: scenario.expected });
      return { ...result, cpuUsPerRequest: (readCpuUs(server.proc.pid) - cpu0) / result.count };
    };
    for (const server of servers) await load(server, 1);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < servers.length; i++) {
        const server = servers[(i + r) % servers.length];
        const result = await load(server, seconds);
        server.rps.push(result.rps);
        server.cpu.push(result.cpuUsPerRequest);
        server.bytes.push(result.bytesPerResponse);
        server.unexpected += result.unexpected;
      }
      process.stdout.write(`  ${scenario.id} round ${r + 1}/${rounds}: ${servers.map((s) => `${s.name} ${fmt(s.rps.at(-1))} req/s ${fmt(s.cpu.at(-1), 1)} µs`).join(', ')}\n`);
    }
    results.push({ scenario, servers });
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}
closeRequestAgent();

const rows = [];
for (const { scenario, servers } of results) {
  const [mock, floor, baseline] = servers.map((s) => ({ ...s, rpsMedian: median(s.rps), cpuMedian: median(s.cpu) }));
  for (const s of [mock, floor, baseline]) {
    rows.push([
      s === mock ? scenario.title : '',
      s.name,
      fmt(s.rpsMedian),
      `${fmt(s.rpsMedian / baseline.rpsMedian, 2)}x`,
      fmt(s.cpuMedian, 1),
      `${fmt(baseline.cpuMedian / s.cpuMedian, 2)}x`,
      s === mock ? `${fmt(mock.rpsMedian / floor.rpsMedian, 2)}x` : '',
      fmt(median(s.bytes)),
      String(s.unexpected),
    ]);
  }
}
const headers = ['scenario', 'server', 'req/s', 'of baseline', 'CPU µs/req', 'CPU of baseline', 'mock of floor', 'bytes/response', 'unexpected'];
console.log(`\n${formatTable(headers, rows, headers.slice(2))}`);
console.log('"of baseline": req/s ratio to bare node:http; "CPU of baseline": baseline CPU per request over this server\'s; "mock of floor": the mock\'s req/s over the floor\'s.');
const bad = results.some(({ servers }) => servers.some((s) => s.unexpected > 0));
if (bad) console.log('Some responses had an unexpected status: the figures above do not compare like with like.');
process.exit(bad ? 1 : 0);
