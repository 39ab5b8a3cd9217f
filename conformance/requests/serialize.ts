/**
 * Parameter serialization: a typed value in, its wire form out, for every
 * location (path, query, header, cookie) and every `style`/`explode` of
 * OpenAPI 3.0.3 §4.7.12.4 (Style Values), whose style-examples table
 * (`color` as "blue", ["blue","black","brown"] and {R:100,G:200,B:150}) is the
 * test (serialize.test.ts). Pure: no HTTP, no schema; the generator picks the
 * value, this writes it.
 *
 * What the table marks n/a is still given a form rather than refused, so a
 * request can always be built: a primitive under spaceDelimited,
 * pipeDelimited or deepObject goes out as `form` would send it, and an array
 * under deepObject as exploded `form`. Nested objects inside an object value
 * (not defined by 3.0.3) go out as JSON text.
 */
import type { ParameterLocation, ParameterStyle } from '../../src/contract/index.js';

/** What serialization reads of a parameter; a ParameterSpec of src/contract fits. */
export interface SerializableParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  /** Default: form for query and cookie, simple for path and header (§4.7.12.1). */
  readonly style?: ParameterStyle;
  /** Default: true for form, false otherwise (§4.7.12.1). */
  readonly explode?: boolean;
  /** Query only: RFC 3986 reserved characters are sent as they are. */
  readonly allowReserved?: boolean;
}

/**
 * The wire form, in the one field of the parameter's location. Path and
 * query text is already percent-encoded: put it in the URL as it is (do not
 * hand it to URLSearchParams, which would encode it again).
 */
export interface SerializedParameter {
  /** Replaces `{name}` in the path template: `blue`, `.blue`, `;color=blue`. */
  readonly path?: string;
  /** Pairs in order, each already encoded; join as `k=v` with `&` (see queryString). */
  readonly query?: readonly (readonly [name: string, value: string])[];
  /** One header: its name and value (header values are not percent-encoded). */
  readonly header?: readonly [name: string, value: string];
  /** Cookie pairs, encoded; join as `k=v` with `; ` (see cookieHeader). */
  readonly cookie?: readonly (readonly [name: string, value: string])[];
}

type Primitive = string | number | boolean | null;
type Shape = { kind: 'primitive'; value: string } | { kind: 'array'; items: string[] } | { kind: 'object'; entries: [string, string][] };

/** Serializes one parameter value; `undefined` (a parameter left out) gives `{}`. */
export function serializeParameter(parameter: SerializableParameter, value: unknown): SerializedParameter {
  if (value === undefined) return {};
  const style = parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
  const explode = parameter.explode ?? style === 'form';
  const shape = shapeOf(value);
  switch (parameter.in) {
    case 'path':
      return { path: expand(parameter.name, shape, style, explode, uriEncoder(false)).text };
    case 'query': {
      const { pairs } = expand(parameter.name, shape, style, explode, uriEncoder(parameter.allowReserved === true));
      return { query: pairs };
    }
    case 'header':
      // §4.7.12.4: simple is the header style; values are not URI text, so nothing is percent-encoded.
      return { header: [parameter.name, expand(parameter.name, shape, style, explode, (text) => text).text] };
    case 'cookie':
      return { cookie: expand(parameter.name, shape, style, explode, uriEncoder(false)).pairs };
  }
}

/** The query string of some serialized pairs, without the leading `?`. */
export function queryString(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** The value of a `Cookie` header for some serialized pairs (RFC 6265 §4.2.1: `; ` between pairs). */
export function cookieHeader(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('; ');
}

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(text) };
  if (typeof value === 'object' && value !== null) return { kind: 'object', entries: Object.entries(value).map(([key, item]) => [key, text(item)]) };
  return { kind: 'primitive', value: text(value) };
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as Primitive);
}

type Encode = (text: string) => string;

/** RFC 3986 §2.3: everything but unreserved characters is percent-encoded; with allowReserved, the §2.2 reserved set stays as it is. */
function uriEncoder(allowReserved: boolean): Encode {
  return (raw) => {
    const strict = encodeURIComponent(raw).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    return allowReserved ? strict.replace(/%(3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g, (escaped) => decodeURIComponent(escaped)) : strict;
  };
}

/**
 * One row of the style table. `text` is the whole expansion (what a path
 * segment or a header holds); `pairs` the same as name/value pairs (what a
 * query or cookie holds).
 */
function expand(name: string, shape: Shape, style: ParameterStyle, explode: boolean, encode: Encode): Expansion {
  const flat = (shape: Shape): string[] =>
    shape.kind === 'primitive' ? [encode(shape.value)] : shape.kind === 'array' ? shape.items.map(encode) : shape.entries.flatMap(([k, v]) => [encode(k), encode(v)]);
  const keyed = (shape: Shape): [string, string][] => (shape.kind === 'object' ? shape.entries.map(([k, v]) => [encode(k), encode(v)]) : []);
  const empty = shape.kind === 'primitive' ? shape.value === '' : shape.kind === 'array' ? shape.items.length === 0 : shape.entries.length === 0;

  switch (style) {
    case 'matrix': {
      // ;color=blue | ;color=blue,black,brown | ;color=blue;color=black;color=brown | ;R=100;G=200;B=150
      if (empty) return { text: `;${name}`, pairs: [[name, '']] };
      if (shape.kind === 'array' && explode) return prefixed(';', joined(';', shape.items.map((item) => [name, encode(item)])));
      if (shape.kind === 'object' && explode) return prefixed(';', joined(';', keyed(shape)));
      return prefixed(';', joined(';', [[name, flat(shape).join(',')]]));
    }
    case 'label': {
      // .blue | .blue.black.brown (either explode, as 3.0.3's table has it) | .R.100.G.200.B.150 | .R=100.G=200.B=150
      if (empty) return { text: '.', pairs: [[name, '']] };
      const parts = shape.kind === 'object' && explode ? keyed(shape).map(([k, v]) => `${k}=${v}`) : flat(shape);
      return { text: `.${parts.join('.')}`, pairs: [[name, parts.join('.')]] };
    }
    case 'simple': {
      // blue | blue,black,brown | R,100,G,200,B,150 | R=100,G=200,B=150
      const parts = shape.kind === 'object' && explode ? keyed(shape).map(([k, v]) => `${k}=${v}`) : flat(shape);
      return { text: parts.join(','), pairs: [[name, parts.join(',')]] };
    }
    case 'spaceDelimited':
    case 'pipeDelimited': {
      // blue%20black%20brown | blue|black|brown; exploded, as form.
      if (shape.kind === 'primitive' || explode) return form(name, shape, explode, encode);
      const separator = style === 'spaceDelimited' ? '%20' : '|';
      return joined('&', [[name, flat(shape).join(separator)]]);
    }
    case 'deepObject':
      // color[R]=100&color[G]=200&color[B]=150
      if (shape.kind !== 'object') return form(name, shape, true, encode);
      return joined('&', keyed(shape).map(([k, v]) => [`${name}[${k}]`, v]));
    case 'form':
      return form(name, shape, explode, encode);
  }
}

interface Expansion {
  readonly text: string;
  readonly pairs: [string, string][];
}

function joined(separator: string, pairs: [string, string][]): Expansion {
  return { text: pairs.map(([n, v]) => `${n}=${v}`).join(separator), pairs };
}

/** color=blue | color=blue,black,brown | color=blue&color=black&color=brown | R=100&G=200&B=150 | color=R,100,G,200,B,150 */
function form(name: string, shape: Shape, explode: boolean, encode: Encode): Expansion {
  if (shape.kind === 'array' && explode) return joined('&', shape.items.map((item) => [name, encode(item)]));
  if (shape.kind === 'object' && explode) return joined('&', shape.entries.map(([k, v]) => [encode(k), encode(v)]));
  const value = shape.kind === 'primitive' ? encode(shape.value) : shape.kind === 'array' ? shape.items.map(encode).join(',') : shape.entries.flatMap(([k, v]) => [encode(k), encode(v)]).join(',');
  return joined('&', [[name, value]]);
}

function prefixed(prefix: string, expansion: Expansion): Expansion {
  return { text: `${prefix}${expansion.text}`, pairs: expansion.pairs };
}
