/**
 * What the generic engine refuses of the data it is given whole, on small foreign documents, in-process (issue 34, the
 * leftovers of held-state.ts): fixtures that give an id twice refuse the start as the Pet Store's own store refused them
 * (FIXTURES_INVALID, "ids must be unique"), where the document's own examples are renumbered; every refusal of a
 * fixtures folder names each file by its path, as the Pet Store's did; a nested collection's file is named with the
 * parent ids in the place; an import without the overlay's `state:` shape is held to the stated rules as a shaped one
 * is; and what a behaviour's `load` hook leaves breaking a stated rule is refused as the hook's (RULES_INVALID at
 * start-up, a 500 on an import, nothing changed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { ADMIN_HEADER } from '../admin/access.js';
import type { Behaviour } from '../behaviour/hooks.js';
import type { MockRequest } from './message.js';
import { libraryDocument } from '../test-support/library.js';
import { createGenericEngine, type GenericEngine } from './engine.js';
import { readFixtureFiles } from './files.js';
import type { MockOverlay } from './infer.js';
import type { FixtureFiles } from './initial.js';
import type { GenericState } from './store.js';

/** The library's rules (held-state.test.ts's), without a `state:` shape: an import is then in the export's own shape. */
const RULES: MockOverlay = {
  paths: {
    '/books': { 'x-mock-references': [{ field: 'authorId', to: '/authors', onDelete: 'restrict', when: { status: ['draft', 'published'] } }] },
    '/authors': { 'x-mock-unique': [{ fields: ['email'], ignoreCase: true }] },
    '/loans': { 'x-mock-references': [{ field: 'bookId', to: '/books', onDelete: 'cascade' }] },
  },
};
const SHAPED: MockOverlay = { ...RULES, state: { authors: '/authors', books: '/books', loans: '/loans' } };

/** Teams and their members: a nested collection, whose fixtures file holds records by parent id. */
function teamsDocument(): Record<string, unknown> {
  const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
  const list = (ref: string) => ({ 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } } });
  const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
  return {
    openapi: '3.0.3',
    info: { title: 'Teams', version: '1.0.0' },
    paths: {
      '/teams': {
        get: { operationId: 'listTeams', responses: { '200': { description: 'all', content: list('Team') } } },
        post: { operationId: 'createTeam', requestBody: { required: true, content: json('Team') }, responses: { '201': { description: 'made', content: json('Team') } } },
      },
      '/teams/{teamId}': { parameters: [id('teamId')], get: { operationId: 'getTeam', responses: { '200': { description: 'one', content: json('Team') }, '404': { description: 'none' } } } },
      '/teams/{teamId}/members': {
        parameters: [id('teamId')],
        get: { operationId: 'listMembers', responses: { '200': { description: 'all', content: list('Member') } } },
        post: { operationId: 'addMember', requestBody: { required: true, content: json('Member') }, responses: { '201': { description: 'made', content: json('Member') }, '409': { description: 'taken' } } },
        'x-mock-unique': [{ fields: ['email'] }],
      },
      '/teams/{teamId}/members/{memberId}': {
        parameters: [id('teamId'), id('memberId')],
        get: { operationId: 'getMember', responses: { '200': { description: 'one', content: json('Member') }, '404': { description: 'none' } } },
      },
    },
    components: {
      schemas: {
        Team: { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } },
        Member: { type: 'object', required: ['email'], properties: { id: { type: 'integer', readOnly: true }, email: { type: 'string' } } },
      },
    },
  };
}

const work = mkdtempSync(join(tmpdir(), 'fixtures-held-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function compiledOf(name: string, document: Record<string, unknown>): Promise<CompiledContract> {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return compileContract(await loadContract(file));
}

let library: CompiledContract;
let teams: CompiledContract;
beforeAll(async () => {
  library = await compiledOf('library', libraryDocument());
  teams = await compiledOf('teams', teamsDocument());
});

/** A fixtures folder of its own holding `files` (name → records), read as `--fixtures DIR` reads it. */
async function folderOf(files: Record<string, unknown>): Promise<{ dir: string; fixtures: FixtureFiles }> {
  const dir = mkdtempSync(join(work, 'folder-'));
  for (const [name, records] of Object.entries(files)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(records));
  return { dir, fixtures: await readFixtureFiles(dir) };
}

/** The start's verdict: the engine, or the kit error it refused with. */
function started(compiled: CompiledContract, fixtures: FixtureFiles | undefined, overlay: MockOverlay | null = RULES, behaviour?: Behaviour): GenericEngine | KitError {
  try {
    return createGenericEngine(compiled, {
      basePath: '',
      ...(overlay ? { overlay } : {}),
      ...(fixtures ? { fixtures } : {}),
      ...(behaviour ? { behaviour: { module: behaviour, file: 'library.behaviour.mjs' } } : {}),
    });
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
}

const held = (engine: GenericEngine, session?: string): GenericState => {
  const stores = engine.carry!().stores;
  return (session === undefined ? stores[0] : stores.find((store) => store.session === session))!.state;
};

/** PUT /__mock/state of `state` into a session, in-process. */
function imported(engine: GenericEngine, state: unknown, session: string): { status: number; body: { code?: string; message?: string; details?: { path: string }[] } } {
  const admin = engine.admin({ errors: engine.errors, kitVersion: 'test' });
  const request: MockRequest = { method: 'PUT', path: '/__mock/state', query: { session }, headers: { host: '127.0.0.1', 'content-type': 'application/json', [ADMIN_HEADER]: '1' }, body: { kind: 'json', value: state } };
  return admin.handle(request) as never;
}

const AUTHORS = [
  { id: 1, name: 'Ann', email: 'ann@example.org' },
  { id: 2, name: 'Bo', email: 'bo@example.org' },
];

describe('fixtures that give an id twice', () => {
  it.each([
    ['with stated rules', RULES],
    ['without any rule', null],
  ] as const)('refuse the start %s, naming the file by its path, the place and the first holder, as the Pet Store did', async (_label, overlay) => {
    const { dir, fixtures } = await folderOf({ authors: [...AUTHORS, { id: 1, name: 'Cy', email: 'cy@example.org' }] });
    const verdict = started(library, fixtures, overlay);
    expect(verdict).toBeInstanceOf(KitError);
    const error = verdict as KitError;
    expect(error.code).toBe('FIXTURES_INVALID');
    expect(error.message).toBe(`${join(dir, 'authors.json')} at /2/id: id 1 is used by /0 already; ids must be unique.`);
    expect(error.details).toMatchObject({ file: join(dir, 'authors.json'), pointer: '/2/id' });
  });

  it('an id given as text is the id given as a number, as the store keys them', async () => {
    const { dir, fixtures } = await folderOf({ authors: [{ id: '2', name: 'Ann', email: 'ann@example.org' }, { id: 2, name: 'Bo', email: 'bo@example.org' }] });
    expect(started(library, fixtures)).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(dir, 'authors.json'), pointer: '/1/id' } });
  });

  it('names every id given twice, and a rule broken beside them, in one refusal', async () => {
    const { dir, fixtures } = await folderOf({ authors: [...AUTHORS, { id: 2, name: 'Cy', email: 'cy@example.org' }], books: [{ id: 4, title: 'T', authorId: 9 }, { id: 4, title: 'U', authorId: 1 }] });
    const error = started(library, fixtures) as KitError;
    expect(error.message).toContain(`${join(dir, 'authors.json')} at /2/id: id 2 is used by /1 already`);
    expect(error.message).toContain(`${join(dir, 'books.json')} at /1/id: id 4 is used by /0 already`);
    expect(error.message).toContain(`${join(dir, 'books.json')} at /0/authorId: names 9, which no record of authors.json has; the stated rules do not allow it`);
  });

  it("the document's own examples that give an id twice are renumbered, never refused", async () => {
    const document = libraryDocument() as { paths: Record<string, { get?: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }> };
    document.paths['/authors']!.get!.responses['200']!.content['application/json']!.example = [...AUTHORS, { id: 1, name: 'Cy', email: 'cy@example.org' }];
    const verdict = started(await compiledOf('library-examples', document), undefined);
    expect(verdict).not.toBeInstanceOf(KitError);
    expect(held(verdict as GenericEngine)['/authors']?.['']?.map((author) => author['id'])).toEqual([1, 2, 3]);
  });

  it('fixtures given as objects (createMswMock, a test) are named by their file name alone', () => {
    const error = started(library, { authors: [AUTHORS[0], { ...AUTHORS[1], id: 1 }] }) as KitError;
    expect([error.code, error.message]).toEqual(['FIXTURES_INVALID', 'authors.json at /1/id: id 1 is used by /0 already; ids must be unique.']);
  });
});

describe('a refusal of a fixtures folder names each file by its path', () => {
  it('a record that breaks a stated rule', async () => {
    const { dir, fixtures } = await folderOf({ authors: AUTHORS, books: [{ id: 1, title: 'T', authorId: 9 }] });
    const error = started(library, fixtures) as KitError;
    expect(error.message).toBe(`${join(dir, 'books.json')} at /0/authorId: names 9, which no record of authors.json has; the stated rules do not allow it.`);
    expect(error.details).toMatchObject({ file: join(dir, 'books.json'), pointer: '/0/authorId' });
  });

  it('a file that names no collection, and one of the wrong shape', async () => {
    const stray = await folderOf({ author: AUTHORS });
    expect(started(library, stray.fixtures)).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(stray.dir, 'author.json') } });
    expect((started(library, stray.fixtures) as KitError).message).toMatch(new RegExp(`^${join(stray.dir, 'author.json').replace(/[/.\\]/g, '\\$&')} names no collection`));
    const flat = await folderOf({ members: [{ id: 1, email: 'a@b.c' }] });
    expect(started(teams, flat.fixtures, null)).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(flat.dir, 'members.json') } });
  });
});

describe("a nested collection's fixtures: the place names the parent ids, then the record", () => {
  it('a stated uniqueness broken under one team, and kept across two', async () => {
    const { dir, fixtures } = await folderOf({ teams: [{ id: 1, name: 'A' }, { id: 2, name: 'B' }], members: { '1': [{ id: 1, email: 'a@b.c' }], '2': [{ id: 1, email: 'x@b.c' }, { id: 2, email: 'a@b.c' }, { id: 3, email: 'x@b.c' }] } });
    const error = started(teams, fixtures, null) as KitError;
    expect(error.code).toBe('FIXTURES_INVALID');
    expect(error.message).toMatch(new RegExp(`^${join(dir, 'members.json').replace(/[/.\\]/g, '\\$&')} at /2/2/email: email "x@b\\.c" is /2/0's already; no two records share it`));
    expect(error.details).toMatchObject({ file: join(dir, 'members.json'), pointer: '/2/2/email' });
  });

  it('an id given twice under one team, but not the same id under two', async () => {
    const { dir, fixtures } = await folderOf({ teams: [{ id: 1, name: 'A' }, { id: 2, name: 'B' }], members: { '1': [{ id: 1, email: 'a@b.c' }], '2': [{ id: 1, email: 'b@b.c' }, { id: 1, email: 'c@b.c' }] } });
    const error = started(teams, fixtures, null) as KitError;
    expect([error.code, error.message]).toEqual(['FIXTURES_INVALID', `${join(dir, 'members.json')} at /2/1/id: id 1 is used by /2/0 already; ids must be unique.`]);
    const apart = await folderOf({ teams: [{ id: 1, name: 'A' }, { id: 2, name: 'B' }], members: { '1': [{ id: 1, email: 'a@b.c' }], '2': [{ id: 1, email: 'a@b.c' }] } });
    expect(started(teams, apart.fixtures, null)).not.toBeInstanceOf(KitError);
  });
});

describe('an import without a state shape, held to the stated rules', () => {
  const base = (books: unknown[], authors: unknown[] = AUTHORS): unknown => ({ '/authors': { '': authors }, '/books': { '': books } });

  it.each([
    ['a draft book (by its default) of a missing author', base([{ id: 1, title: 'T', authorId: 9 }]), '/body/~1books//0/authorId'],
    ['two authors of one email, case aside', base([], [...AUTHORS, { id: 3, name: 'Cy', email: 'ANN@example.org' }]), '/body/~1authors//2/email'],
    ['an id twice', base([{ id: 1, title: 'T', authorId: 1 }, { id: 1, title: 'U', authorId: 2 }]), '/body/~1books//1/id'],
  ])('refuses %s, naming the place, and changes nothing', (_label, state, path) => {
    const engine = started(library, { authors: AUTHORS }) as GenericEngine;
    const before = held(engine);
    const refused = imported(engine, state, 'plain');
    expect(refused.status).toBe(400);
    expect(refused.body.details?.map((d) => d.path)).toEqual([path]);
    expect(held(engine)).toEqual(before);
    expect(engine.carry!().stores.some((store) => store.session === 'plain')).toBe(false);
  });

  it('takes what keeps them, each record with its documented defaults; a withdrawn book may name a missing author', () => {
    const engine = started(library, { authors: AUTHORS }) as GenericEngine;
    const taken = imported(engine, base([{ id: 1, title: 'T', authorId: 1 }, { id: 2, title: 'U', authorId: 9, status: 'withdrawn' }]), 'plain');
    expect(taken.status).toBe(200);
    expect(held(engine, 'plain')['/books']?.['']).toEqual([
      { id: 1, title: 'T', authorId: 1, status: 'draft' },
      { id: 2, title: 'U', authorId: 9, status: 'withdrawn' },
    ]);
  });
});

describe("what a behaviour's load hook leaves breaking a stated rule is the hook's mistake", () => {
  /** A hook that gives every author a book of author 9, who does not exist. */
  const orphaning: Behaviour = {
    load(store) {
      if (store.list('/authors').length > 0) store.put('/books', '7', { title: 'Ghost', authorId: 9 });
    },
  };

  it('at start-up: RULES_INVALID naming the module, the record and the rule, on fixtures and on the mock\'s own data', async () => {
    const { fixtures } = await folderOf({ authors: AUTHORS });
    for (const data of [fixtures, undefined]) {
      const verdict = started(library, data, RULES, orphaning);
      expect(verdict).toMatchObject({ code: 'RULES_INVALID', details: { file: 'library.behaviour.mjs' } });
      expect((verdict as KitError).message).toMatch(/^the load hook of library\.behaviour\.mjs left \/books\/\d+\/authorId: names 9, which no record of \/authors has, which the stated rules do not allow on the initial data\.$/);
    }
  });

  it('on an import, shaped or not: a 500 naming the hook and the record, nothing changed', () => {
    const harmless: Behaviour = { load() {} };
    const plain = started(library, undefined, RULES, harmless) as GenericEngine;
    const shaped = started(library, undefined, SHAPED, harmless) as GenericEngine;
    for (const [overlay, state] of [
      [RULES, { '/authors': { '': AUTHORS } }],
      [SHAPED, { authors: AUTHORS, books: [], loans: [] }],
    ] as const) {
      const engine = started(library, { authors: [] }, overlay, orphaning) as GenericEngine;
      expect(engine).not.toBeInstanceOf(KitError);
      const before = held(engine);
      const refused = imported(engine, state, 'hooked');
      expect(refused.status).toBe(500);
      expect(refused.body.code).toBe('INTERNAL_ERROR');
      expect(refused.body.message).toMatch(/the load hook of the behaviour module left \/books\/0\/authorId: names 9, which no record of \/authors has, which the stated rules do not allow; nothing was changed\./);
      expect(held(engine)).toEqual(before);
      // The session the import was for holds no record of it (a shaped import's session is opened to read its counters).
      const session = engine.carry!().stores.find((store) => store.session === 'hooked');
      expect(session === undefined || Object.values(session.state).every((scopes) => Object.values(scopes).every((records) => records.length === 0))).toBe(true);
    }
    // The same imports without the hook's write are taken.
    expect(imported(plain, { '/authors': { '': AUTHORS } }, 'calm').status).toBe(200);
    expect(imported(shaped, { authors: AUTHORS, books: [], loans: [] }, 'calm').status).toBe(200);
  });
});
