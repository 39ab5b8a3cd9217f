/**
 * Regression: a compiled validator kept the last failing value alive. Ajv
 * leaves `errors` on the validate function, and with `verbose` each error
 * holds the failing `data` and its parents, so the validators compiled once
 * at start-up held the last rejected body (up to 1 MiB) until the next
 * failure. Checked through the public API only: a WeakRef to the rejected
 * value must be cleared by a full collection.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bundledContract } from '../test-support.js';
import type { CompiledContract } from './index.js';

// V8's gc() is exposed to a fresh context once the flag is set (the flag is read when a context is created).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * A large value wrong at its root: an object where a list of pets is due, and
 * for a pet an object of unknown fields without the required ones. Ajv's
 * verbose error then holds the whole value as its `data`.
 */
function largeInvalidBody(): object {
  return { pets: Array.from({ length: 2_000 }, (_, i) => ({ id: i + 1, name: 'x'.repeat(200), categoryId: 1 })) };
}

/** Runs `reject` on a fresh value and reports, after a full collection, whether anything still holds the value. */
async function retainedAfter(reject: (value: unknown) => readonly unknown[]): Promise<{ retained: boolean; problems: number }> {
  let problems = 0;
  const ref = ((): WeakRef<object> => {
    const value = largeInvalidBody();
    problems = reject(value).length;
    return new WeakRef(value);
  })();
  // A WeakRef's target lives until the current job ends (ECMA-262 §9.10, KeepDuringJob): let it end, then collect.
  await nextTurn();
  collectGarbage();
  return { retained: ref.deref() !== undefined, problems };
}

describe('compiled validators keep no rejected value alive', async () => {
  const { compiled }: { compiled: CompiledContract } = await bundledContract();
  const json = { 'content-type': 'application/json', 'x-total-count': '2000' };

  it('a response body that fails listPets is not retained by its validator', async () => {
    const result = await retainedAfter((body) => compiled.operations.get('listPets')!.response(200, json, body).diagnostics);
    expect(result.problems).toBeGreaterThan(0);
    expect(result.retained).toBe(false);
  });

  it('a request body that fails createPet is not retained by its validator', async () => {
    const result = await retainedAfter((body) => compiled.operations.get('createPet')!.body(body));
    expect(result.problems).toBeGreaterThan(0);
    expect(result.retained).toBe(false);
  });

  it('a value that fails CompiledContract.validate is not retained by the shared schema validator', async () => {
    const pets = compiled.contract.document.components?.schemas?.['Pets'];
    if (!pets || '$ref' in pets) throw new Error('openapi.yaml declares the Pets schema in place');
    const result = await retainedAfter((value) => compiled.validate(pets, value, 'response'));
    expect(result.problems).toBeGreaterThan(0);
    expect(result.retained).toBe(false);
  });
});
