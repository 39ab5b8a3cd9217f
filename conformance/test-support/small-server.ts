/**
 * The plumbing of the small correct servers the runner's tests write by hand (foreign-false-findings,
 * representations, own-keys, shared-records, scalar-bodies): a JSON answer, a bounded JSON body, a server on a free
 * loopback port, and that server with the document it implements in a folder of its own. Each test keeps its own
 * routes and rules; only this is shared.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes `body` as JSON (no body, and no Content-Type, when it is undefined). */
export function sendJson(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** The request's JSON body; undefined when it is not JSON or longer than 64 KiB (the limit a real server has). */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 65_536) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Whether the request says its body is JSON. */
export function sentJson(req: IncomingMessage): boolean {
  return /^application\/json/i.test(req.headers['content-type'] ?? '');
}

/** A server on 127.0.0.1 at a free port, listening, with its base URL. */
export async function listenOnLoopback(handler: RequestListener): Promise<{ server: ReturnType<typeof createServer>; baseUrl: string }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A small server and the document it implements, written to a folder of its own: what a runner test points at. */
export interface DocumentedServer {
  readonly baseUrl: string;
  /** The document's path, for `runConformance({ specPath })`. */
  readonly specPath: string;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/** Writes `document` (YAML or JSON text) as `fileName` in a fresh temporary folder and starts `handler` on loopback. */
export async function serveDocumented(fileName: string, document: string, handler: RequestListener): Promise<DocumentedServer> {
  const dir = await mkdtemp(join(tmpdir(), 'small-server-'));
  const specPath = join(dir, fileName);
  await writeFile(specPath, document);
  const { server, baseUrl } = await listenOnLoopback(handler);
  return {
    baseUrl,
    specPath,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
