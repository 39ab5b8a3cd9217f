// Section 7 of `npm run bench` (issue 33, point 2): the conformance runner's own CPU, apart from its target's.
//
// The target is the Pet Store mock in a process of its own, started once; the runner is the CLI as a user runs it,
// in its own process, with bench/lib/cpu-at-exit.mjs preloaded to write the runner's own CPU time (user + system)
// at exit. Two runs, interleaved, repeated:
//   - start: `--only unknown-path-404` (a run of one check, a handful of exchanges): what every run pays before its
//     first check (Node, the kit's modules, the document loaded and checked, the validators);
//   - full: every check, every report format written (JSON, JUnit, HTML, Markdown), as CI runs it.
// CPU per exchange is the full run's CPU less the start's, over the exchanges it added. Medians of the repeats; the
// minimum is printed too (the least the machine's other work inflated). Goals: at most 0.5 s of CPU to start and at
// most 0.5 ms of CPU per exchange.
//
// The CLI runs with its V8 code cache (src/cli/code-cache.ts) in a folder of the bench's own, empty at first: the first
// pair writes it (as a user's first runs do) and the later ones use it, so the medians are a user's usual runs. One
// more pair runs without it (PETSTORE_KIT_CODE_CACHE=off), printed beside them: what a first run, or a machine where
// nothing can be written, pays.
//
// Beside them, the floor (http-floor.mjs): the same number of exchanges, replayed from the full run's report by undici
// alone in a fresh process (less that process's start), so the runner's figure reads as a ratio to what sending and
// reading the same exchanges costs any client on this machine in this run.
import fs from 'node:fs';
import path from 'node:path';
import { runNodeWithCpu, startServer } from './procs.mjs';
import { fmt, formatTable, median } from './stats.mjs';

const GOAL_START_MS = 500;
const GOAL_PER_EXCHANGE_MS = 0.5;

async function runOnce({ root, tmpDir, url, label, i, extra, codeCache }) {
  const out = path.join(tmpDir, `cost-${label}-${i}.json`);
  const reports = label.startsWith('full') ? ['--report', `junit=${out}.xml`, '--report', `html=${out}.html`, '--report', `markdown=${out}.md`] : [];
  // runNodeWithCpu hands the child a copy of process.env, taken when it is called.
  const kept = process.env.PETSTORE_KIT_CODE_CACHE;
  process.env.PETSTORE_KIT_CODE_CACHE = codeCache;
  const running = runNodeWithCpu({ args: ['bin/petstore-kit.js', 'conformance', '--base-url', url, '--format', 'json', '--output', out, '--quiet', ...extra, ...reports], cwd: root, timeoutMs: 180_000 });
  if (kept === undefined) delete process.env.PETSTORE_KIT_CODE_CACHE;
  else process.env.PETSTORE_KIT_CODE_CACHE = kept;
  const r = await running;
  if (r.timedOut || r.code === 2 || !fs.existsSync(out) || !r.cpu) throw new Error(`conformance (${label}) exited ${r.code}${r.timedOut ? ' (timed out)' : ''}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  return { cpuMs: (r.cpu.userUs + r.cpu.systemUs) / 1000, exchanges: report.summary.exchanges, exchangesPerSecond: report.summary.exchangesPerSecond, wallMs: r.wallMs, exit: r.code, report: out };
}

/** The requests a full run's report kept (method, URL, headers, body excerpt), for the floor to replay. */
function replayable(reportFile, tmpDir) {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const requests = report.results.flatMap((result) => result.evidence.filter((x) => x.response !== undefined).map((x) => x.request));
  const file = path.join(tmpDir, 'cost-floor-requests.json');
  fs.writeFileSync(file, JSON.stringify(requests));
  return file;
}

async function floorOnce({ root, url, requests, count }) {
  const r = await runNodeWithCpu({ args: ['bench/lib/http-floor.mjs', url, requests, String(count), '4'], cwd: root, timeoutMs: 180_000 });
  if (r.timedOut || r.code !== 0 || !r.cpu) throw new Error(`http-floor exited ${r.code}${r.timedOut ? ' (timed out)' : ''}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  return (r.cpu.userUs + r.cpu.systemUs) / 1000;
}

export async function runRunnerCost({ root, tmpDir, repeats }) {
  const mock = await startServer({ name: 'mock (default fixtures)', args: ['bin/petstore-kit.js', 'mock', '--port', '0', '--quiet'], cwd: root, timeoutMs: 120_000 });
  const start = [];
  const full = [];
  const floor = [];
  const floorStart = [];
  let requests;
  let cold;
  const codeCache = fs.mkdtempSync(path.join(tmpDir, 'cost-code-cache-'));
  try {
    for (let i = 0; i < repeats; i++) {
      start.push(await runOnce({ root, tmpDir, url: mock.url, label: 'start', i, extra: ['--only', 'unknown-path-404'], codeCache }));
      full.push(await runOnce({ root, tmpDir, url: mock.url, label: 'full', i, extra: [], codeCache }));
      requests ??= replayable(full[0].report, tmpDir);
      floorStart.push(await floorOnce({ root, url: mock.url, requests, count: 0 }));
      floor.push(await floorOnce({ root, url: mock.url, requests, count: full[i].exchanges }));
      if (i === 0) {
        const coldStart = await runOnce({ root, tmpDir, url: mock.url, label: 'start-cold', i, extra: ['--only', 'unknown-path-404'], codeCache: 'off' });
        const coldFull = await runOnce({ root, tmpDir, url: mock.url, label: 'full-cold', i, extra: [], codeCache: 'off' });
        cold = { startMs: coldStart.cpuMs, fullMs: coldFull.cpuMs, perExchangeMs: (coldFull.cpuMs - coldStart.cpuMs) / (coldFull.exchanges - coldStart.exchanges) };
        console.log(`  without the code cache: start ${fmt(cold.startMs)} ms CPU; full ${fmt(cold.fullMs)} ms CPU`);
      }
      console.log(`  run ${i + 1}/${repeats}: start ${fmt(start[i].cpuMs)} ms CPU (${start[i].exchanges} exchanges); full ${fmt(full[i].cpuMs)} ms CPU, ${fmt(full[i].exchanges)} exchanges, ${fmt(full[i].exchangesPerSecond)} exchanges/s; floor ${fmt(floor[i])} ms CPU (its start ${fmt(floorStart[i])} ms)`);
    }
  } finally {
    await mock.stop();
    fs.rmSync(codeCache, { recursive: true, force: true });
  }
  const startMs = median(start.map((r) => r.cpuMs));
  const fullMs = median(full.map((r) => r.cpuMs));
  const added = median(full.map((r) => r.exchanges)) - median(start.map((r) => r.exchanges));
  const perExchangeMs = (fullMs - startMs) / added;
  const minPerExchangeMs = (Math.min(...full.map((r) => r.cpuMs)) - Math.min(...start.map((r) => r.cpuMs))) / added;
  const floorPerExchangeMs = (median(floor) - median(floorStart)) / median(full.map((r) => r.exchanges));
  const checks = [
    { what: `CPU to start (a run of one check): at most ${GOAL_START_MS} ms`, value: startMs, unit: 'ms', pass: startMs <= GOAL_START_MS },
    { what: `CPU per exchange of a full run, every report format written: at most ${GOAL_PER_EXCHANGE_MS} ms`, value: perExchangeMs, unit: 'ms', pass: perExchangeMs <= GOAL_PER_EXCHANGE_MS },
  ];
  return {
    target: 'petstore-kit mock (default fixtures), its own process',
    repeats,
    start: { cpuMsMedian: round(startMs), cpuMsMin: round(Math.min(...start.map((r) => r.cpuMs))), exchanges: median(start.map((r) => r.exchanges)) },
    full: { cpuMsMedian: round(fullMs), cpuMsMin: round(Math.min(...full.map((r) => r.cpuMs))), exchanges: median(full.map((r) => r.exchanges)), exchangesPerSecond: median(full.map((r) => r.exchangesPerSecond)), wallMsMedian: round(median(full.map((r) => r.wallMs))) },
    perExchangeMs: round(perExchangeMs, 3),
    minPerExchangeMs: round(minPerExchangeMs, 3),
    withoutCodeCache: { startCpuMs: round(cold.startMs), fullCpuMs: round(cold.fullMs), perExchangeMs: round(cold.perExchangeMs, 3) },
    floor: { cpuMsMedian: round(median(floor)), startCpuMsMedian: round(median(floorStart)), perExchangeMs: round(floorPerExchangeMs, 3), runnerRatio: round(perExchangeMs / floorPerExchangeMs, 2) },
    checks: checks.map((c) => ({ ...c, value: round(c.value, 3), verdict: c.pass ? 'PASS' : 'MISS' })),
  };
}

export function printRunnerCost(cost) {
  console.log(
    formatTable(
      ['run', 'CPU ms (median)', 'CPU ms (min)', 'exchanges', 'exchanges/s'],
      [
        ['start: --only unknown-path-404', fmt(cost.start.cpuMsMedian), fmt(cost.start.cpuMsMin), fmt(cost.start.exchanges), ''],
        ['full: every check, every format', fmt(cost.full.cpuMsMedian), fmt(cost.full.cpuMsMin), fmt(cost.full.exchanges), fmt(cost.full.exchangesPerSecond)],
      ],
      ['CPU ms (median)', 'CPU ms (min)', 'exchanges', 'exchanges/s'],
    ),
  );
  console.log(`  CPU per exchange: ${fmt(cost.perExchangeMs, 3)} ms (from the minimums: ${fmt(cost.minPerExchangeMs, 3)} ms)`);
  console.log(`  without the code cache (one pair): start ${fmt(cost.withoutCodeCache.startCpuMs)} ms, ${fmt(cost.withoutCodeCache.perExchangeMs, 3)} ms per exchange`);
  console.log(`  floor (the same exchanges sent and read by undici alone): ${fmt(cost.floor.perExchangeMs, 3)} ms per exchange; the runner costs ${fmt(cost.floor.runnerRatio, 2)}x the floor`);
  for (const c of cost.checks) console.log(`  ${c.verdict}  ${c.what} (${fmt(c.value, c.unit === 'ms' && c.value < 10 ? 3 : 0)} ms)`);
}

function round(value, digits = 1) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
