/**
 * The tier rule (issue 33, point 4) cannot drop a test file silently: vitest itself is asked which files each tier
 * runs (`vitest list --filesOnly`, with the tier's environment, as `npm test` and `npm run test:all` start it), and
 * the answer is held against every `*.test.ts` file on disk. The full tier runs every one of them; the fast tier
 * every one not named `*.full.test.ts`; and no file runs twice in a tier (in two vitest projects).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-info.js';
import { casesForTier, testTier } from './test-tier.js';

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'coverage', 'reports', 'artifacts']);

function testFilesOnDisk(dir: string = PACKAGE_ROOT): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) files.push(...testFilesOnDisk(join(dir, entry.name)));
    } else if (entry.name.endsWith('.test.ts')) {
      files.push(relative(PACKAGE_ROOT, join(dir, entry.name)));
    }
  }
  return files.sort();
}

/** What vitest would run in a tier: each file with the project it runs in. */
function listed(tier: 'fast' | 'full'): { file: string; projectName: string }[] {
  const vitest = join(PACKAGE_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const out = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', '--json'], { cwd: PACKAGE_ROOT, env: { ...process.env, PETSTORE_KIT_TIER: tier }, encoding: 'utf8', timeout: 60_000 });
  expect(out.status, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { file: string; projectName: string }[]).map(({ file, projectName }) => ({ file: relative(PACKAGE_ROOT, file), projectName }));
}

describe('the test tiers', () => {
  const onDisk = testFilesOnDisk();

  it('the full tier (npm run test:all, what CI runs) runs every test file there is, each once', () => {
    const full = listed('full');
    expect(full.map((entry) => entry.file).sort()).toEqual(onDisk);
    expect(onDisk.some((file) => file.endsWith('.full.test.ts'))).toBe(true);
  });

  it('the fast tier (npm test) runs every test file but those named *.full.test.ts, each once', () => {
    const fast = listed('fast');
    expect(fast.map((entry) => entry.file).sort()).toEqual(onDisk.filter((file) => !file.endsWith('.full.test.ts')));
  });

  it('a tiered suite tries its fast count unless the full tier is announced', () => {
    expect(testTier({})).toBe('fast');
    expect(testTier({ PETSTORE_KIT_TIER: 'full' })).toBe('full');
    expect(casesForTier({ fast: 3, full: 300 }, { PETSTORE_KIT_TIER: 'fast' })).toBe(3);
    expect(casesForTier({ fast: 3, full: 300 }, { PETSTORE_KIT_TIER: 'full' })).toBe(300);
  });
});
