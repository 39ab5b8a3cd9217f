/**
 * A `$ref` inside a specification extension (OpenAPI 3.0.3 §4.9: its value is plain data) is neither followed nor
 * refused: Dropbox Sign's `x-codeSamples: [{ source: { $ref: examples/X.php } }]`, on 75 operations, refused the
 * whole document. A `$ref` anywhere else meets the reference policy as before.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock/transport/server.js';
import { KitError } from '../kit-error.js';
import { loadContract } from './index.js';
import { loadDocument } from './load.js';

const base = mkdtempSync(join(tmpdir(), 'kit-extension-refs-'));
mkdirSync(join(base, 'examples'));
writeFileSync(join(base, 'examples', 'CreateThing.php'), '<?php echo "secret-php-source";\n');

function document(thingSchemaExtra: string, operationExtra = ''): string {
  return [
    'openapi: 3.0.3',
    'info: { title: t, version: "1" }',
    'paths:',
    '  /things:',
    '    post:',
    '      operationId: createThing',
    '      x-codeSamples:',
    '        - { lang: PHP, label: PHP, source: { $ref: examples/CreateThing.php } }',
    operationExtra,
    '      responses:',
    "        '201':",
    '          description: created',
    '          headers:',
    "            x-rate-limit: { $ref: '#/components/headers/RateLimit' }",
    '          content:',
    '            application/json:',
    "              schema: { $ref: '#/components/schemas/Thing' }",
    'components:',
    '  headers:',
    '    RateLimit: { schema: { type: integer } }',
    '  schemas:',
    '    Thing:',
    '      type: object',
    '      x-sample: { $ref: ./examples/CreateThing.php }',
    '      properties:',
    '        id: { type: string }',
    thingSchemaExtra,
    '',
  ].join('\n');
}

function write(name: string, text: string): string {
  const file = join(base, name);
  writeFileSync(file, text);
  return file;
}

describe('$refs inside specification extensions', () => {
  it('regression: a $ref to a .php file in x-codeSamples and in a schema extension neither refuses the document nor is read', async () => {
    const file = write('extensions.yaml', document(''));
    const contract = await loadContract(file);
    expect(contract.operations.map((operation) => operation.operationId)).toEqual(['createThing']);
    const warned = contract.warnings.filter((warning) => /specification extension/.test(warning.message));
    // One warning, naming the first spot.
    expect(warned).toHaveLength(1);
    expect(warned[0]!.pointer).toBe('/paths/~1things/post/x-codeSamples/0/source/$ref');
    expect(warned[0]!.message).toContain('examples/CreateThing.php');
    expect(JSON.stringify(contract)).not.toContain('secret-php-source');
    // A header called x-rate-limit is a name, not an extension: its $ref is still followed.
    const { document: loaded } = await loadDocument(file);
    const response = (loaded.paths['/things']!.post!.responses['201'] as { headers: Record<string, { schema?: unknown }> });
    expect(response.headers['x-rate-limit']!.schema).toEqual({ type: 'integer' });
  });

  it('the mock starts on such a document', async () => {
    const mock = await startMock({ specPath: write('extensions-mock.yaml', document('')), port: 0, fixtures: 'none', quiet: true });
    try {
      expect(mock.port).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });

  it('a $ref to a .php file outside any extension is still refused, without suggesting --allow-refs DIR, which cannot help', async () => {
    const file = write('outside-extension.yaml', document("        sample: { $ref: './examples/CreateThing.php' }"));
    const error: unknown = await loadDocument(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('SPEC_INVALID');
    expect((error as KitError).message).toContain('./examples/CreateThing.php');
    expect((error as KitError).message).not.toMatch(/Pass --allow-refs/);
    // And --allow-refs with the document's folder does not change it.
    await expect(loadDocument(file, { allowRefs: [base] })).rejects.toThrow(/is not followed/);
  });
});
