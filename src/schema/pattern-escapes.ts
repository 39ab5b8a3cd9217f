/**
 * The escapes of a document's `pattern` (ECMA-262 regular expressions, JSON Schema 2020-12 §6.3.3, as Ajv runs them
 * with the `u` flag) that the two engines the kit runs patterns with read otherwise (review 1, finding 9):
 * - RE2 (safe-pattern.ts, the validators) knows no `\uXXXX` nor `\u{X…}` (it writes a code point `\x{X…}`), nor the
 *   long forms of Unicode properties (`\p{Letter}`, `\p{Script=Greek}`, `\p{gc=Lu}`: it writes `\p{L}`,
 *   `\p{Greek}`, `\p{Lu}`); refused, the pattern was neither checked nor met;
 * - ret (patterns.ts, the generator's tokenizer) reads none of `\u`, `\p` and `\k<…>`, and reads `\x41` inside a
 *   class range as `\x`: `^\p{Lu}{2}$` was the six literals `p{Lu}}`, a field reported impossible under maxLength 2.
 *
 * lexPattern cuts a pattern into the pieces that matter here (a code point written as an escape, or as a
 * character outside the Basic Multilingual Plane; a Unicode property; a named backreference) and text passed
 * through as written; re2Source writes it for RE2. The generator's writing for ret is in src/generate/pattern-syntax.ts.
 */

export type PatternPiece =
  /** Written as is by every engine. */
  | { readonly kind: 'text'; readonly text: string; readonly inClass: boolean }
  /** `\uXXXX` (a surrogate pair of them as one), `\u{X…}`, `\xHH`, or a character outside the BMP written as itself. */
  | { readonly kind: 'code-point'; readonly text: string; readonly code: number; readonly inClass: boolean }
  /** `\p{Name}`, `\p{Key=Value}`, `\P{…}` (negated), RE2's `\pL`. */
  | { readonly kind: 'property'; readonly text: string; readonly negated: boolean; readonly key: string | undefined; readonly value: string; readonly inClass: boolean }
  /** `\k<name>`: a backreference to a named group. */
  | { readonly kind: 'named-reference'; readonly text: string; readonly inClass: boolean };

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The pieces of `pattern`, in order; their texts joined give the pattern back. */
export function lexPattern(pattern: string): PatternPiece[] {
  const pieces: PatternPiece[] = [];
  let inClass = false;
  let text = '';
  const flush = (): void => {
    if (text !== '') pieces.push({ kind: 'text', text, inClass });
    text = '';
  };
  const push = (piece: PatternPiece): void => {
    flush();
    pieces.push(piece);
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c !== '\\') {
      const code = pattern.codePointAt(i)!;
      if (code > 0xffff) {
        push({ kind: 'code-point', text: String.fromCodePoint(code), code, inClass });
        i += 2;
        continue;
      }
      if (c === '[' && !inClass) (flush(), (inClass = true));
      else if (c === ']' && inClass) {
        text += c;
        flush();
        inClass = false;
        i += 1;
        continue;
      }
      text += c;
      i += 1;
      continue;
    }
    const next = pattern[i + 1];
    if (next === 'u') {
      const unit = pattern.slice(i + 2, i + 6);
      if (HEX4.test(unit)) {
        const high = parseInt(unit, 16);
        const low = pattern.slice(i + 6, i + 8) === '\\u' && HEX4.test(pattern.slice(i + 8, i + 12)) ? parseInt(pattern.slice(i + 8, i + 12), 16) : undefined;
        if (high >= 0xd800 && high <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
          push({ kind: 'code-point', text: pattern.slice(i, i + 12), code: (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, inClass });
          i += 12;
        } else {
          push({ kind: 'code-point', text: pattern.slice(i, i + 6), code: high, inClass });
          i += 6;
        }
        continue;
      }
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2, i + 11));
      if (braced && parseInt(braced[1]!, 16) <= 0x10ffff) {
        push({ kind: 'code-point', text: pattern.slice(i, i + 2 + braced[0].length), code: parseInt(braced[1]!, 16), inClass });
        i += 2 + braced[0].length;
        continue;
      }
    }
    if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(pattern.slice(i + 2, i + 4))) {
      push({ kind: 'code-point', text: pattern.slice(i, i + 4), code: parseInt(pattern.slice(i + 2, i + 4), 16), inClass });
      i += 4;
      continue;
    }
    if (next === 'p' || next === 'P') {
      const braced = /^\{([A-Za-z_]+)(?:=([A-Za-z0-9_]+))?\}/.exec(pattern.slice(i + 2, i + 80));
      const letter = /^[A-Za-z]/.exec(pattern.slice(i + 2, i + 3));
      if (braced || letter) {
        const length = braced ? braced[0].length : 1;
        const key = braced?.[2] !== undefined ? braced[1] : undefined;
        const value = braced ? (braced[2] ?? braced[1]!) : letter![0];
        push({ kind: 'property', text: pattern.slice(i, i + 2 + length), negated: next === 'P', key, value, inClass });
        i += 2 + length;
        continue;
      }
    }
    if (next === 'k' && pattern[i + 2] === '<') {
      const end = pattern.indexOf('>', i + 3);
      if (end > 0) {
        push({ kind: 'named-reference', text: pattern.slice(i, end + 1), inClass });
        i = end + 1;
        continue;
      }
    }
    // Any other escape: the backslash and the character it escapes (both halves of a surrogate pair), as written.
    const width = next === undefined ? 0 : pattern.codePointAt(i + 1)! > 0xffff ? 2 : 1;
    text += pattern.slice(i, i + 1 + width);
    i += 1 + width;
  }
  flush();
  return pieces;
}

/**
 * The General_Category values ECMA-262 names (Unicode's PropertyValueAliases), long name to the short one RE2
 * knows: `\p{Letter}` is `\p{L}`.
 */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};

/**
 * A Unicode property as its short General_Category (`Lu`) or its script (`Greek`), the way RE2 and the
 * generator's table name it; undefined for what neither reads (a binary property, Script_Extensions).
 */
export function propertyName(piece: { readonly key: string | undefined; readonly value: string }): string | undefined {
  const { key, value } = piece;
  if (key === undefined || key === 'General_Category' || key === 'gc') {
    if (Object.hasOwn(CATEGORY_ALIASES, value)) return CATEGORY_ALIASES[value];
    // A short category name (`Lu`), or, without a key, a script name (`Greek`): as written.
    return key === undefined || /^[A-Z][a-z]?$/.test(value) ? value : undefined;
  }
  return key === 'Script' || key === 'sc' ? value : undefined;
}

/** `pattern` as RE2 reads it: code points as `\x{X…}`, Unicode properties by their short names; the rest as written. */
export function re2Source(pattern: string): string {
  // Most patterns have none of these escapes: they are handed over untouched, with no lexing.
  if (!/\\[upPx]|[\ud800-\udbff]/.test(pattern)) return pattern;
  return lexPattern(pattern)
    .map((piece) => {
      if (piece.kind === 'code-point') return piece.code > 0xffff && !piece.text.startsWith('\\') ? piece.text : `\\x{${piece.code.toString(16).toUpperCase()}}`;
      if (piece.kind === 'property') {
        const name = propertyName(piece);
        return name === undefined ? piece.text : `\\${piece.negated ? 'P' : 'p'}{${name}}`;
      }
      return piece.text;
    })
    .join('');
}
