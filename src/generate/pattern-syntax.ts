/**
 * A document's `pattern` written for ret, the tokenizer the generator draws from (patterns.ts), which reads none of
 * `\uXXXX`, `\u{X…}`, `\p{…}` and `\k<…>`, and reads `\x41` inside a class range as `\x` (review 1, finding 9):
 * - a code point written as an escape becomes the character itself (escaped where it means something to a
 *   pattern), and one outside the Basic Multilingual Plane a stand-in character of the private use area, which
 *   the caller maps back once tokenized (ret reads a string by UTF-16 units, and a repeat would take half a pair);
 * - a Unicode property (`\p{Lu}`, `\p{Script=Han}`) becomes a class of characters that have it: the ASCII ones
 *   where there are any, else a block of a script's letters. A subset is enough: every draw is then checked by
 *   RE2, which reads the property itself, and a property stands for one character, so the shortest match is kept;
 * - what cannot be written so (a property not in the table below, a named backreference) makes the pattern
 *   unreadable: the caller draws nothing from it and reports nothing about it, rather than reading it wrongly.
 */
import { lexPattern, propertyName, type PatternPiece } from '../schema/pattern-escapes.js';

type Ranges = readonly (readonly [number, number])[];

interface Property {
  /** The characters drawn for it. */
  readonly draw: Ranges;
  /** Exactly the printable ASCII characters (32-126) that have it: `\P{…}` inside a class draws from the others. */
  readonly ascii: Ranges;
}

const r = (...pairs: (readonly [number, number])[]): Ranges => pairs;
const same = (ranges: Ranges): Property => ({ draw: ranges, ascii: ranges });
const beyondAscii = (ranges: Ranges): Property => ({ draw: ranges, ascii: [] });

/** By General_Category (short names: pattern-escapes.ts maps the long ones) and script (Unicode's Scripts.txt). */
const PROPERTIES: Readonly<Record<string, Property>> = {
  L: same(r([65, 90], [97, 122])),
  Lu: same(r([65, 90])),
  Ll: same(r([97, 122])),
  Lo: beyondAscii(r([0x4e00, 0x9fa5])),
  N: same(r([48, 57])),
  Nd: same(r([48, 57])),
  Nl: beyondAscii(r([0x2160, 0x216b])),
  No: beyondAscii(r([0xb2, 0xb3], [0xb9, 0xb9])),
  P: same(r([33, 35], [37, 42], [44, 47], [58, 59], [63, 64], [91, 93], [95, 95], [123, 123], [125, 125])),
  Pc: same(r([95, 95])),
  Pd: same(r([45, 45])),
  Ps: same(r([40, 40], [91, 91], [123, 123])),
  Pe: same(r([41, 41], [93, 93], [125, 125])),
  Po: same(r([33, 35], [37, 39], [42, 42], [44, 44], [46, 47], [58, 59], [63, 64], [92, 92])),
  S: same(r([36, 36], [43, 43], [60, 62], [94, 94], [96, 96], [124, 124], [126, 126])),
  Sm: same(r([43, 43], [60, 62], [124, 124], [126, 126])),
  Sc: same(r([36, 36])),
  Sk: same(r([94, 94], [96, 96])),
  Z: same(r([32, 32])),
  Zs: same(r([32, 32])),
  Latin: same(r([65, 90], [97, 122])),
  Greek: beyondAscii(r([0x3b1, 0x3c9])),
  Cyrillic: beyondAscii(r([0x430, 0x44f])),
  Han: beyondAscii(r([0x4e00, 0x9fa5])),
  Hiragana: beyondAscii(r([0x3041, 0x3096])),
  Katakana: beyondAscii(r([0x30a1, 0x30fa])),
  Hangul: beyondAscii(r([0xac00, 0xd7a3])),
  Arabic: beyondAscii(r([0x627, 0x63a])),
  Hebrew: beyondAscii(r([0x5d0, 0x5ea])),
  Thai: beyondAscii(r([0xe01, 0xe2e])),
  Devanagari: beyondAscii(r([0x905, 0x939])),
};

const PRINTABLE: readonly [number, number] = [32, 126];
/** Characters that mean something in a pattern or a class: written escaped. */
const SPECIAL = new Set('\\^$.|?*+()[]{}/-');

export type RetSyntax = { readonly source: string; readonly standIns: ReadonlyMap<number, number> } | { readonly unreadable: string };

export function retSource(pattern: string): RetSyntax {
  // Most patterns have none of these escapes (nor a character past the BMP): handed over untouched.
  if (!/\\[upPxk]|[\ud800-\udfff]/.test(pattern)) return { source: pattern, standIns: new Map() };
  const pieces = lexPattern(pattern);
  const standIns = standInsFor(pattern, pieces);
  const reverse = new Map([...standIns].map(([standIn, code]) => [code, standIn]));
  const char = (code: number): string => {
    const unit = reverse.get(code) ?? code;
    const text = String.fromCharCode(unit);
    return SPECIAL.has(text) ? `\\${text}` : text;
  };
  const ranges = (list: Ranges): string => list.map(([from, to]) => (from === to ? char(from) : `${char(from)}-${char(to)}`)).join('');
  let source = '';
  for (const piece of pieces) {
    if (piece.kind === 'text') source += piece.text;
    else if (piece.kind === 'code-point') source += char(piece.code);
    else if (piece.kind === 'named-reference') return { unreadable: `it refers back to a named group (${piece.text}), which the generator cannot follow` };
    else {
      const name = propertyName(piece);
      const property = name !== undefined && Object.hasOwn(PROPERTIES, name) ? PROPERTIES[name] : undefined;
      if (!property) return { unreadable: `the generator knows no characters of ${piece.text}` };
      if (!piece.inClass) source += `[${piece.negated ? '^' : ''}${ranges(property.draw)}]`;
      else source += ranges(piece.negated ? complement(property.ascii) : property.draw);
    }
  }
  return { source, standIns };
}

/**
 * A character of the private use area (U+E000-U+F8FF) for each code point ret cannot hold in one unit (past the
 * BMP, or half a surrogate pair), in their order, none of them used by the pattern itself.
 */
function standInsFor(pattern: string, pieces: readonly PatternPiece[]): Map<number, number> {
  const wide = [...new Set(pieces.flatMap((piece) => (piece.kind === 'code-point' && (piece.code > 0xffff || (piece.code >= 0xd800 && piece.code <= 0xdfff)) ? [piece.code] : [])))].sort((a, b) => a - b);
  const out = new Map<number, number>();
  let unit = 0xe000;
  for (const code of wide) {
    while (pattern.includes(String.fromCharCode(unit))) unit += 1;
    out.set(unit, code);
    unit += 1;
  }
  return out;
}

/** The printable ASCII characters outside `ranges`. */
function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = PRINTABLE[0];
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= PRINTABLE[1]) out.push([next, PRINTABLE[1]]);
  return out;
}
