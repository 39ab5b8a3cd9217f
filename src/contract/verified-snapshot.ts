/**
 * The bundled openapi.yaml, parsed and thoroughly validated once, at build time (issue 33, point 2: the runner's
 * start). Every mock and runner start used to parse its YAML (the `yaml` package, which caps aliases, is slow) and
 * validate it against the OpenAPI schema and swagger-parser's rules (compiling that schema with Ajv first): about
 * half of a second of CPU, the same work on the same bytes every time.
 *
 * `npm run build` (bin/dev/build.mjs) loads the document thoroughly, as every start did, and writes what it parsed
 * beside the compiled kit with the SHA-256 of the bytes it read. A start whose openapi.yaml has those bytes takes the
 * parsed document from there, and dereferences it as before; any other bytes (an edited document, a missing or
 * unreadable snapshot) take the whole path. The snapshot is derived from the document, never edited by hand, and
 * shipped in the package with dist/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info.js';

export const VERIFIED_SNAPSHOT = join(PACKAGE_ROOT, 'dist', 'openapi.verified.json');

interface Snapshot {
  /** SHA-256 of the openapi.yaml bytes that were parsed and validated. */
  readonly sha256: string;
  /** The document as parsed, before any $ref was resolved. */
  readonly parsed: unknown;
}

/** The parsed document, when the snapshot was made from these very bytes; undefined otherwise. */
export function verifiedParse(sha256: string, snapshot: string = VERIFIED_SNAPSHOT): unknown {
  let text: string;
  try {
    text = readFileSync(snapshot, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const kept = JSON.parse(text) as Partial<Snapshot>;
    return kept.sha256 === sha256 && typeof kept.parsed === 'object' && kept.parsed !== null ? kept.parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written by the build, after the thorough load of the same bytes succeeded (so only a valid document is kept). */
export function writeVerifiedSnapshot(sha256: string, parsed: unknown, snapshot: string = VERIFIED_SNAPSHOT): void {
  writeFileSync(snapshot, JSON.stringify({ sha256, parsed } satisfies Snapshot));
}
