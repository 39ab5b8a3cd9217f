/**
 * Behaviour modules (behaviour/hooks.ts, run-hooks.ts; issue 34, point 3) on the small library document
 * (test-support/library.ts), through HTTP: a `before` hook refuses what no statement says (a member may hold two
 * open loans), an `after` hook changes another record, both inside the request's transaction (a refusal after a
 * write undoes it); a hook that throws is a 500 with its message in the log and changes nothing, and the mock keeps
 * serving; `--watch` reloads an edited module; a module that is not hooks, or names an operation the document lacks,
 * is a RULES_INVALID kit error. Every answer is checked against the document.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import { compileContract } from '../../src/schema/index.js';
import { defineBehaviour, type Behaviour } from '../behaviour/index.js';
import { createForeignClient } from '../engine/test-support/foreign-client.js';
import { startMock } from '../transport/server.js';
import { libraryDocument } from '../test-support/library.js';

const work = mkdtempSync(join(tmpdir(), 'hooks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const spec = join(work, 'library.json');
writeFileSync(spec, JSON.stringify(libraryDocument()));

/** The module the tests load, as a user writes it (plain JavaScript, the types from petstore-kit/behaviour in a comment). */
const LIMITS = `
// @ts-check
/** @type {import('petstore-kit/behaviour').Behaviour} */
export default {
  operations: {
    createLoan: {
      before(request, store) {
        const open = store.list('/loans').filter((loan) => loan.member === request.body.member && loan.state === 'open');
        if (open.length >= 2) return { status: 409, body: { code: 'LOAN_LIMIT', message: request.body.member + ' holds ' + open.length + ' open loans already' } };
      },
      after(request, store, answer) {
        // What a statement could say too, in code: the book loses a copy; none left, and the loan is refused after all.
        const book = store.get('/books', request.body.bookId);
        if (!book) return { status: 422, body: { code: 'UNKNOWN_BOOK', message: 'no book ' + request.body.bookId } };
        store.put('/books', book.id, { ...book, copies: (book.copies ?? 0) - 1 });
        if ((book.copies ?? 0) - 1 < 0) return { status: 409, body: { code: 'NO_COPY', message: 'no copy of book ' + book.id + ' is left' } };
        return answer;
      },
    },
    deleteAuthor: {
      before() {
        throw new Error('the archive is read-only today');
      },
    },
  },
};
`;

describe('a behaviour module', () => {
  it('refuses, changes other records and answers inside the request transaction; a hook that throws is a logged 500', async () => {
    const file = join(work, 'limits.mjs');
    writeFileSync(file, LIMITS);
    const lines: string[] = [];
    const mock = await startMock({ port: 0, specPath: spec, fixtures: 'none', behaviour: file, log: (line) => lines.push(line) });
    const client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
    try {
      const author = (await client.send('POST', '/authors', { json: { name: 'Ann', email: 'ann@example.org' } })).body as { id: number };
      const book = (await client.send('POST', '/books', { json: { title: 'Two copies', authorId: author.id, copies: 2 } })).body as { id: number };
      const copies = async (): Promise<unknown> => ((await client.send('GET', `/books/${book.id}`)).body as { copies: unknown }).copies;
      const loan = (member: string): Promise<{ status: number; body: unknown }> => client.send('POST', '/loans', { json: { bookId: book.id, member, state: 'open' } });
      expect((await loan('m1')).status).toBe(201);
      expect(await copies()).toBe(1);
      expect((await loan('m1')).status).toBe(201);
      expect(await copies()).toBe(0);
      // No copy left: the after hook refuses, and the loan it let the operation store and the copy it took are undone.
      const none = await loan('m2');
      expect(none).toMatchObject({ status: 409, body: { code: 'NO_COPY' } });
      expect(await copies()).toBe(0);
      expect(((await client.send('GET', '/loans')).body as unknown[]).length).toBe(2);
      // The limit no statement says: refused before the operation runs.
      const third = await loan('m1');
      expect(third).toMatchObject({ status: 409, body: { code: 'LOAN_LIMIT', message: 'm1 holds 2 open loans already' } });
      // A hook that throws: a 500, the message in the log, nothing changed, the mock still serving.
      const thrown = await client.send('DELETE', `/authors/${author.id}`, { plainNotFound: true }).catch((error: unknown) => error);
      expect(String(thrown)).toMatch(/answered 500/);
      expect(lines.some((line) => line.includes('the archive is read-only today'))).toBe(true);
      expect((await client.send('GET', `/authors/${author.id}`)).status).toBe(200);
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it('is reloaded by --watch when its file changes', async () => {
    const file = join(work, 'watched.mjs');
    const version = (code: string): string => `export default { operations: { getAuthor: { before: () => ({ status: 404, body: { code: '${code}', message: 'hidden by the behaviour' } }) } } };`;
    writeFileSync(file, version('FIRST'));
    const mock = await startMock({ port: 0, specPath: spec, fixtures: 'none', behaviour: file, watch: true, quiet: true, log: () => {} });
    const client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
    try {
      const code = async (): Promise<unknown> => ((await client.send('GET', '/authors/1')).body as { code: unknown }).code;
      expect(await code()).toBe('FIRST');
      writeFileSync(file, version('SECOND'));
      let seen: unknown;
      for (let attempt = 0; attempt < 100 && seen !== 'SECOND'; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await code();
      }
      expect(seen).toBe('SECOND');
    } finally {
      await client.close();
      await mock.close();
    }
  });

  it.each([
    ['exports no hooks', 'export default 42;', /its default export must be an object of hooks/],
    ['names an operation the document lacks', 'export default { operations: { borrowBook: { before() {} } } };', /operations\.borrowBook is not an operation of the document/],
    ['has a hook that is no function', 'export default { before: true };', /before must be a function/],
    ['cannot be loaded', 'export default {', /cannot be loaded/],
  ])('that %s is refused at start-up with RULES_INVALID', async (what, code, message) => {
    const file = join(work, `broken-${what.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, code);
    const error: unknown = await startMock({ port: 0, specPath: spec, behaviour: file, quiet: true, log: () => {} }).then(
      async (mock) => (await mock.close(), undefined),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('RULES_INVALID');
    expect((error as KitError).message).toMatch(message);
  });

  it('is typed by the package (petstore-kit/behaviour)', () => {
    // Compiled by the type-check: a hook's request, store and answer are typed.
    const typed: Behaviour = defineBehaviour({
      before(request, store) {
        return request.method === 'DELETE' && store.list('/loans').length > 0 ? { status: 409, body: { code: 'BUSY', message: 'loans are open' } } : undefined;
      },
    });
    expect(typeof typed.before).toBe('function');
  });
});
