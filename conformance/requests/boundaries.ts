/**
 * Values at the edges of a schema, derived from the schema alone, in the
 * spirit of Schemathesis's coverage phase (src/schemathesis/generation/
 * coverage.py: boundary values and type mutations from each schema):
 *
 * - **edges** a schema allows and real users send: strings with surrounding
 *   spaces and line breaks, decomposed Unicode (NFD), emoji and quotes, a
 *   string of only spaces that meets `minLength`; integers at the 32-bit and
 *   53-bit edges where the schema's bounds allow them; date-times with other
 *   offsets than `Z` (RFC 3339 §5.6) and with fractions;
 * - **near misses** a schema refuses and lax parsers take: a value of every
 *   other JSON type (a boolean where a number goes, a numeric string, a one-
 *   item array where a scalar goes), `null` where the schema is not nullable,
 *   an enum value in another case, date-times in the forms other parsers
 *   accept (a bare date, no offset, an offset without its colon), and the
 *   `NaN`/`Infinity` literals JSON does not have (RFC 8259 §6).
 *
 * Pure: no HTTP, no validator. Every value is a candidate: the caller checks
 * it with the operation's compiled validator as the exact text sent, and
 * uses only an edge the document accepts and a near miss it refuses.
 */
import { isObject, mergeAllOf, propertiesOf, schema, type JsonObject, type Schema } from '../generate.js';

export interface EdgeValue {
  /** What the value is, for a case title: `with leading and trailing spaces and a line break`. */
  readonly description: string;
  readonly value: unknown;
}

export interface NearMiss {
  readonly kind: 'wrong-type' | 'enum' | 'format' | 'null';
  readonly description: string;
  readonly value: unknown;
}

/** 2^31: one past the largest 32-bit integer, where an `int` column or a 32-bit parser overflows. */
export const TWO_TO_31 = 2 ** 31;
/** 2^53-1: the largest integer an IEEE double holds exactly (RFC 8259 §6's interoperable range). */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Texts real users send, each with `tag` in it (so the record stays the run's): surrounding spaces, a line break
 * and a tab; decomposed Unicode (an `e` and a combining acute, NFD), which a server that normalises to NFC changes;
 * emoji outside the Basic Multilingual Plane (surrogate pairs in UTF-16) with a zero-width joiner; quotes, an
 * apostrophe and a backslash. Clipped to `maxLength` code points.
 */
export function realUserTexts(tag: string, maxLength: number | undefined): EdgeValue[] {
  const texts: EdgeValue[] = [
    { description: 'leading and trailing spaces, a line break and a tab', value: `  Line one\nline\ttwo ${tag}  ` },
    { description: 'decomposed Unicode (NFD: e and a combining acute accent)', value: `Ze\u0301phyrine Cafe\u0301 ${tag}` },
    { description: 'emoji (astral code points, a zero-width joiner sequence)', value: `🐕 🐈‍⬛ 👩🏽‍🔬 ${tag}` },
    { description: 'double quotes, an apostrophe and a backslash', value: `"Rex" O'Brien \\ C:\\pets ${tag}` },
  ];
  return texts.map((text) => ({ ...text, value: clip(String(text.value), maxLength) }));
}

/** A string of only spaces as long as `minLength` asks (at least one): valid wherever no pattern or format says otherwise. */
export function onlySpaces(s: Schema): EdgeValue | undefined {
  if (typeOf(s) !== 'string' || s.enum || s.format || s.pattern) return undefined;
  const length = Math.max(1, s.minLength ?? 0);
  if (s.maxLength !== undefined && s.maxLength < length) return undefined;
  return { description: `only spaces (${length}, its minLength)`, value: ' '.repeat(length) };
}

/**
 * Integers at the edges of the types a server may store them in, where the schema allows them: 2^31-1 and 2^31
 * (32-bit), 2^53-1 (a double's exact range). Above the schema's maximum, or past int32 for `format: int32`, nothing.
 */
export function integerEdges(s: Schema): EdgeValue[] {
  const type = typeOf(s);
  if ((type !== 'integer' && type !== 'number') || s.enum) return [];
  const max = typeof s.maximum === 'number' ? s.maximum - (s.exclusiveMaximum === true ? 1 : 0) : s.format === 'int32' ? TWO_TO_31 - 1 : MAX_SAFE;
  const min = typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? 1 : 0) : -MAX_SAFE;
  const edges = [
    { value: TWO_TO_31 - 1, description: '2^31-1, the largest 32-bit integer' },
    { value: TWO_TO_31, description: '2^31, one past 32 bits' },
    { value: MAX_SAFE, description: '2^53-1, the largest integer a double holds exactly' },
  ];
  return edges.filter((edge) => edge.value <= max && edge.value >= min && (typeof s.multipleOf !== 'number' || edge.value % s.multipleOf === 0));
}

/** RFC 3339 date-times (§5.6) with other offsets than `Z` and with fractions: one instant, many spellings. */
export const DATE_TIME_FORMS: readonly string[] = ['2026-12-01T09:00:00+02:00', '2026-12-01T09:00:00.123Z', '2026-12-01T09:00:00.5-05:30', '2026-12-01T23:59:59.999999+14:00'];

/**
 * Near misses for one property schema: a value of every JSON type it does not allow (Schemathesis's type
 * mutations), `null` where it is not nullable, an enum value in another case, and date-times and dates in the
 * forms other parsers take. The caller keeps those the schema refuses.
 */
export function nearMisses(raw: Schema): NearMiss[] {
  const s = mergeAllOf(raw);
  const type = typeOf(s);
  const out: NearMiss[] = [];
  if (type === undefined) return out;
  for (const [other, value, label] of otherTypes(s, type)) out.push({ kind: 'wrong-type', description: `${label} (a JSON ${other})`, value });
  if (!s.nullable) out.push({ kind: 'null', description: 'null, which the schema does not allow', value: null });
  for (const word of (s.enum ?? []).filter((v): v is string => typeof v === 'string')) {
    for (const variant of [word.toUpperCase(), word.charAt(0).toUpperCase() + word.slice(1), word.toLowerCase()]) {
      if (variant !== word && !(s.enum ?? []).includes(variant)) out.push({ kind: 'enum', description: `"${variant}", ${JSON.stringify(word)} in another case`, value: variant });
    }
  }
  if (type === 'string' && s.format === 'date-time') {
    for (const [value, label] of DATE_TIME_NEAR_MISSES) out.push({ kind: 'format', description: `"${value}", ${label}`, value });
  }
  if (type === 'string' && s.format === 'date') {
    for (const [value, label] of DATE_NEAR_MISSES) out.push({ kind: 'format', description: `"${value}", ${label}`, value });
  }
  return dedupe(out);
}

/** Date-times that are not RFC 3339 (§5.6) but that Date.parse, ISO 8601 parsers or SQL take. */
const DATE_TIME_NEAR_MISSES: readonly (readonly [string, string])[] = [
  ['2026-07-01', 'a bare date, no time'],
  ['2026-07-01T10:00:00', 'no offset (local time of nowhere)'],
  ['2026-07-01T10:00:00+0200', 'an offset without its colon (ISO 8601 basic)'],
  ['2026-07-01T10:00Z', 'no seconds'],
  ['2026-07-01 10:00:00', 'a space for the T and no offset (SQL)'],
  ['2026-13-01T10:00:00Z', 'month 13'],
  ['Wed, 01 Jul 2026 10:00:00 GMT', 'an HTTP-date, not RFC 3339'],
];

const DATE_NEAR_MISSES: readonly (readonly [string, string])[] = [
  ['2026-07-01T10:00:00Z', 'a date-time where a date goes'],
  ['2026-7-1', 'month and day without leading zeros'],
  ['01/07/2026', 'a day/month/year date'],
];

/** A value of each JSON type the schema does not take, chosen as lax parsers coerce them (a numeric string, 0/1 for a flag, a one-item array). */
function otherTypes(s: Schema, type: string): (readonly [string, unknown, string])[] {
  const numeric = type === 'integer' || type === 'number';
  const sample = numeric ? (typeof s.minimum === 'number' ? Math.max(1, s.minimum) : 1) : 1;
  const candidates: (readonly [string, unknown, string])[] = [
    ['string', numeric ? String(sample) : type === 'boolean' ? 'true' : 'x', numeric ? `the numeric string "${sample}"` : type === 'boolean' ? 'the string "true"' : 'the string "x"'],
    ['number', type === 'boolean' ? 1 : type === 'integer' ? sample + 0.5 : 12345, type === 'boolean' ? 'the number 1' : type === 'integer' ? `the fraction ${sample + 0.5}` : 'the number 12345'],
    ['boolean', true, 'true'],
    ['array', [numeric ? sample : type === 'boolean' ? true : 'x'], 'a one-item array of a valid-looking value'],
    ['object', {}, 'an empty object'],
  ];
  const allowed = new Set([type, ...(type === 'integer' ? [] : type === 'number' ? ['integer'] : [])]);
  return candidates.filter(([other]) => !allowed.has(other) && !(other === 'number' && type === 'number'));
}

/**
 * The fields of a body schema to vary, as JSON pointers with their schemas: the top-level properties and those of
 * nested objects the valid body holds, two levels deep; readOnly ones are not sent (OpenAPI 3.0.3 §4.7.24).
 */
export function bodyFields(raw: Schema, valid: unknown, depth = 0, pointer = ''): { pointer: string; name: string; schema: Schema }[] {
  const out: { pointer: string; name: string; schema: Schema }[] = [];
  if (!isObject(valid) || depth > 2) return out;
  for (const [name, property] of Object.entries(propertiesOf(raw))) {
    const p = mergeAllOf(schema(property));
    if (p.readOnly) continue;
    const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    out.push({ pointer: at, name, schema: p });
    const nested = valid[name];
    if (typeOf(p) === 'object' && isObject(nested)) out.push(...bodyFields(p, nested, depth + 1, at));
  }
  return out;
}

/** A deep copy of `body` with the value at `pointer` (a path of object members) set. */
export function withValueAt(body: JsonObject, pointer: string, value: unknown): JsonObject {
  const copy = structuredClone(body);
  const segments = pointer.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  let target: JsonObject = copy;
  for (const segment of segments.slice(0, -1)) {
    const next = target[segment];
    if (!isObject(next)) return copy;
    target = next;
  }
  target[segments.at(-1)!] = value;
  return copy;
}

function typeOf(s: Schema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (s.properties) return 'object';
  if (s.enum && s.enum.every((v) => typeof v === 'string')) return 'string';
  return undefined;
}

function clip(text: string, max: number | undefined): string {
  return max === undefined ? text : [...text].slice(0, max).join('');
}

function dedupe(values: NearMiss[]): NearMiss[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The valid body's text with one numeric field written as a literal JSON does not have (RFC 8259 §6: "Numeric
 * values that cannot be represented ... such as Infinity and NaN are not permitted"), which JavaScript's JSON5,
 * Python's json and others read anyway: one text per numeric field and literal.
 */
export function nonJsonNumberTexts(body: JsonObject, fields: readonly { pointer: string; schema: Schema }[], stringify: (value: unknown) => string): { pointer: string; description: string; text: string }[] {
  const out: { pointer: string; description: string; text: string }[] = [];
  const sentinel = '\u0000petstore-kit-literal\u0000';
  for (const field of fields) {
    const type = typeOf(field.schema);
    if (type !== 'integer' && type !== 'number') continue;
    const text = stringify(withValueAt(body, field.pointer, sentinel));
    const quoted = JSON.stringify(sentinel);
    if (!text.includes(quoted)) continue;
    for (const literal of ['NaN', 'Infinity', '-Infinity']) {
      out.push({ pointer: field.pointer, description: `${field.pointer} written as the literal ${literal}, which JSON does not have`, text: text.replace(quoted, literal) });
    }
  }
  return out;
}

/** What one round of real-user data sets in a body: which text, which integer edge, which date-time form, which flag and enum value. */
export interface EdgeRound {
  /** 0, 1, …: the round picks the round-th text, edge, form and value of each list (wrapping). */
  readonly index: number;
  /** A tag to keep texts the run's. */
  readonly tag: string;
  /** Whether integers go to their 32- and 53-bit edges (a state rule may refuse a quantity of 2^31: the caller tries without). */
  readonly numbers: boolean;
}

/** How many rounds it takes to send every real-user text once. */
export const EDGE_ROUNDS = 4;

/**
 * A body with every field it may hold (top-level, the others as they are) set to the round's real-user value:
 * free text to one of realUserTexts, integers to an edge, date-times to another offset, flags and enums to their
 * round-th value. A field in `keep` stays; a change the operation's validator refuses (`isValid`) is not made.
 */
export function edgeRoundBody(round: EdgeRound, body: JsonObject, bodySchema: Schema, keep: ReadonlySet<string>, isValid: (candidate: JsonObject) => boolean): JsonObject {
  let out = body;
  for (const [name, raw] of Object.entries(propertiesOf(bodySchema))) {
    const s = mergeAllOf(schema(raw));
    if (keep.has(name) || s.readOnly) continue;
    const value = roundValue(round, s);
    if (value === undefined) continue;
    const candidate = { ...out, [name]: value };
    if (isValid(candidate)) out = candidate;
  }
  return out;
}

function roundValue(round: EdgeRound, s: Schema): unknown {
  const type = typeOf(s);
  const pick = <T>(values: readonly T[]): T | undefined => (values.length === 0 ? undefined : values[round.index % values.length]);
  if (s.enum) return pick(s.enum);
  if (type === 'boolean') return round.index % 2 === 0;
  if (type === 'integer' || type === 'number') return round.numbers ? pick(integerEdges(s).map((e) => e.value)) : undefined;
  if (type === 'string' && s.format === 'date-time') return pick(DATE_TIME_FORMS);
  if (type === 'string' && !s.format && !s.pattern) return pick(realUserTexts(round.tag, s.maxLength).map((t) => t.value));
  return undefined;
}

/** The round's texts and values in a few words, for a case title. */
export function describeRound(round: EdgeRound): string {
  const text = realUserTexts(round.tag, undefined)[round.index % EDGE_ROUNDS]!.description;
  return `${text}${round.numbers ? ', integers at their 32/53-bit edges' : ''}, date-times with an offset, flags and enums at value ${round.index + 1}`;
}
