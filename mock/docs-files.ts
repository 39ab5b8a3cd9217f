/**
 * Reads what the docs page serves (docs.ts) from disk, in Node: the document's text and JSON, and the files of
 * swagger-ui-dist, resolved through Node's module resolution so the installed package is the one served. Files
 * are read on first use and kept: the page is requested rarely, the bundle is large.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { DocsFiles } from './docs.js';

export async function loadDocsFiles(specFile: string): Promise<DocsFiles> {
  const [yaml, parsed] = await Promise.all([readFile(specFile, 'utf8'), SwaggerParser.parse(specFile)]);
  const document: Readonly<Record<string, unknown>> = { ...parsed };
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Uint8Array | undefined>();
  return {
    yaml,
    document,
    asset(name) {
      if (!cache.has(name)) {
        let bytes: Uint8Array | undefined;
        try {
          bytes = readFileSync(join(dist, name));
        } catch {
          bytes = undefined;
        }
        cache.set(name, bytes);
      }
      return cache.get(name);
    },
  };
}
