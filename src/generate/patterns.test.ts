/**
 * Strings drawn for a document's `pattern` (patterns.ts), for the runner's inputs and the generic mock's values:
 * patterns with groups, alternation, classes and escapes, as published documents write them (ReadMe's API,
 * Twilio's sids), match by the engine the validators run; faker's own generator took groups literally. And the
 * hostile ones of issue 31: an explicit repeat past the room is reported before anything is drawn, and a pattern
 * RE2 cannot run is never checked by a backtracking engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSafePattern } from '../schema/index.js';
import { casesForTier } from '../test-tier.js';
import { samplePattern, shortestMatch } from './patterns.js';
import { stringObstacle } from './strings.js';

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

/**
 * Review 1, finding 9: ret read `\p{Lu}` as the literals `p{Lu}` and `\u4e00` as `u4e00`, and RE2 refused `\u`, so
 * a satisfiable field was reported impossible and a class of CJK characters was neither drawn from nor checked.
 * Each draw is held to JavaScript's own engine with the `u` flag (ECMA-262, as Ajv runs a pattern): an oracle
 * apart from RE2, which the kit runs patterns with.
 */
describe('Unicode escapes in patterns (review 1, finding 9)', () => {
  const jsMatches = (pattern: string, value: string): boolean => new RegExp(pattern, 'u').test(value);

  it('`^\\p{Lu}{2}$` is two characters: drawn, checked, never reported impossible under maxLength 2', () => {
    const pattern = String.raw`^\p{Lu}{2}$`;
    expect(shortestMatch(pattern)).toBe(2);
    expect(stringObstacle({ type: 'string', pattern, maxLength: 2 }, 10_000)).toBeUndefined();
    for (let seed = 1; seed <= 20; seed += 1) {
      const sample = samplePattern(pattern, draws(seed), 0, 2);
      expect(sample.kind).toBe('matched');
      if (sample.kind === 'matched') expect(jsMatches(pattern, sample.value), sample.value).toBe(true);
    }
  });

  it.each([
    [String.raw`^[\u4e00-\u9fa5]{2,4}$`, 2],
    [String.raw`^\u{1F600}+$`, 1],
    [String.raw`^[\u{1F600}-\u{1F64F}]{3}$`, 3],
    [String.raw`^\uD83D\uDE00-[\u0041-\u005A]$`, 3],
    [String.raw`^[\x41-\x5a]{3}$`, 3],
    [String.raw`^\p{Letter}+ \p{Script=Greek}\P{L}$`, 4],
    [String.raw`^[\p{L}\d_]{3}$`, 3],
    [String.raw`^[^\P{Lu}]{2}$`, 2],
    [String.raw`^\u002e\u002a$`, 2],
  ])('%s is checked by RE2 and drawn from (shortest %i)', (pattern, shortest) => {
    expect(compileSafePattern(pattern).ok).toBe(true);
    expect(shortestMatch(pattern)).toBe(shortest);
    for (let seed = 1; seed <= 20; seed += 1) {
      const sample = samplePattern(pattern, draws(seed), 0, 100);
      expect(sample.kind).toBe('matched');
      if (sample.kind === 'matched') expect(jsMatches(pattern, sample.value), sample.value).toBe(true);
    }
  });

  it('RE2 now judges a \\u class as JavaScript does: a Latin word is refused by `^[\\u4e00-\\u9fa5]+$`', () => {
    const checked = compileSafePattern(String.raw`^[\u4e00-\u9fa5]+$`);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect([checked.pattern.test('中文'), checked.pattern.test('abc')]).toEqual([true, false]);
  });

  it.each([String.raw`^\p{Alphabetic}{2}$`, String.raw`^(?<a>x)\k<a>$`, String.raw`^\p{Script_Extensions=Greek}$`])('%s, which the generator cannot read, is unknown: no shortest match, nothing drawn, nothing reported', (pattern) => {
    expect(shortestMatch(pattern)).toBeUndefined();
    expect(samplePattern(pattern, draws(1), 0, 1).kind).toBe('none');
    expect(stringObstacle({ type: 'string', pattern, maxLength: 1 }, 10_000)).toBeUndefined();
  });

  it('property: patterns built of escaped code points, classes and Unicode properties give draws JavaScript matches too', () => {
    const hex = (code: number, braces: boolean): string => (braces ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`);
    const codePoint = fc.oneof(fc.integer({ min: 0x41, max: 0x7a }), fc.integer({ min: 0x391, max: 0x3c9 }), fc.integer({ min: 0x4e00, max: 0x9fa5 }), fc.integer({ min: 0x1f600, max: 0x1f64f }));
    const escaped = fc.tuple(codePoint, fc.boolean()).map(([code, braces]) => hex(code, braces || code > 0xffff));
    const range = fc.tuple(codePoint, fc.nat(30), fc.boolean()).map(([from, width, braces]) => `[${hex(from, braces || from > 0xffff)}-${hex(from + width, braces || from + width > 0xffff)}]`);
    const property = fc.constantFrom(String.raw`\p{Lu}`, String.raw`\p{Ll}`, String.raw`\p{L}`, String.raw`\p{Nd}`, String.raw`\P{L}`, String.raw`\p{Script=Han}`, String.raw`\p{sc=Cyrillic}`, String.raw`\p{gc=Lu}`, String.raw`[\p{L}\d]`, String.raw`[^\P{Ll}]`);
    const quantifier = fc.constantFrom('', '?', '+', '*', '{2}', '{1,3}');
    const atom = fc.tuple(fc.oneof(escaped, range, property), quantifier).map(([a, q]) => `${a}${q}`);
    const patternArbitrary = fc.array(atom, { minLength: 1, maxLength: 5 }).map((atoms) => `^${atoms.join('')}$`);
    fc.assert(
      fc.property(patternArbitrary, fc.nat(1000), (pattern, seed) => {
        expect(compileSafePattern(pattern).ok).toBe(true);
        const sample = samplePattern(pattern, draws(seed + 1), 0, 200);
        expect(sample.kind, pattern).toBe('matched');
        if (sample.kind === 'matched') expect(jsMatches(pattern, sample.value), `${pattern} ${JSON.stringify(sample.value)}`).toBe(true);
      }),
      { numRuns: casesForTier({ fast: 200, full: 3000 }), seed: 9 },
    );
  });
});
