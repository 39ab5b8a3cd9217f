/**
 * Issue 20, points 2 and 3: reading a document has a bounded cost, and its
 * $refs read only what a document is legitimately split into. Every hostile
 * document is built here, in a temporary folder outside the working directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from '../package-info.js';
import { boundedParsers, DOCUMENT_CAPS } from './bounded-parsers.js';
import { loadDocument } from './load.js';

const SECRET = 'secret-token-7f3a9c';

async function refusal(path: string, allowRefs: readonly string[] = []): Promise<KitError> {
  const error: unknown = await loadDocument(path, { allowRefs }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KitError);
  return error as KitError;
}

function minimal(schema: string): string {
  return [
    'openapi: 3.0.3',
    'info: { title: t, version: "1" }',
    'paths:',
    '  /things:',
    '    get:',
    '      responses:',
    "        '200':",
    '          description: ok',
    '          content:',
    '            application/json:',
    `              schema: ${schema}`,
    '',
  ].join('\n');
}

describe('loading has a bounded cost (issue 20 point 2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-bounds-'));

  it('refuses a YAML alias bomb with SPEC_INVALID naming the alias cap', async () => {
    // Ten levels, each alias list holding the previous anchor nine times: 9^10 nodes once expanded, in under 1 KB.
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++) levels.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
    const text = `openapi: 3.0.3\ninfo: { title: bomb, version: "1" }\npaths: {}\nx-bomb:\n${levels.map((line) => `  ${line}`).join('\n')}\n`;
    expect(text.length).toBeLessThan(1000);
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, text);
    const error = await refusal(file);
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.message).toContain('alias cap');
    expect(error.message).toContain(String(DOCUMENT_CAPS.maxAliasCount));
  });

  it('refuses a document nested past the depth cap, in YAML and in JSON', async () => {
    const depth = DOCUMENT_CAPS.maxDepth + 10;
    const yamlFile = join(dir, 'deep.yaml');
    writeFileSync(yamlFile, minimal(`${'{ type: object, properties: { a: '.repeat(depth)}{ type: string }${' } }'.repeat(depth)}`));
    const jsonFile = join(dir, 'deep.json');
    writeFileSync(jsonFile, `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":${'{"items":'.repeat(100_000)}{}${'}'.repeat(100_000)}}`);
    // Deep enough to overflow a recursive parser's stack.
    const flowFile = join(dir, 'deep-flow.yaml');
    writeFileSync(flowFile, `openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\nx-deep: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`);
    for (const file of [yamlFile, jsonFile, flowFile]) {
      const error = await refusal(file);
      expect(error.code).toBe('SPEC_INVALID');
      expect(error.message).toContain(`depth cap of ${DOCUMENT_CAPS.maxDepth}`);
    }
  });

  it('refuses a file past the size cap before parsing it, JSON or YAML', () => {
    const met: string[] = [];
    const { json, yaml } = boundedParsers((cap) => met.push(cap.cap));
    const data = Buffer.alloc(DOCUMENT_CAPS.maxBytes + 1, 0x20);
    expect(() => json.parse({ url: '/tmp/huge.json', data })).toThrow(/size cap/);
    expect(() => yaml.parse({ url: '/tmp/huge.yaml', data })).toThrow(/size cap/);
    expect(met).toEqual(['size', 'size']);
  });

  it('parses normal documents to the very values the reference parser gave before', async () => {
    const corpus = join(dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json')));
    const documents = [
      DEFAULT_SPEC_PATH,
      ...readdirSync(join(PACKAGE_ROOT, 'fixtures', 'documents')).filter((name) => name.endsWith('.yaml')).map((name) => join(PACKAGE_ROOT, 'fixtures', 'documents', name)),
      ...['3.0/yaml', '3.1/yaml', '3.0/json', '3.1/json'].flatMap((folder) => readdirSync(join(corpus, folder)).filter((name) => /\.(yaml|json)$/.test(name)).map((name) => join(corpus, folder, name))),
    ];
    expect(documents.length).toBeGreaterThan(60);
    const { json, yaml } = boundedParsers(() => undefined);
    for (const file of documents) {
      const before: unknown = await SwaggerParser.parse(file);
      const after: unknown = await SwaggerParser.parse(file, { parse: { json, yaml } } as SwaggerParser.Options);
      expect(after, file).toEqual(before);
    }
  });
});

describe('a $ref reads only what the document is split into (issue 20 point 3)', () => {
  const base = mkdtempSync(join(tmpdir(), 'petstore-kit-refs-'));
  mkdirSync(join(base, 'outside'));
  mkdirSync(join(base, 'api', '.hidden'), { recursive: true });
  mkdirSync(join(base, 'api', 'schemas'));
  writeFileSync(join(base, 'outside', 'credentials'), `${SECRET}\n`);
  writeFileSync(join(base, 'outside', 'thing.yaml'), `type: string\nenum: [${SECRET}]\n`);
  writeFileSync(join(base, 'api', '.env.yaml'), `type: string\nenum: [${SECRET}]\n`);
  writeFileSync(join(base, 'api', '.hidden', 'thing.yaml'), `type: string\nenum: [${SECRET}]\n`);
  writeFileSync(join(base, 'api', 'notes.txt'), `${SECRET}\n`);
  writeFileSync(join(base, 'api', 'schemas', 'thing.yaml'), 'type: object\nproperties:\n  name: { $ref: "./name.json" }\n');
  writeFileSync(join(base, 'api', 'schemas', 'name.json'), '{ "type": "string", "maxLength": 20 }\n');

  it.each([
    ['a file with no YAML or JSON extension outside the folder', '../outside/credentials'],
    ['a YAML file outside the folder and the working directory', '../outside/thing.yaml'],
    ['a file: URL outside', `file://${join(base, 'outside', 'thing.yaml')}`],
    ['a dotfile inside the folder', './.env.yaml'],
    ['a file in a hidden folder inside', './.hidden/thing.yaml'],
    ['a text file inside the folder', './notes.txt'],
    ['a remote reference', 'http://127.0.0.1:9/thing.yaml'],
  ])('refuses %s, naming the reference and nothing of what it names', async (_name, ref) => {
    const file = join(base, 'api', `doc-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, minimal(`{ $ref: '${ref}' }`));
    const error = await refusal(file);
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.message).toContain(ref);
    expect(error.message).toContain('--allow-refs');
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(SECRET);
  });

  it('loads a document split into YAML and JSON files inside its folder', async () => {
    const file = join(base, 'api', 'split.yaml');
    writeFileSync(file, minimal("{ $ref: './schemas/thing.yaml' }"));
    const { document } = await loadDocument(file);
    const schema = document.paths['/things']?.get?.responses['200'];
    expect(JSON.stringify(schema)).toContain('"maxLength":20');
  });

  it('a document kept in a hidden folder may still use the files of its own folder', async () => {
    const folder = join(base, '.config', 'api');
    mkdirSync(join(folder, 'schemas'), { recursive: true });
    writeFileSync(join(folder, 'schemas', 'name.yaml'), 'type: string\nminLength: 2\n');
    const file = join(folder, 'openapi.yaml');
    writeFileSync(file, minimal("{ $ref: './schemas/name.yaml' }"));
    const { document } = await loadDocument(file);
    expect(JSON.stringify(document.paths)).toContain('"minLength":2');
  });

  it('follows a remote reference only under an allowed prefix, and no redirect off it', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/schemas/name.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end('type: string\nmaxLength: 3\n');
      else res.writeHead(302, { location: '/schemas/name.yaml' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const file = join(base, 'api', 'remote.yaml');
      writeFileSync(file, minimal(`{ $ref: '${origin}/schemas/name.yaml' }`));
      expect((await refusal(file)).message).toContain(`${origin}/schemas/name.yaml`);
      expect((await refusal(file, [`${origin}/other/`])).code).toBe('SPEC_INVALID');
      const { document } = await loadDocument(file, { allowRefs: [`${origin}/schemas/`] });
      expect(JSON.stringify(document.paths)).toContain('"maxLength":3');
      const redirected = join(base, 'api', 'redirected.yaml');
      writeFileSync(redirected, minimal(`{ $ref: '${origin}/moved/name.yaml' }`));
      expect((await refusal(redirected, [`${origin}/moved/`])).code).toBe('SPEC_INVALID');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('follows a reference outside once --allow-refs names its folder, and only there', async () => {
    const file = join(base, 'api', 'widened.yaml');
    writeFileSync(file, minimal("{ $ref: '../outside/thing.yaml' }"));
    expect((await refusal(file, [join(base, 'api', 'schemas')])).code).toBe('SPEC_INVALID');
    const { document } = await loadDocument(file, { allowRefs: [join(base, 'outside')] });
    expect(JSON.stringify(document.paths)).toContain(SECRET);
    // Widening a folder does not widen the extension rule.
    const text = join(base, 'api', 'widened-text.yaml');
    writeFileSync(text, minimal("{ $ref: '../outside/credentials' }"));
    expect((await refusal(text, [join(base, 'outside')])).message).toContain('../outside/credentials');
  });
});
