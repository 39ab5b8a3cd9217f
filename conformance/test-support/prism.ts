/**
 * Prism's mock (`prism mock FILE`), the referee of issue 4 and issue 11:
 * started on 127.0.0.1 on a free port, stopped by its PID. Tests only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/package-info.js';

/** Prism takes a few seconds to start, more than 45 s on a 2-core machine busy with other work; the wait only bounds a hang. */
const START_TIMEOUT_MS = 120_000;

export interface RunningPrism {
  readonly url: string;
  readonly child: ChildProcess;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start` on a free port, and again on another (three tries in all) when the port was taken between freePort()
 * closing it and Prism binding it (EADDRINUSE: another process on a busy CI machine got there first).
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

export function startPrism(specPath: string): Promise<RunningPrism> {
  return onFreePort((port) => startPrismOn(specPath, port));
}

async function startPrismOn(specPath: string, port: number): Promise<RunningPrism> {
  const child = spawn(join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism'), ['mock', specPath, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The caller gets no handle on a Prism that did not start: stop it here, by its PID.
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      reject(new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-2000)}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  // Keep draining its log so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

/** SIGTERM by PID, then SIGKILL after 5 s if it is still running. */
export async function stopPrism(prism: RunningPrism | undefined): Promise<void> {
  const child = prism?.child;
  const running = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;
  if (child?.pid === undefined || !running()) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (running()) process.kill(child.pid, 'SIGKILL');
}
