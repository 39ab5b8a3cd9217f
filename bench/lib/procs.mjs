// Processes and plain HTTP for the bench: every server runs in its own
// process, is tracked here by PID, and is killed at the end, on an error and on
// SIGINT/SIGTERM. Every wait is bounded.
import { spawn } from 'node:child_process';
import fs, { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

function killAllNow() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  children.clear();
}

let handlersInstalled = false;
/** Kill every server this process started when it exits or is interrupted. */
export function installCleanupHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping the servers it started (${[...children].map((c) => c.pid).join(', ') || 'none'})\n`);
      killAllNow();
      process.exit(130);
    });
  }
}

/**
 * @typedef {object} Server
 * @property {string} name
 * @property {number} pid
 * @property {string} url        base URL, e.g. http://127.0.0.1:43123
 * @property {number} startupMs  spawn → the `listening on` line
 * @property {() => string} stderrTail
 * @property {(timeoutMs?: number) => Promise<number | null>} stop  SIGTERM, then SIGKILL after timeoutMs; resolves to the exit code
 */

/**
 * Spawns `node ...args` and resolves once it prints `listening on URL`.
 * Rejects (after killing it) when it exits first or the timeout passes.
 * With `cpu`, the server runs on that CPU only, from its first instruction
 * (`taskset -c CPU node ...`: taskset execs node, so the PID is node's).
 * @returns {Promise<Server>}
 */
export function startServer({ name, args, cwd, timeoutMs = 30_000, nodeArgs = [], cpu }) {
  const started = performance.now();
  const command = [process.execPath, ...nodeArgs, ...args];
  if (cpu !== undefined) command.unshift('taskset', '-c', String(cpu));
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  let exited = false;
  let exitCode = null;
  const exitWaiters = [];
  child.on('exit', (code, signal) => {
    exited = true;
    exitCode = code ?? (signal ? 128 : null);
    children.delete(child);
    for (const w of exitWaiters.splice(0)) w(exitCode);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const stop = (graceMs = 5000) =>
    new Promise((resolve) => {
      if (exited) return resolve(exitCode);
      exitWaiters.push(resolve);
      child.kill('SIGTERM');
      const t = setTimeout(() => {
        if (!exited) child.kill('SIGKILL');
      }, graceMs);
      t.unref();
    });
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n  command: ${command.join(' ')}\n  stderr: ${stderr.trim().split('\n').slice(-8).join('\n          ') || '(empty)'}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${timeoutMs} ms`), timeoutMs);
    child.stdout.setEncoding('utf8');
    const onData = (d) => {
      stdout = (stdout + d).slice(-4000);
      const m = /listening on (https?:\/\/\S+)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining so a chatty child never blocks on a full pipe
      child.off('exit', onEarlyExit);
      resolve({
        name,
        pid: child.pid,
        url: m[1].replace(/\/$/, ''),
        startupMs: performance.now() - started,
        stderrTail: () => stderr,
        stop,
      });
    };
    const onEarlyExit = (code) => fail(`exited with code ${code} before listening`);
    child.stdout.on('data', onData);
    child.once('exit', onEarlyExit);
  });
}

/**
 * Runs `node ...args` to completion (bounded) and resolves with its exit code,
 * output and wall time.
 */
export function runNode({ args, cwd, timeoutMs = 120_000, env = process.env }) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout = (stdout + d).slice(-20000)));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-20000)));
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code: code ?? (signal ? 128 : null), timedOut, stdout, stderr, wallMs: performance.now() - started, pid: child.pid });
    });
  });
}

/**
 * runNode, with the child's own CPU time: bench/lib/cpu-at-exit.mjs is preloaded and writes it at exit
 * (`cpu: { userUs, systemUs, maxRssKiB }`, or undefined when the child died before writing it).
 */
export async function runNodeWithCpu({ args, cwd, timeoutMs = 120_000 }) {
  const file = path.join(os.tmpdir(), `petstore-bench-cpu-${process.pid}-${++cpuFiles}.json`);
  const preload = new URL('./cpu-at-exit.mjs', import.meta.url).href;
  const r = await runNode({ args: ['--import', preload, ...args], cwd, timeoutMs, env: { ...process.env, PETSTORE_BENCH_CPU_FILE: file } });
  let cpu;
  try {
    cpu = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.rmSync(file, { force: true });
  } catch {
    cpu = undefined;
  }
  return { ...r, cpu };
}
let cpuFiles = 0;

/** Peak and current resident set size of a live process, in bytes (Linux /proc); NaN elsewhere. */
export function readRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? Number(m[1]) * 1024 : Number.NaN;
    };
    return { peak: kb('VmHWM'), current: kb('VmRSS') };
  } catch {
    return { peak: Number.NaN, current: Number.NaN };
  }
}

/**
 * CPU time a live process has used so far (user + system, all threads), in
 * microseconds, from /proc/PID/stat (clock ticks of 1/100 s: USER_HZ is 100
 * on Linux); NaN elsewhere.
 */
export function readCpuUs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One HTTP/1.1 request over a keep-alive connection, with exactly the headers
 * given (as the load generator sends them). Resolves with status, headers
 * (lower-case names), body text and the time to the last body byte.
 */
export function request(baseUrl, { method = 'GET', path = '/', headers = {}, body, timeoutMs = 10_000 }) {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : Buffer.from(body);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Closes the keep-alive sockets of request(), so the bench process can exit. */
export function closeRequestAgent() {
  agent.destroy();
}
