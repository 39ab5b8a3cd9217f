import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * A `pattern` from a document, run in time linear in the value (issue 20).
 * JavaScript's RegExp backtracks: `^(a+)+$` against 45 bytes of `a…a!` does
 * not finish, and blocks the event loop so not even SIGTERM is served.
 * re2js (RE2's algorithm, pure JavaScript) has no backtracking and so no
 * catastrophic case; what it gives up is what needs backtracking —
 * lookahead, lookbehind, backreferences — which such a pattern then cannot
 * use (the caller reports it and checks the value by type only).
 */
export interface SafePattern {
  /** True when the pattern matches somewhere in `value` (JSON Schema 2020-12 §6.3.3: patterns are not anchored). */
  test(value: string): boolean;
  /** The pattern as written, between slashes: Ajv keys its compiled patterns by it. */
  toString(): string;
}

export type SafePatternResult = { ok: true; pattern: SafePattern } | { ok: false; reason: string };

const cache = new Map<string, SafePatternResult>();
/** Past this many distinct patterns the cache starts over: a 12 MB document has a few thousand. */
const CACHE_LIMIT = 10_000;

/**
 * Verdicts kept per pattern, by value. The linear-time engine takes a microsecond or more per value where
 * a RegExp takes tens of nanoseconds, and a mock checks the same values again and again (every answer
 * carrying a stored record's `sid` is checked before it leaves): a kept verdict is a Map lookup. Bounded:
 * values up to MEMO_VALUE_MAX characters only, at most MEMO_PER_PATTERN per pattern and MEMO_LIMIT in all
 * (each past its bound starts over), so at most a few MB whatever is checked.
 */
const MEMO_VALUE_MAX = 256;
const MEMO_PER_PATTERN = 1024;
const MEMO_LIMIT = 16_384;
const memos: Map<string, boolean>[] = [];
let memoized = 0;

function remembered(re: RE2JS): (value: string) => boolean {
  const memo = new Map<string, boolean>();
  memos.push(memo);
  return (value) => {
    if (value.length > MEMO_VALUE_MAX) return re.test(value);
    const known = memo.get(value);
    if (known !== undefined) return known;
    const verdict = re.test(value);
    if (memoized >= MEMO_LIMIT) {
      for (const each of memos) each.clear();
      memoized = 0;
    }
    if (memo.size >= MEMO_PER_PATTERN) {
      memoized -= memo.size;
      memo.clear();
    }
    memo.set(value, verdict);
    memoized += 1;
    return verdict;
  };
}

/** Compiles `pattern` with the linear-time engine, or says why it cannot. */
export function compileSafePattern(pattern: string): SafePatternResult {
  const known = cache.get(pattern);
  if (known) return known;
  let result: SafePatternResult;
  try {
    const test = remembered(RE2JS.compile(pattern));
    const text = `/${pattern}/`;
    result = { ok: true, pattern: { test, toString: () => text } };
  } catch (error) {
    result = { ok: false, reason: (error as Error).message };
  }
  if (cache.size >= CACHE_LIMIT) {
    cache.clear();
    // Ajv may still hold the patterns it compiled: their memos are emptied, and stay bounded per pattern.
    for (const each of memos) each.clear();
    memos.length = 0;
    memoized = 0;
  }
  cache.set(pattern, result);
  return result;
}

/** The matcher for a pattern, or undefined when the linear-time engine cannot run it (see compileSafePattern for the reason). */
export function safePattern(pattern: string): SafePattern | undefined {
  const result = compileSafePattern(pattern);
  return result.ok ? result.pattern : undefined;
}

/**
 * The engine for Ajv's `code.regExp` option: Ajv calls it once per pattern
 * when it compiles a schema and keeps the object, whose `test` the generated
 * code calls (ajv/lib/vocabularies/code.ts, usePattern). A pattern it cannot
 * compile throws, and Ajv with it; the lenient converter drops those patterns
 * first (with a warning), so that does not happen to a document from elsewhere.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): SafePattern => {
    const result = compileSafePattern(pattern);
    if (!result.ok) throw new Error(`pattern ${JSON.stringify(pattern)} cannot run in linear time: ${result.reason}`);
    return result.pattern;
  },
  // What standalone code would import; the kit never generates standalone code, but Ajv asks for a name.
  { code: 'require("re2js").RE2JS.compile' },
);
