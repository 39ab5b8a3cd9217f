/**
 * The state's shape named by the overlay (`state:`, engine/state-shape.ts) and a behaviour module's `load` hook
 * (behaviour/hooks.ts), through HTTP: `GET /__mock/state` exports each named collection under its member and the next
 * id of each counter; `PUT /__mock/state` takes that shape back, checked as a whole (members, records, exact ids,
 * stated references and uniqueness, counters) with a 400 pointing into the body and nothing changed; the load hook
 * completes the initial data and every import, on a small foreign document. The Pet Store's state in the contract's
 * shape, through the generic engine, is petstore-generic.e2e.test.ts's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import { compileContract } from '../../src/schema/index.js';
import { createForeignClient, type ForeignClient } from '../engine/test-support/foreign-client.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { sessionName } from '../test-support/harness.js';
import { libraryDocument } from '../test-support/library.js';

const work = mkdtempSync(join(tmpdir(), 'state-shape-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Sent = { status: number; body: Record<string, unknown> };

describe('a state shape and a load hook on a foreign document', () => {
  const spec = join(work, 'library.json');
  const behaviour = join(work, 'library.behaviour.mjs');
  const overlay = join(work, 'library.rules.json');
  const shape = {
    state: { writers: '/authors', books: { collection: '/books', omit: ['copies'] }, next: { counters: { writer: '/authors', book: '/books' } } },
    behaviour,
    paths: { '/books': { 'x-mock-references': [{ field: 'authorId', to: '/authors', onDelete: 'restrict', when: { status: ['draft', 'published'] } }] }, '/authors': { 'x-mock-unique': [{ fields: ['email'], ignoreCase: true }] } },
  };
  let mock: RunningMock;
  let client: ForeignClient;
  beforeAll(async () => {
    writeFileSync(spec, JSON.stringify(libraryDocument()));
    // A book's copies are derived (the number of loans naming it): the export leaves them out, load gives them back.
    writeFileSync(
      behaviour,
      `export default { load(store) { for (const book of store.list('/books')) store.put('/books', book.id, { ...book, copies: store.list('/loans').filter((loan) => loan.bookId === book.id).length }); } };\n`,
    );
    writeFileSync(overlay, JSON.stringify(shape));
    mock = await startMock({ port: 0, specPath: spec, fixtures: 'none', mockOverlay: overlay, quiet: true, log: () => {} });
    client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
  });
  afterAll(async () => {
    await client?.close();
    await mock?.close();
  });

  const state = async (session: string): Promise<Record<string, unknown>> => (await client.send('GET', '/__mock/state', { query: { session } })).body as Record<string, unknown>;
  const put = async (session: string, json: unknown): Promise<Sent> => (await client.send('PUT', '/__mock/state', { query: { session }, json })) as Sent;

  it('exports the named members, without the omitted fields, and the next id of each counter', async () => {
    const session = sessionName('shape-export');
    const headers = { 'x-mock-session': session };
    const author = (await client.send('POST', '/authors', { json: { name: 'Ann', email: 'ann@example.org' }, headers })) as Sent;
    const book = (await client.send('POST', '/books', { json: { title: 'One', authorId: author.body['id'], copies: 3 }, headers })) as Sent;
    expect((await client.send('DELETE', `/books/${String(book.body['id'])}`, { headers })).status).toBe(204);
    expect(await state(session)).toEqual({ writers: [author.body], books: [], next: { writer: Number(author.body['id']) + 1, book: Number(book.body['id']) + 1 } });
  });

  it('imports that shape: the load hook completes it, and no counter goes back', async () => {
    const session = sessionName('shape-import');
    const imported = await put(session, { writers: [{ id: 4, name: 'Bo', email: 'bo@example.org' }], books: [{ id: 2, title: 'Two', authorId: 4, status: 'draft' }], next: { writer: 9, book: 3 } });
    expect(imported).toMatchObject({ status: 200, body: { loaded: { writers: 1, books: 1 }, session } });
    // copies: 0 (no loan names the book), given back by the load hook.
    expect((await client.send('GET', '/books/2', { headers: { 'x-mock-session': session } })).body).toEqual({ id: 2, title: 'Two', authorId: 4, status: 'draft', copies: 0 });
    expect((await state(session))['next']).toEqual({ writer: 9, book: 3 });
    // An older export with lower counters does not take them back.
    expect((await put(session, { writers: [], books: [], next: { writer: 1, book: 1 } })).status).toBe(200);
    expect((await state(session))['next']).toEqual({ writer: 9, book: 3 });
  });

  it.each([
    ['an unknown member', { writers: [], books: [], loans: [] }, '/body/loans'],
    ['a missing member', { writers: [] }, '/body/books'],
    ['a record of the wrong shape', { writers: [{ id: 1, name: '', email: 'a@b.c' }], books: [] }, '/body/writers/0/name'],
    ['an id past 2^53-1', { writers: [{ id: 2 ** 60, name: 'A', email: 'a@b.c' }], books: [] }, '/body/writers/0/id'],
    ['an id twice', { writers: [{ id: 1, name: 'A', email: 'a@b.c' }, { id: 1, name: 'B', email: 'b@b.c' }], books: [] }, '/body/writers/1/id'],
    ['a value a stated rule keeps unique', { writers: [{ id: 1, name: 'A', email: 'a@b.c' }, { id: 2, name: 'B', email: 'A@B.C' }], books: [] }, '/body/writers/1/email'],
    ['a reference to no record', { writers: [], books: [{ id: 1, title: 'T', authorId: 7, status: 'published' }] }, '/body/books/0/authorId'],
    ['a counter below 1', { writers: [], books: [], next: { writer: 0, book: 1 } }, '/body/next/writer'],
    ['a missing counter', { writers: [], books: [], next: { writer: 1 } }, '/body/next/book'],
    ['an unknown counter', { writers: [], books: [], next: { writer: 1, book: 1, loan: 1 } }, '/body/next/loan'],
  ])('refuses %s with a 400 pointing at it; nothing changes', async (_label, body, pointer) => {
    const session = sessionName('shape-refused');
    const before = await state(session);
    const answer = await put(session, body);
    expect(answer.status).toBe(400);
    expect(answer.body['code']).toBe('VALIDATION_FAILED');
    expect((answer.body['details'] as { path: string }[]).map((d) => d.path)).toContain(pointer);
    expect(await state(session)).toEqual(before);
  });

  it('takes a reference the rule does not hold to (a withdrawn book of a gone author), and issues no id it names', async () => {
    const session = sessionName('shape-kept-reference');
    expect((await put(session, { writers: [], books: [{ id: 1, title: 'Old', authorId: 40, status: 'withdrawn' }] })).status).toBe(200);
    const author = (await client.send('POST', '/authors', { json: { name: 'New', email: 'new@example.org' }, headers: { 'x-mock-session': session } })) as Sent;
    expect(author.body['id']).toBe(41);
  });

  it.each([
    ['a collection the mock does not keep', { state: { writers: '/writers' } }, /state\/writers\/collection: "\/writers" is not a collection the mock keeps records of/],
    ['a field the records lack', { state: { books: { collection: '/books', omit: ['pages'] } } }, /state\/books\/omit\/0: \/books's records have no field pages/],
    ['a word a member does not take', { state: { books: { collection: '/books', skip: ['copies'] } } }, /state\/books\/skip: is not a word of a state member/],
  ])('refuses at start-up %s, naming the spot', async (label, stated, message) => {
    const file = join(work, `bad-${label.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(stated));
    const error: unknown = await startMock({ port: 0, specPath: spec, fixtures: 'none', mockOverlay: file, quiet: true, log: () => {} }).then(
      async (started) => (await started.close(), undefined),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('RULES_INVALID');
    expect((error as KitError).message).toMatch(message);
  });
});
