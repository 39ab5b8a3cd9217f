import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder, found by walking up from this file, so the same
 * code works from `src/` under vitest and from `dist/src/` once built.
 */
function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'petstore-kit') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('petstore-kit: cannot find its own package.json');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };

export const KIT_VERSION: string = pkg.version;

/** The bundled contract, used when no `--spec` is given. */
export const DEFAULT_SPEC_PATH = join(PACKAGE_ROOT, 'openapi.yaml');

/** The bundled seed data, used when no `--fixtures` is given. */
export const DEFAULT_FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures', 'seed');
