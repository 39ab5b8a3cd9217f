import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_ERROR_CODES } from './kit-error.js';
import { PACKAGE_ROOT } from './package-info.js';

// fastify's test/internals/errors.test.js idea: the closed set of codes and
// the documentation cannot drift apart.
describe('kit error codes', () => {
  it('are exactly the ones docs/errors.md documents, with the same meaning', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'docs', 'errors.md'), 'utf8');
    const section = readme.split('## Kit error codes')[1]!.split('\n## ')[0]!;
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(KIT_ERROR_CODES);
  });
});
