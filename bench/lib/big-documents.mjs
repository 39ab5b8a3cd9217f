// Section 5 of `npm run bench`: the mock and the runner on GitHub's REST descriptions (issue 22, point 8: a
// 10+ MB, ~1,000-operation document starts in under 10 s and 1 GB). The documents come from the pinned
// devDependency @octokit/openapi (fixtures/published/index.ts names them); nothing is fetched.
import { createRequire } from 'node:module';
import path from 'node:path';
import { readCpuUs, readRss, request, runNode, startServer } from './procs.mjs';
import { fmt, fmtMiB, formatTable, median } from './stats.mjs';

const require = createRequire(import.meta.url);
const GIB = 1024 ** 3;
export const START_TARGET_MS = 10_000;

/** The two of fixtures/published that the issue names: GitHub.com's description and GHES 3.19's. */
export const BIG_DOCUMENTS = [
  { name: 'api.github.com', specifier: '@octokit/openapi/generated/api.github.com.json', operations: 1223 },
  { name: 'ghes-3.19', specifier: '@octokit/openapi/generated/ghes-3.19.json', operations: 1039 },
];
/** A documented GET every GitHub description answers: proof the started mock serves, not only listens. */
const PROBE = '/gitignore/templates';
/** The runner on the same document, limited to one operation: its wall time is the runner's start on the document. */
const RUNNER_ONLY = 'meta/root';

/**
 * Per document: `starts` mocks, one at a time (spawn to `listening on`, the CPU the process used by then, its
 * peak RSS after one answered request), then the runner once against the last of them. The medians are the
 * figures; the worst start and the highest peak RSS are kept beside them.
 */
export async function runBigDocuments({ starts, root, tmpDir }) {
  const rows = [];
  for (const doc of BIG_DOCUMENTS) {
    const row = { name: doc.name, operations: doc.operations, attempts: [] };
    rows.push(row);
    let spec;
    try {
      spec = require.resolve(doc.specifier);
    } catch {
      row.error = `${doc.specifier} is not installed (npm ci installs it: a devDependency)`;
      console.log(`  ${doc.name}: ERROR ${row.error}`);
      continue;
    }
    row.spec = path.relative(root, spec);
    let mock;
    try {
      for (let i = 0; i < starts; i++) {
        await mock?.stop();
        mock = await startServer({ name: `mock --spec ${doc.name}`, args: ['bin/petstore-kit.js', 'mock', '--spec', spec, '--port', '0', '--quiet'], cwd: root, timeoutMs: 120_000 });
        const cpuMs = readCpuUs(mock.pid) / 1000;
        // Under the document's base path, which the mock's `listening on` URL carries (GHES: /api/v3).
        const probe = await request(mock.url, { path: `${new URL(mock.url).pathname.replace(/\/$/, '')}${PROBE}` });
        if (probe.status !== 200) throw new Error(`GET ${PROBE}: ${probe.status} ${probe.body.slice(0, 200)}`);
        const rss = readRss(mock.pid);
        row.attempts.push({ startupMs: Math.round(mock.startupMs), startupCpuMs: Math.round(cpuMs), peakRssBytes: rss.peak });
        console.log(`  ${doc.name}: started in ${fmt(mock.startupMs)} ms (${fmt(cpuMs)} ms CPU), peak RSS ${fmtMiB(rss.peak)}`);
      }
      const out = path.join(tmpDir, `runner-${doc.name}.json`);
      const r = await runNode({ args: ['bin/petstore-kit.js', 'conformance', '--spec', spec, '--base-url', mock.url, '--only', RUNNER_ONLY, '--format', 'json', '--output', out, '--quiet'], cwd: root, timeoutMs: 120_000 });
      if (r.timedOut || r.code === 2) throw new Error(`conformance --only ${RUNNER_ONLY} exited ${r.code}${r.timedOut ? ' (timed out)' : ''}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
      row.runnerWallMs = Math.round(r.wallMs);
      console.log(`  ${doc.name}: the runner (--only ${RUNNER_ONLY}) took ${fmt(r.wallMs)} ms, exit ${r.code}`);
    } catch (error) {
      row.error = String(error.message ?? error);
      console.log(`  ${doc.name}: ERROR ${row.error}`);
    } finally {
      await mock?.stop();
    }
    const a = row.attempts;
    if (a.length) {
      row.startupMs = Math.round(median(a.map((x) => x.startupMs)));
      row.worstStartupMs = Math.max(...a.map((x) => x.startupMs));
      row.startupCpuMs = Math.round(median(a.map((x) => x.startupCpuMs)));
      row.peakRssBytes = Math.max(...a.map((x) => x.peakRssBytes));
    }
  }
  const checks = [];
  for (const row of rows) {
    if (row.error && !row.attempts.length) continue;
    checks.push({ what: `${row.name}: mock start-up < 10 s (median of ${row.attempts.length})`, value: row.startupMs, unit: 'ms', pass: row.startupMs < START_TARGET_MS });
    checks.push({ what: `${row.name}: peak RSS < 1 GiB`, value: row.peakRssBytes, unit: 'bytes', pass: row.peakRssBytes < GIB });
  }
  return { runnerOnly: RUNNER_ONLY, documents: rows, checks: checks.map((c) => ({ ...c, verdict: c.pass ? 'PASS' : 'MISS' })) };
}

export function printBigDocuments(big) {
  const headers = ['document', 'operations', 'start-up ms (worst)', 'CPU ms at start', 'peak RSS', `runner --only ${big.runnerOnly} ms`];
  console.log(
    formatTable(
      headers,
      big.documents.map((d) =>
        d.error && !d.attempts.length
          ? [d.name, fmt(d.operations), 'error', '', '', '']
          : [d.name, fmt(d.operations), `${fmt(d.startupMs)} (${fmt(d.worstStartupMs)})`, fmt(d.startupCpuMs), fmtMiB(d.peakRssBytes), d.runnerWallMs === undefined ? 'error' : fmt(d.runnerWallMs)],
      ),
      headers.slice(1),
    ),
  );
  for (const c of big.checks) console.log(`  ${c.verdict}  ${c.what} (${c.unit === 'bytes' ? fmtMiB(c.value) : `${fmt(c.value)} ms`})`);
}
