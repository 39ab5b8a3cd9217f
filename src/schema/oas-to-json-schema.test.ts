import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from './ajv.js';
import { toJsonSchema } from './oas-to-json-schema.js';

// OpenAPI 3.0's schema dialect, table-driven: what each view accepts and rejects.
const account: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['id', 'password', 'nickname'],
  properties: {
    id: { type: 'integer', format: 'int64', readOnly: true },
    password: { type: 'string', format: 'password', writeOnly: true },
    nickname: { type: 'string', nullable: true, example: 'rex' },
    score: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false } as OpenAPIV3.SchemaObject,
    joined: { type: 'string', format: 'date-time', 'x-internal': true } as OpenAPIV3.SchemaObject,
  },
};

const cases: [string, 'request' | 'response', unknown, boolean][] = [
  ['request without the readOnly id', 'request', { password: 'x', nickname: 'a' }, true],
  ['request without the writeOnly password', 'request', { id: 1, nickname: 'a' }, false],
  ['response without the writeOnly password', 'response', { id: 1, nickname: 'a' }, true],
  ['response without the readOnly id', 'response', { password: 'x', nickname: 'a' }, false],
  ['nullable accepts null', 'response', { id: 1, nickname: null }, true],
  ['nullable still checks the type', 'response', { id: 1, nickname: 3 }, false],
  ['boolean exclusiveMinimum excludes the bound', 'response', { id: 1, nickname: 'a', score: 0 }, false],
  ['boolean exclusiveMinimum allows above the bound', 'response', { id: 1, nickname: 'a', score: 0.5 }, true],
  ['exclusiveMaximum false keeps an inclusive maximum', 'response', { id: 1, nickname: 'a', score: 10 }, true],
  ['int64 rejects a fraction', 'response', { id: 1.5, nickname: 'a' }, false],
  ['date-time is checked', 'response', { id: 1, nickname: 'a', joined: 'yesterday' }, false],
];

describe('OpenAPI 3.0 schemas as Ajv compiles them', () => {
  const ajv = createAjv();
  it.each(cases)('%s', (_name, view, value, valid) => {
    expect(ajv.validate(toJsonSchema(account, view), value)).toBe(valid);
  });

  it('drops x- extensions, which strict Ajv would reject', () => {
    const converted = toJsonSchema(account, 'response') as { properties: Record<string, Record<string, unknown>> };
    expect(converted.properties['joined']).not.toHaveProperty('x-internal');
  });

  it('stays strict: a misspelt keyword fails to compile', () => {
    expect(() => ajv.compile(toJsonSchema({ type: 'string', minLenght: 1 } as OpenAPIV3.SchemaObject, 'request'))).toThrow(/minLenght/);
  });

  it('converts a shared schema once per view, so Ajv compiles it once', () => {
    const shared: OpenAPIV3.SchemaObject = { type: 'integer' };
    const a = toJsonSchema({ type: 'object', properties: { x: shared } }, 'request') as { properties: Record<string, unknown> };
    const b = toJsonSchema({ type: 'array', items: shared }, 'request') as { items: unknown };
    expect(a.properties['x']).toBe(b.items);
  });
});
