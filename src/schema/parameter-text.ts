/**
 * Reading a parameter off the wire by its `style` and `explode` (OpenAPI 3.0.3 §4.7.12.4, 3.1.0 §4.8.12.4): the
 * inverse of conformance/serialize.ts, for every location the validators read (path, query, header). What comes out
 * is still text (one string, a list of strings, or name/value pairs); `coerce.ts` types it by the schema.
 *
 * Where the specification's own table is read two ways, both are taken: a `label` array is `.blue.black.brown`
 * in 3.0.3's table and `.blue,black,brown` in RFC 6570 §3.2.5, which the table cites. A value that a client
 * following either reading sends is read as the array it meant.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { ParameterSpec } from '../contract/index.js';
import { shapeOfSchema } from './schema-types.js';

export type WireValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter as read: absent, or its text in the shape its schema asks for. */
export type ParameterText =
  | { readonly kind: 'absent' }
  | { readonly kind: 'primitive'; readonly text: string | readonly string[] }
  | { readonly kind: 'array'; readonly items: readonly string[] }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, string])[] }
  | { readonly kind: 'json'; readonly text: string };

/**
 * The text of one parameter among the values of its location (the query's names, the path's parameters, the
 * headers in lower case). `others`: the names the operation's other parameters of that location take, which an
 * exploded `form` object (whose members travel as names of their own) does not claim.
 */
export function parameterText(spec: ParameterSpec, values: WireValues, others: ReadonlySet<string> = EMPTY): ParameterText {
  const key = spec.in === 'header' ? spec.name.toLowerCase() : spec.name;
  // §4.7.12: a parameter described by `content` is one value of that media type (JSON text for application/json).
  if (spec.mediaType !== undefined) {
    const raw = one(values[key]);
    if (raw === undefined) return ABSENT;
    return /json/i.test(spec.mediaType) ? { kind: 'json', text: raw } : { kind: 'primitive', text: raw };
  }
  const shape = shapeOfSchema(spec.schema);
  const style = spec.style ?? (spec.in === 'query' || spec.in === 'cookie' ? 'form' : 'simple');
  const explode = spec.explode;
  if (spec.in === 'query') {
    if (shape === 'object') return queryObject(spec, values, key, style, explode, others);
    const raw = values[key];
    if (raw === undefined) return ABSENT;
    if (shape !== 'array') return { kind: 'primitive', text: raw };
    const list = typeof raw === 'string' ? [raw] : raw;
    if (explode) return { kind: 'array', items: list };
    // form: `a,b`; spaceDelimited: `a%20b` (decoded to a space; `+` too); pipeDelimited: `a|b`. A client that repeats
    // the name instead (`a=1&a=2`) is read as well: the values are the same list.
    const separator = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
    return { kind: 'array', items: list.length === 1 && list[0] === '' ? [] : list.flatMap((item) => item.split(separator)) };
  }
  const raw = values[key];
  if (raw === undefined) return ABSENT;
  // A header sent twice arrives as a list, or joined with `, ` (RFC 9110 §5.3): one comma-separated value either way.
  const text = typeof raw === 'string' ? raw : raw.join(', ');
  const trim = spec.in === 'header' ? (items: string[]) => items.map((item) => item.trim()) : (items: string[]) => items;
  if (style === 'label') return labelled(text, shape, explode, trim);
  if (style === 'matrix') return matrix(text, spec.name, shape, explode, trim);
  if (shape === 'array') return { kind: 'array', items: text === '' ? [] : trim(text.split(',')) };
  if (shape === 'object') return explode ? { kind: 'object', entries: pairsOf(trim(text.split(',')), '=') } : { kind: 'object', entries: alternating(trim(text.split(','))) };
  return { kind: 'primitive', text };
}

/**
 * The query names a parameter takes besides its own: `color[R]` for a deepObject, each member's name for an exploded
 * `form` object (every name no other parameter takes, where the object allows members it does not list).
 */
export function claimsQueryName(spec: ParameterSpec, name: string, others: ReadonlySet<string> = EMPTY): boolean {
  if (spec.in !== 'query') return false;
  if (name === spec.name) return true;
  if (spec.mediaType !== undefined || shapeOfSchema(spec.schema) !== 'object') return false;
  const style = spec.style ?? 'form';
  if (style === 'deepObject') return name.startsWith(`${spec.name}[`) && name.endsWith(']');
  if (spec.explode) return !others.has(name) && ownsMember(spec.schema, name);
  return false;
}

function queryObject(spec: ParameterSpec, values: WireValues, key: string, style: string, explode: boolean, others: ReadonlySet<string>): ParameterText {
  if (style === 'deepObject') {
    // color[R]=100&color[G]=200 (§4.7.12.4); one level deep, as the specification defines it.
    const entries: [string, string][] = [];
    const prefix = `${key}[`;
    for (const name in values) {
      if (!name.startsWith(prefix) || !name.endsWith(']')) continue;
      const value = values[name];
      if (value !== undefined) entries.push([name.slice(prefix.length, -1), one(value) ?? '']);
    }
    return entries.length === 0 ? ABSENT : { kind: 'object', entries };
  }
  if (explode) {
    // R=100&G=200: the members are names of their own (spaceDelimited and pipeDelimited, which the table leaves
    // undefined for an exploded object, are written so by clients too).
    const entries: [string, string][] = [];
    for (const name in values) {
      if (others.has(name) || !ownsMember(spec.schema, name)) continue;
      const value = values[name];
      if (value !== undefined) entries.push([name, one(value) ?? '']);
    }
    return entries.length === 0 ? ABSENT : { kind: 'object', entries };
  }
  const raw = one(values[key]);
  if (raw === undefined) return ABSENT;
  const separator = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
  return { kind: 'object', entries: raw === '' ? [] : alternating(raw.split(separator)) };
}

/** `.blue`, `.blue.black.brown` or `.blue,black,brown`, `.R.100.G.200`, `.R=100.G=200` (§4.7.12.4; RFC 6570 §3.2.5). */
function labelled(text: string, shape: Shape, explode: boolean, trim: (items: string[]) => string[]): ParameterText {
  const body = text.startsWith('.') ? text.slice(1) : text;
  if (shape === 'primitive') return { kind: 'primitive', text: body };
  const parts = body === '' ? [] : trim(!explode && body.includes(',') ? body.split(',') : body.split('.'));
  if (shape === 'array') return { kind: 'array', items: parts };
  return explode ? { kind: 'object', entries: pairsOf(parts, '=') } : { kind: 'object', entries: alternating(parts) };
}

/** `;color=blue`, `;color=blue,black`, `;color=blue;color=black`, `;color=R,100,G,200`, `;R=100;G=200` (§4.7.12.4; RFC 6570 §3.2.7). */
function matrix(text: string, name: string, shape: Shape, explode: boolean, trim: (items: string[]) => string[]): ParameterText {
  const segments = text.split(';').filter((segment) => segment !== '');
  const own = (segment: string): string | undefined => (segment === name ? '' : segment.startsWith(`${name}=`) ? segment.slice(name.length + 1) : undefined);
  if (shape === 'object' && explode) return { kind: 'object', entries: pairsOf(segments, '=') };
  const mine = segments.map(own).filter((value): value is string => value !== undefined);
  if (shape === 'primitive') return { kind: 'primitive', text: mine[0] ?? '' };
  const flat = explode ? mine : trim((mine[0] ?? '') === '' ? [] : mine[0]!.split(','));
  return shape === 'array' ? { kind: 'array', items: flat } : { kind: 'object', entries: alternating(flat) };
}

type Shape = ReturnType<typeof shapeOfSchema>;

function pairsOf(parts: readonly string[], separator: string): [string, string][] {
  return parts.map((part) => {
    const at = part.indexOf(separator);
    return at === -1 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
  });
}

/** `R,100,G,200` as pairs; a name without its value gets ''. */
function alternating(parts: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < parts.length; i += 2) out.push([parts[i]!, parts[i + 1] ?? '']);
  return out;
}

function one(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value[value.length - 1];
}

/** Whether an object schema takes a member of this name: one it lists, or any where it allows more. */
function ownsMember(schema: OpenAPIV3.SchemaObject, name: string, depth = 0): boolean {
  const properties = schema.properties ?? {};
  if (Object.hasOwn(properties, name)) return true;
  // Members declared in a part or a branch are the object's too (Intercom's `filter`: `oneOf` of `{user_id}` and
  // `{email}`, each closed): `user_id=u1` is the parameter, not an unknown name. A few levels deep (a schema may hold itself).
  if (depth < 8) for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) if (ownsMember(part as OpenAPIV3.SchemaObject, name, depth + 1)) return true;
  // An object that lists no member takes any (RocketChat's users.autocomplete `selector: { type: object }`, its members
  // `term=...&conditions=...` sent as names of their own): additionalProperties left out allows them, as JSON Schema
  // says, unless the object is made of parts or branches, which say what it takes.
  if (Object.keys(properties).length > 0 || schema.additionalProperties === false) return false;
  return schema.additionalProperties !== undefined || !hasParts(schema);
}

function hasParts(schema: OpenAPIV3.SchemaObject): boolean {
  return (schema.allOf?.length ?? 0) > 0 || (schema.oneOf?.length ?? 0) > 0 || (schema.anyOf?.length ?? 0) > 0;
}

const ABSENT: ParameterText = Object.freeze({ kind: 'absent' as const });
const EMPTY: ReadonlySet<string> = new Set();
