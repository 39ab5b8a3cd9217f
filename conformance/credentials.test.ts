/**
 * Issue 21: a secured API without credentials. Published documents mostly declare security; a correct server
 * refuses a request without credentials with 401 before it reads the body, and the runner, given none, blamed
 * the server for it: "refused a valid request", "answered 401, not 400", "401 is not a documented status".
 * A correct server of a constructed secured document: without credentials the runner reports no failure and
 * says what to pass; with them, the same checks run and pass.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { Credentials } from './credentials.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

// Bearer for the document, an API key header for reports, none for the health check, and an API key in the query
// (which --header cannot supply) for the export. Only 200 and 400 are documented on the notes: no 401 anywhere.
const DOCUMENT = `openapi: 3.0.3
info: { title: Notes, version: 1.0.0 }
security: [ { bearer: [] } ]
paths:
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewNote' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '400': { $ref: '#/components/responses/Error' }
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [ { name: noteId, in: path, required: true, schema: { type: string } } ]
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '404': { $ref: '#/components/responses/Error' }
  /reports:
    get:
      operationId: listReports
      security: [ { reportKey: [] } ]
      responses:
        '200': { description: reports, content: { application/json: { schema: { type: array, items: { type: string } } } } }
  /export:
    get:
      operationId: exportNotes
      security: [ { queryKey: [] } ]
      responses:
        '200': { description: every note, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } } }
  /health:
    get:
      operationId: health
      security: []
      responses:
        '200': { description: up, content: { application/json: { schema: { type: object, required: [ok], properties: { ok: { type: boolean } } } } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    reportKey: { type: apiKey, in: header, name: X-Report-Key }
    queryKey: { type: apiKey, in: query, name: key }
  responses:
    Error: { description: an error, content: { application/json: { schema: { type: object, required: [message], properties: { message: { type: string } } } } } }
  schemas:
    NewNote:
      type: object
      required: [text]
      properties: { text: { type: string, minLength: 1, maxLength: 200 } }
    Note:
      type: object
      required: [noteId, text]
      properties: { noteId: { type: string, readOnly: true }, text: { type: string } }
`;

/** A correct server: credentials first (401, RFC 9110 §15.5.2), then the request. */
function notesServer(): ReturnType<typeof createServer> {
  const notes = new Map<string, { noteId: string; text: string }>();
  let next = 1;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const readJson = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return undefined;
    }
  };
  const unauthorized = (res: ServerResponse, scheme: string): void => send(res, 401, { message: 'credentials required' }, { 'www-authenticate': scheme });
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (url.pathname === '/health') return method === 'GET' ? send(res, 200, { ok: true }) : send(res, 405, { message: 'not allowed' }, { allow: 'GET' });
    if (url.pathname === '/export' || url.pathname === '/reports') {
      const key = url.pathname === '/export' ? url.searchParams.get('key') : req.headers['x-report-key'];
      if (!key) return unauthorized(res, 'ApiKey');
      return method === 'GET' ? send(res, 200, url.pathname === '/export' ? [...notes.values()] : []) : send(res, 405, { message: 'not allowed' }, { allow: 'GET' });
    }
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) return unauthorized(res, 'Bearer');
    if (url.pathname === '/notes') {
      if (method !== 'POST') return send(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return send(res, 400, { message: 'a JSON body is required' });
      const body = await readJson(req);
      const text = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['text'] : undefined;
      if (typeof text !== 'string' || text.length < 1 || [...text].length > 200 || Object.keys(body as object).some((k) => k !== 'text' && k !== 'noteId')) {
        return send(res, 400, { message: 'text of 1 to 200 characters is required' });
      }
      const note = { noteId: `n${next++}`, text };
      notes.set(note.noteId, note);
      return send(res, 201, note);
    }
    const match = /^\/notes\/([^/]+)$/.exec(url.pathname);
    if (match) {
      if (method !== 'GET') return send(res, 405, { message: 'not allowed' }, { allow: 'GET' });
      const note = notes.get(decodeURIComponent(match[1]!));
      return note ? send(res, 200, note) : send(res, 404, { message: 'no such note' });
    }
    return send(res, 404, { message: 'no such route' });
  });
}

const CREDENTIALS_SKIP = /requires credentials \(.+\) that the run does not send; pass them with --header/;

describe('a secured document', () => {
  let dir: string;
  let spec: string;
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  let without: RunReport;
  let withHeaders: RunReport;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'credentials-'));
    spec = join(dir, 'notes.yaml');
    await writeFile(spec, DOCUMENT);
    server = notesServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    [without, withHeaders] = await Promise.all([
      runConformance({ baseUrl, specPath: spec, seed: 5 }),
      runConformance({ baseUrl, specPath: spec, seed: 5, headers: { Authorization: 'Bearer secret-token', 'X-Report-Key': 'secret-key' } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('knows which operations the headers of a run satisfy, from the schemes and the requirements', async () => {
    const contract = await loadContract(spec);
    const op = (id: string) => contract.operationsById.get(id)!;
    const none = new Credentials(contract, []);
    expect(none.missingFor(op('createNote'))).toBe('bearer');
    expect(none.missingFor(op('listReports'))).toBe('reportKey');
    expect(none.missingFor(op('health'))).toBeUndefined();
    expect(none.operationsWithout().map((o) => o.operationId).sort()).toEqual(['createNote', 'exportNotes', 'getNote', 'listReports']);
    // Header names match case-insensitively; an API key in the query cannot come from --header.
    const both = new Credentials(contract, ['authorization', 'x-report-key']);
    expect(both.operationsWithout().map((o) => o.operationId)).toEqual(['exportNotes']);
  });

  it('without credentials: no failure, the refused checks skipped with what to pass, and a warning', () => {
    const failed = without.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    const skipped = without.results.filter((r) => r.verdict === 'skipped' && CREDENTIALS_SKIP.test(r.reason ?? ''));
    expect(skipped.length).toBeGreaterThan(5);
    // The secret-free warning names the count and the way out; no check on the public operation was skipped for it.
    expect((without.warnings ?? []).map((w) => w.message)).toContainEqual(expect.stringMatching(/^4 of 5 operations require credentials the run does not send .*--header/));
    expect(skipped.filter((r) => r.operationId === 'health')).toEqual([]);
    expect(without.results.some((r) => r.operationId === 'health' && r.verdict === 'passed')).toBe(true);
  });

  it('with credentials: the same checks run and pass; only the query key, which --header cannot carry, is still missing', () => {
    const failed = withHeaders.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    expect(withHeaders.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'passed')).toBe(true);
    const stillSkipped = withHeaders.results.filter((r) => r.verdict === 'skipped' && CREDENTIALS_SKIP.test(r.reason ?? ''));
    expect(stillSkipped.length).toBeGreaterThan(0);
    expect(stillSkipped.filter((r) => !/ \/export answered 401/.test(r.reason ?? ''))).toEqual([]);
    expect((withHeaders.warnings ?? []).map((w) => w.message)).toContainEqual(expect.stringMatching(/^1 of 5 operations require credentials .*\(queryKey\)/));
    expect(withHeaders.summary.passed).toBeGreaterThan(without.summary.passed);
  });
});
