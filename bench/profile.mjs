#!/usr/bin/env node
// Where does the mock spend its time under load, compared with the baseline?
// Starts the mock and the baseline (replaying the mock's recorded answers) with
// `node --cpu-prof`, drives one bench scenario against each in interleaved
// rounds, stops them (SIGTERM, so V8 writes the profiles) and prints, for the
// samples taken during each server's own load windows: time per request by
// group (project code, Node's HTTP stack, socket writes, GC, ...) side by
// side, the functions the mock spends more on than the baseline, and the
// mock's own functions by inclusive time.
//
//   node bench/profile.mjs [--scenario createPet] [--rounds 3] [--seconds 3] [--top 25] [--keep]
//
// Run `npm run build` first (the mock runs from dist/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.mjs';
import { closeRequestAgent, installCleanupHandlers, startServer } from './lib/procs.mjs';
import { SCENARIOS } from './lib/scenarios.mjs';
import { fmt, formatTable } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A short, stable name for a profile frame's file: project path, `pkg:<name>`, `node:<module>` or a V8 pseudo-frame. */
export function fileOf(url) {
  if (!url) return '(native/V8)';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + '/node_modules/'.length).split('/');
    return `pkg:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (u.startsWith('node:')) return u;
  return u.startsWith(ROOT) ? u.slice(ROOT.length) : u;
}

/**
 * Self and inclusive time per function from a .cpuprofile, counting only the
 * samples whose time (µs since the profile's start) lies in one of the
 * windows [fromUs, toUs).
 */
export function analyse(profile, windows = [[0, Infinity]]) {
  const inWindow = (t) => windows.some(([from, to]) => t >= from && t < to);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  let t = 0;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (!inWindow(t)) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + next);
    total += next;
  }
  const key = (n) => {
    const cf = n.callFrame;
    return `${cf.functionName || '(anonymous)'}  ${fileOf(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  };
  const self = new Map();
  const byFile = new Map();
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    self.set(key(n), (self.get(key(n)) ?? 0) + us);
    const f = n.callFrame.functionName === '(idle)' ? '(idle)' : fileOf(n.callFrame.url);
    byFile.set(f, (byFile.get(f) ?? 0) + us);
    // Inclusive: credit every distinct function on the stack once.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalUs: total, self: sorted(self), byFile: sorted(byFile), inclusive: sorted(inclusive) };
}

/** Self time in a few groups that say who could make it smaller: the project, Node's HTTP stack, the kernel, V8. */
export function groups(self) {
  const out = new Map();
  for (const [key, us] of self) {
    const [name, where = ''] = key.split('  ');
    let g;
    if (name === '(idle)') continue;
    else if (name === '(garbage collector)') g = 'V8: garbage collector';
    else if (name === '(program)') g = 'V8/libuv: (program)';
    else if (where === '(native/V8)' && /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString|shutdown|close)$/.test(name)) g = 'socket writes (system calls)';
    else if (where.startsWith('node:')) g = "Node's JavaScript (http, streams, events)";
    else if (where.startsWith('pkg:')) g = `package ${where.split(':')[1]}`;
    else if (where.startsWith('(native/V8)')) g = 'V8 builtins (JSON, RegExp, …)';
    else g = 'project code (self, without builtins)';
    out.set(g, (out.get(g) ?? 0) + us);
  }
  return [...out.entries()].sort((a, b) => b[1] - a[1]);
}

async function main() {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'createPet' },
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      top: { type: 'string', default: '25' },
      keep: { type: 'boolean', default: false },
    },
  });
  const scenario = SCENARIOS.find((s) => s.id === values.scenario);
  if (!scenario) {
    console.error(`profile: unknown scenario '${values.scenario}'; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
    process.exit(2);
  }
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const top = Number(values.top);
  installCleanupHandlers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petstore-profile-'));
  fs.mkdirSync(path.join(dir, 'mock'));
  fs.mkdirSync(path.join(dir, 'baseline'));

  // Both servers profiled, loaded in turns, each profile read over its own load windows only.
  const servers = {};
  const spawnedAt = {};
  spawnedAt.mock = performance.now();
  servers.mock = await startServer({ name: 'mock (profiled)', args: ['bin/petstore-kit.js', 'mock', '--port', '0', '--quiet', ...(scenario.spec ? ['--spec', scenario.spec] : [])], cwd: ROOT, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', path.join(dir, 'mock')], timeoutMs: 60_000 });
  const windows = { mock: [], baseline: [] };
  const counts = { mock: 0, baseline: 0 };
  const rps = { mock: [], baseline: [] };
  try {
    const { ctx, recorded } = await scenario.setup(servers.mock.url);
    const file = path.join(dir, 'responses.json');
    fs.writeFileSync(file, JSON.stringify(recorded));
    spawnedAt.baseline = performance.now();
    servers.baseline = await startServer({ name: 'baseline (profiled)', args: ['bench/baseline-server.mjs', '--port', '0', '--responses', file], cwd: ROOT, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', path.join(dir, 'baseline')], timeoutMs: 30_000 });
    const target = (kind) => ({ kind, url: servers[kind].url });
    for (const kind of ['mock', 'baseline']) {
      await runLoad({ url: servers[kind].url, connections, seconds: 1, requests: await scenario.load(ctx, target(kind), connections), expected: scenario.expected });
    }
    for (let r = 0; r < rounds; r++) {
      for (const kind of r % 2 === 0 ? ['mock', 'baseline'] : ['baseline', 'mock']) {
        const requests = await scenario.load(ctx, target(kind), connections);
        const from = performance.now() - spawnedAt[kind];
        const result = await runLoad({ url: servers[kind].url, connections, seconds, requests, expected: scenario.expected });
        const to = performance.now() - spawnedAt[kind];
        // The profile's clock starts a few ms after the spawn; a margin keeps each window inside its load.
        windows[kind].push([(from + 150) * 1000, (to - 100) * 1000]);
        counts[kind] += (result.count * (to - from - 250)) / (to - from);
        rps[kind].push(result.rps);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop(10_000)));
  }
  const analyses = {};
  for (const kind of ['mock', 'baseline']) {
    const f = fs.readdirSync(path.join(dir, kind)).find((x) => x.endsWith('.cpuprofile'));
    if (!f) throw new Error(`no .cpuprofile was written for the ${kind} in ${dir}`);
    analyses[kind] = analyse(JSON.parse(fs.readFileSync(path.join(dir, kind, f), 'utf8')), windows[kind]);
  }
  const m = analyses.mock;
  const b = analyses.baseline;
  const perReq = (us, kind) => us / counts[kind];
  const idle = (a) => a.self.find(([k]) => k.startsWith('(idle)'))?.[1] ?? 0;
  console.log(`${scenario.title}: ${rounds} interleaved rounds of ${seconds} s, ${connections} connections`);
  console.log(`  mock     ${rps.mock.map((x) => fmt(x)).join(', ')} req/s; main thread idle ${fmt((idle(m) / m.totalUs) * 100)}% of its windows`);
  console.log(`  baseline ${rps.baseline.map((x) => fmt(x)).join(', ')} req/s; main thread idle ${fmt((idle(b) / b.totalUs) * 100)}% of its windows`);
  console.log('  (µs/request below: sampled main-thread time per response; a process preempted inside a system call is charged there)\n');

  const gm = new Map(groups(m.self));
  const gb = new Map(groups(b.self));
  const names = [...new Set([...gm.keys(), ...gb.keys()])].sort((x, y) => (gm.get(y) ?? 0) / counts.mock - (gm.get(x) ?? 0) / counts.mock);
  const row = (k, mu, bu) => [k, fmt(mu, 2), fmt(bu, 2), `${mu - bu >= 0 ? '+' : ''}${fmt(mu - bu, 2)}`];
  const busy = (a, kind) => perReq(a.totalUs - idle(a), kind);
  console.log(
    formatTable(
      ['where the main thread spends its time', 'mock µs/req', 'baseline µs/req', 'difference'],
      [...names.map((k) => row(k, perReq(gm.get(k) ?? 0, 'mock'), perReq(gb.get(k) ?? 0, 'baseline'))), row('total (busy)', busy(m, 'mock'), busy(b, 'baseline'))],
      ['mock µs/req', 'baseline µs/req', 'difference'],
    ),
  );

  // Function by function: what the mock spends more on than the baseline (Node's own functions appear in both).
  const bs = new Map(b.self);
  const diffs = m.self
    .filter(([k]) => !k.startsWith('(idle)'))
    .map(([k, us]) => [k, perReq(us, 'mock'), perReq(bs.get(k) ?? 0, 'baseline')])
    .sort((x, y) => y[1] - y[2] - (x[1] - x[2]));
  console.log(`\nTop ${top} functions by self time the mock spends beyond the baseline:`);
  console.log(formatTable(['function  file:line', 'mock µs/req', 'baseline µs/req', 'difference'], diffs.slice(0, top).map(([k, mu, bu]) => row(k, mu, bu)), ['mock µs/req', 'baseline µs/req', 'difference']));

  console.log(`\nThe mock's own functions by inclusive time (self + callees, builtins such as JSON.stringify included):`);
  const own = m.inclusive.filter(([k]) => /\s(dist|src|mock|conformance)\//.test(k));
  console.log(formatTable(['function  file:line', 'µs/request'], own.slice(0, top).map(([k, us]) => [k, fmt(perReq(us, 'mock'), 2)]), ['µs/request']));
  if (values.keep) console.log(`\nprofiles kept in ${dir} (open them in Chrome DevTools > Performance)`);
  else fs.rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main()
    .catch((error) => {
      console.error(`profile: ${error.stack ?? error}`);
      process.exitCode = 2;
    })
    .finally(closeRequestAgent);
}
