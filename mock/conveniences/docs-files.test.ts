/**
 * The docs page's document is parsed from the text read once, under the document's caps (docs-files.ts): JSON and
 * YAML alike, and a file that no longer passes a cap (it changed after the loader accepted it) leaves the page out
 * instead of being parsed without limits.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_CAPS } from '../../src/contract/caps.js';
import { loadDocsFiles } from './docs-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-files-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const DOCUMENT = { openapi: '3.0.3', info: { title: 'Notes', version: '1' }, paths: {} };

describe('loadDocsFiles', () => {
  it('reads a JSON document and a YAML one (anchors included) into the same object', async () => {
    await writeFile(join(dir, 'notes.json'), JSON.stringify(DOCUMENT));
    await writeFile(join(dir, 'notes.yaml'), "openapi: 3.0.3\ninfo: &info\n  title: Notes\n  version: '1'\npaths: {}\n");
    const json = await loadDocsFiles(join(dir, 'notes.json'));
    const yaml = await loadDocsFiles(join(dir, 'notes.yaml'));
    expect(json?.document).toEqual(DOCUMENT);
    expect(yaml?.document).toEqual(DOCUMENT);
    expect(yaml?.yaml).toContain('title: Notes');
  });

  it('leaves the page out for a text past the depth cap or not a document, rather than parsing it without limits', async () => {
    const deep = `openapi: 3.0.3\nx-deep: ${'['.repeat(DOCUMENT_CAPS.maxDepth * 10 + 1)}${']'.repeat(DOCUMENT_CAPS.maxDepth * 10 + 1)}\n`;
    await writeFile(join(dir, 'deep.yaml'), deep);
    await writeFile(join(dir, 'list.yaml'), '- not\n- a document\n');
    await writeFile(join(dir, 'broken.json'), '{"openapi": ');
    for (const name of ['deep.yaml', 'list.yaml', 'broken.json']) expect(await loadDocsFiles(join(dir, name)), name).toBeUndefined();
  });
});
