/**
 * The mock's settings that the command line checks before anything heavy is
 * loaded (so `--validation loose` fails in milliseconds, not after the
 * contract and the validators are compiled).
 */
import { KitError } from '../../src/kit-error.js';

export type ValidationMode = 'error' | 'strict' | 'warn' | 'off';
export const VALIDATION_MODES: readonly ValidationMode[] = ['error', 'strict', 'warn', 'off'];

/** `''` or `/segment[/segment…]` without a trailing slash; anything else is a usage error. */
export function normalizeBasePath(basePath: string): string {
  if (basePath === '' || basePath === '/') return '';
  const trimmed = basePath.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(trimmed)) {
    throw new KitError('USAGE', `--base-path takes a path such as /api/v1 (starting with /, no query or fragment); got '${basePath}'.`);
  }
  return trimmed;
}
