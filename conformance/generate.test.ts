/**
 * The generator (issue 9, point 1, first bullet): every body it calls valid
 * passes the operation's compiled request validator as the exact text sent,
 * through allOf, oneOf, anyOf, nullable, readOnly/writeOnly, formats,
 * patterns and bounds; where it cannot make one it says why instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract, type ParameterSpec } from '../src/contract/index.js';
import { compileContract, createAjv, toJsonSchema, type CompiledContract } from '../src/schema/index.js';
import { absentIdCandidates, Generator, mergeAllOf, type Schema } from './generate.js';

/** A document whose bodies use every construct: placeOrder's body is the Order-with-required allOf, without examples. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'constructs', version: '1.0.0' },
  paths: {
    '/orders': {
      post: {
        operationId: 'placeOrder',
        requestBody: { required: true, content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Order' }, { type: 'object', required: ['petId', 'quantity'] }] } } } },
        responses: { '201': { description: 'placed' } },
      },
    },
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
  },
  components: {
    schemas: {
      Order: {
        type: 'object',
        properties: {
          id: { type: 'integer', format: 'int64', readOnly: true },
          petId: { type: 'integer', format: 'int64', minimum: 1 },
          quantity: { type: 'integer', minimum: 1, maximum: 10 },
          shipDate: { type: 'string', format: 'date-time' },
          complete: { type: 'boolean' },
        },
      },
      Thing: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'code', 'size', 'owner', 'contact', 'note', 'secret', 'ratio', 'tags'],
        properties: {
          id: { type: 'integer', readOnly: true },
          code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
          size: { type: 'integer', minimum: 10, exclusiveMinimum: true, maximum: 20, multipleOf: 4 },
          owner: { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer', minimum: 100 }] },
          contact: { anyOf: [{ type: 'object', required: ['phone'], properties: { phone: { type: 'string', pattern: '^\\+[0-9]{8,12}$' } } }, { type: 'string', format: 'uri' }] },
          note: { type: 'string', nullable: true, minLength: 3, maxLength: 5 },
          secret: { type: 'string', writeOnly: true, format: 'uuid' },
          ratio: { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true },
          tags: { type: 'array', minItems: 2, maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c'] } },
        },
      },
    },
  },
};

describe('the generator', () => {
  let dir: string;
  let contract: Contract;
  let compiled: CompiledContract;
  let generator: Generator;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-generate-'));
    const file = join(dir, 'constructs.json');
    writeFileSync(file, JSON.stringify(DOCUMENT));
    contract = await loadContract(file);
    compiled = compileContract(contract);
    generator = new Generator(1, 'pkTEST', 'g.', (operation, value) => compiled.operations.get(operation.operationId)?.body(value) ?? []);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("builds a valid placeOrder body from an allOf Order with required petId and quantity (not {petId: 'napkin'})", () => {
    const outcome = generator.validBodyOrReason(contract.operationsById.get('placeOrder')!, { petId: 4590224790122085204n });
    expect(outcome.ok, outcome.ok ? '' : outcome.reason).toBe(true);
    const body = outcome.ok ? (outcome.body as Record<string, unknown>) : {};
    expect(body['petId']).toBe(4590224790122085204n);
    expect(Number.isInteger(body['quantity'])).toBe(true);
    expect(body).not.toHaveProperty('id'); // readOnly: not sent
  });

  it('keeps a bound string field as bound: the tag that makes free text unique never lands on an id of a record the run owns (Adyen merchantId)', () => {
    const outcome = generator.validBodyOrReason(contract.operationsById.get('createThing')!, { note: 'abc' });
    expect(outcome.ok, outcome.ok ? '' : outcome.reason).toBe(true);
    expect(outcome.ok ? (outcome.body as Record<string, unknown>)['note'] : undefined).toBe('abc');
  });

  it('builds a valid body through pattern, exclusive bounds and multipleOf, oneOf, anyOf, nullable, writeOnly, uniqueItems', () => {
    const thing = contract.operationsById.get('createThing')!;
    for (const seed of [1, 2, 3, 4, 5]) {
      const g = new Generator(seed, 'pkTEST', 'g.', (operation, value) => compiled.operations.get(operation.operationId)?.body(value) ?? []);
      const outcome = g.validBodyOrReason(thing, {});
      expect(outcome.ok, outcome.ok ? '' : outcome.reason).toBe(true);
      const body = outcome.ok ? (outcome.body as Record<string, unknown>) : {};
      expect(body['code']).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
      expect(body['size']).toBe(12);
      expect(body).not.toHaveProperty('id');
    }
  });

  it('says why when no valid body can be made, rather than calling an invalid one valid', () => {
    const never = new Generator(1, 'pkTEST', 'g.', () => [{ pointer: '/body/x', keyword: 'not', message: 'is never valid' }]);
    const outcome = never.validBodyOrReason(contract.operationsById.get('createThing')!, {});
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/createThing.*\/body\/x: is never valid/) });
  });

  it('sample() gives values each construct accepts (checked by Ajv in the request view)', () => {
    const ajv = createAjv();
    const schemas: Schema[] = [
      { type: 'integer', minimum: 5, maximum: 5 },
      { type: 'integer', maximum: 0 },
      { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true },
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'date' },
      { type: 'string', format: 'email' },
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'uri' },
      { type: 'string', minLength: 30 },
      { type: 'string', pattern: '^[a-z]{2}_[0-9]+$', maxLength: 6 },
      { type: 'string', nullable: true },
      { allOf: [{ type: 'integer', minimum: 3 }, { type: 'integer', maximum: 9 }] },
      { oneOf: [{ type: 'boolean' }, { type: 'string' }] },
      { type: 'array', items: { type: 'integer', minimum: 2 }, minItems: 3 },
    ];
    for (const s of schemas) {
      const value = generator.sample(s, 0);
      const validate = ajv.compile(toJsonSchema(s, 'request'));
      expect(validate(value), `${JSON.stringify(s)} → ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('mergeAllOf unites properties and required lists and takes the tighter bounds', () => {
    const merged = mergeAllOf({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'], additionalProperties: false }] });
    // In the order the parts declare them (src/generate/composition.ts, shared with the mock since issue 31).
    expect(Object.keys(merged.properties ?? {})).toEqual(['a', 'b']);
    expect(merged.required).toEqual(['a', 'b']);
    expect(merged.additionalProperties).toBe(false);
    expect(mergeAllOf({ allOf: [{ minimum: 1, maximum: 10 }, { minimum: 3, maximum: 20 }] })).toMatchObject({ minimum: 3, maximum: 10 });
  });
});

describe('absentIdCandidates', () => {
  it("tries the run's tag first even under a pattern, and never the document's example (a mock seeded from the examples holds that record)", () => {
    const generator = new Generator(1, 'pkTEST', 'g.', () => []);
    const parameter: ParameterSpec = {
      name: 'app_id',
      in: 'path',
      required: true,
      explode: false,
      example: 'unique-app-identifier',
      schema: { type: 'string', pattern: '^[a-zA-Z0-9\\-_.]+$', maxLength: 256, example: 'unique-app-identifier' },
    };
    const candidates = absentIdCandidates(parameter, generator);
    expect(candidates[0]).toBe('absent-pkTEST');
    expect(candidates).not.toContain('unique-app-identifier');
  });
});
