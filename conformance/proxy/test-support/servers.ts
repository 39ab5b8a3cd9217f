/**
 * What the proxy's end-to-end tests put around it: the independent reference server of ../shared/reference (used
 * as it is, never copied; tests skip with the reason when it is absent), the proxy itself on a free loopback port,
 * a scripted front end's session of the Pet Store contract, and small scripted upstreams for the transport's edge
 * cases. Every process started here is stopped by its PID.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'undici';
import { BIN, children } from '../../../mock/test-support/child-mock.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import type { Started } from '../../test-support/reference.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../server.js';

export { REFERENCE, REF_SERVER, REF_SPEC, referencePresent, REFERENCE_MISSING, startReference, type Started } from '../../test-support/reference.js';

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

/**
 * Passes a request on to `origin()` (undici) and its answer back, hop-by-hop fields aside: a gateway for the tests to
 * put scripted behaviour in front of a real server, or to point a long-lived client (Prism) at servers that change.
 */
export function passOn(origin: () => string): Handler {
  const hop = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding']);
  return (req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !hop.has(name)) headers[name] = value;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    void request(`${origin()}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers, ...(hasBody ? { body: req } : {}) }).then(
      async (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hop.has(name)) out[name] = value;
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, out);
        res.end(body);
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  };
}

export interface ChildProxy {
  readonly url: string;
  /** Its process id, to read its memory from /proc (Linux). */
  readonly pid: number;
  stderr(): string;
  /** SIGTERM, then its exit code and everything it wrote. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `petstore-kit proxy ARGS` as a user runs it (the built dist/); resolves once it printed its line. */
export function startChildProxy(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildProxy> {
  const child = spawn(process.execPath, [BIN, 'proxy', ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s: ${stderr}`)), 60_000);
    const onData = (): void => {
      const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url: match[1]!,
        pid: child.pid!,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) process.kill(child.pid!, 'SIGTERM');
          const code = await exit;
          return { code, stdout, stderr };
        },
      });
    };
    child.stdout.on('data', onData);
    void exit.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
}
