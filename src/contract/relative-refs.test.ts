/**
 * A document whose bundled form fails the quick OpenAPI schema check is validated whole by swagger-parser; it was
 * handed the parsed object without the document's path, so its relative `$ref`s were read from the working directory
 * (DigitalOcean's description, split in files and loaded from another folder: `Error reading file
 * "<cwd>/description.yml"`). Here one file `$ref`'d by two tags' descriptions (bundled, the second is an internal
 * `$ref`, an object where the schema wants a string, so the quick check fails; dereferenced, it is the text) beside a
 * schema in another file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from './load.js';

const base = mkdtempSync(join(tmpdir(), 'kit-relative-refs-'));
mkdirSync(join(base, 'resources'));
writeFileSync(join(base, 'description.yml'), '"Droplets are virtual machines."\n');
writeFileSync(join(base, 'resources', 'droplet.yml'), 'type: object\nproperties:\n  id: { type: integer }\n');
writeFileSync(
  join(base, 'api.yaml'),
  [
    'openapi: 3.0.3',
    'info: { title: split, version: "1" }',
    'tags:',
    "  - { name: Droplets, description: { $ref: 'description.yml' } }",
    // The same file twice: bundled, the second becomes an internal $ref where the schema wants a string.
    "  - { name: Machines, description: { $ref: 'description.yml' } }",
    'paths:',
    '  /droplets/{id}:',
    '    get:',
    '      operationId: getDroplet',
    '      tags: [Droplets]',
    '      parameters: [ { name: id, in: path, required: true, schema: { type: integer } } ]',
    '      responses:',
    "        '200': { description: it, content: { application/json: { schema: { $ref: 'resources/droplet.yml' } } } }",
    '',
  ].join('\n'),
);

describe('relative $refs of a document loaded from another folder', () => {
  it('are read beside the document, not in the working directory, when the whole document is validated', async () => {
    expect(process.cwd()).not.toBe(base);
    const { document } = await loadDocument(join(base, 'api.yaml'));
    expect(document.tags?.map((tag) => tag.description)).toEqual(['Droplets are virtual machines.', 'Droplets are virtual machines.']);
    const schema = (document.paths['/droplets/{id}']?.get?.responses['200'] as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema;
    expect(schema).toMatchObject({ type: 'object', properties: { id: { type: 'integer' } } });
  });
});
