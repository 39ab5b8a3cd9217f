/**
 * Issue 21 point 1: OpenAPI 3.1 wherever 3.0 works. One small constructed
 * document per group of constructs (fixtures/documents/openapi-3.1/), each
 * loaded and compiled by the validators the mock and the runner use, and
 * each construct judged on a value that conforms and one that does not (so
 * "loads" cannot mean "checks nothing").
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';
import { ajvFor, compileContract, type CompiledContract } from '../schema/index.js';
import { buildContract, loadContract, type Contract } from './index.js';
import { prepareOas31References } from './oas31-refs.js';

const json = { 'content-type': 'application/json' };
const fixture = (name: string): string => join(PACKAGE_ROOT, 'fixtures', 'documents', 'openapi-3.1', `${name}.yaml`);

async function load(name: string): Promise<{ contract: Contract; compiled: CompiledContract }> {
  const contract = await loadContract(fixture(name));
  const compiled = compileContract(contract);
  compiled.compileAll();
  return { contract, compiled };
}

function response(compiled: CompiledContract, operationId: string, status: number, body: unknown): string[] {
  return compiled.operations.get(operationId)!.response(status, json, body).diagnostics.map((d) => `${d.pointer} ${d.keyword}`);
}

function request(compiled: CompiledContract, operationId: string, body: unknown): string[] {
  return compiled.operations.get(operationId)!.body(body).map((d) => `${d.pointer} ${d.keyword}`);
}

const thing = { id: 1, name: 'Rex', kind: 'thing', nickname: null, point: [1, 2] };

describe('an OpenAPI 3.1 document loads as 3.1 (schemas.yaml)', () => {
  it('with info.summary, license.identifier, jsonSchemaDialect and a path item kept in components, and no warning', async () => {
    const { contract } = await load('schemas');
    expect(contract.oasVersion).toBe('3.1');
    expect(contract.strict).toBe(false);
    expect(contract.warnings).toEqual([]);
    expect(contract.document.info).toMatchObject({ summary: expect.any(String), license: { identifier: 'MIT' } });
    // The path item is a $ref to components.pathItems: its operation is indexed like any other.
    expect(contract.operationsById.get('createThing')).toMatchObject({ method: 'post', pathTemplate: '/things' });
    expect(contract.operationsById.get('getThing')).toMatchObject({ method: 'get', pathTemplate: '/things/{thingId}' });
  });

  it('a conforming thing passes, in the request and in the response view', async () => {
    const { compiled } = await load('schemas');
    expect(response(compiled, 'getThing', 200, thing)).toEqual([]);
    const { id: _id, ...sent } = thing;
    expect(request(compiled, 'createThing', { ...sent, secret: 's' })).toEqual([]);
  });

  it.each([
    ['type list with "null": a number is neither', { nickname: 3 }, '/body/nickname type'],
    ['type list with "null": the string bound still applies', { nickname: 'far too long a name' }, '/body/nickname maxLength'],
    ['const', { kind: 'other' }, '/body/kind const'],
    ['prefixItems: the second item', { point: [1, 'x'] }, '/body/point/1 type'],
    ['prefixItems with items: false: no third item', { point: [1, 2, 3] }, '/body/point items'],
    ['$ref with a sibling: the target (pattern) applies', { tag: 'ABC' }, '/body/tag pattern'],
    ['$ref with a sibling: the sibling (maxLength) applies', { tag: 'abcdefgh' }, '/body/tag maxLength'],
    ['dependentRequired', { card: { number: '4111' } }, '/body/card dependentRequired'],
    ['unevaluatedProperties through allOf', { extra: { colour: 'red', size: 2, weight: 3 } }, '/body/extra unevaluatedProperties'],
    ['exclusiveMinimum as a number', { id: 0 }, '/body/id exclusiveMinimum'],
  ])('%s: a value that breaks it fails', async (_name, change, problem) => {
    const { compiled } = await load('schemas');
    expect(response(compiled, 'getThing', 200, { ...thing, ...change })).toContain(problem);
  });

  it('the siblings of a $ref pass together: a short lowercase tag, a colour and a size, a card with its cvc', async () => {
    const { compiled } = await load('schemas');
    expect(response(compiled, 'getThing', 200, { ...thing, tag: 'abc', extra: { colour: 'red', size: 2 }, card: { number: '4111', cvc: '123' } })).toEqual([]);
  });

  it('readOnly and writeOnly: id is not required in a request, and is in a response', async () => {
    const { compiled } = await load('schemas');
    const { id: _id, ...withoutId } = thing;
    expect(request(compiled, 'createThing', withoutId)).toEqual([]);
    expect(response(compiled, 'createThing', 201, withoutId)).toEqual(['/body/id required']);
  });

  it('contentEncoding and contentMediaType are annotations: a base64 string passes, a number is still not a string', async () => {
    const { compiled } = await load('schemas');
    expect(response(compiled, 'getThing', 200, { ...thing, photo: 'iVBORw0KGgo=' })).toEqual([]);
    expect(response(compiled, 'getThing', 200, { ...thing, photo: 1 })).toEqual(['/body/photo type']);
  });

  it('the runner\'s fast validators (first error only) judge the same', async () => {
    const contract = await loadContract(fixture('schemas'));
    const compiled = compileContract(contract, ajvFor(contract, { allErrors: false, verbose: false }));
    expect(response(compiled, 'getThing', 200, thing)).toEqual([]);
    expect(response(compiled, 'getThing', 200, { ...thing, point: [1, 'x'] })).toHaveLength(1);
  });
});

describe('an OpenAPI 3.1 document with webhooks and no paths (webhooks-only.yaml)', () => {
  it('loads, with no operation to call and no warning', async () => {
    const { contract } = await load('webhooks-only');
    expect(contract.oasVersion).toBe('3.1');
    expect(contract.operations).toEqual([]);
    expect(Object.keys((contract.document as { webhooks?: object }).webhooks ?? {})).toEqual(['thingCreated']);
    expect(contract.warnings).toEqual([]);
  });
});

describe('$id, $anchor and $defs (identifiers.yaml)', () => {
  it('references by $id, by a pointer inside an $id, and by $anchor are resolved and checked', async () => {
    const { contract, compiled } = await load('identifiers');
    expect(contract.warnings).toEqual([]);
    const order = { id: 'ord_1', status: 'open', total: { amount: 5, currency: 'EUR' } };
    expect(response(compiled, 'listOrders', 200, [order])).toEqual([]);
    expect(response(compiled, 'listOrders', 200, [{ ...order, id: 'x1' }])).toEqual(['/body/0/id pattern']);
    expect(response(compiled, 'listOrders', 200, [{ ...order, status: 'lost' }])).toEqual(['/body/0/status enum']);
    expect(response(compiled, 'listOrders', 200, [{ ...order, total: { amount: -1, currency: 'EUR' } }])).toEqual(['/body/0/total/amount minimum']);
  });
});

describe('prepareOas31References', () => {
  it('turns a schema $ref with assertion siblings into allOf, and leaves other objects beside a $ref as they are', () => {
    const document = {
      schema: { $ref: '#/a', required: ['x'], description: 'kept' },
      annotated: { $ref: '#/a', description: 'merged by the reference parser', readOnly: true },
      parameter: { $ref: '#/components/parameters/p', required: true },
      pathItem: { $ref: '#/components/pathItems/p', summary: 's', parameters: [] },
    };
    prepareOas31References(document);
    expect(document).toEqual({
      schema: { required: ['x'], description: 'kept', allOf: [{ $ref: '#/a' }] },
      annotated: { $ref: '#/a', description: 'merged by the reference parser', readOnly: true },
      parameter: { $ref: '#/components/parameters/p', required: true },
      pathItem: { $ref: '#/components/pathItems/p', summary: 's', parameters: [] },
    });
  });
});

describe('nullable in a 3.1 document (not a keyword any more)', () => {
  it('is read as its author meant: or null', () => {
    const document = JSON.parse(
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'n', version: '1' },
        paths: { '/n': { get: { operationId: 'getN', responses: { '200': { description: 'n', content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { nullable: true, allOf: [{ type: 'integer' }] } } } } } } } } } },
      }),
    );
    const contract = buildContract({ file: '/tmp/n.yaml', sha256: '0'.repeat(64), document, oasVersion: '3.1' }, { strict: false });
    const compiled = compileContract(contract);
    expect(response(compiled, 'getN', 200, { a: null, b: null })).toEqual([]);
    expect(response(compiled, 'getN', 200, { a: 1 })).toEqual(['/body/a type']);
  });
});
