/**
 * Stoplight Prism's validation proxy (`prism proxy DOC UPSTREAM --errors`) in front of a mock of a foreign document:
 * an independent referee of the traffic that goes through it (not our validators). How Prism 5.14 reports (see
 * mock/e2e/prism-referee.test.ts): any violation, of a request or a response, goes into an `sl-violations` header;
 * with `--errors` a response violation becomes a 500 `application/problem+json`, and an invalid request is answered
 * 422 `application/problem+json` by Prism itself, never forwarded. Started on 127.0.0.1, stopped by its PID.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { onFreePort, stopPrism, type RunningPrism } from '../../../conformance/test-support/prism.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import type { ForeignExchange } from './foreign-client.js';

export { stopPrism } from '../../../conformance/test-support/prism.js';

/**
 * Bounds a hang only: Prism took more than 45 s to start on a 2-core machine busy with other work, and more than
 * 120 s on Xero's accounting document (cut to its resources' paths) beside the runner and the reference catalogue.
 */
const START_TIMEOUT_MS = 300_000;

export function startPrismProxy(document: string, upstream: string): Promise<RunningPrism> {
  return onFreePort((port) => startPrismProxyOn(document, upstream, port));
}

async function startPrismProxyOn(document: string, upstream: string, port: number): Promise<RunningPrism> {
  const child = spawn(join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism'), ['proxy', document, upstream, '--errors', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer): void => void (log = `${log}${chunk.toString('utf8')}`.slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const prism = { url: `http://127.0.0.1:${port}`, child };
  // Listening once it says so, and a request gets any answer (the mock's /__mock/health is no path of the document:
  // Prism's own 404). An answer alone is not enough: two Prisms started at once may be given the same free port, and
  // the one that lost it (EADDRINUSE, retried by onFreePort) would hand its test the other's proxy, in front of
  // another document's mock (CI: xero/bankfeeds' round trip answered by Adyen's Foreign Exchange mock).
  for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}:\n${log}`);
    if (!log.includes('Prism is listening')) continue;
    const answered = await request(`${prism.url}/__mock/health`).then(
      async (answer) => (await answer.body.dump(), true),
      () => false,
    );
    if (answered && child.exitCode === null) return prism;
  }
  await stopPrism(prism);
  throw new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${log}`);
}

/** What Prism said about one exchange that went through it: nothing, or its violations. */
export function prismViolation(exchange: ForeignExchange, expected: { readonly plainNotFound: boolean }): string | undefined {
  const flagged = exchange.headers['sl-violations'];
  // Issue 22 point 1: a read after delete is a plain 404 where the operation documents none; Prism warns that the
  // status is not among the documented ones (OAS 3.0.3 §4.7.16: the list need not be exhaustive). Only that warning.
  if (flagged !== undefined && expected.plainNotFound && exchange.status === 404 && onlyUndocumentedStatus(flagged)) return undefined;
  if (flagged !== undefined) return `${exchange.method} ${exchange.target} → ${exchange.status}: ${flagged}`;
  // Prism's own problem documents carry its error types (`https://stoplight.io/prism/errors#VIOLATIONS`); a document
  // whose errors are problem+json is answered so by the mock too, which is no violation.
  if (/problem\+json/.test(exchange.headers['content-type'] ?? '') && exchange.text.includes('stoplight.io/prism/errors')) return `${exchange.method} ${exchange.target} → ${exchange.status}: ${exchange.text.slice(0, 600)}`;
  return undefined;
}

function onlyUndocumentedStatus(flagged: string): boolean {
  try {
    const violations: unknown = JSON.parse(flagged);
    return Array.isArray(violations) && violations.every((v: unknown) => typeof v === 'object' && v !== null && /^Unable to match the returned status code/.test(String((v as { message?: unknown }).message)));
  } catch {
    return false;
  }
}
