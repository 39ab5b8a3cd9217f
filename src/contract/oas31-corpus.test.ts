/**
 * Issue 21 point 1 on documents others wrote: every OpenAPI 3.1 document of
 * @readme/oas-examples (installed from npm) and the smaller 3.1 documents of
 * the published corpus (fixtures/published) load and compile every
 * validator, with no warning but formats the kit does not know.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_DOCUMENTS } from '../../fixtures/published/index.js';
import { compileContract } from '../schema/index.js';
import { loadContract } from './index.js';

const EXAMPLES = join(dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json')), '3.1', 'json');
const documents: [string, string][] = [
  ...readdirSync(EXAMPLES)
    .filter((name) => name.endsWith('.json'))
    .map((name): [string, string] => [`oas-examples/${name}`, join(EXAMPLES, name)]),
  ...PUBLISHED_DOCUMENTS.filter((document) => document.version === '3.1' && document.bytes < 500_000).map((document): [string, string] => [document.name, document.file]),
];

describe('published OpenAPI 3.1 documents', () => {
  it('are at least ten', () => {
    expect(documents.length).toBeGreaterThanOrEqual(10);
  });

  it.each(documents)('%s: loads as 3.1 and compiles, with no warning but unknown formats', async (_name, file) => {
    const contract = await loadContract(file);
    expect(contract.oasVersion).toBe('3.1');
    compileContract(contract).compileAll();
    expect(contract.warnings.filter((warning) => !/^format "/.test(warning.message))).toEqual([]);
  });
});
