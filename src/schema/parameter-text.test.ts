/**
 * Reading parameters by style (parameter-text.ts, coerce.ts) is the inverse of writing them (conformance/serialize.ts):
 * for every location, style and explode of OpenAPI 3.0.3 §4.7.12.4 and every shape of value (a primitive, an array,
 * an object), a value written as a client generated from the document writes it, then read off the wire as the mock
 * reads it (the query and path decoded as mock/transport/server.ts and src/router.ts decode them), is the value sent. The
 * specification's own table is the first case; fast-check draws the rest (seeded, so a failure names its seed).
 */
import fc from 'fast-check';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { queryString, serializeParameter } from '../../conformance/requests/serialize.js';
import type { ParameterLocation, ParameterSpec, ParameterStyle } from '../contract/index.js';
import { casesForTier } from '../test-tier.js';
import { coerceParameter } from './coerce.js';
import { parameterText, type WireValues } from './parameter-text.js';

type Shape = 'primitive' | 'array' | 'object';
/** The styles each location takes, and the shapes each style is defined for (§4.7.12.4's table). */
const STYLES: Readonly<Record<Exclude<ParameterLocation, 'cookie'>, readonly (readonly [ParameterStyle, readonly Shape[]])[]>> = {
  path: [
    ['simple', ['primitive', 'array', 'object']],
    ['label', ['primitive', 'array', 'object']],
    ['matrix', ['primitive', 'array', 'object']],
  ],
  query: [
    ['form', ['primitive', 'array', 'object']],
    ['spaceDelimited', ['array', 'object']],
    ['pipeDelimited', ['array', 'object']],
    ['deepObject', ['object']],
  ],
  header: [['simple', ['primitive', 'array', 'object']]],
};

/** What a query string is to mock/transport/server.ts: decoded names and values, a repeated name as a list. */
function wireQuery(text: string): WireValues {
  const out: Record<string, string | string[]> = {};
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    const value = eq === -1 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    const previous = out[name];
    out[name] = previous === undefined ? value : typeof previous === 'string' ? [previous, value] : [...previous, value];
  }
  return out;
}

function readBack(spec: ParameterSpec, value: unknown): unknown {
  const wire = serializeParameter(spec, value);
  const values: WireValues =
    spec.in === 'path' ? { [spec.name]: decodeURIComponent(wire.path!) } : spec.in === 'query' ? wireQuery(queryString(wire.query!)) : { [spec.name.toLowerCase()]: wire.header![1] };
  const coerced = coerceParameter(parameterText(spec, values), spec.schema);
  if (!coerced.ok) throw new Error(`${coerced.message} (wire: ${JSON.stringify(wire)})`);
  return coerced.value;
}

const SCHEMAS: Readonly<Record<Shape, OpenAPIV3.SchemaObject>> = {
  primitive: { type: 'integer' },
  array: { type: 'array', items: { type: 'string' } },
  object: { type: 'object', properties: { R: { type: 'integer' }, G: { type: 'integer' }, B: { type: 'boolean' } } },
};

describe('a parameter written by its style is read back as the value sent', () => {
  it('the specification table: color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}', () => {
    for (const [location, styles] of Object.entries(STYLES) as [Exclude<ParameterLocation, 'cookie'>, (typeof STYLES)['path']][]) {
      for (const [style, shapes] of styles) {
        for (const explode of style === 'deepObject' ? [true] : [false, true]) {
          for (const shape of shapes) {
            const schema: OpenAPIV3.SchemaObject = shape === 'primitive' ? { type: 'string' } : shape === 'array' ? SCHEMAS.array : { type: 'object', properties: { R: { type: 'integer' }, G: { type: 'integer' }, B: { type: 'integer' } } };
            const value = shape === 'primitive' ? 'blue' : shape === 'array' ? ['blue', 'black', 'brown'] : { R: 100, G: 200, B: 150 };
            const spec: ParameterSpec = { name: 'color', in: location, required: location === 'path', schema, style, explode };
            expect(readBack(spec, value), `${location} ${style} explode=${explode} ${shape}`).toEqual(value);
          }
        }
      }
    }
  });

  it('any location, style, explode and value (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_~-]{1,8}$/);
    const valueOf = (shape: Shape): fc.Arbitrary<unknown> =>
      shape === 'primitive'
        ? fc.integer({ min: -1000, max: 1000 })
        : shape === 'array'
          ? fc.array(word, { minLength: 1, maxLength: 5 })
          : fc.record({ R: fc.integer({ min: 0, max: 255 }), G: fc.integer({ min: 0, max: 255 }), B: fc.boolean() }, { requiredKeys: ['R'] });
    const specs = fc.constantFrom(...(Object.entries(STYLES) as [Exclude<ParameterLocation, 'cookie'>, (typeof STYLES)['path']][]).flatMap(([location, styles]) => styles.flatMap(([style, shapes]) => shapes.map((shape) => [location, style, shape] as const))));
    fc.assert(
      fc.property(specs.chain(([location, style, shape]) => fc.tuple(fc.constant(location), fc.constant(style), fc.constant(shape), style === 'deepObject' ? fc.constant(true) : fc.boolean(), valueOf(shape), fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/))), ([location, style, shape, explode, value, name]) => {
        const spec: ParameterSpec = { name, in: location, required: location === 'path', schema: SCHEMAS[shape], style, explode };
        expect(readBack(spec, value)).toEqual(value);
      }),
      { seed: 32, numRuns: casesForTier({ fast: 300, full: 5_000 }) },
    );
  });

  it("an exploded form object that lists no member takes every name no other parameter takes (RocketChat's users.autocomplete selector)", () => {
    const spec: ParameterSpec = { name: 'selector', in: 'query', required: true, schema: { type: 'object' }, style: 'form', explode: true };
    const value = { term: 'user', conditions: '{"status":"offline"}', $or: '[{"type":"user"}]' };
    expect(readBack(spec, value)).toEqual(value);
    // A name another parameter of the operation takes stays that parameter's.
    const coerced = coerceParameter(parameterText(spec, { term: 'user', count: '5' }, new Set(['count'])), spec.schema);
    expect(coerced.ok ? coerced.value : coerced.message).toEqual({ term: 'user' });
    // An object made of branches takes only the members its branches list.
    const branches: ParameterSpec = { ...spec, schema: { oneOf: [{ type: 'object', properties: { user_id: { type: 'string' } } }] } };
    const picked = coerceParameter(parameterText(branches, { user_id: 'u1', unknown: 'x' }), branches.schema);
    expect(picked.ok ? picked.value : picked.message).toEqual({ user_id: 'u1' });
  });

  it('types text by the schema\'s own types: 3.1 type lists, enums, oneOf', () => {
    const read = (schema: OpenAPIV3.SchemaObject, text: string): unknown => {
      const spec: ParameterSpec = { name: 'v', in: 'query', required: false, schema, style: 'form', explode: true };
      const coerced = coerceParameter(parameterText(spec, { v: text }), schema);
      return coerced.ok ? coerced.value : `refused: ${coerced.message}`;
    };
    expect(read({ type: ['integer', 'null'] } as unknown as OpenAPIV3.SchemaObject, '12')).toBe(12);
    expect(read({ type: ['integer', 'null'] } as unknown as OpenAPIV3.SchemaObject, 'null')).toBe(null);
    expect(read({ enum: [1, 2, 3] }, '2')).toBe(2);
    expect(read({ oneOf: [{ type: 'integer' }, { type: 'string' }] }, 'abc')).toBe('abc');
    expect(read({ allOf: [{ type: 'boolean' }] }, 'true')).toBe(true);
    expect(read({ type: 'integer' }, '1e3')).toMatch(/^refused: must be an integer/);
  });
});
