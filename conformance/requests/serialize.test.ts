/**
 * OpenAPI 3.0.3 §4.7.12.4, the style-examples table, row by row: a parameter
 * named `color` holding "" (empty), "blue" (string), ["blue","black","brown"]
 * (array) or {R:100,G:200,B:150} (object). Each cell the table fills is one
 * case, read back from the location the style belongs to: path for matrix,
 * label and simple (and header for simple), query for form, spaceDelimited,
 * pipeDelimited and deepObject.
 */
import { describe, expect, it } from 'vitest';
import type { ParameterLocation, ParameterStyle } from '../../src/contract/index.js';
import { cookieHeader, queryString, serializeParameter, type SerializedParameter } from './serialize.js';

const VALUES = { empty: '', string: 'blue', array: ['blue', 'black', 'brown'], object: { R: 100, G: 200, B: 150 } } as const;
type Kind = keyof typeof VALUES;

// [style, explode, empty, string, array, object] as the specification prints them; null where it says n/a.
const TABLE: [ParameterStyle, boolean, string | null, string | null, string | null, string | null][] = [
  ['matrix', false, ';color', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
  ['matrix', true, ';color', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ['label', false, '.', '.blue', '.blue.black.brown', '.R.100.G.200.B.150'],
  ['label', true, '.', '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
  ['form', false, 'color=', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
  ['form', true, 'color=', 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
  ['simple', false, null, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
  ['simple', true, null, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ['spaceDelimited', false, null, null, 'blue%20black%20brown', 'R%20100%20G%20200%20B%20150'],
  ['pipeDelimited', false, null, null, 'blue|black|brown', 'R|100|G|200|B|150'],
  ['deepObject', true, null, null, null, 'color[R]=100&color[G]=200&color[B]=150'],
];

/** Where each style is read back, and how its cell is printed: the table prints delimited styles' value alone. */
const READ: Record<ParameterStyle, { in: ParameterLocation; read: (s: SerializedParameter) => string | undefined }[]> = {
  matrix: [{ in: 'path', read: (s) => s.path }],
  label: [{ in: 'path', read: (s) => s.path }],
  simple: [
    { in: 'path', read: (s) => s.path },
    { in: 'header', read: (s) => s.header?.[1] },
  ],
  form: [{ in: 'query', read: (s) => s.query && queryString(s.query) }],
  spaceDelimited: [{ in: 'query', read: (s) => (s.query?.length === 1 && s.query[0]![0] === 'color' ? s.query[0]![1] : undefined) }],
  pipeDelimited: [{ in: 'query', read: (s) => (s.query?.length === 1 && s.query[0]![0] === 'color' ? s.query[0]![1] : undefined) }],
  deepObject: [{ in: 'query', read: (s) => s.query && queryString(s.query) }],
};

const KINDS: Kind[] = ['empty', 'string', 'array', 'object'];
const cases = TABLE.flatMap(([style, explode, ...cells]) =>
  cells.flatMap((expected, i) =>
    expected === null ? [] : READ[style].map((where) => [`${style} explode=${explode} ${where.in} ${KINDS[i]!} → ${expected}`, style, explode, where, KINDS[i]!, expected] as const),
  ),
);

describe('serializeParameter: the OpenAPI 3.0.3 style-examples table (§4.7.12.4)', () => {
  it('covers every filled cell of the table', () => {
    expect(TABLE.flatMap(([, , ...cells]) => cells).filter((cell) => cell !== null)).toHaveLength(35);
  });

  it.each(cases)('%s', (_title, style, explode, where, kind, expected) => {
    const serialized = serializeParameter({ name: 'color', in: where.in, style, explode }, VALUES[kind]);
    expect(where.read(serialized)).toBe(expected);
  });
});

describe('serializeParameter beyond the table', () => {
  it('uses the location defaults of §4.7.12.1: form and explode in query and cookie, simple in path and header', () => {
    expect(serializeParameter({ name: 'id', in: 'query' }, [1, 2])).toEqual({ query: [['id', '1'], ['id', '2']] });
    expect(serializeParameter({ name: 'id', in: 'path' }, [1, 2])).toEqual({ path: '1,2' });
    expect(serializeParameter({ name: 'X-Ids', in: 'header' }, [1, 2])).toEqual({ header: ['X-Ids', '1,2'] });
    expect(serializeParameter({ name: 'ids', in: 'cookie' }, [1, 2])).toEqual({ cookie: [['ids', '1'], ['ids', '2']] });
  });

  it('percent-encodes values in paths and queries, never the separators it adds (RFC 3986 §2)', () => {
    expect(serializeParameter({ name: 'name', in: 'path' }, 'a/b c,d')).toEqual({ path: 'a%2Fb%20c%2Cd' });
    expect(serializeParameter({ name: 'tags', in: 'query', explode: false }, ['a,b', 'c&d'])).toEqual({ query: [['tags', 'a%2Cb,c%26d']] });
    expect(serializeParameter({ name: 'q', in: 'query' }, "it's (x)*!")).toEqual({ query: [['q', 'it%27s%20%28x%29%2A%21']] });
  });

  it('keeps reserved characters in a query value with allowReserved, and still encodes the rest', () => {
    expect(serializeParameter({ name: 'next', in: 'query', allowReserved: true }, '/a?b=c d')).toEqual({ query: [['next', '/a?b=c%20d']] });
  });

  it('leaves header values as they are: a header is not URI text', () => {
    expect(serializeParameter({ name: 'X-Note', in: 'header' }, 'a b/c')).toEqual({ header: ['X-Note', 'a b/c'] });
  });

  it('writes cookies as pairs, joined as a Cookie header (RFC 6265 §4.2.1)', () => {
    const object = serializeParameter({ name: 'prefs', in: 'cookie' }, { theme: 'dark mode', size: 2 });
    expect(object.cookie).toEqual([['theme', 'dark%20mode'], ['size', '2']]);
    expect(cookieHeader(object.cookie!)).toBe('theme=dark%20mode; size=2');
    expect(serializeParameter({ name: 'ids', in: 'cookie', explode: false }, [1, 2]).cookie).toEqual([['ids', '1,2']]);
  });

  it('sends numbers, booleans and null as text, and nothing for undefined', () => {
    expect(serializeParameter({ name: 'n', in: 'query' }, 1.5)).toEqual({ query: [['n', '1.5']] });
    expect(serializeParameter({ name: 'b', in: 'path', style: 'label' }, false)).toEqual({ path: '.false' });
    expect(serializeParameter({ name: 'z', in: 'query' }, null)).toEqual({ query: [['z', '']] });
    expect(serializeParameter({ name: 'u', in: 'query' }, undefined)).toEqual({});
  });

  it('gives the cells the table marks n/a a form rather than refusing them', () => {
    expect(serializeParameter({ name: 'color', in: 'query', style: 'pipeDelimited', explode: false }, 'blue')).toEqual({ query: [['color', 'blue']] });
    expect(serializeParameter({ name: 'color', in: 'query', style: 'spaceDelimited', explode: true }, ['a', 'b'])).toEqual({ query: [['color', 'a'], ['color', 'b']] });
    expect(serializeParameter({ name: 'color', in: 'query', style: 'deepObject', explode: true }, ['a', 'b'])).toEqual({ query: [['color', 'a'], ['color', 'b']] });
    expect(serializeParameter({ name: 'filter', in: 'query', style: 'deepObject', explode: true }, { range: { min: 1 } })).toEqual({ query: [['filter[range]', '%7B%22min%22%3A1%7D']] });
  });
});
