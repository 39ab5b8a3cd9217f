/**
 * The one generator (issue 31, point 1): what it makes validates against the schema (Ajv, as the kit compiles
 * it), stays within its budget, and what it cannot make within the budget is reported with the spot and the
 * keyword, before anything is built. Hostile schemas are named regression cases; a property-based test draws
 * random schemas and budgets (fast-check) and holds the generator to "valid and within budget, or a reason".
 */
import { Faker, en } from '@faker-js/faker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv, toJsonSchema } from '../schema/index.js';
import { casesForTier } from '../test-tier.js';
import { DEFAULT_GENERATION_BUDGET, parseGenerationBudget, type GenerationBudget } from './budget.js';
import { mergeAllOf, typeOf, type Schema } from './composition.js';
import { generate, whyUnmakeable, type GenerateOptions } from './generate.js';
import type { Style, View } from './walker.js';

const ajv = createAjv({ strict: false });

function validates(schema: Schema, view: View, value: unknown): string | undefined {
  const validate = ajv.compile(toJsonSchema(schema, view));
  return validate(value) ? undefined : JSON.stringify(validate.errors?.slice(0, 3));
}

function options(style: Style, view: View, seed = 1, extra: Partial<GenerateOptions> = {}): GenerateOptions {
  return { style, view, faker: new Faker({ locale: [en], seed }), ...extra };
}

/** How deep a JSON value nests: a scalar 0, a container one more than its deepest child. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.length === 0 ? 0 : 1 + Math.max(...children.map(depthOf));
}

function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  return Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(longestString));
}

function longestArray(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const own = Array.isArray(value) ? value.length : 0;
  return Math.max(own, ...(Array.isArray(value) ? value : Object.values(value)).map(longestArray));
}

/** A record that requires itself ten times, as a dereferenced document holds it (issue 31's measured case). */
function selfRequired(): { thing: Schema; document: object } {
  const properties: Record<string, Schema> = { id: { type: 'integer', readOnly: true } };
  const thing: Schema = { type: 'object', required: ['id', ...Array.from({ length: 10 }, (_, i) => `p${i}`)], properties };
  for (let i = 0; i < 10; i += 1) properties[`p${i}`] = thing;
  return { thing, document: { components: { schemas: { Thing: thing } } } };
}

describe('hostile schemas are reported, not attempted (issue 31)', () => {
  const { thing, document } = selfRequired();
  const cases: readonly [string, Schema, { at: string; keyword: string; cap?: string }][] = [
    ['a minLength of 10^8', { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 100_000_000 } } }, { at: '#/x/properties/name', keyword: 'minLength', cap: 'string' }],
    ['a minLength of 10^9 on a nullable field that is optional', { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1_000_000_000 } } }, { at: '#/x/properties/name', keyword: 'minLength', cap: 'string' }],
    ['an explicit repeat of 10^8 characters', { type: 'string', pattern: '^(?:[a-z]{10000}){10000}$' }, { at: '#/x', keyword: 'pattern', cap: 'string' }],
    ['a record that requires itself ten times', thing, { at: '#/components/schemas/Thing/properties/p0', keyword: 'type' }],
    ['a minItems of 10^8', { type: 'array', minItems: 100_000_000, items: { type: 'string' } }, { at: '#/x', keyword: 'minItems', cap: 'items' }],
    ['a minLength above its maxLength', { type: 'string', minLength: 5, maxLength: 3 }, { at: '#/x', keyword: 'minLength' }],
    ['a minimum above its maximum', { type: 'integer', minimum: 10, maximum: 5 }, { at: '#/x', keyword: 'minimum' }],
    ['required members whose least value is past the node cap (10^5 of them)', wide(5), { at: '#/x/properties/m0', keyword: 'type', cap: 'nodes' }],
    ['a chain of required members deeper than the depth cap', chain(40), { at: `#/x${'/properties/next'.repeat(7)}`, keyword: 'type', cap: 'depth' }],
  ];

  it.each(cases)('%s', (_name, schema, expected) => {
    for (const style of ['plain', 'lifelike'] as const) {
      const result = generate(schema, options(style, 'response', 1, { at: '#/x', document }));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.why).toMatchObject(expected);
        expect(result.why.message.length).toBeGreaterThan(20);
      }
      expect(whyUnmakeable(schema, { view: 'response', at: '#/x', document })).toMatchObject(expected);
    }
  });

  it('a field that allows null takes null where nothing else can be made: the record stays makeable', () => {
    const schema: Schema = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 100_000_000, nullable: true } } };
    expect(generate(schema, options('lifelike', 'response'))).toEqual({ ok: true, value: { name: null } });
  });

  it('an optional member that cannot be made is left out', () => {
    const schema: Schema = { type: 'object', required: ['a'], properties: { a: { type: 'string' }, huge: { type: 'array', minItems: 100_000_000, items: {} } } };
    const result = generate(schema, options('lifelike', 'response'));
    expect(result.ok && Object.keys(result.value as object)).toEqual(['a']);
  });

  it('a recursive schema with a way out ends (the cheapest branch deep down), valid', () => {
    const node: Schema = { type: 'object', required: ['next'], properties: {} };
    node.properties = { next: { oneOf: [node, { type: 'string', maxLength: 0 }] } };
    // The same schema as JSON Schema (toJsonSchema needs a registry for a cyclic one).
    const validate = ajv.compile({ $id: 'https://example.com/node', type: 'object', required: ['next'], properties: { next: { oneOf: [{ $ref: 'https://example.com/node' }, { type: 'string', maxLength: 0 }] } } });
    for (const style of ['plain', 'lifelike'] as const) {
      const result = generate(node, options(style, 'response'));
      expect(result.ok).toBe(true);
      if (result.ok) expect(depthOf(result.value)).toBeLessThanOrEqual(4), expect(validate(result.value)).toBe(true);
    }
  });

  it('a branch that contains itself (`A: oneOf: [A, integer]`) ends', () => {
    const a: Schema = { oneOf: [] };
    a.oneOf = [a, { type: 'integer' }];
    expect(generate(a, options('plain', 'response'))).toEqual({ ok: true, value: 1 });
    // Nothing but itself: no type to find, no value to make, and no stack overflow on the way.
    const only: Schema = { anyOf: [] };
    only.anyOf = [only];
    expect(generate(only, options('lifelike', 'response')).ok).toBe(false);
    expect(typeOf(only)).toBeUndefined();
  });

  it('an allOf that contains itself is folded once', () => {
    const a: Schema = { type: 'object', required: ['x'], properties: { x: { type: 'integer', minimum: 3 } }, allOf: [] };
    a.allOf = [a];
    expect(mergeAllOf(a).required).toEqual(['x']);
    expect(generate(a, options('plain', 'request'))).toEqual({ ok: true, value: { x: 3 } });
  });

  it("a document's example larger than the budget is not copied: a value is generated instead", () => {
    const big = { blob: 'x'.repeat(2 * 1024 * 1024) };
    const schema = { type: 'object', properties: { blob: { type: 'string' } }, example: big } as Schema;
    const result = generate(schema, options('plain', 'response'));
    expect(result.ok && JSON.stringify(result.value).length).toBeLessThan(100);
  });

  it('a member named __proto__ is a member, never the prototype', () => {
    const schema: Schema = { type: 'object', required: ['__proto__'], properties: { ['__proto__']: { type: 'object', required: ['polluted'], properties: { polluted: { type: 'boolean' } } } } };
    const result = generate(schema, options('plain', 'request'));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
      expect(JSON.stringify(result.value)).toBe('{"__proto__":{"polluted":false}}');
    }
  });
});

/** An object whose `levels` levels each require ten members of the next: 10^levels values at least. */
function wide(levels: number): Schema {
  let schema: Schema = { type: 'string' };
  for (let level = 0; level < levels; level += 1) {
    const names = Array.from({ length: 10 }, (_, i) => `m${i}`);
    schema = { type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, schema])) };
  }
  return schema;
}

function chain(levels: number): Schema {
  let schema: Schema = { type: 'string' };
  for (let level = 0; level < levels; level += 1) schema = { type: 'object', required: ['next'], properties: { next: schema } };
  return schema;
}

describe('values for every construct validate (both styles, both views)', () => {
  const schemas: Readonly<Record<string, Schema>> = {
    bounds: { type: 'integer', minimum: 10, exclusiveMinimum: true, maximum: 20, multipleOf: 4 },
    negative: { type: 'integer', maximum: -5 },
    fraction: { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true },
    formats: { type: 'object', required: ['a', 'b', 'c', 'd', 'e', 'f'], properties: { a: { type: 'string', format: 'date-time' }, b: { type: 'string', format: 'date' }, c: { type: 'string', format: 'email' }, d: { type: 'string', format: 'uuid' }, e: { type: 'string', format: 'uri' }, f: { type: 'string', format: 'byte' } } },
    lengths: { type: 'string', minLength: 30, maxLength: 31 },
    pattern: { type: 'string', pattern: '^[a-z]{2}_[0-9]+$', maxLength: 6 },
    composed: { allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer', minimum: 3 } } }, { required: ['b'], properties: { a: { maximum: 9 }, b: { type: 'boolean' } } }] },
    branches: { type: 'object', required: ['owner'], properties: { owner: { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer', minimum: 100 }] } } },
    views: { type: 'object', required: ['id', 'secret', 'name'], properties: { id: { type: 'integer', readOnly: true }, secret: { type: 'string', writeOnly: true }, name: { type: 'string' } } },
    unique: { type: 'array', minItems: 2, maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    closed: { type: 'object', additionalProperties: false, minProperties: 2, properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } } },
    open: { type: 'object', minProperties: 3, additionalProperties: { type: 'integer' }, properties: { a: { type: 'string' } } },
    undeclared: { type: 'object', required: ['z'] },
    nullable: { type: 'string', nullable: true, minLength: 3 },
  };
  it.each(Object.keys(schemas))('%s', (name) => {
    const schema = schemas[name]!;
    for (const style of ['plain', 'lifelike'] as const) {
      for (const view of ['request', 'response'] as const) {
        for (const variant of [0, 1, 2]) {
          const result = generate(schema, options(style, view, variant + 1, { variant }));
          expect(result.ok, JSON.stringify(result)).toBe(true);
          if (result.ok) expect(validates(schema, view, result.value), `${style} ${view} #${variant}: ${JSON.stringify(result.value)}`).toBeUndefined();
        }
      }
    }
  });

  it('keeps the runner-style choices: the smallest integer from 1 up, false, required fields only', () => {
    const schema: Schema = { type: 'object', required: ['n', 'flag'], properties: { n: { type: 'integer', minimum: 0 }, flag: { type: 'boolean' }, extra: { type: 'string' } } };
    expect(generate(schema, options('plain', 'request'))).toEqual({ ok: true, value: { n: 1, flag: false } });
  });

  it('the same seed gives the same value', () => {
    const schema = schemas['formats']!;
    expect(generate(schema, options('lifelike', 'response', 9))).toEqual(generate(schema, options('lifelike', 'response', 9)));
  });
});

describe('--generation-budget', () => {
  it('reads CAP=N pairs, repeatable and comma-separated, the others at their defaults', () => {
    expect(parseGenerationBudget(['string=20000,items=50', 'depth=8'])).toEqual({ ok: true, budget: { ...DEFAULT_GENERATION_BUDGET, string: 20_000, items: 50, depth: 8 } });
  });
  it.each(['strings=5', 'string=0', 'string=x', 'depth=100000', '=5'])('refuses %s with a message naming the caps', (text) => {
    const parsed = parseGenerationBudget([text]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/--generation-budget/);
  });
});

/** Random schemas of the constructs the generator promises valid values for, hostile bounds included. */
const schemaArbitrary: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema; leaf: Schema; array: Schema; object: Schema; anyOf: Schema }>((tie) => ({
  leaf: fc.oneof(
    fc.record({ type: fc.constant('string' as const), minLength: fc.option(fc.oneof(fc.nat(20), fc.constant(100_000_000)), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 20, max: 40 }), { nil: undefined }) }, { requiredKeys: ['type'] }),
    // A format with a length that contradicts it (`uuid` in 20 characters) is the document's contradiction, not a hostile bound: left out.
    fc.record({ type: fc.constant('string' as const), format: fc.constantFrom('date-time', 'date', 'email', 'uuid', 'uri') }),
    fc.record({ type: fc.constant('string' as const), pattern: fc.constantFrom('^[a-z]{2,4}$', '^[A-Z]{3}-[0-9]{4}$', '^(SM|MM)[0-9a-f]{8}$', '^x{5000}$', '^(?:[a-z]{1000}){1000}$') }),
    fc.record({ type: fc.constant('integer' as const), minimum: fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }), maximum: fc.option(fc.integer({ min: 50, max: 100 }), { nil: undefined }), multipleOf: fc.option(fc.constantFrom(2, 5), { nil: undefined }) }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('number' as const), minimum: fc.option(fc.double({ min: -10, max: 0, noNaN: true }), { nil: undefined }), maximum: fc.option(fc.double({ min: 1, max: 10, noNaN: true }), { nil: undefined }) }, { requiredKeys: ['type'] }),
    fc.constant<Schema>({ type: 'boolean' }),
    fc.record({ type: fc.constant('string' as const), enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5, unit: fc.constantFrom('a', 'b', 'c', 'd') }), { minLength: 1, maxLength: 4 }) }),
  ),
  array: fc.record({ type: fc.constant('array' as const), items: tie('schema'), minItems: fc.option(fc.oneof(fc.nat(3), fc.constant(100_000_000)), { nil: undefined }), maxItems: fc.option(fc.integer({ min: 3, max: 6 }), { nil: undefined }) }, { requiredKeys: ['type', 'items'] }),
  object: fc
    .record({
      properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'id', 'name', 'email', 'status'), tie('schema'), { maxKeys: 4 }),
      requiredMask: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
      additionalProperties: fc.option(fc.constant(false), { nil: undefined }),
      readOnly: fc.boolean(),
    })
    .map(({ properties, requiredMask, additionalProperties, readOnly }) => {
      const names = Object.keys(properties);
      const required = names.filter((_, i) => requiredMask[i]);
      const schema: Schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(additionalProperties === false ? { additionalProperties: false } : {}) };
      if (readOnly && names[0] !== undefined) properties[names[0]] = { ...properties[names[0]]!, readOnly: true } as Schema;
      return schema;
    }),
  anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((branches): Schema => ({ anyOf: branches })),
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('leaf'), tie('array'), tie('object'), tie('anyOf')),
})).schema;

const budgetArbitrary: fc.Arbitrary<GenerationBudget> = fc.record({
  string: fc.integer({ min: 5, max: 6000 }),
  items: fc.integer({ min: 1, max: 8 }),
  depth: fc.integer({ min: 1, max: 8 }),
  nodes: fc.integer({ min: 3, max: 300 }),
  bytes: fc.integer({ min: 40, max: 20_000 }),
});

describe('property: generation terminates within budget, and what it makes validates, or it says why not', () => {
  it('for random schemas, budgets, styles and views', () => {
    fc.assert(
      fc.property(schemaArbitrary, budgetArbitrary, fc.constantFrom<Style>('plain', 'lifelike'), fc.constantFrom<View>('request', 'response'), fc.nat(3), (schema, budget, style, view, variant) => {
        const result = generate(schema, options(style, view, variant + 1, { budget, variant, at: '#/s' }));
        if (!result.ok) {
          expect(result.why.at).toMatch(/^#\/s/);
          expect(result.why.keyword).not.toBe('');
          return;
        }
        const text = JSON.stringify(result.value);
        expect(text.length).toBeLessThanOrEqual(budget.bytes);
        expect(depthOf(result.value)).toBeLessThanOrEqual(budget.depth);
        expect(longestString(result.value)).toBeLessThanOrEqual(budget.string);
        expect(longestArray(result.value)).toBeLessThanOrEqual(budget.items);
        expect(validates(schema, view, result.value), text).toBeUndefined();
      }),
      { numRuns: casesForTier({ fast: 300, full: 5000 }), seed: 31 },
    );
  });

  it('with the default budget, a value is made whenever the schema has no hostile bound', () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.constantFrom<Style>('plain', 'lifelike'), (schema, style) => {
        const hostile = /100000000|\{5000\}|\{1000\}\{1000\}|\{1000\}\)\{1000\}/.test(JSON.stringify(schema));
        const result = generate(schema, options(style, 'response', 1, { budget: DEFAULT_GENERATION_BUDGET }));
        if (!hostile) expect(result.ok, JSON.stringify(result)).toBe(true);
      }),
      { numRuns: casesForTier({ fast: 200, full: 3000 }), seed: 7 },
    );
  });
});
