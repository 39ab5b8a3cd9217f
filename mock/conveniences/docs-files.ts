/**
 * Reads what the docs page serves (docs.ts) from disk, in Node: the document's text and JSON, and Swagger UI's
 * files. The build copies those into dist/swagger-ui/ (bin/dev/build.mjs), so the published package does not
 * depend on swagger-ui-dist and its install-time telemetry (issue 23, point 5); in a checkout that was not built,
 * they come from the swagger-ui-dist devDependency. Files are read on first use and kept: the page is requested
 * rarely, the bundle is large.
 */
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readCappedText } from '../../src/contract/bounded-files.js';
import { parseBoundedYaml } from '../../src/contract/bounded-parsers.js';
import { DOCUMENT_CAPS } from '../../src/contract/caps.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import type { DocsFiles } from './docs.js';

/** Where Swagger UI's files are: the built copy, else the devDependency (undefined when neither is there). */
function swaggerUiFolder(): string | undefined {
  const built = join(PACKAGE_ROOT, 'dist', 'swagger-ui');
  if (existsSync(join(built, 'swagger-ui-bundle.js'))) return built;
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * The docs page's files, or undefined for a document that is not a regular file: one read from a pipe
 * (`--spec <(curl …)`) was read once, by the loader, and reading it again would find it empty (or, a named FIFO,
 * wait for a writer that never comes); the mock then serves no docs page.
 */
export async function loadDocsFiles(specFile: string): Promise<DocsFiles | undefined> {
  if (!(await stat(specFile)).isFile()) return undefined;
  // The text read once, under the document's size cap, and parsed from that text under its depth and alias caps (a
  // second read by swagger-parser had none): the loader accepted this file a moment ago, so a cap met here means it
  // changed since, and the page is left out rather than the mock stopped.
  let yaml: string;
  let parsed: unknown;
  try {
    yaml = await readCappedText(specFile, DOCUMENT_CAPS.maxBytes);
    parsed = /\.json$/i.test(specFile) ? JSON.parse(yaml) : parseBoundedYaml(specFile, yaml);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const document: Readonly<Record<string, unknown>> = { ...(parsed as Record<string, unknown>) };
  const folder = swaggerUiFolder();
  const cache = new Map<string, Uint8Array | undefined>();
  return {
    yaml,
    document,
    asset(name) {
      if (!cache.has(name)) {
        let bytes: Uint8Array | undefined;
        try {
          bytes = folder === undefined ? undefined : readFileSync(join(folder, name));
        } catch {
          bytes = undefined;
        }
        cache.set(name, bytes);
      }
      return cache.get(name);
    },
  };
}
