/**
 * Issue 11, point 1: a document from elsewhere that swagger-parser validates
 * loads, whatever schema constructs and extensions it uses; one small
 * document per construct (fixtures/documents/), each loaded, every validator
 * compiled, and the validators judged on values that conform and values that
 * do not (so "loads" cannot mean "checks nothing").
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from '../package-info.js';
import { compileContract, createLenientAjv, type CompiledContract } from '../schema/index.js';
import type { OpenAPIV3 } from 'openapi-types';
import { buildContract, loadContract, type Contract } from './index.js';

const json = { 'content-type': 'application/json' };

async function load(name: string): Promise<{ contract: Contract; compiled: CompiledContract }> {
  const contract = await loadContract(join(PACKAGE_ROOT, 'fixtures/documents', `${name}.yaml`));
  const compiled = compileContract(contract);
  compiled.compileAll();
  return { contract, compiled };
}

function bodyProblems(compiled: CompiledContract, operationId: string, status: number, body: unknown): string[] {
  return compiled.operations.get(operationId)!.response(status, json, body).diagnostics.map((d) => `${d.pointer} ${d.keyword}`);
}

describe('documents from elsewhere are taken as valid OpenAPI (fixtures/documents)', () => {
  it('strictness: our own document is strict, any other is not, and either can be asked for', async () => {
    expect((await loadContract(DEFAULT_SPEC_PATH)).strict).toBe(true);
    const foreign = join(PACKAGE_ROOT, 'fixtures/documents/recursive.yaml');
    expect((await loadContract(foreign)).strict).toBe(false);
    expect((await loadContract(foreign, { strict: true })).strict).toBe(true);
  });

  it('discriminator with a mapping: loads, and oneOf still tells a cat from a broken cat', async () => {
    const { compiled, contract } = await load('discriminator-mapping');
    expect(contract.warnings).toEqual([]);
    expect(bodyProblems(compiled, 'createPet', 201, { petType: 'cat', name: 'Tom', lives: 9 })).toEqual([]);
    expect(bodyProblems(compiled, 'createPet', 201, { petType: 'dog', name: 'Rex', goodBoy: true })).toEqual([]);
    expect(bodyProblems(compiled, 'createPet', 201, { petType: 'cat', name: 'Tom', lives: 10 })).not.toEqual([]);
    expect(compiled.operations.get('createPet')!.body({ petType: 'bird', name: 'Tweety' })).not.toEqual([]);
  });

  it('discriminator on an allOf base, its tag without enum: loads and checks the base', async () => {
    const { compiled } = await load('discriminator-allof');
    expect(bodyProblems(compiled, 'getAnimal', 200, { kind: 'Bird', name: 'Polly', wingspan: 0.3 })).toEqual([]);
    expect(bodyProblems(compiled, 'getAnimal', 200, { kind: 'Bird' })).toEqual(['/body/name required']);
  });

  it('unknown formats: loads with one warning per format, values checked by type only', async () => {
    const { compiled, contract } = await load('unknown-formats');
    expect(contract.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('"uriref"'),
      expect.stringContaining('"blob"'),
      expect.stringContaining('"decimal"'),
    ]);
    expect(contract.warnings[0]!.pointer).toBe('/components/schemas/Document/properties/href/format');
    expect(contract.warnings[0]!.skipped).toContain('type only');
    expect(bodyProblems(compiled, 'listDocuments', 200, [{ href: 'a/b', content: 'AAAA', price: '1.50', created: '2026-01-01T00:00:00Z' }])).toEqual([]);
    expect(bodyProblems(compiled, 'listDocuments', 200, [{ href: 3 }])).toEqual(['/body/0/href type']);
    // Known formats are still checked.
    expect(bodyProblems(compiled, 'listDocuments', 200, [{ href: 'a', created: 'yesterday' }])).toEqual(['/body/0/created format']);
  });

  it('nullable without type accepts null beside the rest; a nullable enum accepts null', async () => {
    const { compiled } = await load('nullable-no-type');
    expect(bodyProblems(compiled, 'getOwner', 200, { name: 'Ann', address: null, tier: null })).toEqual([]);
    expect(bodyProblems(compiled, 'getOwner', 200, { name: 'Ann', address: { city: 'Oslo' }, tier: 'gold' })).toEqual([]);
    expect(bodyProblems(compiled, 'getOwner', 200, { name: 'Ann', address: { town: 'Oslo' }, tier: 'gold' })).not.toEqual([]);
    expect(bodyProblems(compiled, 'getOwner', 200, { name: 'Ann', address: null, tier: 'bronze' })).toEqual(['/body/tier enum']);
  });

  it('recursive schemas (direct and mutual) compile without overflowing the stack, and check every level', async () => {
    const { compiled } = await load('recursive');
    const tree = { value: 1, children: [{ value: 2, children: [{ value: 3, children: [] }] }] };
    expect(bodyProblems(compiled, 'getTree', 200, tree)).toEqual([]);
    expect(bodyProblems(compiled, 'getTree', 200, { value: 1, children: [{ value: 2, children: [{ value: 'three' }] }] })).toEqual([
      '/body/children/0/children/0/value type',
    ]);
    expect(compiled.operations.get('replaceTree')!.body({ children: [] })).toEqual([expect.objectContaining({ pointer: '/body/value', keyword: 'required' })]);
    const people = [{ name: 'Ada', employer: { title: 'Engines', founder: { name: 'Charles', employer: { title: 3 } } } }];
    expect(bodyProblems(compiled, 'listPeople', 200, people)).toEqual(['/body/0/employer/founder/employer/title type']);
  });

  it('operations without operationId get stable, unique derived ids', async () => {
    const { contract } = await load('no-operation-ids');
    const ids = contract.operations.map((op) => [op.method, op.pathTemplate, op.operationId, op.operationIdDerived === true]);
    expect(ids).toEqual([
      ['get', '/pets', 'getPets_2', true],
      ['post', '/pets', 'postPets', true],
      ['get', '/pets/{petId}', 'getPetsPetId', true],
      ['get', '/pets-list', 'getPets', false],
    ]);
    const again = await loadContract(contract.file);
    expect(again.operations.map((op) => op.operationId)).toEqual(contract.operations.map((op) => op.operationId));
  });

  it('x-error-codes as an array: usable entries read (a numeric-string status too), the rest a warning', async () => {
    const { contract } = await load('x-error-codes-array');
    expect([...contract.errorCodes.values()]).toEqual([
      { code: 'NOT_FOUND', status: 404, description: 'No such thing.' },
      { code: 'BAD_INPUT', status: 400, description: 'The input is wrong.' },
    ]);
    expect(contract.warnings).toEqual([expect.objectContaining({ pointer: '/x-error-codes/2', message: expect.stringContaining('status') })]);
  });

  it('x-error-codes in a shape the kit cannot read: a warning, never a refusal; a PCRE pattern runs (the linear-time engine reads `(?i)`)', async () => {
    const { contract, compiled } = await load('x-error-codes-unreadable');
    expect(contract.errorCodes.size).toBe(0);
    expect(contract.warnings.map((w) => w.pointer)).toEqual(['/x-error-codes']);
    expect(bodyProblems(compiled, 'listCodes', 200, ['ABC'])).toEqual([]);
    expect(bodyProblems(compiled, 'listCodes', 200, ['AB1'])).toEqual(['/body/0 pattern']);
    expect(bodyProblems(compiled, 'listCodes', 200, [3])).toEqual(['/body/0 type']);
  });

  it('the same unreadable x-error-codes refuses the document when strictness is asked for', async () => {
    const error: unknown = await loadContract(join(PACKAGE_ROOT, 'fixtures/documents/x-error-codes-unreadable.yaml'), { strict: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('SPEC_INVALID');
  });

  it('a response documented only as text/csv is not judged as a missing JSON body', async () => {
    const { compiled } = await load('foreign-conventions');
    expect(compiled.operations.get('exportReport')!.response(200, { 'content-type': 'text/csv' }, undefined).diagnostics).toEqual([]);
  });
});

describe('validators of a document from elsewhere are compiled when first needed', () => {
  it('compiles nothing up front, then only what a check asks for, once', async () => {
    const contract = await loadContract(join(PACKAGE_ROOT, 'fixtures/documents/recursive.yaml'));
    const ajv = createLenientAjv();
    const compile = vi.spyOn(ajv, 'compile');
    const compiled = compileContract(contract, ajv);
    expect(compile).not.toHaveBeenCalled();
    expect(bodyProblems(compiled, 'listPeople', 200, [{ name: 'Ada' }])).toEqual([]);
    const afterOne = compile.mock.calls.length;
    expect(afterOne).toBeGreaterThan(0);
    expect(bodyProblems(compiled, 'listPeople', 200, [{ name: 'Grace' }])).toEqual([]);
    expect(compile.mock.calls.length).toBe(afterOne);
  });

  it('our own document compiles everything at start-up (the mock relies on it)', async () => {
    const contract = await loadContract(DEFAULT_SPEC_PATH);
    const ajv = createLenientAjv();
    const compile = vi.spyOn(ajv, 'compile');
    compileContract(contract, ajv);
    expect(compile.mock.calls.length).toBeGreaterThan(contract.operations.length);
  });
});

describe('a schema Ajv cannot compile at all', () => {
  // Built in memory: swagger-parser would refuse `type: strnig`, and that is the point: this is the last safety net.
  const loaded = (strict: boolean): Contract => {
    const document: OpenAPIV3.Document = JSON.parse(
      JSON.stringify({ openapi: '3.0.3', info: { title: 'Bad schema', version: '1' }, paths: {}, components: { schemas: { Bad: { type: 'strnig' } } } }),
    );
    // Shared by identity, as a dereferenced document has it.
    document.paths['/bad'] = { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'array', items: document.components!.schemas!['Bad']! } } } } } } };
    return buildContract({ file: '/tmp/bad.yaml', sha256: '0'.repeat(64), document }, { strict });
  };

  it('is, for a document from elsewhere, a warning at the component, with the operation still checked around it', () => {
    const contract = loaded(false);
    const compiled = compileContract(contract);
    compiled.compileAll();
    expect(contract.warnings).toEqual([expect.objectContaining({ pointer: '/components/schemas/Bad', skipped: 'values are not checked against this schema' })]);
    expect(bodyProblems(compiled, 'getBad', 200, [1, 'x'])).toEqual([]);
    expect(bodyProblems(compiled, 'getBad', 200, { not: 'an array' })).toEqual(['/body type']);
  });

  it('refuses our own (strict) document at start-up, naming the component', () => {
    const error: unknown = (() => {
      try {
        compileContract(loaded(true));
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('SPEC_SCHEMA_REJECTED');
    expect((error as KitError).details.pointer).toBe('/components/schemas/Bad');
  });
});

describe('a discriminator with a mapping in a strict document', () => {
  it('compiles with Ajv\'s discriminator, which picks the branch by its pinned tag', async () => {
    const contract = await loadContract(join(PACKAGE_ROOT, 'fixtures/documents/discriminator-mapping.yaml'), { strict: true });
    const compiled = compileContract(contract);
    expect(bodyProblems(compiled, 'createPet', 201, { petType: 'dog', name: 'Rex', goodBoy: true })).toEqual([]);
    // Ajv's discriminator judges the dog branch alone, so the problem is named there, not as "matches no oneOf branch".
    expect(bodyProblems(compiled, 'createPet', 201, { petType: 'dog', name: 'Rex', goodBoy: 'yes' })).toEqual(['/body/goodBoy type']);
  });
});
