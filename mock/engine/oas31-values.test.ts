/**
 * Values the generic engine makes for OpenAPI 3.1 schemas (JSON Schema 2020-12): generated (generate.ts) and
 * fitted (conform.ts) answers must validate against the document's own 3.1 schema, as the validator compiles it.
 * Regression for Discourse's 3.1 document, whose generated answers broke its schemas (`type: [x, 'null']`, ...).
 */
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/index.js';
import { compileContract } from '../../src/schema/index.js';
import { fitTo, repair } from './conform.js';
import { ValueGenerator } from './generate.js';
import type { Schema } from './schemas.js';

/** 3.1 keywords the 3.0 types of openapi-types do not name: the schemas are built as plain objects. */
const schema = (value: Record<string, unknown>): Schema => value as Schema;

const SCHEMAS: Readonly<Record<string, Schema>> = {
  nullableString: schema({ type: ['string', 'null'], minLength: 2 }),
  onlyNull: schema({ type: 'null' }),
  constant: schema({ const: 'fixed' }),
  typedConstant: schema({ type: 'string', const: 'bar' }),
  tuple: schema({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string', format: 'email' }], items: false }),
  tupleThenMore: schema({ type: 'array', prefixItems: [{ const: 1 }], items: { type: 'boolean' }, minItems: 3 }),
  exclusive: schema({ type: 'integer', exclusiveMinimum: 5, exclusiveMaximum: 8 }),
  exclusiveNumber: schema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }),
  closed: schema({ type: 'object', required: ['a'], properties: { a: { type: ['integer', 'null'] }, b: { type: ['array', 'null'], items: { type: 'string' } } }, unevaluatedProperties: false }),
  examplesList: schema({ type: 'string', examples: ['from-the-list'] }),
  mixed: schema({ type: ['integer', 'string'] }),
};

function compiled() {
  const properties = Object.fromEntries(Object.entries(SCHEMAS).map(([name, s]) => [name, s]));
  const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: properties } } as unknown as OpenAPIV3.Document;
  return compileContract(buildContract({ file: '/tmp/t31.yaml', sha256: '0'.repeat(64), document, oasVersion: '3.1' }, { strict: false }));
}

describe('values for OpenAPI 3.1 schemas', () => {
  const contract = compiled();
  const problems = (s: Schema, value: unknown) => contract.validate(s, value, 'response');

  it.each(Object.keys(SCHEMAS))('a generated %s validates against its 3.1 schema', (name) => {
    const s = SCHEMAS[name]!;
    for (const variant of [0, 1, 2]) {
      const value = new ValueGenerator(variant + 1).value(s, 'response', variant);
      expect(problems(s, value), `${name} #${variant}: ${JSON.stringify(value)}`).toEqual([]);
    }
  });

  it('takes const, the examples list and exclusive bounds as 3.1 writes them', () => {
    const generator = new ValueGenerator(3);
    expect(generator.value(SCHEMAS['constant']!, 'response')).toBe('fixed');
    expect(generator.value(SCHEMAS['examplesList']!, 'response')).toBe('from-the-list');
    expect(generator.value(SCHEMAS['exclusive']!, 'response', 1)).toSatisfy((n: number) => n > 5 && n < 8);
  });

  it('keeps what a 3.1 type list allows when fitting, and drops what unevaluatedProperties forbids', () => {
    const generator = new ValueGenerator(5);
    expect(repair(null, SCHEMAS['nullableString']!, generator, 'response')).toBeNull();
    expect(repair('text', SCHEMAS['mixed']!, generator, 'response')).toBe('text');
    expect(repair(7, SCHEMAS['mixed']!, generator, 'response')).toBe(7);
    const fitted = fitTo({ a: null, b: null, extra: 'x' }, SCHEMAS['closed']!, generator, 'response', problems);
    expect(fitted).toEqual({ a: null, b: null });
    expect(fitTo([1, 'not an email', 'more'], SCHEMAS['tuple']!, generator, 'response', problems)).toSatisfy((v: unknown) => problems(SCHEMAS['tuple']!, v).length === 0);
  });
});

describe('patterns', () => {
  it('a pattern with alternation (Twilio sids: `^(SM|MM)[0-9a-fA-F]{32}$`) gets a matching string', () => {
    const generator = new ValueGenerator(11);
    for (const variant of [0, 1, 2]) expect(generator.value({ type: 'string', pattern: '^(SM|MM)[0-9a-fA-F]{32}$' }, 'response', variant)).toMatch(/^(SM|MM)[0-9a-fA-F]{32}$/);
  });
});
