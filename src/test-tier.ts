/**
 * Which test tier is running (issue 33). `npm test` is the fast tier; `npm run test:all` (CI's command) is the full
 * tier, which `bin/dev/test.mjs --all` announces by PETSTORE_KIT_TIER=full. Which files run is decided by their name
 * alone (`*.full.test.ts` only in the full tier, in vitest.config.ts); this module is for the suites that run in both
 * tiers and scale how many cases they try: a property-based test draws a fixed, small number of seeds in the fast
 * tier and many more in the full one.
 */
export type TestTier = 'fast' | 'full';

export function testTier(env: NodeJS.ProcessEnv = process.env): TestTier {
  return env['PETSTORE_KIT_TIER'] === 'full' ? 'full' : 'fast';
}

/** The number of cases to try: `fast` in the fast tier, `full` in the full tier. */
export function casesForTier(counts: { fast: number; full: number }, env: NodeJS.ProcessEnv = process.env): number {
  return testTier(env) === 'full' ? counts.full : counts.fast;
}
