import { KitError } from '../src/kit-error.js';

export async function runMockCommand(_argv: readonly string[]): Promise<number> {
  throw new KitError('USAGE', 'the mock is not built yet (issue 3).');
}
