/**
 * What the generic engine reads from disk, kept out of the core so it still bundles for a browser: a fixtures
 * folder (`--fixtures DIR`: `<collection>.json` files) and an overlay of corrections (`--mock-overlay FILE`,
 * JSON or YAML). Both are refused with a FIXTURES_INVALID / USAGE KitError naming the file and the reason.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILE_CAPS, readCappedJson, readCappedText } from '../../src/contract/bounded-files.js';
import { parseBoundedYaml } from '../../src/contract/bounded-parsers.js';
import { CapExceeded } from '../../src/contract/caps.js';
import { importFile } from '../../src/import-file.js';
import { KitError } from '../../src/kit-error.js';
import { behaviourProblem, type Behaviour } from '../behaviour/hooks.js';
import type { MockOverlay } from './infer.js';
import { fixturesReadFrom, type FixtureFiles } from './initial.js';
import { isObject } from './schemas.js';

export async function readFixtureFiles(dir: string): Promise<FixtureFiles> {
  const folder = resolve(dir);
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'no such folder' : error.message;
    throw new KitError('FIXTURES_INVALID', `The fixtures folder ${folder} cannot be read (${reason}); pass an existing folder with --fixtures, or --fixtures none for empty collections.`, { file: folder, reason });
  });
  // No prototype: a file named `__proto__.json` (or `constructor.json`) is a name like any other, never the object's prototype.
  const files = Object.create(null) as Record<string, unknown>;
  for (const name of entries.filter((entry) => entry.endsWith('.json')).sort()) {
    const file = join(folder, name);
    try {
      files[name.slice(0, -'.json'.length)] = await readCappedJson(file, FILE_CAPS.fixturesBytes);
    } catch (error) {
      // Past a cap on size or depth (issue 31, point 4): said as such, like the document's own caps.
      if (error instanceof CapExceeded) throw new KitError('FIXTURES_INVALID', `${error.message}; split the records or trim the file.`, { file, pointer: '', reason: `past the ${error.cap} cap` });
      const reason = `not valid JSON: ${(error as Error).message}`;
      throw new KitError('FIXTURES_INVALID', `${file}: ${reason}.`, { file, pointer: '', reason });
    }
  }
  // A refusal of the records (initial.ts) names each file by its path, as the Pet Store's own store did.
  return fixturesReadFrom(files, (name) => join(folder, `${name}.json`));
}

/** `{ paths: { "/things/{id}": { "x-mock-id": "slug" } }, operations: { "search": { "x-mock-stateless": true } } }`. */
export async function readOverlay(path: string): Promise<MockOverlay> {
  const file = resolve(path);
  let value: unknown;
  try {
    value = parseBoundedYaml(file, await readCappedText(file, FILE_CAPS.overlayBytes));
  } catch (error) {
    // An overlay is a few corrections: past the size, depth or alias cap (issue 31, point 4) it is refused before it is parsed.
    if (error instanceof CapExceeded) throw new KitError('USAGE', `petstore-kit mock: --mock-overlay ${error.message}; an overlay holds corrections, not data.`);
    throw new KitError('USAGE', `petstore-kit mock: --mock-overlay ${file} cannot be read: ${(error as Error).message}.`);
  }
  const paths = isObject(value) ? value['paths'] : undefined;
  const operations = isObject(value) ? value['operations'] : undefined;
  const behaviour = isObject(value) ? value['behaviour'] : undefined;
  const state = isObject(value) ? value['state'] : undefined;
  if (!isObject(value) || (paths !== undefined && !isObject(paths)) || (operations !== undefined && !isObject(operations)) || (behaviour !== undefined && typeof behaviour !== 'string') || (state !== undefined && !isObject(state))) {
    throw new KitError('USAGE', `petstore-kit mock: --mock-overlay ${file} must hold { paths: { PATH: { x-mock-…: … } }, operations: { operationId: { x-mock-stateless: true } }, behaviour: FILE, state: { NAME: COLLECTION } }.`);
  }
  const entries = (group: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> =>
    Object.fromEntries(Object.entries(group ?? {}).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])));
  return {
    paths: entries(isObject(paths) ? paths : undefined),
    operations: entries(isObject(operations) ? operations : undefined),
    ...(typeof behaviour === 'string' ? { behaviour: resolve(dirname(file), behaviour) } : {}),
    ...(isObject(state) ? { state } : {}),
  };
}

/** How many times a behaviour module was loaded: each load a new module (--watch reloads an edited file). */
let loads = 0;

/**
 * A behaviour module (`--behaviour FILE`, behaviour/hooks.ts): its default export, checked to be hooks. A file that
 * cannot be imported, or exports something else, is a RULES_INVALID kit error naming it and why.
 */
export async function readBehaviour(path: string): Promise<{ readonly module: Behaviour; readonly file: string }> {
  const file = resolve(path);
  let exported: unknown;
  try {
    loads += 1;
    // A query of its own per load: ESM keeps a module by URL, so an edited file would otherwise come back unchanged.
    exported = ((await importFile(`${pathToFileURL(file).href}?load=${loads}`)) as { default?: unknown }).default;
  } catch (error) {
    throw new KitError('RULES_INVALID', `The behaviour module ${file} cannot be loaded: ${(error as Error).message}.`, { file, reason: (error as Error).message });
  }
  const problem = behaviourProblem(exported);
  if (problem !== undefined) throw new KitError('RULES_INVALID', `The behaviour module ${file}: ${problem} (docs/rules.md).`, { file, reason: problem });
  return { module: exported as Behaviour, file };
}
