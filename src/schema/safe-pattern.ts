import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';
import { re2Source } from './pattern-escapes.js';
import { rememberVerdicts } from './verdict-memo.js';

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

/** Compiles `pattern` with the linear-time engine, or says why it cannot. */
export function compileSafePattern(pattern: string): SafePatternResult {
  const known = cache.get(pattern);
  if (known) return known;
  let result: SafePatternResult;
  try {
    // The same values are tested again and again (every answer of the mock is checked): verdicts are kept.
    // Written in RE2's words where ECMA-262's differ (`\u4e00` is `\x{4E00}`, `\p{Letter}` is `\p{L}`): pattern-escapes.ts.
    const re = RE2JS.compile(re2Source(pattern));
    const test = rememberVerdicts((value) => re.test(value));
    const text = `/${pattern}/`;
    result = { ok: true, pattern: { test, toString: () => text } };
  } catch (error) {
    result = { ok: false, reason: (error as Error).message };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
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
