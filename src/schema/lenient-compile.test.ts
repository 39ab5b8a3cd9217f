/**
 * Issue 21 point 2: every legal schema of a document from elsewhere compiles,
 * in the runner's validators as in the mock's (Ajv's strict mode changes no
 * verdict, it only refuses). Issue 20 point 1: a document's pattern runs in
 * linear time, and one that cannot is a warning with the value checked by type.
 */
import { existsSync } from 'node:fs';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { buildContract, loadContract, type Contract } from '../contract/index.js';
import { ajvFor } from './ajv.js';
import { compileContract, type CompiledContract } from './validators.js';

const REFERENCE = '/work/shared/reference/ref-openapi.yaml';
const json = { 'content-type': 'application/json' };

function inMemory(schemas: Record<string, unknown>, body: unknown): Contract {
  const document = JSON.parse(
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'lenient', version: '1' },
      paths: { '/things': { post: { operationId: 'createThing', responses: { '201': { description: 'created', content: { 'application/json': { schema: body } } } } } } },
      components: { schemas },
    }),
  ) as OpenAPIV3.Document;
  return buildContract({ file: '/tmp/lenient.yaml', sha256: '0'.repeat(64), document }, { strict: false });
}

function problems(compiled: CompiledContract, body: unknown): string[] {
  return compiled.operations.get('createThing')!.response(201, json, body).diagnostics.map((d) => `${d.pointer} ${d.keyword}`);
}

/** The two ways the kit compiles a contract: the mock's (all errors, verbose) and the runner's fast first pass. */
const COMPILERS: [string, (contract: Contract) => CompiledContract][] = [
  ['mock', (contract) => compileContract(contract)],
  ['runner', (contract) => compileContract(contract, ajvFor(contract, { allErrors: false, verbose: false }))],
];

describe.each(COMPILERS)('lenient compilation (%s validators)', (_name, compile) => {
  it('regression: `required` without `properties` or `type: object` compiles, and is enforced', () => {
    const contract = inMemory({}, { allOf: [{ type: 'object', properties: { name: { type: 'string' } } }, { required: ['petId'] }] });
    const compiled = compile(contract);
    compiled.compileAll();
    expect(contract.warnings).toEqual([]);
    expect(problems(compiled, { name: 'x', petId: 1 })).toEqual([]);
    expect(problems(compiled, { name: 'x' })).not.toEqual([]);
  });

  it("regression: an example holding a `$id` member, in two places, compiles and is enforced (Box's metadata)", () => {
    const metadata = { type: 'object', example: { marketingCollateral: { $id: '01234500-12f1-1234-aa12-b1d234cb567e' } }, additionalProperties: { type: 'object' } };
    const file = { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['file'] }, metadata } };
    const folder = { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['folder'] }, metadata: { ...metadata } } };
    const contract = inMemory({}, { oneOf: [file, folder] });
    const compiled = compile(contract);
    compiled.compileAll();
    expect(contract.warnings).toEqual([]);
    expect(problems(compiled, { type: 'file' })).toEqual([]);
    expect(problems(compiled, { type: 'folder' })).toEqual([]);
    expect(problems(compiled, { type: 'link' })).not.toEqual([]);
  });

  it('regression: `nullable` without `type` compiles whatever its value (was "nullable" cannot be used without "type": PagerDuty status pages, Intercom conversations)', () => {
    // PagerDuty's StatusPageService.business_service writes the default out (`nullable: false`, no type); Intercom's
    // audience_ids has `nullable: true` beside a oneOf.
    const service = { description: 'Business Service', nullable: false, properties: { id: { type: 'string' } }, required: ['id'] };
    const audiences = { nullable: true, oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] };
    const contract = inMemory({}, { type: 'object', properties: { service, audiences, name: { type: 'string', nullable: false } } });
    const compiled = compile(contract);
    compiled.compileAll();
    expect(contract.warnings).toEqual([]);
    expect(problems(compiled, { service: { id: 'a' }, audiences: [1, 2], name: 'n' })).toEqual([]);
    expect(problems(compiled, { service: null, audiences: null })).toEqual([]);
    expect(problems(compiled, { audiences: 5 })).toEqual([]);
    expect(problems(compiled, { service: { id: 1 } })).toEqual(['/body/service/id type']);
    expect(problems(compiled, { audiences: 'five' })).not.toEqual([]);
    expect(problems(compiled, { name: null })).toEqual(['/body/name type']);
  });

  it('a type list, an items tuple and properties without type compile (strictTypes, strictTuples off)', () => {
    const contract = inMemory({}, { properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } }, required: ['pair'] });
    const compiled = compile(contract);
    compiled.compileAll();
    expect(contract.warnings).toEqual([]);
    expect(problems(compiled, { pair: ['a', 1] })).toEqual([]);
    expect(problems(compiled, { pair: ['a', 'b'] })).not.toEqual([]);
  });

  it.runIf(existsSync(REFERENCE))('regression: the reference description compiles with no warning (was NewOrder#/allOf/1 "strict mode: required property petId is not defined")', async () => {
    const contract = await loadContract(REFERENCE);
    compile(contract).compileAll();
    expect(contract.warnings).toEqual([]);
  });
});

describe('document patterns run in linear time (issue 20 point 1)', () => {
  const catastrophic = { type: 'array', items: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } } };

  it.each(COMPILERS)('^(a+)+$ against 44 a and a "!" fails the pattern at once, in-process (%s validators)', (_name, compile) => {
    const compiled = compile(inMemory({}, catastrophic));
    // With JavaScript's backtracking RegExp this call does not return (2^44 paths); the vitest timeout is the bound.
    expect(problems(compiled, [{ name: `${'a'.repeat(44)}!` }])).toEqual(['/body/0/name pattern']);
    expect(problems(compiled, [{ name: 'a'.repeat(44) }])).toEqual([]);
  });

  it('a pattern the engine cannot run (lookbehind, backreference) is a warning, and the value is checked by type only', () => {
    const contract = inMemory({}, { type: 'object', properties: { a: { type: 'string', pattern: '(?<=x)y' }, b: { type: 'string', pattern: '^(.)\\1$' } } });
    const compiled = compileContract(contract);
    compiled.compileAll();
    expect(contract.warnings.map((w) => w.pointer)).toEqual([
      '/paths/~1things/post/responses/201/content/application~1json/schema/properties/a/pattern',
      '/paths/~1things/post/responses/201/content/application~1json/schema/properties/b/pattern',
    ]);
    expect(contract.warnings[0]!.skipped).toContain('type only');
    expect(problems(compiled, { a: 'anything', b: 'xy' })).toEqual([]);
    expect(problems(compiled, { a: 1 })).toEqual(['/body/a type']);
  });

  it('one warning per pattern, at its first use, however many schemas use it (Sentry uses one lookahead 13 times)', () => {
    const uses = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`field${i}`, { type: 'string', pattern: '^(?!-)[a-z-]+$' }]));
    const contract = inMemory({}, { type: 'object', properties: { ...uses, other: { type: 'string', pattern: '(?<=x)y' } } });
    compileContract(contract).compileAll();
    expect(contract.warnings.map((w) => w.pointer)).toEqual([
      '/paths/~1things/post/responses/201/content/application~1json/schema/properties/field0/pattern',
      '/paths/~1things/post/responses/201/content/application~1json/schema/properties/other/pattern',
    ]);
    expect(contract.warnings[0]!.message).toMatch(/first use; others may follow/);
  });
});
