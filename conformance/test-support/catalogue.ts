/**
 * The servers beside the project that judge the runner (issue 19, point 4; issue 30): the independent reference
 * server (`../shared/reference/`, zero dependencies) and the second vendor implementation (`../shared/vendor-fastify/`,
 * fastify and sql.js installed in its own node_modules). Each is used as it is, never copied: started on 127.0.0.1
 * on a free port (`--port 0`, the port read from its `listening on` line), stopped by its PID. Its catalogue of legal
 * variants and planted mutants is read from the catalogue itself (`--targets`), so a test runs what the catalogue
 * holds today. Tests only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckResult, RunReport } from '../model.js';
import { runConformance, type RunOptions } from '../runner.js';

const SHARED = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared');

export interface Catalogue {
  readonly name: string;
  readonly folder: string;
  readonly server: string;
  /** The script that lists the targets (`kind|name|args|base_path|category|gen|needs` a line). */
  readonly listing: string;
  /** The document the runner is given. */
  readonly spec: string;
  /** Why the catalogue cannot be used here, or undefined when it can. */
  readonly missing: string | undefined;
  /** Whether a clean or variant run gets --origin (the CORS mutants need one, so the legal targets meet the CORS checks too). */
  readonly originForLegal: boolean;
}

export const REFERENCE: Catalogue = (() => {
  const folder = resolve(SHARED, 'reference');
  const server = resolve(folder, 'ref-server.mjs');
  const spec = resolve(folder, 'ref-openapi.yaml');
  const missing = existsSync(server) && existsSync(spec) ? undefined : `${folder} is missing (it sits beside the project in this workplace and in CI)`;
  return { name: 'reference', folder, server, listing: resolve(folder, 'mutants.mjs'), spec, missing, originForLegal: true };
})();

export const VENDOR_FASTIFY: Catalogue = (() => {
  const folder = resolve(SHARED, 'vendor-fastify');
  const server = resolve(folder, 'server.mjs');
  const spec = resolve(SHARED, 'reference', 'ref-openapi.yaml');
  const missing = !existsSync(server) || !existsSync(spec)
    ? `${folder} (or ../reference/ref-openapi.yaml beside it) is missing (it sits beside the project in this workplace and in CI)`
    : !existsSync(resolve(folder, 'node_modules', 'fastify'))
      ? `${folder}/node_modules is missing: run \`npm ci --no-audit --no-fund\` in that folder (its README says how)`
      : undefined;
  return { name: 'vendor-fastify', folder, server, listing: resolve(folder, 'catalogue.mjs'), spec, missing, originForLegal: true };
})();

export const ORIGIN = 'http://localhost:5173';

export interface Target {
  readonly kind: 'clean' | 'variant' | 'mutant';
  readonly name: string;
  readonly args: readonly string[];
  readonly basePath: string;
  readonly category: string;
  readonly needsOrigin: boolean;
}

/** The catalogue's targets, from its own listing. */
export function targetsOf(catalogue: Catalogue): Target[] {
  if (catalogue.missing) return [];
  const text = execFileSync(process.execPath, [catalogue.listing, '--targets'], { encoding: 'utf8' });
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [kind, name, args, basePath, category, , needs] = line.split('|');
      return { kind: kind as Target['kind'], name: name ?? '', args: (args ?? '').split(' ').filter(Boolean), basePath: basePath ?? '', category: category ?? '', needsOrigin: needs === 'origin' };
    });
}

/** Starts the catalogue's server with `args` on a free loopback port; stopped by its PID. */
export async function startServer(catalogue: Catalogue, args: readonly string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [catalogue.server, '--port', '0', '--host', '127.0.0.1', ...args], { cwd: catalogue.folder, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${catalogue.name} did not start within 30 s: ${seen}`)), 30_000);
    const read = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${catalogue.name} exited with ${code}: ${seen}`));
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        process.kill(child.pid!, 'SIGTERM');
      }),
  };
}

/**
 * Runs the runner against one target of the catalogue, as its own script does (--origin where it gives one). A
 * mutant's server is thrown away after its run, so the run leaves its records there (--no-cleanup, as a CI job against
 * a throwaway container would): the clean-up's read-back and delete of each record were a third of a kill's requests,
 * and a kill is judged on the checks' own exchanges. A legal target's run cleans up, so the clean-up's requests are
 * judged there too (no false finding on them).
 */
export async function runTarget(catalogue: Catalogue, target: Target, options: Partial<RunOptions> = {}): Promise<RunReport> {
  const server = await startServer(catalogue, target.args);
  const origin = target.kind === 'mutant' ? target.needsOrigin : catalogue.originForLegal;
  try {
    return await runConformance({ baseUrl: `${server.url}${target.basePath}`, specPath: catalogue.spec, seed: 1, ...(origin ? { origin: ORIGIN } : {}), ...(target.kind === 'mutant' ? { cleanup: false } : {}), ...options });
  } finally {
    await server.close();
  }
}

/** The failed results of a run, one line each, for an assertion message. */
export function explain(results: readonly CheckResult[]): string {
  return results
    .map((r) => {
      const f = r.findings[0];
      const ex = r.evidence.at(-1);
      return `${r.checkId} ${r.operationId ?? ''} "${r.title}": ${r.reason ?? ''}${f ? ` at ${f.pointer}: ${f.message}` : ''}${ex ? ` [${ex.request.method} ${ex.request.url} → ${ex.response?.status ?? ex.error?.code}]` : ''}`;
    })
    .join('\n');
}

export function failedOf(report: RunReport): CheckResult[] {
  return report.results.filter((r) => r.verdict === 'failed');
}

/**
 * The reference mutants the fast tier kills with their owning check alone (reference.test.ts): a schema defect, a state
 * rule, a media type refused, HTTP as a whole, state across requests, one of each kind, with what the owner needs beside
 * it. The full tier (reference.full.test.ts) runs every other such pair, so test:all runs each once.
 */
export const REFERENCE_SLICE: readonly { mutant: string; owner: string; also?: readonly string[] }[] = [
  { mutant: 'pet-missing-name', owner: 'response-schema', also: ['create-read-back'] },
  { mutant: 'order-keeps-pet-available', owner: 'workflow-order-reserves-stock' },
  { mutant: 'no-415', owner: 'unsupported-media-type' },
  { mutant: 'cors-no-acao-on-errors', owner: 'cors-on-errors' },
  // Across requests: one body's "__proto__" key reaching later records, and orders sent at once all placed (issue 30).
  { mutant: 'proto-pollution', owner: 'prototype-keys' },
  { mutant: 'order-race', owner: 'workflow-orders-at-once' },
];
