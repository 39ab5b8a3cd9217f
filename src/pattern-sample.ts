/**
 * A string that a document's `pattern` accepts, drawn with randexp from the caller's seeded random numbers: the
 * runner's valid inputs and the generic mock's generated values both come from here, so both read a pattern alike.
 * randexp builds the string from the pattern's own syntax tree (groups, alternation, classes, quantifiers), where
 * faker's `fromRegExp` takes groups literally: ReadMe's `\/branches\/((v{0,1})(stable|([0-9]+)…` came out as
 * `()(stable|(7)…`, and the mock then answered values its own document refuses.
 */
import RandExpModule from 'randexp';
import { compileSafePattern } from './schema/index.js';

/**
 * randexp is CommonJS: its `module.exports` is the class, which Node's ESM loader and bundlers hand over as the
 * default import, while its typings describe a module with a default export.
 */
const RandExp = RandExpModule as unknown as typeof RandExpModule.default;

/** How many times `*` and `+` repeat at most: long enough to read as data, short enough for any maxLength to allow. */
const MAX_REPEAT = 8;

/**
 * A string `pattern` matches, by the engine the validators run (RE2, src/schema/safe-pattern.ts; JavaScript's own
 * for a pattern RE2 cannot run), or undefined when none of `attempts` draws matches (a lookahead randexp ignores).
 */
export function sampleFromPattern(pattern: string, randInt: (from: number, to: number) => number, attempts = 5): string | undefined {
  const safe = compileSafePattern(pattern);
  let test: (value: string) => boolean;
  if (safe.ok) test = (value) => safe.pattern.test(value);
  else {
    try {
      const expression = new RegExp(pattern, 'u');
      test = (value) => expression.test(value);
    } catch {
      return undefined;
    }
  }
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    let candidate: string;
    try {
      const expression = new RandExp(pattern);
      expression.max = MAX_REPEAT;
      expression.randInt = randInt;
      candidate = expression.gen();
    } catch {
      return undefined;
    }
    if (test(candidate)) return candidate;
  }
  return undefined;
}
