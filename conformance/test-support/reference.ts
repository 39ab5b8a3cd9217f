/**
 * The independent reference server of ../shared/reference (ref-server.mjs and its own document), used as it is and
 * never copied: started on a free loopback port, a mutant or variant at a time, and stopped by its PID. Tests that
 * need it skip with REFERENCE_MISSING as their reason when it is absent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REFERENCE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference');
export const REF_SERVER = resolve(REFERENCE, 'ref-server.mjs');
export const REF_SPEC = resolve(REFERENCE, 'ref-openapi.yaml');
export const referencePresent = existsSync(REF_SERVER) && existsSync(REF_SPEC);
export const REFERENCE_MISSING = `${REFERENCE} is missing (the reference server sits beside the project in this workplace and in CI)`;

export interface Started {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts ref-server.mjs (a mutant or variant with `args`) on a free loopback port. */
export async function startReference(args: readonly string[] = []): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, [REF_SERVER, '--port', '0', '--host', '127.0.0.1', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`ref-server did not start within 15 s: ${seen}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`ref-server exited with ${code}: ${seen}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        process.kill(child.pid!, 'SIGTERM');
      }),
  };
}

