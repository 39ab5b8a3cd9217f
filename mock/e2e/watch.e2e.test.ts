/**
 * Issue 13, point 7: `--watch` serves an edited example without a restart, keeps the data through it, rejects a
 * broken document while the previous one keeps serving, and starts afresh from edited fixtures.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES_DIR, DEFAULT_SPEC_PATH } from '../../src/package-info.js';
import type { Pet } from '../../src/types.js';
import { newCategory, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let dir: string;
let t: TestMock;
const logged: string[] = [];

/** Waits (bounded) for the watcher to report, since a reload follows a file event: synchronisation, not a timing assertion. */
async function reported(pattern: RegExp, after: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = logged.slice(after).find((l) => pattern.test(l));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the watcher did not report ${pattern}; it said: ${logged.slice(after).join(' | ') || 'nothing'}`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-watch-'));
  await Promise.all([cp(DEFAULT_SPEC_PATH, join(dir, 'openapi.yaml')), cp(DEFAULT_FIXTURES_DIR, join(dir, 'fixtures'), { recursive: true })]);
  t = await startTestMock({ specPath: join(dir, 'openapi.yaml'), fixtures: join(dir, 'fixtures'), watch: true, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--watch', () => {
  it('serves a changed example without a restart and keeps the data', async () => {
    const session = sessionName('watch');
    const category = await newCategory(t.client.session(session));
    const before = await t.client.get('/pets', { headers: { prefer: 'example=page' } });
    expect((before.body as Pet[])[0]?.name).toBe('Rex');

    const mark = logged.length;
    const spec = join(dir, 'openapi.yaml');
    const text = await readFile(spec, 'utf8');
    const edited = text.replace('- { id: 1, name: Rex, categoryId: 1, status: available }', '- { id: 1, name: Rexford, categoryId: 1, status: available }');
    expect(edited).not.toBe(text);
    await writeFile(spec, edited);
    expect(await reported(/watch: reloaded openapi\.yaml/, mark)).toContain('the data is kept');

    const after = await t.client.get('/pets', { headers: { prefer: 'example=page' } });
    expect((after.body as Pet[])[0]?.name).toBe('Rexford');
    expect((await t.client.session(session).get(`/categories/${category.id}`)).status).toBe(200);
  });

  it('rejects a broken document, saying why, while the previous one keeps serving', async () => {
    const mark = logged.length;
    await writeFile(join(dir, 'openapi.yaml'), 'openapi: 3.0.3\ninfo: [this is not\n');
    expect(await reported(/watch: openapi\.yaml was not reloaded/, mark)).toMatch(/SPEC_(UNPARSABLE|INVALID).*previous document keeps serving/);
    const still = await t.client.get('/pets', { headers: { prefer: 'example=page' } });
    expect(still.status).toBe(200);
    expect((still.body as Pet[])[0]?.name).toBe('Rexford');
  });

  it('starts the data afresh from edited fixtures', async () => {
    const mark = logged.length;
    const file = join(dir, 'fixtures', 'pets.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"name": "Rex"', '"name": "Rex the Second"'));
    expect(await reported(/watch: reloaded the fixtures/, mark)).toContain('starts again from the fixtures');
    expect(((await t.client.get('/pets', { query: { id: 1 } })).body as Pet[])[0]?.name).toBe('Rex the Second');
  });

  it('refuses a document the fixtures do not satisfy, naming the record and the rule (regression: it named neither)', async () => {
    const mark = logged.length;
    const text = await readFile(DEFAULT_SPEC_PATH, 'utf8');
    // PetName's maxLength down to 3: the fixtures' first pet is "Rex the Second" by now.
    const tighter = text.replace(/(    PetName:\n(?:      .*\n)*?      maxLength: )100/, '$13');
    expect(tighter).not.toBe(text);
    await writeFile(join(dir, 'openapi.yaml'), tighter);
    const line = await reported(/watch: openapi\.yaml was not reloaded/, mark);
    expect(line).toContain('the fixtures do not satisfy it, pets.json record 0 (id 1) at /name: maxLength of the document\'s Pet schema:');
    expect(line).toMatch(/\(and \d+ more\); the previous document keeps serving$/);
    expect(((await t.client.get('/pets', { query: { id: 1 } })).body as Pet[])[0]?.name).toBe('Rex the Second');
  });
});
