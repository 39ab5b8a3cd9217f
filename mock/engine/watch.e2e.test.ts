/**
 * `--watch` on a document that is not the Pet Store: an edit the data still fits (a description, an example, a new
 * optional member) reloads the document and keeps every store's records, the default store's and each session's,
 * and says so; an edit the records no longer fit (a new required member) starts the data again from the initial data
 * and says which record did not fit. Every answer is checked against the document being served.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });

/** A small document of notes; `extra` adds members to the note (and `required` names those it requires). */
function notesDocument(description: string, extra: Record<string, unknown> = {}, required: readonly string[] = []): unknown {
  const note = { type: 'object', required: ['id', 'text', ...required], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', maxLength: 100 }, ...extra } };
  return {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '1.0.0', description },
    paths: {
      '/notes': {
        get: { operationId: 'listNotes', responses: { '200': { description: 'the notes', content: json({ type: 'array', items: { $ref: '#/components/schemas/Note' } }) } } },
        post: { operationId: 'createNote', requestBody: { required: true, content: json({ $ref: '#/components/schemas/Note' }) }, responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Note' }) } } },
      },
      '/notes/{noteId}': {
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: { '200': { description: 'the note', content: json({ $ref: '#/components/schemas/Note' }) }, '404': { description: 'none' } },
        },
      },
    },
    components: { schemas: { Note: note } },
  };
}

describe('--watch on any document', () => {
  let dir: string;
  let file: string;
  let mock: RunningMock;
  const logged: string[] = [];
  /** A client of the document as it is now: each reload serves another one. */
  let client: ForeignClient;
  const clientNow = async (): Promise<ForeignClient> => {
    await client?.close();
    client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
    return client;
  };

  /** Waits (bounded) for the watcher to report: a reload follows a file event. Synchronisation, not a timing assertion. */
  async function reported(pattern: RegExp, after: number): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const line = logged.slice(after).find((l) => pattern.test(l));
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the watcher did not report ${String(pattern)}; it said: ${logged.slice(after).join(' | ') || 'nothing'}`);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'generic-watch-'));
    file = join(dir, 'notes.json');
    await writeFile(file, JSON.stringify(notesDocument('first')));
    mock = await startMock({ port: 0, specPath: file, fixtures: 'none', watch: true, quiet: true, log: (line) => logged.push(line) });
    await clientNow();
  });
  afterAll(async () => {
    await client?.close();
    await mock?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the default store and every session through an edit the records still fit', async () => {
    const session = { 'x-mock-session': 'watch-kept' };
    const mine = await client.send('POST', '/notes', { json: { text: 'kept across a reload' } });
    const theirs = await client.send('POST', '/notes', { json: { text: 'kept in a session' }, headers: session });
    const mark = logged.length;
    await writeFile(file, JSON.stringify(notesDocument('second, with an optional colour', { colour: { type: 'string' } })));
    expect(await reported(/watch: reloaded notes\.json/, mark)).toContain('the data is kept');
    const now = await clientNow();
    expect(mock.app.contract.document.info.description).toBe('second, with an optional colour');
    expect((await now.send('GET', `/notes/${String((mine.body as { id: number }).id)}`)).body).toMatchObject({ text: 'kept across a reload' });
    expect((await now.send('GET', `/notes/${String((theirs.body as { id: number }).id)}`, { headers: session })).body).toMatchObject({ text: 'kept in a session' });
    // Ids go on from the records kept.
    const next = await now.send('POST', '/notes', { json: { text: 'after' } });
    expect((next.body as { id: number }).id).toBeGreaterThan((mine.body as { id: number }).id);
  });

  it('starts the data again, saying which record does not fit, after an edit the records no longer fit', async () => {
    const mark = logged.length;
    await writeFile(file, JSON.stringify(notesDocument('third, a colour required', { colour: { type: 'string' } }, ['colour'])));
    const line = await reported(/watch: reloaded notes\.json/, mark);
    expect(line).toContain('the data starts again');
    expect(line).toMatch(/the default store: \/notes record \d+\/colour is required/);
    const now = await clientNow();
    expect((await now.send('GET', '/notes')).body).toEqual([]);
  });
});

describe('--watch on any document with --fixtures DIR', () => {
  it('refuses a reloaded document its fixtures satisfy less than the previous one, naming the record and the rule; the previous one keeps serving', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'generic-watch-fixtures-'));
    const file = join(dir, 'notes.json');
    const logged: string[] = [];
    await writeFile(file, JSON.stringify(notesDocument('first')));
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'fixtures'));
    // The second note breaks nothing of the first document; a maxLength of 10 makes it too long.
    await writeFile(join(dir, 'fixtures', 'notes.json'), JSON.stringify([{ id: 1, text: 'short' }, { id: 2, text: 'a note of some length' }]));
    const mock = await startMock({ port: 0, specPath: file, fixtures: join(dir, 'fixtures'), watch: true, quiet: true, log: (line) => logged.push(line) });
    const client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
    try {
      const shorter = notesDocument('second, shorter notes') as { components: { schemas: { Note: { properties: { text: { maxLength: number } } } } } };
      shorter.components.schemas.Note.properties.text.maxLength = 10;
      await writeFile(file, JSON.stringify(shorter));
      let line: string | undefined;
      for (let i = 0; i < 100 && line === undefined; i++) {
        line = logged.find((l) => l.startsWith('watch:'));
        if (line === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(line).toBe("watch: notes.json was not reloaded: the fixtures do not satisfy it, notes.json record 1 (id 2) at /text: maxLength of the document's Note schema: must NOT have more than 10 characters; the previous document keeps serving");
      expect(mock.app.contract.document.info.description).toBe('first');
      expect((await client.send('GET', '/notes/2')).body).toMatchObject({ text: 'a note of some length' });
    } finally {
      await client.close();
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
