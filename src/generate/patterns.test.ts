/**
 * Strings drawn for a document's `pattern` (patterns.ts), for the runner's inputs and the generic mock's values:
 * patterns with groups, alternation, classes and escapes, as published documents write them (ReadMe's API,
 * Twilio's sids), match by the engine the validators run; faker's own generator took groups literally. And the
 * hostile ones of issue 31: an explicit repeat past the room is reported before anything is drawn, and a pattern
 * RE2 cannot run is never checked by a backtracking engine.
 */
import { describe, expect, it } from 'vitest';
import { compileSafePattern } from '../schema/index.js';
import { samplePattern, shortestMatch } from './patterns.js';

/** Published patterns (ReadMe's API v2 in @readme/oas-examples 3.1, Twilio's Messaging) that faker's fromRegExp broke. */
const PUBLISHED_PATTERNS = [
  String.raw`\/branches\/((v{0,1})(stable|([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(-.*)?)(_(.*))?)`,
  String.raw`\/projects\/(me|[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*)`,
  String.raw`\/images\/([a-f\d]{24})`,
  String.raw`rdme_\w+`,
  String.raw`^MG[0-9a-fA-F]{32}$`,
  String.raw`^(SM|MM)[0-9a-fA-F]{32}$`,
  String.raw`^[^"\\]{2,5}$`,
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

describe('samplePattern', () => {
  it.each(PUBLISHED_PATTERNS)('draws a string that %s matches', (pattern) => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const sample = samplePattern(pattern, draws(seed), 0, 10_000);
      expect(sample.kind).toBe('matched');
      if (sample.kind === 'matched') expect(matches(pattern, sample.value)).toBe(true);
    }
  });

  it('draws the same string from the same numbers', () => {
    expect(samplePattern(PUBLISHED_PATTERNS[0]!, draws(7), 0, 100)).toEqual(samplePattern(PUBLISHED_PATTERNS[0]!, draws(7), 0, 100));
  });

  it('knows the shortest match of a pattern without drawing it', () => {
    expect(shortestMatch('^[A-Z]{3}-[0-9]{4}$')).toBe(8);
    expect(shortestMatch('^(?:[a-z]{10000}){10000}$')).toBe(100_000_000);
    expect(shortestMatch('a*|bbb')).toBe(0);
    expect(shortestMatch('(?=x)y')).toBe(1);
  });

  it('reports an explicit repeat whose shortest match is longer than the room, without drawing (issue 31: 10^8 characters)', () => {
    expect(samplePattern('^(?:[a-z]{10000}){10000}$', draws(1), 0, 10_000)).toEqual({ kind: 'too-long', minLength: 100_000_000 });
    expect(samplePattern('^[a-z]{50}$', draws(1), 0, 49)).toEqual({ kind: 'too-long', minLength: 50 });
  });

  it('draws an explicit repeat at its minimum plus a bounded number of extras, never past the room', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const sample = samplePattern('^x{3,1000}$', draws(seed), 0, 10);
      expect(sample.kind).toBe('matched');
      if (sample.kind === 'matched') expect(sample.value.length).toBeGreaterThanOrEqual(3), expect(sample.value.length).toBeLessThanOrEqual(10);
    }
    const nested = samplePattern('^((a{1,9}){1,9}){1,9}$', draws(3), 0, 12);
    expect(nested.kind === 'matched' && nested.value.length <= 12).toBe(true);
  });

  it('never checks a pattern RE2 cannot run with a backtracking engine: `^(a|a){40}(?=b)c$` returns at once, unchecked', () => {
    expect(compileSafePattern('^(a|a){40}(?=b)c$').ok).toBe(false);
    const sample = samplePattern('^(a|a){40}(?=b)c$', draws(1), 0, 10_000);
    expect(sample).toEqual({ kind: 'unchecked', value: `${'a'.repeat(40)}c` });
  });

  it('stops a draw whose repeats of what may be empty multiply past its step count', () => {
    expect(samplePattern('^((((((((((a?)*)*)*)*)*)*)*)*)*)*$', () => 8, 0, 10).kind).not.toBe('matched');
  });

  it('says none rather than handing back a string the pattern refuses', () => {
    const sample = samplePattern('^[a-z]{3}$', draws(1), 5, 10);
    expect(sample.kind).toBe('none');
    expect(samplePattern('^[a-z]{3}$', draws(1), 0, 2).kind).toBe('too-long');
  });
});
