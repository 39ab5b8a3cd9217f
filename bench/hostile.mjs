#!/usr/bin/env node
/**
 * Issue 31: how the mock and the runner fare with hostile but legal documents (fixtures/documents/hostile/), and
 * with a 50 MB overlay and a session flood on a foreign document. For each: the time to answer or refuse, the exit
 * code, and the peak RSS (VmHWM, proc(5)). Every child is bounded in time and memory (killed past either), and
 * every loop of requests is bounded in count, so a build that hangs is measured, not waited for.
 *
 *   node bench/hostile.mjs [--root DIR] [--only NAME,...] [--json FILE]
 *
 * `--root` runs another build (`bash bench/before.sh REF` makes one), so one machine measures before and after.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const here = resolve(new URL('..', import.meta.url).pathname);
const { values } = parseArgs({ options: { root: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' } } });
const root = resolve(values.root ?? here);
const bin = join(root, 'bin', 'petstore-kit.js');
const hostile = join(here, 'fixtures', 'documents', 'hostile');
const work = mkdtempSync(join(tmpdir(), 'petstore-hostile-'));
const only = values.only ? new Set(values.only.split(',')) : undefined;

/** A child past either bound is killed: the measurement says "killed", never waits on. */
const START_LIMIT_MS = 30_000;
const RUN_LIMIT_MS = 40_000;
const RSS_LIMIT_MIB = 2500;
const REQUEST_LIMIT_MS = 10_000;

function statusOf(pid, field) {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a kit command; samples its peak RSS, kills it past the time or memory bound. */
function launch(args, limitMs) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  let peak = 0;
  let killed;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c.toString().slice(0, 20_000)));
  const sampler = setInterval(() => {
    peak = Math.max(peak, statusOf(child.pid, 'VmHWM') ?? 0);
    if ((statusOf(child.pid, 'VmRSS') ?? 0) > RSS_LIMIT_MIB && !killed) (killed = `past ${RSS_LIMIT_MIB} MiB`), child.kill('SIGKILL');
  }, 100);
  const timer = setTimeout(() => {
    if (!killed) (killed = `past ${limitMs / 1000} s`), child.kill('SIGKILL');
  }, limitMs);
  const exit = new Promise((resolveExit) =>
    child.once('exit', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolveExit({ code, ms: performance.now() - started });
    }),
  );
  return {
    child,
    exit,
    started,
    peak: () => Math.max(peak, statusOf(child.pid, 'VmHWM') ?? 0),
    stdout: () => stdout,
    stderr: () => stderr,
    killed: () => killed,
    stop() {
      if (child.exitCode === null && !killed) child.kill('SIGKILL');
    },
  };
}

function send(url, method = 'GET', body, headers = {}) {
  return new Promise((resolveSend) => {
    const started = performance.now();
    const req = request(url, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, timeout: REQUEST_LIMIT_MS }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => resolveSend({ status: res.statusCode, bytes, ms: performance.now() - started, headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolveSend({ status: error.message === 'timeout' ? 'timeout' : 'error', bytes: 0, ms: performance.now() - started, headers: {} }));
    if (body !== undefined) req.end(JSON.stringify(body));
    else req.end();
  });
}

/** Starts the mock on a document, then asks the hostile resource and an unrelated path at once. */
async function mockCase(doc, extra = []) {
  const run = launch(['mock', '--spec', doc, '--port', '0', '--quiet', ...extra], START_LIMIT_MS + 4 * REQUEST_LIMIT_MS);
  const listening = await new Promise((resolveListening) => {
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(run.stdout());
      if (match || run.child.exitCode !== null || run.killed()) (clearInterval(poll), resolveListening(match?.[1]));
    }, 20);
  });
  const startMs = performance.now() - run.started;
  if (!listening) {
    const { code } = await run.exit;
    return { side: 'mock', outcome: run.killed() ? `killed ${run.killed()}` : `exit ${code}`, startMs, peakMiB: run.peak(), said: firstLines(run.stderr()) };
  }
  const [list, item, create, health] = await Promise.all([send(`${listening}/things`), send(`${listening}/things/1`), send(`${listening}/things`, 'POST', { name: 'x', code: 'x', tags: [] }), send(`${listening}/health`)]);
  const peakMiB = run.peak();
  run.stop();
  await run.exit;
  return { side: 'mock', outcome: 'listening', startMs, list: brief(list), item: brief(item), create: brief(create), health: brief(health), peakMiB, said: firstLines(run.stderr()) };
}

/** A target that answers everything plainly: what matters is what the runner generates, not what it reads. */
async function plainTarget() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const list = req.method === 'GET' && /\/things\/?$/.test(req.url ?? '');
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(list ? '[]' : req.url?.startsWith('/health') ? '{"status":"up"}' : '{}');
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function runnerCase(doc) {
  const target = await plainTarget();
  const run = launch(['conformance', '--spec', doc, '--base-url', target.url, '--quiet', '--format', 'json', '--output', join(work, 'report.json')], RUN_LIMIT_MS);
  const { code, ms } = await run.exit;
  target.server.close();
  return { side: 'runner', outcome: run.killed() ? `killed ${run.killed()}` : `exit ${code}`, ms, peakMiB: run.peak(), said: firstLines(run.stderr() || run.stdout()) };
}

const brief = (r) => `${r.status} ${r.bytes} B in ${Math.round(r.ms)} ms`;
const firstLines = (text) => text.split('\n').filter(Boolean).slice(0, 2).join(' | ').slice(0, 300);

/** A plain foreign document with one resource of 10 KB records, for the overlay and the session flood. */
function plainDocument() {
  const doc = join(work, 'plain.yaml');
  const text = readFileSync(join(hostile, 'huge-min-length.yaml'), 'utf8').replace('minLength: 100000000', 'maxLength: 20000');
  writeFileSync(doc, text);
  return doc;
}

async function overlayCase() {
  const overlay = join(work, 'big-overlay.yaml');
  const lines = ['paths:'];
  for (let i = 0; lines.length < 820_000; i += 1) lines.push(`  /p${i}/{id}: { x-mock-id: field${i}, x-note: ${'x'.repeat(8)} }`);
  writeFileSync(overlay, `${lines.join('\n')}\n`);
  const result = await mockCase(plainDocument(), ['--mock-overlay', overlay]);
  return { ...result, bytes: readFileSync(overlay).length };
}

/** 40 sessions × 1,000 creates of 10 KB under --max-session-memory 16 (issue 31's measure): does the budget drop sessions? */
async function sessionCase() {
  const run = launch(['mock', '--spec', plainDocument(), '--port', '0', '--max-session-memory', '16'], 120_000);
  const url = await new Promise((ok) => {
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(run.stdout());
      if (match || run.child.exitCode !== null) (clearInterval(poll), ok(match?.[1]));
    }, 20);
  });
  if (!url) return { side: 'mock', outcome: `exit ${run.child.exitCode}`, said: firstLines(run.stderr()) };
  const before = statusOf(run.child.pid, 'VmRSS') ?? 0;
  const started = performance.now();
  let accepted = 0;
  let dropped = 0;
  const name = 'n'.repeat(10_000);
  for (let round = 0; round < 1000; round += 1) {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, s) => send(`${url}/things`, 'POST', { name }, { 'x-mock-session': `s${s}` })));
    for (const a of answers) {
      if (a.status === 201) accepted += 1;
      if (a.headers['x-mock-session-dropped']) dropped += 1;
    }
  }
  const after = statusOf(run.child.pid, 'VmRSS') ?? 0;
  const logged = (run.stderr().match(/dropped: the least recently used/g) ?? []).length;
  const peakMiB = run.peak();
  run.stop();
  await run.exit;
  return { side: 'mock', outcome: `${accepted} of 40000 creates accepted, ${dropped} drop notices, ${logged} drop log lines`, ms: performance.now() - started, rssGrowthMiB: Math.round(after - before), peakMiB };
}

const cases = [
  ...['huge-min-length', 'explicit-repeat-pattern', 'backtracking-pattern', 'self-required', 'huge-min-items', 'self-containing-example'].flatMap((name) => [
    [`${name} (mock)`, () => mockCase(join(hostile, `${name}.yaml`))],
    [`${name} (runner)`, () => runnerCase(join(hostile, `${name}.yaml`))],
  ]),
  ['50 MB overlay (mock)', overlayCase],
  ['session flood under --max-session-memory 16 (mock)', sessionCase],
];

const results = {};
for (const [name, measure] of cases) {
  if (only && ![...only].some((word) => name.includes(word))) continue;
  const result = await measure();
  results[name] = result;
  const { side: _side, ...shown } = result;
  const figures = Object.entries(shown)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? Math.round(value) : value}`)
    .join('  ');
  process.stdout.write(`${name}\n  ${figures}\n`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ root, results }, null, 2)}\n`);
