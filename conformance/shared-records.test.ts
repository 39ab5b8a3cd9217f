/**
 * Checks that run side by side share a record the run does not own, and take it in turns (shared-records.ts): a
 * document whose notes no operation creates (a PUT only replaces), so every check names the same note, the one its
 * id's schema samples first. One check replaces it with a valid body while another reads it twice, sends an invalid
 * request and reads it again: without turns the second saw the first one's write and blamed the target's refusal for
 * it (negative-parameters "the rejected request changed it", stable-reads "reads are not stable"). The server is
 * correct, and slow to read, as a real one over a network is, so the checks' requests interleave.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from './runner.js';
import { overlaps, SharedRecords } from './shared-records.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Notes, version: 1.0.0 }
paths:
  /notes/{noteId}:
    parameters:
      - { name: noteId, in: path, required: true, schema: { type: integer, minimum: 1, maximum: 1000 } }
    get:
      operationId: getNote
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
    put:
      operationId: replaceNote
      parameters:
        - { name: notify, in: query, schema: { type: boolean } }
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewNote' } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
components:
  responses:
    Error: { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  schemas:
    Error: { type: object, required: [code, message], properties: { code: { type: string }, message: { type: string } } }
    NewNote:
      type: object
      additionalProperties: false
      required: [text]
      properties: { text: { type: string, minLength: 1, maxLength: 200 } }
    Note:
      type: object
      required: [id, text]
      properties: { id: { type: integer }, text: { type: string } }
`;

/** A correct server: three notes, a PUT that replaces one (never creates), reads that take a little while. */
function notesServer(): (req: IncomingMessage, res: ServerResponse) => void {
  const notes = new Map<number, { id: number; text: string }>([1, 2, 3].map((id) => [id, { id, text: `note ${id}` }]));
  const refuse = (res: ServerResponse, status: number, message: string): void => sendJson(res, status, { code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', message });
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const match = /^\/notes\/([^/]+)$/.exec(url.pathname);
      if (!match) return refuse(res, 404, 'no such path');
      const text = decodeURIComponent(match[1]!);
      const id = /^\d+$/.test(text) ? Number(text) : NaN;
      const notify = url.searchParams.get('notify');
      const body = req.method === 'PUT' ? await readJsonBody(req) : undefined;
      if (req.method === 'GET') {
        await new Promise((resolve) => setTimeout(resolve, 15));
        if (!(id >= 1 && id <= 1000)) return refuse(res, 400, 'noteId must be an integer from 1 to 1000');
        const note = notes.get(id);
        return note ? sendJson(res, 200, note) : refuse(res, 404, `note ${id} not found`);
      }
      if (req.method !== 'PUT') return sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: 'GET or PUT' }, { allow: 'GET, PUT' });
      if (!sentJson(req)) return sendJson(res, 415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send JSON' });
      if (!(id >= 1 && id <= 1000)) return refuse(res, 400, 'noteId must be an integer from 1 to 1000');
      if (notify !== null && notify !== 'true' && notify !== 'false') return refuse(res, 400, 'notify must be true or false');
      const valid = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).every((key) => key === 'text');
      const sent = valid ? (body as { text?: unknown }).text : undefined;
      if (typeof sent !== 'string' || sent.length === 0 || [...sent].length > 200) return refuse(res, 400, 'text must be 1 to 200 characters, and nothing else');
      if (!notes.has(id)) return refuse(res, 404, `note ${id} not found`);
      const note = { id, text: sent };
      notes.set(id, note);
      return sendJson(res, 200, note);
    })();
  };
}

describe('checks side by side on a record the run does not own', () => {
  let server: DocumentedServer;
  beforeAll(async () => {
    server = await serveDocumented('notes.yaml', DOCUMENT, notesServer());
  });
  afterAll(() => server.close());

  it('blame the server for nothing at the default concurrency', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 3 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    // The observation this is about did run: invalid parameters sent to the shared note and judged.
    expect(report.results.some((r) => r.checkId === 'negative-parameters' && r.operationId === 'replaceNote' && r.verdict === 'passed')).toBe(true);
  }, 60_000);
});

describe('SharedRecords', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

  it('keeps a write out of an observation of the same record, and lets the observation write itself', async () => {
    const records = new SharedRecords();
    const seen: string[] = [];
    const observation = records.observe('/notes/1', async (within) => {
      seen.push('read');
      await tick();
      // The observation's own request: it goes at once, or the observation would wait on itself.
      await records.write('/notes/1', async () => void seen.push('own write'), within);
      await tick();
      seen.push('read again');
    });
    const other = records.write('/notes/1', async () => void seen.push('other write'));
    const elsewhere = records.write('/notes/2', async () => void seen.push('write elsewhere'));
    await Promise.all([observation, other, elsewhere]);
    expect(seen.indexOf('other write')).toBeGreaterThan(seen.indexOf('read again'));
    expect(seen.indexOf('write elsewhere')).toBeLessThan(seen.indexOf('read again'));
  });

  it('lets go of a record when the observation throws', async () => {
    const records = new SharedRecords();
    await expect(records.observe('/notes/1', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    await expect(records.write('/notes/1', async () => 'written')).resolves.toBe('written');
  });

  it('holds a path against writes to it, under it and above it, and to nothing else', () => {
    expect(overlaps('/notes/7', '/notes/7')).toBe(true);
    expect(overlaps('/notes/7', '/notes/7/archive')).toBe(true);
    expect(overlaps('/teams/7/items', '/teams/7/items/3')).toBe(true);
    expect(overlaps('/notes', '/notes/7')).toBe(true);
    expect(overlaps('/notes/7', '/notes/70')).toBe(false);
    expect(overlaps('/notes/7', '/tags/7')).toBe(false);
  });

  it('lets writes that overlap no observation go side by side', async () => {
    const records = new SharedRecords();
    const seen: string[] = [];
    let release!: () => void;
    const first = records.write('/notes/1', () => new Promise<void>((resolve) => (release = resolve)).then(() => void seen.push('first')));
    await records.write('/notes/1', async () => void seen.push('second'));
    release();
    await first;
    expect(seen).toEqual(['second', 'first']);
  });
});
