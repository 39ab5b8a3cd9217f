import type { LoadedDocument } from './load.js';

/**
 * Documents this process has loaded already, so a second load of the same bytes costs a hash instead of a parse,
 * a schema check and a dereference (a quarter of a second for our own openapi.yaml, read thoroughly). What loads a
 * document more than once in one process: a test file that starts a mock and runs the runner against it, dozens of
 * times (issue 23, point 2), and `--watch` reloading a file that was saved unchanged.
 *
 * Kept only for a document of one file (its bytes, hashed, then say all there is to it: a document split into
 * several files could change in a file the hash does not cover), of moderate size (a 13 MB document held for a
 * later load that may never come would cost hundreds of MB), and for a few documents at once, the least recently
 * used dropped first. The document handed out is shared by every load that hit it, so it is frozen, deeply: no
 * reader may edit what another reader is using, and one that tries fails at once instead of changing the other's
 * document behind its back.
 */
const MAX_DOCUMENTS = 6;
const MAX_BYTES = 4 * 1024 * 1024;

const kept = new Map<string, LoadedDocument>();

/** The key of a load: the file and what changes how it is read. */
export function loadKey(file: string, thorough: boolean, allowRefs: readonly string[]): string {
  return JSON.stringify([file, thorough, allowRefs]);
}

/** The document loaded before under this key, when its bytes were these. */
export function keptDocument(key: string, sha256: string): LoadedDocument | undefined {
  const loaded = kept.get(key);
  if (loaded?.sha256 !== sha256) return undefined;
  kept.delete(key);
  kept.set(key, loaded);
  return loaded;
}

/** Keeps a document just loaded, when it is worth keeping (see above); returns what the caller should hand out. */
export function keepDocument(key: string, loaded: LoadedDocument, size: number, oneFile: boolean): LoadedDocument {
  if (!oneFile || size > MAX_BYTES) return loaded;
  deepFreeze(loaded.document);
  kept.delete(key);
  kept.set(key, loaded);
  while (kept.size > MAX_DOCUMENTS) kept.delete(kept.keys().next().value!);
  return loaded;
}

/** Freezes a dereferenced document: a graph whose shared schemas (and cycles) are visited once each. */
function deepFreeze(root: object): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (Object.isFrozen(value)) continue;
    Object.freeze(value);
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) stack.push(child);
    }
  }
}
