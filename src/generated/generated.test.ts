import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';

// The types in src/generated/ are derived from openapi.yaml; a change to the
// document without `npm run types` must fail here, not drift silently.
describe('generated types', () => {
  it('are up to date with openapi.yaml (run `npm run types` if this fails)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'petstore-kit-types-')), 'openapi.ts');
    const cli = join(PACKAGE_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    execFileSync(process.execPath, [cli, join(PACKAGE_ROOT, 'openapi.yaml'), '-o', out], { stdio: 'pipe', cwd: PACKAGE_ROOT });
    const committed = readFileSync(join(PACKAGE_ROOT, 'src', 'generated', 'openapi.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  }, 60_000);
});
