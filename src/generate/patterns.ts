/**
 * Strings a document's `pattern` accepts, drawn from its own syntax tree (ret, the tokenizer randexp is built on)
 * with the caller's seeded random numbers, within a length the caller gives (issue 31, point 2). randexp itself
 * bounded `*` and `+` but took an explicit repeat at its word: `^(?:[a-z]{10000}){10000}$` built 10^8
 * characters, and the mock's event loop stopped. Here every repeat, explicit or not, draws at most MAX_EXTRA
 * repetitions past its minimum; the shortest string a pattern allows is known before anything is drawn, and a
 * pattern whose shortest string is longer than the room given is reported, not attempted; a draw never grows
 * past the room (each choice past the shortest path is paid from it) nor past a step count.
 *
 * A draw is checked by the engine the validators run (RE2, src/schema/safe-pattern.ts), in time linear in its
 * length. A pattern RE2 cannot run (a lookahead, a backreference) is not checked at all: JavaScript's RegExp
 * backtracks, and `^(a|a){40}(?=b)c$` never returns; the lenient validators skip such a pattern too, so what is
 * drawn for it is as valid as the kit can tell.
 */
import * as ret from 'ret';
import { types, type Root, type Token } from 'ret';
import { compileSafePattern } from '../schema/safe-pattern.js';
import { retSource } from './pattern-syntax.js';

type Tokenize = (pattern: string) => Root;

function isTokenize(value: unknown): value is Tokenize {
  return typeof value === 'function';
}

/**
 * ret is CommonJS whose `module.exports` is the tokenizer itself: Node's ESM loader and bundlers hand it over as
 * the default export, while its typings describe a module with a named `tokenizer` beside the default.
 */
const tokenize: Tokenize = [Reflect.get(ret, 'default') as unknown, Reflect.get(ret, 'tokenizer') as unknown].find(isTokenize) ?? (() => {
  throw new Error('ret exports no tokenizer');
});

/** How many repetitions past its minimum a repeat draws at most: long enough to read as data. */
const MAX_EXTRA = 8;
/** Draws tried before giving up on a pattern (a draw can miss: an anchor in the middle, a class RE2 reads otherwise). */
const ATTEMPTS = 5;
/** Tokens visited per draw at most: nested repeats of what may be empty (`((a?)*)*`) multiply without growing the text. */
const MAX_STEPS = 100_000;
/** Longer patterns are not drawn from (their syntax tree would be walked recursively): the caller falls back to text. */
const MAX_PATTERN_LENGTH = 4096;
/** The characters a negated class draws from (randexp's default range: printable ASCII). */
const PRINTABLE: readonly [number, number] = [32, 126];

export type RandomInt = (from: number, to: number) => number;

export type PatternSample =
  /** A draw the pattern matches, by RE2. */
  | { readonly kind: 'matched'; readonly value: string }
  /** A draw of a pattern RE2 cannot run: lookarounds and backreferences ignored, nothing checked. */
  | { readonly kind: 'unchecked'; readonly value: string }
  /** The shortest string the pattern allows is longer than the room given. */
  | { readonly kind: 'too-long'; readonly minLength: number }
  /** Nothing drawn that matches (or the pattern's syntax is beyond the tokenizer); the caller falls back. */
  | { readonly kind: 'none'; readonly reason: string };

interface Parsed {
  readonly root: Root;
  /** The shortest text of each token (lookarounds and backreferences count 0). */
  readonly shortest: WeakMap<object, number>;
}

const parsedCache = new Map<string, Parsed | string>();
const CACHE_LIMIT = 10_000;

function parse(pattern: string): Parsed | string {
  const known = parsedCache.get(pattern);
  if (known !== undefined) return known;
  let result: Parsed | string;
  if (pattern.length > MAX_PATTERN_LENGTH) result = `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  else {
    try {
      // ret reads neither `\u` nor `\p{…}`: the pattern is written in its words first, or not read at all (pattern-syntax.ts).
      const syntax = retSource(pattern);
      if ('unreadable' in syntax) throw new Error(syntax.unreadable);
      const root = tokenize(syntax.source);
      if (syntax.standIns.size > 0) restoreStandIns(root, syntax.standIns);
      const shortest = new WeakMap<object, number>();
      shortestOf(root, shortest);
      result = { root, shortest };
    } catch (error) {
      result = `the pattern cannot be read (${(error as Error).message})`;
    }
  }
  if (parsedCache.size >= CACHE_LIMIT) parsedCache.clear();
  parsedCache.set(pattern, result);
  return result;
}

/** The code points past the BMP back in place of their stand-ins (pattern-syntax.ts), in characters and ranges alike. */
function restoreStandIns(token: Root | Token, standIns: ReadonlyMap<number, number>): void {
  const real = (code: number): number => standIns.get(code) ?? code;
  switch (token.type) {
    case types.ROOT:
    case types.GROUP:
      for (const part of token.options ? token.options.flat() : (token.stack ?? [])) restoreStandIns(part, standIns);
      return;
    case types.REPETITION:
      restoreStandIns(token.value, standIns);
      return;
    case types.SET:
      for (const part of token.set) {
        if (part.type === types.CHAR) part.value = real(part.value);
        else if (part.type === types.RANGE) (part.from = real(part.from)), (part.to = real(part.to));
        else restoreStandIns(part, standIns);
      }
      return;
    case types.CHAR:
      token.value = real(token.value);
      return;
    default:
  }
}

function shortestOf(token: Root | Token, memo: WeakMap<object, number>): number {
  let length: number;
  switch (token.type) {
    case types.ROOT:
    case types.GROUP: {
      if (token.type === types.GROUP && (token.followedBy || token.notFollowedBy)) length = 0;
      else if (token.options) length = Math.min(...token.options.map((option) => sequenceShortest(option, memo)));
      else length = sequenceShortest(token.stack ?? [], memo);
      break;
    }
    case types.REPETITION:
      length = token.min === 0 ? (shortestOf(token.value, memo), 0) : token.min * shortestOf(token.value, memo);
      break;
    case types.SET:
    case types.CHAR:
      length = 1;
      break;
    default:
      length = 0;
  }
  memo.set(token, length);
  return length;
}

function sequenceShortest(tokens: readonly Token[], memo: WeakMap<object, number>): number {
  let sum = 0;
  for (const token of tokens) sum += shortestOf(token, memo);
  return sum;
}

/** The shortest string `pattern` allows, or undefined when it cannot be read. */
export function shortestMatch(pattern: string): number | undefined {
  const parsed = parse(pattern);
  return typeof parsed === 'string' ? undefined : (parsed.shortest.get(parsed.root) ?? 0);
}

/**
 * A string `pattern` accepts, of `minLength` to `maxLength` characters, drawn with `randInt`.
 * `maxLength` is the room: the string cap of the budget, or the schema's own maxLength when lower.
 */
export function samplePattern(pattern: string, randInt: RandomInt, minLength: number, maxLength: number): PatternSample {
  const parsed = parse(pattern);
  if (typeof parsed === 'string') return { kind: 'none', reason: parsed };
  const shortest = parsed.shortest.get(parsed.root) ?? 0;
  if (shortest > maxLength) return { kind: 'too-long', minLength: shortest };
  const safe = compileSafePattern(pattern);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const drawn = draw(parsed, randInt, maxLength - shortest);
    if (drawn === undefined) return { kind: 'none', reason: `drawing from the pattern took more than ${MAX_STEPS} steps` };
    if (!safe.ok) return { kind: 'unchecked', value: drawn };
    // Lengths in characters (code points), as JSON Schema counts them and as the shortest match is counted: 😀 is one.
    const length = codePoints(drawn);
    if (length >= minLength && length <= maxLength && safe.pattern.test(drawn)) return { kind: 'matched', value: drawn };
  }
  return { kind: 'none', reason: `no string drawn in ${ATTEMPTS} tries matches it` };
}

/** The characters of a string: its UTF-16 length, less one for each surrogate pair. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) pairs += 1;
  }
  return text.length - pairs;
}

/** One draw, or undefined past the step count. `slack`: characters a draw may add past the shortest path. */
function draw(parsed: Parsed, randInt: RandomInt, slack: number): string | undefined {
  const state = { slack, steps: 0, groups: [] as string[] };
  const shortest = (token: Root | Token): number => parsed.shortest.get(token) ?? 0;
  const out: string[] = [];
  const walk = (token: Root | Token): boolean => {
    state.steps += 1;
    if (state.steps > MAX_STEPS) return false;
    switch (token.type) {
      case types.ROOT:
      case types.GROUP: {
        if (token.type === types.GROUP && (token.followedBy || token.notFollowedBy)) return true;
        const start = out.length;
        const sequence = token.options ? choose(token.options) : (token.stack ?? []);
        for (const part of sequence) if (!walk(part)) return false;
        if (token.type === types.GROUP && token.remember) state.groups.push(out.slice(start).join(''));
        return true;
      }
      case types.REPETITION: {
        const each = shortest(token.value);
        const extraAllowed = Math.min(token.max - token.min, MAX_EXTRA);
        let count = token.min;
        const wanted = extraAllowed > 0 ? randInt(0, extraAllowed) : 0;
        for (let extra = 0; extra < wanted && each <= state.slack; extra += 1) {
          state.slack -= each;
          count += 1;
        }
        for (let i = 0; i < count; i += 1) if (!walk(token.value)) return false;
        return true;
      }
      case types.SET: {
        const code = pickFromSet(token, randInt);
        if (code !== undefined) out.push(String.fromCodePoint(code));
        return true;
      }
      case types.CHAR:
        out.push(String.fromCodePoint(token.value));
        return true;
      case types.REFERENCE: {
        const text = state.groups[token.value - 1] ?? '';
        if (text.length <= state.slack) (state.slack -= text.length), out.push(text);
        return true;
      }
      default:
        return true;
    }
  };
  /** An alternative the slack can pay for: its shortest text past the shortest alternative's. */
  const choose = (options: readonly (readonly Token[])[]): readonly Token[] => {
    const lengths = options.map((option) => option.reduce((sum, token) => sum + shortest(token), 0));
    const least = Math.min(...lengths);
    const affordable = options.filter((_, i) => lengths[i]! - least <= state.slack);
    const picked = affordable[randInt(0, affordable.length - 1)] ?? options[lengths.indexOf(least)]!;
    state.slack -= lengths[options.indexOf(picked)]! - least;
    return picked;
  };
  return walk(parsed.root) ? out.join('') : undefined;
}

type SetToken = Extract<Token, { type: types.SET }>;

/** A code point of a class (`[a-z0-9]`, `\w`, `[^"]`), or undefined for an empty one. */
function pickFromSet(token: SetToken, randInt: RandomInt): number | undefined {
  let ranges = rangesOf(token);
  if (token.not) ranges = complement(ranges);
  const total = ranges.reduce((sum, [from, to]) => sum + (to - from + 1), 0);
  if (total <= 0) return undefined;
  let index = randInt(0, total - 1);
  for (const [from, to] of ranges) {
    const size = to - from + 1;
    if (index < size) return from + index;
    index -= size;
  }
  return undefined;
}

/** The code point ranges a class names, merged and sorted (nested classes such as `[\w-]` included, as drawn). */
function rangesOf(token: SetToken): [number, number][] {
  const ranges: [number, number][] = [];
  for (const part of token.set) {
    if (part.type === types.CHAR) ranges.push([part.value, part.value]);
    else if (part.type === types.RANGE) ranges.push([part.from, part.to]);
    else {
      const inner = rangesOf(part);
      ranges.push(...(part.not ? complement(inner) : inner));
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The printable ASCII characters outside `ranges` (a negated class draws from these). */
function complement(ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = PRINTABLE[0];
  for (const [from, to] of ranges) {
    if (to < next) continue;
    if (from > PRINTABLE[1]) break;
    if (from > next) out.push([next, Math.min(from - 1, PRINTABLE[1])]);
    next = Math.max(next, to + 1);
  }
  if (next <= PRINTABLE[1]) out.push([next, PRINTABLE[1]]);
  return out;
}

/**
 * The text every match of an anchored pattern begins with (`^custom:[a-z]+$` → `custom:`, `^cus_\w+` → `cus_`),
 * empty when it has none: what a server that types its keys puts before the client's word (Supabase's custom
 * providers: "will be prefixed with 'custom:' automatically"). Read from the syntax tree: characters after the
 * start anchor, up to the first token that is anything else.
 */
export function literalPrefix(pattern: string): string {
  const parsed = parse(pattern);
  if (typeof parsed === 'string' || parsed.root.options) return '';
  const stack = parsed.root.stack ?? [];
  const [anchor, ...rest] = stack;
  if (anchor?.type !== types.POSITION || anchor.value !== '^') return '';
  let out = '';
  for (const token of rest) {
    if (token.type !== types.CHAR) break;
    out += String.fromCodePoint(token.value);
  }
  return out;
}
