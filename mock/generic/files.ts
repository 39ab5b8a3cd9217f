/**
 * What the generic engine reads from disk, kept out of the core so it still bundles for a browser: a fixtures
 * folder (`--fixtures DIR`: `<collection>.json` files) and an overlay of corrections (`--mock-overlay FILE`,
 * JSON or YAML). Both are refused with a FIXTURES_INVALID / USAGE KitError naming the file and the reason.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FILE_CAPS, readCappedJson, readCappedText } from '../../src/contract/bounded-files.js';
import { parseBoundedYaml } from '../../src/contract/bounded-parsers.js';
import { CapExceeded } from '../../src/contract/caps.js';
import { KitError } from '../../src/kit-error.js';
import type { MockOverlay } from './infer.js';
import type { FixtureFiles } from './initial.js';
import { isObject } from './schemas.js';

export async function readFixtureFiles(dir: string): Promise<FixtureFiles> {
  const folder = resolve(dir);
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'no such folder' : error.message;
    throw new KitError('FIXTURES_INVALID', `The fixtures folder ${folder} cannot be read (${reason}); pass an existing folder with --fixtures, or --fixtures none for empty collections.`, { file: folder, reason });
  });
  const files: Record<string, unknown> = {};
  for (const name of entries.filter((entry) => entry.endsWith('.json')).sort()) {
    const file = join(folder, name);
    try {
      files[name.slice(0, -'.json'.length)] = await readCappedJson(file, FILE_CAPS.fixturesBytes);
    } catch (error) {
      // Past a cap on size or depth (issue 31, point 4): said as such, like the document's own caps.
      if (error instanceof CapExceeded) throw new KitError('FIXTURES_INVALID', `${error.message}; split the records or trim the file.`, { file, pointer: '', reason: `past the ${error.cap} cap` });
      throw new KitError('FIXTURES_INVALID', `${file}: not JSON (${(error as Error).message}).`, { file, pointer: '', reason: 'not JSON' });
    }
  }
  return files;
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
  if (!isObject(value) || (paths !== undefined && !isObject(paths)) || (operations !== undefined && !isObject(operations))) {
    throw new KitError('USAGE', `petstore-kit mock: --mock-overlay ${file} must hold { paths: { PATH: { x-mock-…: … } }, operations: { operationId: { x-mock-stateless: true } } }.`);
  }
  const entries = (group: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> =>
    Object.fromEntries(Object.entries(group ?? {}).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])));
  return { paths: entries(isObject(paths) ? paths : undefined), operations: entries(isObject(operations) ? operations : undefined) };
}
