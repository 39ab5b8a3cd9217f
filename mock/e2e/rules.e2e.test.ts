/**
 * Rules stated beside a document (behaviour/rules.ts, behaviour/rule-book.ts; issue 34, point 2), one kind at a time on a small foreign
 * document (test-support/library.ts), through HTTP: a write that breaks a rule gets the stated or documented answer
 * and changes nothing (read back after); one that keeps it goes through; what an effect does is visible. Every answer
 * is checked against the document (foreign-client.ts throws on one that breaks it). Then the start-up check: a rule
 * naming a collection, a field or a value the document lacks is a RULES_INVALID kit error naming the spot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from '../engine/test-support/foreign-client.js';
import { libraryDocument } from '../test-support/library.js';

const work = mkdtempSync(join(tmpdir(), 'rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A mock of the library with these extensions on its path items, empty, and a client that checks every answer. */
async function library(name: string, extensions: Parameters<typeof libraryDocument>[0], overlay?: unknown): Promise<{ mock: RunningMock; client: ForeignClient; close(): Promise<void> }> {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(libraryDocument(extensions)));
  let overlayFile: string | undefined;
  if (overlay !== undefined) writeFileSync((overlayFile = join(work, `${name}.overlay.json`)), JSON.stringify(overlay));
  const mock = await startMock({ port: 0, specPath: file, fixtures: 'none', quiet: true, log: () => {}, ...(overlayFile ? { mockOverlay: overlayFile } : {}) });
  const client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
  return { mock, client, close: async () => (await client.close(), await mock.close()) };
}

type Sent = { status: number; body: Record<string, unknown> };
const post = async (client: ForeignClient, path: string, json: unknown): Promise<Sent> => (await client.send('POST', path, { json })) as Sent;

describe('x-mock-unique', () => {
  it('refuses a second record with the same field (ignoring case where it says so), with the stated code, and stores nothing', async () => {
    const { client, close } = await library('unique', { '/authors': { 'x-mock-unique': [{ fields: ['email'], ignoreCase: true, code: 'EMAIL_TAKEN', message: 'The address {email} belongs to author {other.id}.' }] } });
    try {
      const first = await post(client, '/authors', { name: 'Ann', email: 'ann@example.org' });
      expect(first.status).toBe(201);
      const second = await post(client, '/authors', { name: 'Other Ann', email: 'ANN@example.org' });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ code: 'EMAIL_TAKEN', message: `The address ANN@example.org belongs to author ${String(first.body['id'])}.`, status: 409 });
      expect(((await client.send('GET', '/authors')).body as unknown[]).length).toBe(1);
      // The rules in force are listed with the inferred resources, each with where it is stated.
      const listed = (await client.send('GET', '/__mock/resources')).body as { rules: { rule: string; collection: string; says: string; where: string }[] };
      expect(listed.rules).toEqual([expect.objectContaining({ rule: 'x-mock-unique', collection: '/authors', says: 'email unique (case aside)' })]);
      expect(listed.rules[0]!.where).toMatch(/#\/paths\/~1authors\/x-mock-unique\/0$/);
      // A record may keep its own value: updating it is no clash with itself.
      expect((await client.send('PATCH', `/authors/${String(first.body['id'])}`, { json: { name: 'Ann B.', email: 'ann@example.org' } })).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('holds a combination of fields only among the records its condition picks', async () => {
    const { client, close } = await library('unique-when', { '/loans': { 'x-mock-unique': [{ fields: ['bookId', 'member'], when: { state: 'open' } }] } });
    try {
      const loan = await post(client, '/loans', { bookId: 1, member: 'm1', state: 'open' });
      expect(loan.status).toBe(201);
      expect((await post(client, '/loans', { bookId: 1, member: 'm2', state: 'open' })).status).toBe(201);
      const twice = await post(client, '/loans', { bookId: 1, member: 'm1', state: 'open' });
      expect(twice.status).toBe(409);
      expect(twice.body['code']).toBe('DUPLICATE');
      // Once the first loan is returned, the same member may borrow the book again.
      expect((await client.send('PATCH', `/loans/${String(loan.body['id'])}`, { json: { bookId: 1, member: 'm1', state: 'returned' } })).status).toBe(200);
      expect((await post(client, '/loans', { bookId: 1, member: 'm1', state: 'open' })).status).toBe(201);
    } finally {
      await close();
    }
  });
});

describe('x-mock-references', () => {
  it('refuses a record naming no author (the documented 422), and a delete of an author still named; cascades where it says so', async () => {
    const { client, close } = await library('references', {
      '/books': { 'x-mock-references': [{ field: 'authorId', to: '/authors', onDelete: 'restrict' }] },
      '/loans': { 'x-mock-references': [{ field: 'bookId', to: '/books', onDelete: 'cascade' }] },
    });
    try {
      const orphan = await post(client, '/books', { title: 'Nobody wrote this', authorId: 99 });
      expect(orphan.status).toBe(422);
      expect(orphan.body).toMatchObject({ code: 'UNKNOWN_REFERENCE', message: expect.stringContaining('No record of /authors has id 99') as unknown });
      expect(((await client.send('GET', '/books')).body as unknown[]).length).toBe(0);
      const author = await post(client, '/authors', { name: 'Bo', email: 'bo@example.org' });
      const book = await post(client, '/books', { title: 'Bo writes', authorId: author.body['id'] });
      expect(book.status).toBe(201);
      // An update that points the book nowhere is refused too, and leaves it as it was.
      expect((await client.send('PATCH', `/books/${String(book.body['id'])}`, { json: { title: 'Bo writes', authorId: 98 } })).status).toBe(422);
      expect(((await client.send('GET', `/books/${String(book.body['id'])}`)).body as Record<string, unknown>)['authorId']).toBe(author.body['id']);
      const inUse = await client.send('DELETE', `/authors/${String(author.body['id'])}`);
      expect(inUse.status).toBe(409);
      expect((inUse.body as Record<string, unknown>)['code']).toBe('IN_USE');
      expect((await client.send('GET', `/authors/${String(author.body['id'])}`)).status).toBe(200);
      // Deleting the book takes its loans with it (cascade); then the author may go.
      const loan = await post(client, '/loans', { bookId: book.body['id'], member: 'm1' });
      expect((await client.send('DELETE', `/books/${String(book.body['id'])}`)).status).toBe(204);
      expect((await client.send('GET', `/loans/${String(loan.body['id'])}`)).status).toBe(404);
      expect((await client.send('DELETE', `/authors/${String(author.body['id'])}`)).status).toBe(204);
    } finally {
      await close();
    }
  });
});

describe('a stated message', () => {
  it('chooses a word by a number: {count|book|books} is the first where the count is 1, else the second', async () => {
    const { client, close } = await library('plural', {
      '/books': { 'x-mock-references': [{ field: 'authorId', to: '/authors', inUse: { code: 'AUTHOR_HAS_BOOKS', message: 'Author {id} wrote {count} {count|book|books}; move {count|it|them} first.' } }] },
    });
    try {
      const author = await post(client, '/authors', { name: 'Cy', email: 'cy@example.org' });
      const id = String(author.body['id']);
      await post(client, '/books', { title: 'One', authorId: author.body['id'] });
      expect(((await client.send('DELETE', `/authors/${id}`)).body as Record<string, unknown>)['message']).toBe(`Author ${id} wrote 1 book; move it first.`);
      await post(client, '/books', { title: 'Two', authorId: author.body['id'] });
      expect(((await client.send('DELETE', `/authors/${id}`)).body as Record<string, unknown>)['message']).toBe(`Author ${id} wrote 2 books; move them first.`);
    } finally {
      await close();
    }
  });
});

describe('a reference past 2^53-1', () => {
  it("names the id as sent in the refusal's message, not the double JSON.parse rounded it to", async () => {
    const { mock, close } = await library('long-references', { '/books': { 'x-mock-references': [{ field: 'authorId', to: '/authors' }] } });
    try {
      // Written as text: a JavaScript number cannot hold 2^53+1 to send it.
      const answer = await request(`${mock.url}${mock.app.basePath}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Far","authorId":9007199254740993}' });
      const body = (await answer.body.json()) as Record<string, unknown>;
      expect(answer.statusCode).toBe(422);
      expect(body['message']).toContain('9007199254740993');
      expect(body['message']).not.toContain('9007199254740992');
    } finally {
      await close();
    }
  });
});

describe('x-mock-states', () => {
  it('allows the stated transitions only, creates in the stated states, deletes in the stated ones', async () => {
    const states = { field: 'status', initial: ['draft'], transitions: { draft: ['published'], published: ['withdrawn'], withdrawn: [] }, deletable: ['draft', 'withdrawn'] };
    const { client, close } = await library('states', { '/books': { 'x-mock-states': [states] } });
    try {
      expect((await post(client, '/books', { title: 'Early', authorId: 1, status: 'published' })).status).toBe(409);
      // Created without a status, the book takes its documented default (draft), a state it may be created in.
      const book = await post(client, '/books', { title: 'Draft', authorId: 1 });
      expect(book.body['status']).toBe('draft');
      const at = `/books/${String(book.body['id'])}`;
      const skip = await client.send('PATCH', at, { json: { title: 'Draft', authorId: 1, status: 'withdrawn' } });
      expect(skip.status).toBe(409);
      expect((skip.body as Record<string, unknown>)['message']).toBe('Status cannot go from draft to withdrawn; from draft it may go to published.');
      expect((await client.send('PATCH', at, { json: { title: 'Draft', authorId: 1, status: 'published' } })).status).toBe(200);
      expect((await client.send('DELETE', at)).status).toBe(409);
      expect((await client.send('PATCH', at, { json: { title: 'Draft', authorId: 1, status: 'withdrawn' } })).status).toBe(200);
      expect((await client.send('PATCH', at, { json: { title: 'Draft', authorId: 1, status: 'published' } })).status).toBe(409);
      expect((await client.send('DELETE', at)).status).toBe(204);
    } finally {
      await close();
    }
  });
});

describe('x-mock-effects', () => {
  it('takes a copy on a loan and gives it back on return, refuses a loan past the last copy or of an unpublished book, and undoes everything a refused write began', async () => {
    const effects = [
      { on: 'create', target: { collection: '/books', by: 'bookId' }, require: { status: 'published' }, add: { copies: -1 }, code: 'NOT_LENDABLE' },
      { on: 'update', when: { state: 'returned' }, was: { state: 'open' }, target: { collection: '/books', by: 'bookId' }, add: { copies: 1 } },
    ];
    // Stated in the overlay this time, in the same words as in the document.
    const { client, close } = await library('effects', {}, { paths: { '/loans': { 'x-mock-effects': effects } } });
    try {
      const book = await post(client, '/books', { title: 'One copy', authorId: 1, status: 'published', copies: 1 });
      const draft = await post(client, '/books', { title: 'Not yet', authorId: 1, copies: 5 });
      const copies = async (id: unknown): Promise<unknown> => ((await client.send('GET', `/books/${String(id)}`)).body as Record<string, unknown>)['copies'];
      const refusedDraft = await post(client, '/loans', { bookId: draft.body['id'], member: 'm1', state: 'open' });
      expect(refusedDraft.status).toBe(409);
      expect(refusedDraft.body).toMatchObject({ code: 'NOT_LENDABLE', message: `Book ${String(draft.body['id'])} has status draft; it must be published.` });
      const loan = await post(client, '/loans', { bookId: book.body['id'], member: 'm1', state: 'open' });
      expect(loan.status).toBe(201);
      expect(await copies(book.body['id'])).toBe(0);
      // No copy left: refused, and neither the loan nor the count changed (the store's transaction).
      const none = await post(client, '/loans', { bookId: book.body['id'], member: 'm2', state: 'open' });
      expect(none.status).toBe(409);
      expect(none.body['message']).toContain('below its minimum 0');
      expect(((await client.send('GET', '/loans')).body as unknown[]).length).toBe(1);
      expect(await copies(book.body['id'])).toBe(0);
      expect((await client.send('PATCH', `/loans/${String(loan.body['id'])}`, { json: { bookId: book.body['id'], member: 'm1', state: 'returned' } })).status).toBe(200);
      expect(await copies(book.body['id'])).toBe(1);
    } finally {
      await close();
    }
  });
});

describe('x-mock-not-found', () => {
  it("answers a record that does not exist in the stated words, with the id asked for, on every operation of the record", async () => {
    const { client, close } = await library('not-found', { '/authors': { 'x-mock-not-found': { code: 'NO_SUCH_AUTHOR', message: 'No author has id {id}.' } } });
    try {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const answer = await client.send(method, '/authors/77', method === 'PATCH' ? { json: { name: 'Nobody', email: 'nobody@example.org' } } : {});
        expect(answer.status, method).toBe(404);
        expect(answer.body, method).toEqual({ code: 'NO_SUCH_AUTHOR', message: 'No author has id 77.', status: 404 });
      }
      // Another collection keeps the engine's own words.
      expect(((await client.send('GET', '/books/77')).body as { message: string }).message).toBe('book 77 was not found in /books.');
    } finally {
      await close();
    }
  });
});

describe('rules checked at start-up', () => {
  const refusal = async (name: string, extensions: Parameters<typeof libraryDocument>[0]): Promise<KitError> => {
    const file = join(work, `${name}.json`);
    writeFileSync(file, JSON.stringify(libraryDocument(extensions)));
    const error: unknown = await startMock({ port: 0, specPath: file, quiet: true, log: () => {} }).then(
      async (mock) => (await mock.close(), undefined),
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof KitError)) throw new Error(`${name}: the mock started, or failed otherwise: ${String(error)}`);
    return error;
  };

  it.each([
    ['an unknown field', { '/authors': { 'x-mock-unique': ['mail'] } }, /x-mock-unique\/0\/fields\/0: \/authors's records have no field mail \(they have id, name, email\)/],
    ['an unknown collection', { '/books': { 'x-mock-references': [{ field: 'authorId', to: '/writers' }] } }, /x-mock-references\/0\/to: \/writers is not a collection the mock keeps records of/],
    ['a value the field cannot have', { '/books': { 'x-mock-states': [{ field: 'status', transitions: { draft: ['printed'] } }] } }, /x-mock-states\/0\/transitions\/draft\/0: "printed" is not a value the field can have .*\["draft","published","withdrawn"\]/],
    ['a word the rule does not take', { '/loans': { 'x-mock-effects': [{ on: 'create', target: { collection: '/books', by: 'bookId' }, subtract: { copies: 1 } }] } }, /x-mock-effects\/0\/subtract: is not a word of this rule/],
    ['a 404 message naming a field', { '/authors': { 'x-mock-not-found': { message: 'No author named {name}.' } } }, /x-mock-not-found\/message: names \{name\}, but a record that does not exist has only the \{id\}/],
    ['a sum on a field that is no number', { '/loans': { 'x-mock-effects': [{ target: { collection: '/books', by: 'bookId' }, add: { title: 1 } }] } }, /x-mock-effects\/0\/add\/title: \/books's title is not a number/],
    ['a cap that is no yes or no', { '/loans': { 'x-mock-effects': [{ target: { collection: '/books', by: 'bookId' }, add: { copies: 1 }, cap: 'yes' }] } }, /x-mock-effects\/0\/cap: must be true/],
    ['a cap with nothing to cap', { '/loans': { 'x-mock-effects': [{ target: { collection: '/books', by: 'bookId' }, set: { title: 'x' }, cap: true }] } }, /x-mock-effects\/0\/cap: caps the sums of add, and this effect adds nothing/],
  ])('refuses %s, naming the spot', async (_what, extensions, message) => {
    const error = await refusal(`invalid-${_what.replace(/\W+/g, '-')}`, extensions);
    expect(error.code).toBe('RULES_INVALID');
    expect(error.message).toMatch(message);
    expect(error.message).toContain('#/paths/');
  });
});
