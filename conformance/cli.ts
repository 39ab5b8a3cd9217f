import { KitError } from '../src/kit-error.js';

export async function runConformanceCommand(_argv: readonly string[]): Promise<number> {
  throw new KitError('USAGE', 'the conformance runner is not built yet (issue 4).');
}
