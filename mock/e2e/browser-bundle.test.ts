/**
 * Issue 23, point 3: `petstore-kit/msw/browser` has no Node built-in anywhere in its module graph, so a plain
 * browser build takes it with no plugin, no stub and no warning (regression: esbuild --platform=browser failed on
 * node:fs/promises and node:path through seed.ts, and node:crypto through admin-access.ts). Bundled here from the
 * source entry; src/cli/package.install.full.test.ts bundles the installed package the same way. The size is printed
 * (minified, with and without MSW, which the app bundles anyway).
 */
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';

/** `esbuild --bundle --platform=browser --format=esm --minify ENTRY`, in memory, with its metafile. */
async function bundle(external: string[] = [], contents?: string): Promise<{ bytes: number; warnings: unknown[]; metafile: Metafile }> {
  const result = await build({
    ...(contents !== undefined ? { stdin: { contents, resolveDir: PACKAGE_ROOT, loader: 'ts' as const } } : { entryPoints: [join(PACKAGE_ROOT, 'mock', 'msw', 'browser.ts')] }),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
  });
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
  return { bytes, warnings: result.warnings, metafile: result.metafile };
}

/** Every import of the graph that is a Node built-in or was left out of the bundle. */
function nodeImports(metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([file, input]) => input.imports.filter((i) => i.path.startsWith('node:') || i.external === true).map((i) => `${file} -> ${i.path}`));
}

describe('petstore-kit/msw/browser in a plain browser build (esbuild, no plugin)', () => {
  it('bundles with no error, no warning and no Node built-in in its module graph, the engine and the Pet Store\'s behaviour module in it', async () => {
    // Regression: mock/engine/answer-guard.ts took documentErrorSchema from src/contract/index.ts, whose loader needs
    // node:fs, node:path, node:crypto and swagger-parser, so no page could bundle the engine at all.
    const { bytes, warnings, metafile } = await bundle();
    expect(warnings).toEqual([]);
    expect(nodeImports(metafile)).toEqual([]);
    // Nothing that only Node-side code needs: the Pet Store's generator (seed.ts; browserData runs it in Node), the
    // docs page's Swagger UI, fixture and overlay files read from disk, the document's loader.
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((f) => /swagger-ui|mock\/behaviour\/petstore\/seed\.ts|docs-files\.ts|mock\/engine\/(files|startup)\.ts|src\/contract\/(index|load)\.ts/.test(f))).toEqual([]);
    // The one engine serves every document, the Pet Store with its rule file's module (issue 34): a Pet Store page is
    // createBrowserMock(data), as before the engine was one.
    expect(inputs.filter((f) => /mock\/engine\/engine\.ts|mock\/behaviour\/rule-book\.ts|petstore\.behaviour\.mjs/.test(f))).toHaveLength(3);
    const { bytes: ownBytes } = await bundle(['msw']);
    console.log(`petstore-kit/msw/browser, minified: ${(bytes / 1024).toFixed(0)} KiB with MSW, ${(ownBytes / 1024).toFixed(0)} KiB without it`);
    expect(ownBytes).toBeLessThan(bytes);
  });
});
