/**
 * Strings drawn for a document's `pattern` (src/pattern-sample.ts), for the runner's inputs and the generic mock's
 * values: patterns with groups, alternation, classes and escapes, as published documents write them (ReadMe's API,
 * Twilio's sids), match by the engine the validators run; faker's own generator took groups literally.
 */
import { describe, expect, it } from 'vitest';
import { sampleFromPattern } from './pattern-sample.js';
import { compileSafePattern } from './schema/index.js';

/** Published patterns (ReadMe's API v2 in @readme/oas-examples 3.1, Twilio's Messaging) that faker's fromRegExp broke. */
const PUBLISHED_PATTERNS = [
  String.raw`\/branches\/((v{0,1})(stable|([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(-.*)?)(_(.*))?)`,
  String.raw`\/projects\/(me|[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*)`,
  String.raw`\/images\/([a-f\d]{24})`,
  String.raw`rdme_\w+`,
  String.raw`^MG[0-9a-fA-F]{32}$`,
  String.raw`^(SM|MM)[0-9a-fA-F]{32}$`,
];

/** A seeded stand-in for faker's number.int: the same draws every run. */
function draws(seed: number): (from: number, to: number) => number {
  let state = seed;
  return (from, to) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return from + (state % (to - from + 1));
  };
}

function matches(pattern: string, value: string): boolean {
  const safe = compileSafePattern(pattern);
  if (!safe.ok) throw new Error(safe.reason);
  return safe.pattern.test(value);
}

describe('sampleFromPattern', () => {
  it.each(PUBLISHED_PATTERNS)('draws a string that %s matches', (pattern) => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const value = sampleFromPattern(pattern, draws(seed));
      expect(value).toBeTypeOf('string');
      expect(matches(pattern, value!)).toBe(true);
    }
  });

  it('draws the same string from the same numbers', () => {
    expect(sampleFromPattern(PUBLISHED_PATTERNS[0]!, draws(7))).toBe(sampleFromPattern(PUBLISHED_PATTERNS[0]!, draws(7)));
  });

  it('gives undefined rather than a string the pattern refuses (a lookahead randexp cannot honour)', () => {
    expect(sampleFromPattern('^(?=.*[0-9])[a-z]{3}$', draws(1))).toBeUndefined();
  });
});
