/**
 * A user's fixtures held to their record schemas, and a behaviour's `load` hook told where a state came from and able to
 * refuse it by a record (issue 34, FIXTURES_AS_HELD), on the small library document, in-process. The mock fits its own
 * data (the document's examples, generated records) to the schemas; a fixtures file that breaks its schema is refused,
 * FIXTURES_INVALID naming the file by its path, the place and the schema's words, as the Pet Store's own store refused
 * it. A load hook's `context.refuse` names a record: the file and the place at start-up, the place in the body of an
 * import (400 VALIDATION_FAILED), nothing changed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { ADMIN_HEADER } from '../admin/access.js';
import type { Behaviour, LoadSource } from '../behaviour/hooks.js';
import type { MockRequest } from './message.js';
import { libraryDocument } from '../test-support/library.js';
import { createGenericEngine, type GenericEngine } from './engine.js';
import { readFixtureFiles } from './files.js';
import type { MockOverlay } from './infer.js';
import type { FixtureFiles } from './initial.js';

const PLAIN: MockOverlay = { paths: {} };
const SHAPED: MockOverlay = { paths: {}, state: { authors: '/authors', books: { collection: '/books', omit: ['title'] }, loans: '/loans' } };
const AUTHORS = [
  { id: 1, name: 'Ann', email: 'ann@example.org' },
  { id: 2, name: 'Bo', email: 'bo@example.org' },
];

const work = mkdtempSync(join(tmpdir(), 'fixtures-schema-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let library: CompiledContract;
beforeAll(async () => {
  const file = join(work, 'library.json');
  writeFileSync(file, JSON.stringify(libraryDocument()));
  library = compileContract(await loadContract(file));
});

async function folderOf(files: Record<string, unknown>): Promise<{ dir: string; fixtures: FixtureFiles }> {
  const dir = mkdtempSync(join(work, 'folder-'));
  for (const [name, records] of Object.entries(files)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(records));
  return { dir, fixtures: await readFixtureFiles(dir) };
}

function started(fixtures: FixtureFiles | undefined, overlay: MockOverlay = PLAIN, behaviour?: Behaviour): GenericEngine | KitError {
  try {
    return createGenericEngine(library, { basePath: '', overlay, ...(fixtures ? { fixtures } : {}), ...(behaviour ? { behaviour: { module: behaviour, file: 'library.behaviour.mjs' } } : {}) });
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
}

function imported(engine: GenericEngine, state: unknown, session: string): { status: number; body: { code?: string; details?: { path: string; message: string }[] } } {
  const admin = engine.admin({ errors: engine.errors, kitVersion: 'test' });
  const request: MockRequest = { method: 'PUT', path: '/__mock/state', query: { session }, headers: { host: '127.0.0.1', 'content-type': 'application/json', [ADMIN_HEADER]: '1' }, body: { kind: 'json', value: state } };
  return admin.handle(request) as never;
}

describe("a fixtures record is held to its record schema, in the schema's words", () => {
  it.each([
    ['a title of the wrong type', [{ id: 1, title: 42, authorId: 1 }], '/0/title', /must be string/],
    ['a status outside the enum', [{ id: 1, title: 'T', authorId: 1 }, { id: 2, title: 'U', authorId: 1, status: 'lost' }], '/1/status', /draft.*published.*withdrawn/],
    ['a required field left out', [{ id: 1, title: 'T' }], '/0/authorId', /authorId/],
  ])('%s refuses the start: FIXTURES_INVALID naming the file by its path and the place', async (_label, books, pointer, words) => {
    const { dir, fixtures } = await folderOf({ authors: AUTHORS, books });
    const error = started(fixtures) as KitError;
    expect(error).toBeInstanceOf(KitError);
    expect(error).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(dir, 'books.json'), pointer } });
    expect(error.message.startsWith(`${join(dir, 'books.json')} at ${pointer}: `)).toBe(true);
    expect(error.message).toMatch(words);
  });

  it('a record without its id takes one, and is valid with it; a field an exported state omits may be left out', async () => {
    const { fixtures } = await folderOf({ authors: [{ name: 'Ann', email: 'ann@example.org' }], books: [{ id: 1, authorId: 1 }] });
    expect(started(fixtures, SHAPED)).not.toBeInstanceOf(KitError);
    // Without the shape, the title is the schema's to require.
    expect(started(fixtures)).toMatchObject({ code: 'FIXTURES_INVALID', details: { pointer: '/0/title' } });
  });

  it("the document's own examples that break the schema are fitted, never refused", async () => {
    const document = libraryDocument() as { paths: Record<string, { get?: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }> };
    document.paths['/books']!.get!.responses['200']!.content['application/json']!.example = [{ id: 1, title: 42, authorId: 1, status: 'lost' }];
    const file = join(work, 'library-examples.json');
    writeFileSync(file, JSON.stringify(document));
    const engine = createGenericEngine(compileContract(await loadContract(file)), { basePath: '', overlay: PLAIN });
    const books = engine.carry!().stores[0]!.state['/books']?.[''] ?? [];
    expect(books).toHaveLength(1);
    expect(typeof books[0]!['title']).toBe('string');
  });
});

describe("a load hook is told where the state came from, and may refuse it by a record", () => {
  /** Records each source it is called with; refuses an author named "Refused", by its name. */
  const sources: LoadSource[] = [];
  const picky: Behaviour = {
    load(store, context) {
      sources.push(context.source);
      for (const author of store.list('/authors')) if (author['name'] === 'Refused') context.refuse({ collection: '/authors', id: author['id'] as number, field: 'name' }, 'no author is called Refused');
    },
  };
  const refusedAuthors = [AUTHORS[0], { id: 7, name: 'Refused', email: 'r@example.org' }];

  it('fixtures, the mock\'s own data and an import each say so', async () => {
    sources.length = 0;
    const { fixtures } = await folderOf({ authors: AUTHORS });
    const engine = started(fixtures, PLAIN, picky) as GenericEngine;
    started(undefined, PLAIN, picky);
    expect(imported(engine, { '/authors': { '': AUTHORS } }, 'one').status).toBe(200);
    expect(sources).toEqual(['fixtures', 'generated', 'import']);
  });

  it('on fixtures: FIXTURES_INVALID naming the file by its path and the place of the record', async () => {
    const { dir, fixtures } = await folderOf({ authors: refusedAuthors });
    const error = started(fixtures, PLAIN, picky) as KitError;
    expect(error).toMatchObject({ code: 'FIXTURES_INVALID', details: { file: join(dir, 'authors.json'), pointer: '/1/name' } });
    expect(error.message).toBe(`${join(dir, 'authors.json')} at /1/name: no author is called Refused.`);
  });

  it.each([
    ['in the export shape', PLAIN, { '/authors': { '': refusedAuthors } }, '/body/~1authors//1/name'],
    ["in the overlay's shape, by the place in the list sent", SHAPED, { authors: [...refusedAuthors].reverse(), books: [], loans: [] }, '/body/authors/0/name'],
  ] as const)('on an import %s: a 400 naming the place in the body, nothing changed', (_label, overlay, state, path) => {
    const engine = started(undefined, overlay, picky) as GenericEngine;
    const before = engine.carry!().stores[0]!.state;
    const refused = imported(engine, state, 'picky');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.details).toEqual([expect.objectContaining({ path, message: 'no author is called Refused' })]);
    expect(engine.carry!().stores[0]!.state).toEqual(before);
  });
});
