/**
 * `import()` of a file the user names (a behaviour module, mock/engine/files.ts), wherever the kit runs.
 *
 * The command line runs from a CommonJS bundle compiled by `vm.Script` with a V8 code cache (src/cli/code-cache.ts).
 * Node 20 gives such a script `import()` through `importModuleDynamically: USE_MAIN_CONTEXT_DEFAULT_LOADER`, but a
 * script made from cached bytecode loses it: every run after the first failed with "A dynamic import callback was not
 * specified", so `petstore-kit mock --behaviour FILE` worked once and never again. The bundle's loader is an ES
 * module, whose own `import()` always works: it lends it here (lendImport) before the bundle runs.
 */
const LENT = Symbol.for('petstore-kit.import-file');

type Importer = (url: string) => Promise<unknown>;

/** Called by the bundle's loader with an `import()` of its own. */
export function lendImport(importer: Importer): void {
  (globalThis as Record<symbol, unknown>)[LENT] = importer;
}

/** The module at `url`: through the lent `import()` inside the bundle, through this module's own elsewhere. */
export function importFile(url: string): Promise<unknown> {
  const lent = (globalThis as Record<symbol, unknown>)[LENT] as Importer | undefined;
  return lent ? lent(url) : import(url);
}
