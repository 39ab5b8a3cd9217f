/**
 * The command line as a user runs it, in a child process: `node
 * bin/petstore-kit.js mock`, which runs the built dist/ (built once, when
 * stale). For tests of the CLI itself, and for tests that measure the mock's
 * memory, which only a process of its own can show.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { bundledContract } from '../../src/test-support.js';
import { createContractClient, type ContractClient } from './contract-client.js';

export const BIN = join(PACKAGE_ROOT, 'bin', 'petstore-kit.js');
const BUILT = ['dist/src/cli/main.js', 'dist/mock/transport/cli.js', 'dist/mock/transport/server.js', 'dist/mock/engine/app.js'].map((file) => join(PACKAGE_ROOT, file));
/** Written by bin/dev/build.mjs when a build is complete (an incremental build leaves unchanged outputs' times alone). */
const STAMP = join(PACKAGE_ROOT, 'dist', '.build-stamp');

/** The newest mtime of the TypeScript the build compiles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ (`npm run build`'s script, incrementally) when it is missing or older than the sources; call it from
 * a beforeAll with a long timeout. Under `npm test` the `pretest` build has just run, so this does nothing: test
 * files no longer compile the kit again, each on its own, while others run it (issue 23, point 2).
 */
export function buildIfStale(): void {
  // The build also copies the Pet Store's behaviour module beside the compiled modules (petstore-kit/msw/browser imports it).
  const behaviour = statSync(join(PACKAGE_ROOT, 'fixtures', 'rules', 'petstore.behaviour.mjs')).mtimeMs;
  const sources = Math.max(behaviour, ...['src', 'mock', 'conformance'].map((dir) => newestSource(join(PACKAGE_ROOT, dir))));
  const built = BUILT.every(existsSync) && existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  if (built > sources) return;
  const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'dev', 'build.mjs'), '--incremental'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  // tsc emits even when another part of the tree does not type-check; what matters here is that the mock was built.
  if (!BUILT.every(existsSync)) throw new Error(`the build did not produce dist/: ${result.stdout}${result.stderr}`);
}

export interface ChildMock {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exit: Promise<number | null>;
}

/** Every child started here, so an afterAll can kill what a failed test left running (by PID). */
export const children = new Set<ChildProcess>();

/** Kills (SIGKILL, by PID) every child still running. */
export function killChildren(): void {
  for (const child of children) if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
}

/** Starts `petstore-kit mock ARGS`; resolves once it printed its line, or rejects with what it wrote when it exits first. */
export function startChildMock(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildMock> {
  const child = spawn(process.execPath, [BIN, 'mock', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let out = '';
  let err = '';
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    // Bounds a hang only: a mock generating 100,000 pets took more than 15 s to start on a busy 2-core machine.
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s; stderr: ${err}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (http:\/\/\S+)[^\n]*\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        const url = match[1]!;
        resolve({ child, url, port: Number(new URL(url).port), stdout: () => out, stderr: () => err, exit });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exit.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code} before listening: ${err}`), { code, stderr: err }));
    });
  });
}

/** Runs `petstore-kit mock ARGS` to its end (for the failures that never listen). */
export function runChildMock(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'mock', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The most memory a process has held resident so far, in MiB: Linux's VmHWM
 * ("high water mark", proc(5)), which a peak between two samples cannot slip past.
 */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Whether peakRssMiB can measure here (it reads /proc). */
export const CAN_MEASURE_RSS = process.platform === 'linux';

/**
 * For a test file of child mocks: builds dist/ first when stale, and afterwards closes every client
 * made with the function it returns and kills any child still running.
 */
export async function useChildMocks(): Promise<(url: string, basePath?: string) => ContractClient> {
  const { compiled } = await bundledContract();
  const clients: ContractClient[] = [];
  beforeAll(() => buildIfStale(), 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    killChildren();
  });
  return (url, basePath) => {
    const client = createContractClient({ origin: url, compiled, ...(basePath ? { basePath } : {}) });
    clients.push(client);
    return client;
  };
}
