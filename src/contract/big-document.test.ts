/**
 * Issue 11, point 2: a 1 MB, 355-operation document loads, and every one of
 * its validators compiles, in bounded memory (under 1 GB of RSS). The
 * document shares a chain of schemas that each refer to the next twice: the
 * shape that once ran the loader out of heap (swagger-parser's validate()
 * walking the dereferenced graph, and Ajv inlining each shared schema per
 * use), 2^14 paths to the deepest schema from every operation.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bigDocument } from '../../fixtures/documents/big-document.js';
import { compileContract } from '../schema/index.js';
import { loadContract } from './index.js';

const GIB = 1024 ** 3;

describe('a big document from elsewhere', () => {
  it('loads and compiles in bounded memory, sharing what is shared', async () => {
    const text = JSON.stringify(bigDocument({ operations: 355, depth: 14, padding: 110 }));
    expect(text.length).toBeGreaterThan(1_000_000);
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-kit-big-')), 'big.json');
    writeFileSync(file, text);

    const contract = await loadContract(file);
    expect(contract.operations).toHaveLength(355);
    const compiled = compileContract(contract);
    compiled.compileAll();
    expect(process.memoryUsage().rss).toBeLessThan(GIB);

    // The shared chain is checked at its deepest level, not skipped.
    let tree: Record<string, unknown> = { left: 'leaf', right: 'leaf' };
    for (let level = 12; level >= 0; level -= 1) tree = { left: tree, right: tree, weight: 1 };
    const valid = { id: 1, name: 'one', tree };
    expect(compiled.operations.get('getResource0Item')!.response(200, { 'content-type': 'application/json' }, valid).diagnostics).toEqual([]);
    let broken: Record<string, unknown> = { left: 'x'.repeat(65) };
    for (let level = 12; level >= 0; level -= 1) broken = { left: broken };
    const diagnostics = compiled.operations.get('getResource0Item')!.response(200, { 'content-type': 'application/json' }, { id: 1, name: 'one', tree: broken }).diagnostics;
    expect(diagnostics).toEqual([expect.objectContaining({ pointer: `/body/tree${'/left'.repeat(14)}`, keyword: 'maxLength' })]);
    // The unknown format of the shared chain is one warning, not one per use.
    expect(contract.warnings).toEqual([expect.objectContaining({ pointer: '/components/schemas/Level0/properties/label/format' })]);
  }, 120_000);
});
