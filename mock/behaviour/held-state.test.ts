/**
 * A whole state held to the stated rules (held-state.ts), on a small foreign document (authors, books and loans:
 * test-support/library.ts), in-process: fixtures that break a rule refuse the start (FIXTURES_INVALID naming the file and
 * the place), as an import of the same records is refused (a 400 naming the place); both read a field a record leaves
 * out at its documented default (a book without `status` is a draft, which its reference holds); and the mock's own
 * data (generated records) is made to keep the rules, so a start never fails for what the mock made up. The cases are
 * drawn from the rules: a model of what each rule forbids says which states must be refused, and where.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { casesForTier } from '../../src/test-tier.js';
import { createGenericEngine, type GenericEngine } from '../engine/engine.js';
import type { MockOverlay } from '../engine/infer.js';
import type { FixtureFiles } from '../engine/initial.js';
import type { GenericState } from '../engine/store.js';
import { ADMIN_HEADER } from '../admin/access.js';
import type { MockRequest } from '../engine/message.js';
import { libraryDocument } from '../test-support/library.js';
import type { Behaviour } from './hooks.js';

/** The rules, and the model of what each forbids (`problems` below). */
const RULES: MockOverlay = {
  paths: {
    // A draft or published book names its author (a withdrawn one may outlive it); `status` defaults to draft.
    '/books': {
      'x-mock-references': [{ field: 'authorId', to: '/authors', onDelete: 'restrict', when: { status: ['draft', 'published'] } }],
      // Withdrawn is a state no book reaches: a book is created a draft, and a draft is only ever published.
      'x-mock-states': [{ field: 'status', initial: ['draft'], transitions: { draft: ['published'], published: [], withdrawn: [] } }],
    },
    '/authors': { 'x-mock-unique': [{ fields: ['email'], ignoreCase: true }] },
    '/loans': {
      'x-mock-references': [{ field: 'bookId', to: '/books', onDelete: 'cascade' }],
      'x-mock-unique': [{ fields: ['bookId'], when: { state: 'open' } }],
    },
  },
  state: { authors: '/authors', books: '/books', loans: '/loans' },
};

interface Author { id: number; name: string; email: string }
interface Book { id: number; title: string; authorId?: number; status?: string }
interface Loan { id: number; bookId: number; member: string; state?: string }
interface Library { authors: Author[]; books: Book[]; loans: Loan[] }

/** Where each rule is broken, as `file at /index/field`: the model the engine is held to. */
function problems({ authors, books, loans }: Library): string[] {
  const found: string[] = [];
  const authorIds = new Set(authors.map((a) => a.id));
  const bookIds = new Set(books.map((b) => b.id));
  books.forEach((book, i) => {
    const status = book.status ?? 'draft';
    if (status !== 'withdrawn' && book.authorId !== undefined && !authorIds.has(book.authorId)) found.push(`books.json at /${i}/authorId`);
    if (status === 'withdrawn') found.push(`books.json at /${i}/status`);
  });
  loans.forEach((loan, i) => {
    if (!bookIds.has(loan.bookId)) found.push(`loans.json at /${i}/bookId`);
    if (loan.state === 'open' && loans.slice(0, i).some((other) => other.state === 'open' && other.bookId === loan.bookId)) found.push(`loans.json at /${i}/bookId`);
  });
  authors.forEach((author, i) => {
    if (authors.slice(0, i).some((other) => other.email.toLowerCase() === author.email.toLowerCase())) found.push(`authors.json at /${i}/email`);
  });
  return found;
}

/** A library of a few records, ids 1, 2, … in each collection, whose references fall in and just out of range. */
const libraries: fc.Arbitrary<Library> = fc
  .record({
    authors: fc.array(fc.constantFrom('ann@example.org', 'ANN@example.org', 'bo@example.org', 'cy@example.org'), { maxLength: 4 }),
    books: fc.array(fc.record({ authorId: fc.integer({ min: 1, max: 5 }), status: fc.constantFrom(undefined, 'draft', 'published', 'withdrawn') }), { maxLength: 4 }),
    loans: fc.array(fc.record({ bookId: fc.integer({ min: 1, max: 5 }), state: fc.constantFrom(undefined, 'open', 'returned') }), { maxLength: 4 }),
  })
  .map(({ authors, books, loans }) => ({
    authors: authors.map((email, i) => ({ id: i + 1, name: `Author ${i + 1}`, email })),
    books: books.map(({ authorId, status }, i) => ({ id: i + 1, title: `Book ${i + 1}`, authorId, ...(status === undefined ? {} : { status }) })),
    loans: loans.map(({ bookId, state }, i) => ({ id: i + 1, bookId, member: 'ann', ...(state === undefined ? {} : { state }) })),
  }));

const work = mkdtempSync(join(tmpdir(), 'held-state-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The library document (changed by `change`), compiled. */
async function compiledLibrary(name: string, change: (schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>) => void = () => {}): Promise<CompiledContract> {
  const document = libraryDocument() as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } };
  change(document.components.schemas);
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return compileContract(await loadContract(file));
}

let compiled: CompiledContract;
beforeAll(async () => {
  compiled = await compiledLibrary('library');
});

const engineOf = (fixtures: FixtureFiles | undefined, options: { behaviour?: Behaviour; seed?: number; on?: CompiledContract } = {}): GenericEngine =>
  createGenericEngine(options.on ?? compiled, {
    basePath: '',
    overlay: RULES,
    ...(fixtures ? { fixtures } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.behaviour ? { behaviour: { module: options.behaviour, file: 'library.behaviour.mjs' } } : {}),
  });

/** The start's verdict: the engine, or the kit error it refused with. */
function started(fixtures: FixtureFiles | undefined, options: Parameters<typeof engineOf>[1] = {}): GenericEngine | KitError {
  try {
    return engineOf(fixtures, options);
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
}

/** The default store's records of each collection. */
const held = (engine: GenericEngine): GenericState => engine.carry!().stores[0]!.state;
const records = <T>(engine: GenericEngine, collection: string): T[] => [...(held(engine)[collection]?.[''] ?? [])] as T[];

/** PUT /__mock/state of `state` into a session, in-process. */
function imported(engine: GenericEngine, state: unknown, session = 'held'): { status: number; body: { code?: string; details?: { path: string }[] } } {
  const admin = engine.admin({ errors: engine.errors, kitVersion: 'test' });
  const request: MockRequest = { method: 'PUT', path: '/__mock/state', query: { session }, headers: { host: '127.0.0.1', 'content-type': 'application/json', [ADMIN_HEADER]: '1' }, body: { kind: 'json', value: state } };
  return admin.handle(request) as never;
}

describe('fixtures held to the stated rules at start-up', () => {
  it('refuses fixtures that break a rule, naming the file and the place (FIXTURES_INVALID), and starts from those that keep them', () => {
    fc.assert(
      fc.property(libraries, (library) => {
        const expected = problems(library);
        const verdict = started({ ...library });
        if (expected.length === 0) {
          expect(verdict).not.toBeInstanceOf(KitError);
          const engine = verdict as GenericEngine;
          // Held as given, a book without a status as the draft its default makes it.
          expect(records(engine, '/books')).toEqual(library.books.map((book) => ({ status: 'draft', ...book })));
          expect(records(engine, '/loans')).toEqual(library.loans);
          return;
        }
        expect(verdict).toBeInstanceOf(KitError);
        const error = verdict as KitError;
        expect(error.code).toBe('FIXTURES_INVALID');
        expect(expected).toContain(`${error.details.file} at ${error.details.pointer}`);
        expect(error.message).toContain(`${error.details.file} at ${error.details.pointer}:`);
      }),
      { numRuns: casesForTier({ fast: 60, full: 400 }), seed: 34 },
    );
  });

  it.each([
    ['a draft book of a missing author', { authors: [], books: [{ id: 1, title: 'T', authorId: 3, status: 'draft' }] }, 'books.json at /0/authorId'],
    ['a book without a status (a draft, by its default) of a missing author', { authors: [], books: [{ id: 1, title: 'T', authorId: 3 }] }, 'books.json at /0/authorId'],
    ['two authors of one email, case aside', { authors: [{ id: 1, name: 'A', email: 'a@b.c' }, { id: 2, name: 'B', email: 'A@B.C' }] }, 'authors.json at /1/email'],
    // fast-check's first counterexample while fixtures were not held to the rules (seed 34).
    ['a loan of a missing book', { authors: [], books: [], loans: [{ id: 1, bookId: 1, member: 'ann' }] }, 'loans.json at /0/bookId'],
    ['a book in a state no book reaches', { authors: [{ id: 1, name: 'A', email: 'a@b.c' }], books: [{ id: 1, title: 'T', authorId: 1, status: 'withdrawn' }] }, 'books.json at /0/status'],
  ] as const)('refuses %s', (_label, fixtures, where) => {
    const verdict = started(fixtures);
    expect(verdict).toMatchObject({ code: 'FIXTURES_INVALID' });
    expect((verdict as KitError).message).toMatch(new RegExp(`^${where.replace(/[/.]/g, '\\$&')}: `));
  });

  it('takes what the rules do not hold to: a published book named by no open loan twice, a returned loan beside an open one', () => {
    const fixtures = { authors: [{ id: 1, name: 'A', email: 'a@b.c' }], books: [{ id: 1, title: 'T', authorId: 1, status: 'published' }], loans: [{ id: 1, bookId: 1, member: 'ann', state: 'returned' }, { id: 2, bookId: 1, member: 'bo', state: 'open' }] };
    expect(started(fixtures)).not.toBeInstanceOf(KitError);
  });

  it("holds the fixtures to the behaviour's load hook too: one it throws on is FIXTURES_INVALID with the hook's words", () => {
    const behaviour: Behaviour = {
      load(store) {
        for (const book of store.list('/books')) if (String(book['title']).trim() === '') throw new Error(`book ${String(book['id'])} has no title`);
      },
    };
    const verdict = started({ authors: [{ id: 1, name: 'A', email: 'a@b.c' }], books: [{ id: 1, title: ' ', authorId: 1 }] }, { behaviour });
    expect(verdict).toMatchObject({ code: 'FIXTURES_INVALID' });
    expect((verdict as KitError).message).toContain('the load hook of library.behaviour.mjs threw: book 1 has no title');
  });
});

describe('an import read with its documented defaults', () => {
  it("refuses a book left without a status (a draft, whose reference holds) that names a missing author, and changes nothing", () => {
    const engine = engineOf({ authors: [{ id: 1, name: 'A', email: 'a@b.c' }] });
    const refused = imported(engine, { authors: [], books: [{ id: 1, title: 'T', authorId: 3 }], loans: [] });
    expect(refused.status).toBe(400);
    expect(refused.body.details?.map((d) => d.path)).toEqual(['/body/books/0/authorId']);
    expect(held(engine)['/authors']?.['']).toHaveLength(1);
    // As one stated a draft, or published, is; only what the rule's condition leaves out may name a missing record.
    expect(imported(engine, { authors: [], books: [{ id: 1, title: 'T', authorId: 3, status: 'published' }], loans: [] }).status).toBe(400);
    expect(imported(engine, { authors: [], books: [], loans: [{ id: 1, bookId: 2, member: 'ann' }] }).body.details?.map((d) => d.path)).toEqual(['/body/loans/0/bookId']);
  });

  it('refuses what the same records as fixtures refuse, at the same places, and takes what they take', () => {
    const engine = engineOf(undefined);
    let session = 0;
    fc.assert(
      fc.property(libraries, (library) => {
        const expected = problems(library).map((where) => where.replace(/^(\w+)\.json at /, '/body/$1'));
        const answer = imported(engine, library, `import-${(session += 1)}`);
        if (expected.length === 0) expect(answer.status).toBe(200);
        else {
          expect(answer.status).toBe(400);
          for (const { path } of answer.body.details ?? []) expect(expected).toContain(path);
        }
      }),
      { numRuns: casesForTier({ fast: 60, full: 400 }), seed: 35 },
    );
  });
});

describe("the mock's own data made to keep the rules", () => {
  /** Every rule of RULES kept, and every reference (whatever its condition) naming a record that exists, as a create needs. */
  function expectKept(engine: GenericEngine): void {
    const authors = records<Author>(engine, '/authors');
    const books = records<Book>(engine, '/books');
    const loans = records<Loan>(engine, '/loans');
    expect(problems({ authors, books, loans })).toEqual([]);
    const authorIds = new Set(authors.map((a) => a.id));
    const bookIds = new Set(books.map((b) => b.id));
    for (const book of books) if (book.authorId !== undefined) expect(authorIds).toContain(book.authorId);
    for (const loan of loans) expect(bookIds).toContain(loan.bookId);
  }

  it('starts with generated records that keep every rule, whatever the seed (their references named no record before)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const verdict = started(undefined, { seed });
        expect(verdict).not.toBeInstanceOf(KitError);
        const engine = verdict as GenericEngine;
        expectKept(engine);
        // Generated, not emptied: the authors are there, and the books name them.
        expect(records(engine, '/authors').length).toBeGreaterThan(0);
        expect(records(engine, '/books').length).toBeGreaterThan(0);
      }),
      // Seed 1, the default one, was served with books naming no author before the data was made to keep the rules.
      { numRuns: casesForTier({ fast: 10, full: 60 }), seed: 36, examples: [[1]] },
    );
  });

  it('drops what cannot be kept: no author can be made, so the books that must name one go, and the loans of those books', async () => {
    const on = await compiledLibrary('no-authors', (schemas) => {
      schemas['Author']!.properties['name'] = { type: 'string', minLength: 10, maxLength: 5 };
    });
    const engine = engineOf(undefined, { on });
    expect(records(engine, '/authors')).toEqual([]);
    expect(records(engine, '/books')).toEqual([]);
    expect(records(engine, '/loans')).toEqual([]);
  });

  it('leaves a reference out where the schema lets it, rather than dropping its record', async () => {
    const on = await compiledLibrary('optional-author', (schemas) => {
      schemas['Author']!.properties['name'] = { type: 'string', minLength: 10, maxLength: 5 };
      schemas['Book']!.required = ['title'];
    });
    const engine = engineOf(undefined, { on });
    const books = records<Book>(engine, '/books');
    expect(books.length).toBeGreaterThan(0);
    for (const book of books) expect(book).not.toHaveProperty('authorId');
    expectKept(engine);
  });

  it('keeps one of the records that share what is unique', async () => {
    const on = await compiledLibrary('one-email', (schemas) => {
      schemas['Author']!.properties['email'] = { type: 'string', enum: ['ann@example.org'] };
    });
    const engine = engineOf(undefined, { on });
    expect(records(engine, '/authors')).toHaveLength(1);
    expectKept(engine);
  });
});
