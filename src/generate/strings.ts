/**
 * Strings within `minLength`/`maxLength` and the budget's string cap (issue 31, point 1): a minLength past the
 * cap, or one above the schema's own maxLength, is reported before anything is built. A pattern is drawn from
 * (patterns.ts); a format gets a value of it (formats.ts); free text is a word (plain) or reads like its field
 * (lifelike); then it is padded to minLength and cut to maxLength.
 */
import type { Schema } from './composition.js';
import { formatted, namedText } from './formats.js';
import { samplePattern, shortestMatch } from './patterns.js';
import { made, unmakeable, type Generated, type Spot } from './result.js';
import type { Hint, Walker } from './walker.js';

/** Formats whose values stay of the format when more characters are added at the end (a path). */
const GROWABLE_FORMATS = new Set(['uri', 'url', 'uri-reference']);

/** Why no string of this schema fits the budget's `cap` characters, or undefined. */
export function stringObstacle(s: Schema, cap: number): { keyword: string; message: string; capped: boolean } | undefined {
  const min = s.minLength ?? 0;
  if (s.maxLength !== undefined && min > s.maxLength) return { keyword: 'minLength', message: `minLength ${min} is above maxLength ${s.maxLength}: no string is allowed`, capped: false };
  if (min > cap) return { keyword: 'minLength', message: `minLength ${min} asks for more than the ${cap} characters a generated string may have`, capped: true };
  const shortest = s.pattern === undefined ? undefined : shortestMatch(s.pattern);
  const room = Math.min(cap, s.maxLength ?? cap);
  if (shortest !== undefined && shortest > room) {
    return room < cap
      ? { keyword: 'pattern', message: `the pattern's shortest match has ${shortest} characters, more than maxLength ${room}`, capped: false }
      : { keyword: 'pattern', message: `the pattern's shortest match has ${shortest} characters, more than the ${cap} a generated string may have`, capped: true };
  }
  return undefined;
}

export function stringValue(walker: Walker, s: Schema, spot: Spot, hint: Hint): Generated {
  const cap = walker.budget.string;
  const obstacle = stringObstacle(s, cap);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message, obstacle.capped ? 'string' : undefined);
  const min = s.minLength ?? 0;
  const max = Math.min(cap, s.maxLength ?? cap);
  if (s.pattern !== undefined) {
    const drawn = samplePattern(s.pattern, (from, to) => walker.randInt(from, to), min, max);
    if (drawn.kind === 'matched' || drawn.kind === 'unchecked') return made(drawn.value);
    if (drawn.kind === 'too-long') return unmakeable(spot, 'pattern', `the pattern's shortest match has ${drawn.minLength} characters, more than the ${max} allowed here`, max === cap ? 'string' : undefined);
    // Nothing matched: text as below, which the validator then judges (the runner skips, the mock notes it).
  }
  const text = formatted(s.format, walker.faker, walker.style);
  // A value of a format is whole or not of it: cut, it would be none.
  if (text !== undefined && text.length > max) {
    return max === cap
      ? unmakeable(spot, 'format', `a ${s.format ?? ''} value takes ${text.length} characters, more than the ${cap} a generated string may have`, 'string')
      : unmakeable(spot, 'format', `a ${s.format ?? ''} value takes ${text.length} characters, more than its maxLength ${max}`);
  }
  // A path may grow (`https://example.com/abcabc`); a date or a uuid may not: padded, it is no longer one.
  if (text !== undefined && text.length < min && !GROWABLE_FORMATS.has(s.format ?? '')) return unmakeable(spot, 'format', `a ${s.format ?? ''} value takes ${text.length} characters, fewer than its minLength ${min}`);
  return made(fit(text ?? (walker.style === 'lifelike' ? namedText(hint.name, walker.faker) : walker.faker.word.noun()), min, max));
}

/** Pads `text` to `min` characters by repeating it, and cuts it to `max`. */
export function fit(text: string, min: number, max: number): string {
  const base = text === '' ? 'x' : text;
  const padded = base.length >= min ? base : base.repeat(Math.ceil(min / base.length)).slice(0, min);
  return padded.length > max ? padded.slice(0, Math.max(min, max)) : padded;
}
