/**
 * Issue 11, point 3: the runner builds requests for every parameter location
 * and serialization, and bodies that are not JSON. A tiny server (here, in
 * the test) records what it received for fixtures/documents/parameter-styles.yaml;
 * the test reads the wire forms from that record, as OpenAPI 3.0.3 §4.7.12.4's
 * style table writes them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/package-info.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

interface Received {
  readonly method: string;
  /** The request target exactly as sent, query included. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly status: number;
}

const SPEC = join(PACKAGE_ROOT, 'fixtures', 'documents', 'parameter-styles.yaml');

/** Answers search and createNote as the document says when the request carries what they need; records everything. */
function recordingServer(received: Received[]): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fixture');
      const answer = (status: number, value: unknown): void => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, status });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      if (req.method === 'GET' && url.pathname === '/search') {
        // What the document asks, read the way a server reads it: URLSearchParams decodes, and nothing here accepts a wrong form.
        const q = url.searchParams;
        const ids = q.getAll('ids');
        const ok =
          /^(alpha|beta)$/.test(String(req.headers['x-request-tag'])) &&
          /^session=s\d{3}$/.test(req.headers.cookie ?? '') &&
          /^(red|green)$/.test(q.get('filter[color]') ?? '') &&
          /^[1-5]$/.test(q.get('filter[size]') ?? '') &&
          /^[abc](,[abc]){1,2}$/.test(q.get('tags') ?? '') &&
          ids.length >= 2 && ids.length <= 4 && ids.every((id) => /^\d+$/.test(id) && Number(id) >= 1 && Number(id) <= 100);
        return ok ? answer(200, { ok: true }) : answer(400, { message: 'missing a required parameter' });
      }
      if (req.method === 'POST' && url.pathname === '/notes') {
        const form = new URLSearchParams(req.headers['content-type'] === 'application/x-www-form-urlencoded' ? body : '');
        const title = form.get('title');
        return title && form.getAll('labels').length === 2 ? answer(201, { title }) : answer(400, { message: 'a note needs a title and two labels' });
      }
      answer(404, { message: 'no such resource' });
    });
  });
}

describe('requests for every parameter location and serialization (fixtures/documents/parameter-styles.yaml)', () => {
  const received: Received[] = [];
  const server = recordingServer(received);
  let report: RunReport;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    report = await runConformance({ baseUrl: `http://127.0.0.1:${port}`, specPath: SPEC, seed: 3, concurrency: 2 });
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const searches = (): Received[] => received.filter((r) => r.method === 'GET' && r.url.startsWith('/search?'));
  /** The searches accepts-json-accept made: built from the runner's valid inputs, with an Accept of its own. */
  const validSearches = (): Received[] => searches().filter((r) => r.headers.accept === '*/*');

  it('sends the required header and cookie on every search, each valid for its schema', () => {
    expect(searches().length).toBeGreaterThan(0);
    for (const r of searches()) {
      expect(r.headers['x-request-tag'], r.url).toMatch(/^(alpha|beta)$/);
      expect(r.headers.cookie, r.url).toMatch(/^session=s\d{3}$/);
    }
  });

  it('varies the optional header: some searches carry a valid X-Trace, some none', () => {
    const traces = searches().map((r) => r.headers['x-trace']);
    expect(traces.filter((t) => t === undefined).length).toBeGreaterThan(0);
    const sent = traces.filter((t): t is string => typeof t === 'string');
    expect(sent.length).toBeGreaterThan(0);
    for (const t of sent) expect(t).toMatch(/^[1-9]$/);
  });

  it('writes the deepObject as filter[color]=…&filter[size]=…, the unexploded form array comma-joined, the exploded one repeated', () => {
    const valid = validSearches();
    expect(valid.length).toBeGreaterThan(0);
    for (const r of valid) {
      expect(r.status, r.url).toBe(200);
      expect(r.url).toMatch(/[?&]filter\[color\]=(red|green)(&|$)/);
      expect(r.url).toMatch(/[?&]filter\[size\]=[1-5](&|$)/);
      expect(r.url).toMatch(/[?&]tags=[abc](,[abc]){1,2}(&|$)/);
      expect(r.url.match(/[?&]ids=\d+/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    }
  });

  it('never sends an object as [object Object] nor cuts an array to one element', () => {
    expect(received.filter((r) => decodeURIComponent(r.url).includes('[object Object]') || r.body.includes('[object Object]'))).toEqual([]);
    expect(searches().filter((r) => /[?&]tags=[abc](&|$)/.test(r.url)).map((r) => r.url)).toEqual([]);
  });

  it('sends createNote a form-urlencoded body its schema accepts, the array field repeated', () => {
    const notes = received.filter((r) => r.method === 'POST' && r.url === '/notes' && r.headers['content-type'] === 'application/x-www-form-urlencoded');
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0]!.status).toBe(201);
    const form = new URLSearchParams(notes[0]!.body);
    expect(form.get('title')).toMatch(/.+/);
    expect(form.getAll('labels')).toHaveLength(2);
    for (const label of form.getAll('labels')) expect(['x', 'y']).toContain(label);
  });

  it('what the runner called valid was served: the acceptance checks passed on search and createNote', () => {
    const acceptance = report.results.filter((r) => (r.checkId === 'accepts-json-accept' || r.checkId === 'accepts-valid-bodies') && r.operationId !== undefined);
    expect(acceptance.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId}: ${r.reason}`)).toEqual([]);
    expect(new Set(acceptance.filter((r) => r.verdict === 'passed').map((r) => r.operationId))).toEqual(new Set(['search', 'createNote']));
    const crashed = report.results.filter((r) => r.reason?.startsWith('internal error in the check'));
    expect(crashed.map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
  });
});
