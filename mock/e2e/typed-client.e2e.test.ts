/**
 * Issue 13, point 3: the generated types are exported as `petstore-kit/types`, and the typed client of docs/frontend.md
 * (openapi-fetch) compiles against them and runs against the real mock. The example lives in
 * mock/readme-examples/typed-client.ts and docs/frontend.md shows it verbatim (checked here), so the two cannot drift.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { petsOf } from '../readme-examples/typed-client.js';
import { sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

const EXAMPLE = join(PACKAGE_ROOT, 'mock', 'readme-examples', 'typed-client.ts');

/** Type-checks files with the project's compiler options, resolving `petstore-kit/types` through package.json `exports`. */
function compile(files: readonly string[]): { file: string | undefined; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(PACKAGE_ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => ({ file: d.file?.fileName, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') }));
}

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

describe('petstore-kit/types and the typed client of docs/frontend.md', () => {
  it('package.json exports the generated types as petstore-kit/types', async () => {
    const pkg = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }>; files: string[] };
    expect(pkg.exports['./types']?.types).toBe('./src/generated/openapi.ts');
    expect(pkg.files).toContain('src/generated/openapi.ts');
  });

  it('docs/frontend.md shows the example verbatim', async () => {
    const [readme, example] = await Promise.all([readFile(join(PACKAGE_ROOT, 'docs', 'frontend.md'), 'utf8'), readFile(EXAMPLE, 'utf8')]);
    expect(readme).toContain(example.trim());
  });

  it('compiles, and the types are real: a status the document does not allow does not compile', async () => {
    const broken = join(PACKAGE_ROOT, 'mock', 'readme-examples', `broken-${process.pid}.ts`);
    const text = (await readFile(EXAMPLE, 'utf8')).replace("status: 'available'", "status: 'lost'");
    expect(text).not.toBe(await readFile(EXAMPLE, 'utf8'));
    await writeFile(broken, text);
    try {
      // One program for both (a program costs seconds): the example compiles clean, its broken copy does not.
      const diagnostics = compile([EXAMPLE, broken]);
      expect(diagnostics.filter((d) => d.file === EXAMPLE)).toEqual([]);
      expect(diagnostics.filter((d) => d.file === broken).map((d) => d.message).join('\n')).toContain('"lost"');
    } finally {
      await rm(broken, { force: true });
    }
  }, 60_000);

  it('runs against the real mock: lists with X-Total-Count and creates a pet', async () => {
    const session = sessionName('typed-client');
    const { total, created } = await petsOf(t.mock.url, session);
    const listed = await t.client.session(session).get('/pets', { query: { status: 'available', limit: 1 } });
    expect(total).toBe(Number(listed.headers['x-total-count']) - 1);
    expect(created).toMatchObject({ name: 'Rex', status: 'available' });
    expect((await t.client.session(session).get('/pets', { query: { id: created.id } })).body).toEqual([created]);
  });
});
