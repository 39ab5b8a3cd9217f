/**
 * The full tier of reference.e2e.test.ts: the front end's session through the proxy in front of the reference
 * server (../shared/reference, used as it is):
 *
 * - every legal variant the session can reach (other field sets, chunked answers, closed connections, absolute
 *   Locations, split Link lines, an upper-case charset, random ids, offset date-times, a path prefix, the clock past
 *   the sunset, …) passes with no violation;
 * - a mutant of each kind a single exchange shows (schema, status, content type, error shape, error status,
 *   deprecation and sunset headers, a deprecation where none is due, a missing Location) is found by the rule that
 *   owns that kind, at its pointer;
 * - Prism's validating proxy (`prism proxy`), on the same traffic, is the referee where it can judge: it flags no
 *   exchange of the clean server, and flags the schema and error-shape mutants on the operations the proxy names.
 *
 * Mutants of behaviour (state rules, filters, totals across pages) are not in reach: a proxy judges each exchange on
 * its own, as the runner's passive checks do; the runner's stateful checks find those (conformance/reference.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { onFreePort } from '../test-support/prism.js';
import type { RunReport } from '../model.js';
import { frontEndSession, passOn, referencePresent, REFERENCE_MISSING, REF_SPEC, startReference, startTestProxy, startUpstream, type Step } from './test-support/servers.js';

if (!referencePresent) console.warn(`reference.full.test.ts skipped: ${REFERENCE_MISSING}`);

const SESSION_TIMEOUT = 60_000;

async function sessionThroughProxy(args: readonly string[], basePath = ''): Promise<{ report: RunReport; lines: string[] }> {
  const target = await startReference(args);
  try {
    const proxy = await startTestProxy({ target: `${target.url}${basePath}`, specPath: REF_SPEC });
    try {
      await frontEndSession(proxy.url);
      return { report: proxy.report(), lines: proxy.violationLines() };
    } finally {
      await proxy.close();
    }
  } finally {
    await target.close();
  }
}

function failed(report: RunReport): string[] {
  return report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? '-'}: ${r.reason ?? ''}`);
}

describe.skipIf(!referencePresent)('legal variants: no violation', () => {
  it.each([
    ['extra-fields'],
    ['other-messages'],
    ['empty'],
    ['after-sunset'],
    ['absolute-location'],
    ['link-split'],
    ['chunked'],
    ['connection-close'],
    ['random-ids'],
    ['newest-first'],
    ['offset-datetimes'],
    ['float-quantities'],
    ['extra-headers'],
    ['charset-upper'],
  ])('%s', async (variant) => {
    const { report, lines } = await sessionThroughProxy(['--variant', variant]);
    expect(failed(report)).toEqual([]);
    expect(lines).toEqual([]);
    expect(report.summary.exchanges).toBe(13);
  }, SESSION_TIMEOUT);

  it('prefix: the target under /api/v1, the proxy at the root', async () => {
    const { report, lines } = await sessionThroughProxy(['--variant', 'prefix'], '/api/v1');
    expect(failed(report)).toEqual([]);
    expect(lines).toEqual([]);
  }, SESSION_TIMEOUT);
});

/** Mutants of the kinds one exchange shows, with the rule that owns the kind and where the defect sits. */
const MUTANTS: readonly { readonly mutant: string; readonly owner: string; readonly operation: string; readonly pointer: RegExp }[] = [
  { mutant: 'pet-missing-name', owner: 'response-schema', operation: 'listPets', pointer: /^\/body\/\d+\/name$/ },
  { mutant: 'inventory-quantity-string', owner: 'response-schema', operation: 'getInventoryItem', pointer: /^\/body\/quantity$/ },
  { mutant: 'pet-id-string', owner: 'response-schema', operation: 'createPet', pointer: /^\/body\/id$/ },
  { mutant: 'create-200', owner: 'status-documented', operation: 'createPet', pointer: /^\/status$/ },
  { mutant: 'json-as-text-plain', owner: 'content-type', operation: 'listCategories', pointer: /^\/header\/content-type$/ },
  { mutant: 'no-content-type', owner: 'content-type', operation: 'getPet', pointer: /^\/header\/content-type$/ },
  { mutant: 'error-missing-code', owner: 'error-shape', operation: 'getPet', pointer: /^\/body\/code$/ },
  { mutant: 'error-status-mismatch', owner: 'error-shape', operation: 'deleteCategory', pointer: /^\/body\/status$/ },
  { mutant: 'error-plain-text', owner: 'content-type', operation: 'getPet', pointer: /^\/header\/content-type$/ },
  { mutant: 'deprecation-yes', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/deprecation$/ },
  { mutant: 'no-sunset', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/sunset$/ },
  { mutant: 'sunset-not-imf', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/sunset$/ },
  { mutant: 'link-no-successor', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/link$/ },
  { mutant: 'deprecation-on-listpets', owner: 'no-unexpected-deprecation', operation: 'listPets', pointer: /^\/header\/deprecation$/ },
  { mutant: 'no-location', owner: 'response-headers', operation: 'createCategory', pointer: /^\/header\/location$/ },
  { mutant: 'deprecation-milliseconds', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/deprecation$/ },
  { mutant: 'getpet-errors-no-deprecation-headers', owner: 'deprecation-headers', operation: 'getPet', pointer: /^\/header\/(deprecation|sunset|link)$/ },
];

describe.skipIf(!referencePresent)('mutants of each kind a single exchange shows', () => {
  it.each(MUTANTS)('$mutant: found by $owner on $operation', async ({ mutant, owner, operation, pointer }) => {
    const { report, lines } = await sessionThroughProxy(['--mutant', mutant]);
    const owned = report.results.filter((r) => r.verdict === 'failed' && r.checkId === owner && r.operationId === operation);
    expect(owned.length, failed(report).join('\n')).toBeGreaterThan(0);
    expect(owned.flatMap((r) => r.findings.map((f) => f.pointer)).some((p) => pointer.test(p)), JSON.stringify(owned.map((r) => r.findings))).toBe(true);
    expect(lines.some((line) => line.includes(` ${owner} at `))).toBe(true);
    // The session's requests were valid: no request rule blames the client for the server's defect.
    expect(failed(report).filter((f) => f.startsWith('request-'))).toEqual([]);
  }, SESSION_TIMEOUT);
});

describe.skipIf(!referencePresent)('Prism’s validating proxy as referee, on the same traffic', () => {
  const PRISM = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
  let prism: ChildProcess | undefined;
  let prismUrl = '';
  let prismLog = '';
  /** Prism proxies one upstream for its life: this switch in front of it points at the reference server of the moment. */
  let current = '';
  let relay: Awaited<ReturnType<typeof startUpstream>>;

  beforeAll(async () => {
    relay = await startUpstream(passOn(() => current));
    // Another process may take the free port before Prism binds it (EADDRINUSE): onFreePort tries another, up to three times.
    prismUrl = await onFreePort(async (port) => {
      prismLog = '';
      const started = spawn(PRISM, ['proxy', REF_SPEC, relay.url, '--port', String(port), '--host', '127.0.0.1'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      prism = started;
      started.stdout?.on('data', (chunk: Buffer) => (prismLog = `${prismLog}${chunk.toString()}`.slice(-20_000)));
      started.stderr?.on('data', (chunk: Buffer) => (prismLog = `${prismLog}${chunk.toString()}`.slice(-20_000)));
      // Bounds a hang only: Prism took more than 45 s to start on a busy 2-core machine.
      const deadline = Date.now() + 150_000;
      while (!/listening on/.test(prismLog)) {
        if (started.exitCode !== null) throw new Error(`prism exited with ${started.exitCode}: ${prismLog}`);
        if (Date.now() > deadline) throw new Error(`prism did not listen within 150 s: ${prismLog}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return `http://127.0.0.1:${port}`;
    });
  }, 180_000);
  afterAll(async () => {
    if (prism?.pid !== undefined && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism?.once('exit', resolve));
      process.kill(prism.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (prism.exitCode === null && prism.signalCode === null) process.kill(prism.pid, 'SIGKILL');
    }
    await relay?.close();
  });

  /** The operations (by method and path shape) Prism flagged in a session, from its sl-violations header. */
  const flaggedByPrism = (steps: readonly Step[]): string[] => [...new Set(steps.filter((s) => s.headers['sl-violations'] !== undefined).map((s) => `${s.method} ${s.path.replace(/\?.*$/, '').replace(/\/\d+/g, '/{id}')}`))].sort();

  async function bothOn(args: readonly string[]): Promise<{ prism: string[]; ours: RunReport }> {
    const target = await startReference(args);
    current = target.url;
    try {
      const viaPrism = await frontEndSession(prismUrl);
      const proxy = await startTestProxy({ target: target.url, specPath: REF_SPEC });
      try {
        await frontEndSession(proxy.url);
        return { prism: flaggedByPrism(viaPrism), ours: proxy.report() };
      } finally {
        await proxy.close();
      }
    } finally {
      await target.close();
    }
  }

  it('agrees the clean server breaks nothing', async () => {
    const { prism: flagged, ours } = await bothOn([]);
    expect(flagged).toEqual([]);
    expect(failed(ours)).toEqual([]);
  }, SESSION_TIMEOUT * 2);

  it.each([
    { mutant: 'pet-missing-name', owner: 'response-schema' },
    { mutant: 'error-missing-code', owner: 'error-shape' },
    { mutant: 'inventory-quantity-string', owner: 'response-schema' },
  ])('on $mutant, flags what the proxy finds ($owner)', async ({ mutant, owner }) => {
    const { prism: flagged, ours } = await bothOn(['--mutant', mutant]);
    const operations = ours.meta.checks.length > 0 ? [...new Set(ours.results.filter((r) => r.verdict === 'failed' && r.checkId === owner).map((r) => r.operationId))] : [];
    expect(operations.length).toBeGreaterThan(0);
    expect(flagged.length, prismLog.slice(-2000)).toBeGreaterThan(0);
    // Every exchange Prism flagged is one the proxy found broken by the owning rule: the same defect, two judges.
    const oursFlagged = new Set(ours.results.filter((r) => r.verdict === 'failed' && r.checkId === owner).flatMap((r) => r.evidence.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/\/\d+/g, '/{id}')}`)));
    for (const exchange of flagged) expect(oursFlagged, `Prism flagged ${exchange}`).toContain(exchange);
  }, SESSION_TIMEOUT * 2);
});
