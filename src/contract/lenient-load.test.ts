/**
 * Issue 32, point 3: a document that breaks only the letter of the OpenAPI schema, in ways that change nothing it
 * describes, loads with a warning naming the spot; `--strict` (strictSchema) refuses it as before. What the kit cannot
 * read at all (no paths map) and the safety limits of issue 20 stay refusals.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../kit-error.js';
import { loadContract } from './index.js';

const EXTRA_KEYWORD = `openapi: 3.1.0
info: { title: Extra, version: '1' }
servers:
  - url: https://{hostname}/v1
    variables:
      hostname: { default: api.example.com, description: the host, examples: [api.example.com] }
paths:
  /ping:
    get:
      operationId: ping
      responses: { '200': { description: pong } }
`;

const MARKDOWN_DESCRIPTION = `openapi: 3.0.3
info:
  title: Described
  version: '1'
  description: { $ref: './intro.md' }
paths:
  /ping:
    get:
      operationId: ping
      responses: { '200': { description: pong } }
`;

const NO_PATHS = `openapi: 3.0.3
info: { title: Broken, version: '1' }
paths: [ nothing ]
`;

describe('documents that break only the letter of the OpenAPI schema', () => {
  let dir: string;
  const file = (name: string): string => join(dir, name);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lenient-load-'));
    await writeFile(file('extra.yaml'), EXTRA_KEYWORD);
    await writeFile(file('markdown.yaml'), MARKDOWN_DESCRIPTION);
    await writeFile(file('intro.md'), '# Intro\n');
    await writeFile(file('no-paths.yaml'), NO_PATHS);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('an extra keyword in a server variable: loads, with a warning naming the spot; --strict refuses it', async () => {
    const contract = await loadContract(file('extra.yaml'));
    expect(contract.operations.map((o) => o.operationId)).toEqual(['ping']);
    expect(contract.warnings.some((w) => w.pointer === '/servers/0/variables/hostname' && /OpenAPI schema/.test(w.message))).toBe(true);
    await expect(loadContract(file('extra.yaml'), { strictSchema: true })).rejects.toMatchObject({ code: 'SPEC_INVALID' });
  });

  it('a description that is a $ref to a Markdown file: loads with the text left empty and a warning, the file unread; --strict refuses it', async () => {
    const contract = await loadContract(file('markdown.yaml'));
    expect(contract.warnings.some((w) => w.pointer === '/info/description' && /intro\.md/.test(w.message))).toBe(true);
    expect(contract.document.info.description).toBe('');
    const refused = await loadContract(file('markdown.yaml'), { strictSchema: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KitError);
    expect((refused as KitError).code).toBe('SPEC_INVALID');
  });

  it('a document the kit cannot read (paths not a map) is still refused', async () => {
    await expect(loadContract(file('no-paths.yaml'))).rejects.toMatchObject({ code: 'SPEC_INVALID' });
  });
});
