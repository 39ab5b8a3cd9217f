/**
 * What the proxy's end-to-end tests put around it: the independent reference server of ../shared/reference (used
 * as it is, never copied; tests skip with the reason when it is absent), the proxy itself on a free loopback port,
 * a scripted front end's session of the Pet Store contract, and small scripted upstreams for the transport's edge
 * cases. Every process started here is stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startProxy, type ProxyOptions, type RunningProxy } from '../server.js';

export const REFERENCE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/reference');
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

export interface TestProxy extends RunningProxy {
  /** Every line the proxy logged. */
  readonly lines: string[];
  violationLines(): string[];
}

/** The proxy in this process on a free loopback port, its lines collected instead of printed. */
export async function startTestProxy(options: ProxyOptions): Promise<TestProxy> {
  const lines: string[] = [];
  const proxy = await startProxy({ port: 0, ...options, log: (line) => lines.push(line) });
  return Object.assign(proxy, { lines, violationLines: () => lines.filter((line) => line.startsWith('violation: ')) });
}

export interface Step {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly json: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** One JSON request through `base`; the answer read whole. */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Step> {
  const answer = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await answer.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  return { method, path, status: answer.statusCode, json, headers: answer.headers };
}

/** The id a created record came back with, as a front end that coerces it would read it ("7" is 7). */
function idOf(step: Step): number {
  const json = step.json as { id?: unknown };
  const id = typeof json?.id === 'number' || typeof json?.id === 'string' ? Number(json.id) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new Error(`${step.method} ${step.path} answered ${step.status} without an id: ${JSON.stringify(step.json)}`);
  return id;
}

/**
 * A front end's session of the Pet Store contract (contract.md), valid requests only: browse, filter, the
 * deprecated read, create a category and a pet, order it, complete the order, read the stock, and the usual error
 * answers (an unknown pet, deleting a category still in use). Any correct server answers it without one violation.
 */
export async function frontEndSession(base: string, tag = `${process.pid}${Date.now().toString(36)}`): Promise<Step[]> {
  const steps: Step[] = [];
  const go = async (method: string, path: string, body?: unknown): Promise<Step> => {
    const step = await call(base, method, path, body);
    steps.push(step);
    return step;
  };
  await go('GET', '/categories?limit=10');
  await go('GET', '/pets?status=available&limit=5');
  await go('GET', '/pets/1');
  const category = idOf(await go('POST', '/categories', { name: `Ferrets ${tag}`, description: 'Curious and quick' }));
  const pet = idOf(await go('POST', '/pets', { name: `Nibbles${tag}`, categoryId: category }));
  await go('GET', `/pets?id=${pet}`);
  await go('GET', `/store/inventory/${pet}`);
  const order = idOf(await go('POST', '/store/orders', { petId: pet, quantity: 1 }));
  await go('PATCH', `/store/orders/${order}`, { complete: true });
  await go('GET', `/store/orders?petId=${pet}`);
  await go('GET', '/store/inventory?limit=5');
  await go('GET', '/pets/987654');
  await go('DELETE', `/categories/${category}`);
  return steps;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A scripted upstream on a free loopback port, for what no real backend does on request (stall, reset, stream slowly). */
export async function startUpstream(handler: Handler): Promise<Started & { readonly server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
