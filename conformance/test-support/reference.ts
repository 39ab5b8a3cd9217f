/**
 * The independent reference server of ../shared/reference (ref-server.mjs and its own document), used as it is and
 * never copied: started on a free loopback port, a mutant or variant at a time, and stopped by its PID. Tests that
 * need it skip with REFERENCE_MISSING as their reason when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE as REFERENCE_CATALOGUE, startServer } from './catalogue.js';

export const REFERENCE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference');
export const REF_SERVER = resolve(REFERENCE, 'ref-server.mjs');
export const REF_SPEC = resolve(REFERENCE, 'ref-openapi.yaml');
export const referencePresent = existsSync(REF_SERVER) && existsSync(REF_SPEC);
export const REFERENCE_MISSING = `${REFERENCE} is missing (the reference server sits beside the project in this workplace and in CI)`;

export interface Started {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts ref-server.mjs (a mutant or variant with `args`) on a free loopback port; stopped by its PID. */
export function startReference(args: readonly string[] = []): Promise<Started> {
  return startServer(REFERENCE_CATALOGUE, args);
}
