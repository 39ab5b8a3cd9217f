#!/usr/bin/env node
/**
 * `npm test` (after `pretest` has built dist/): the type-check, the document's lint and every vitest test, the three
 * at once rather than one after the other (issue 23, point 2). tsc and Spectral keep a core busy for a while;
 * vitest's files mostly wait on loopback servers and child processes, so on two cores the checks fit in its gaps
 * instead of adding their whole time in front of it. Nothing is skipped: the exit code is 0 only when all three
 * pass. Vitest prints as it goes; the two checks print when they finish (as a block, so lines do not interleave).
 * Arguments go to vitest: `npm test -- mock/engine/units.test.ts`.
 *
 * Tiers (issue 33): `npm test` is the fast tier; `npm run test:all` passes `--all`, which sets PETSTORE_KIT_TIER=full
 * for vitest, so files named `*.full.test.ts` run too and tiered suites try more cases (vitest.config.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// vitest's own executable, found through its package.json (its `exports` do not name the file itself).
const vitestPackage = require.resolve('vitest/package.json');
const vitestBin = join(dirname(vitestPackage), JSON.parse(readFileSync(vitestPackage, 'utf8')).bin.vitest);
const children = new Set();
const all = process.argv.includes('--all');
const vitestArgs = process.argv.slice(2).filter((arg) => arg !== '--all');
const tierEnv = { ...process.env, PETSTORE_KIT_TIER: all ? 'full' : 'fast' };

/** Runs one command; resolves with its exit code (1 when it could not start or was killed). */
function run(name, command, args, buffered) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, env: tierEnv, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    let output = '';
    if (buffered) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    const done = (code) => {
      children.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (buffered) process.stdout.write(`\n── ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n${output.trimEnd()}${output.trim() ? '\n' : ''}`);
      resolve(code);
    };
    child.once('error', (error) => {
      output += `${error.message}\n`;
      done(1);
    });
    child.once('close', (code) => done(code ?? 1));
  });
}

// Stopping `npm test` stops all three, each by its own PID.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const codes = await Promise.all([
  run('typecheck', npm, ['run', '--silent', 'typecheck'], true),
  run('lint', npm, ['run', '--silent', 'lint'], true),
  run('vitest', process.execPath, [vitestBin, 'run', ...vitestArgs], false),
]);
const [typecheck, lint, vitest] = codes;
process.stdout.write(`\n${all ? 'npm run test:all' : 'npm test'}: typecheck ${typecheck === 0 ? 'passed' : 'FAILED'}, lint ${lint === 0 ? 'passed' : 'FAILED'}, vitest ${vitest === 0 ? 'passed' : 'FAILED'}\n`);
process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
