/**
 * What the generic engine checks once rather than on every write (issue 34, point 1): a record the record schema
 * passes is kept as it is (no repaired copy) where fitting would give it back unchanged; the record stored is noted as
 * valid against that schema, and an answer of it bare under the same schema object is not run through that schema's
 * validator again. The guarantee stays: everything else of such an answer (status, media type, headers) is checked,
 * and a body noted against another schema, a copy, or one a behaviour hook made is checked in full and fitted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Operation } from '../../src/contract/index.js';
import { compileContract, type CompiledContract, type OperationValidators } from '../../src/schema/index.js';
import { immutableFresh, immutableJson, isImmutableJson, validAgainst } from './json.js';
import type { MockResponse } from './message.js';
import { keptWhenValid } from './conform.js';
import { createGenericEngine, type GenericEngine } from './engine.js';
import type { OperationInput } from './seam.js';
import type { Schema } from './schemas.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Checked once, version: '1' }
paths:
  /members:
    post:
      operationId: createMember
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Member' } } } }
      responses:
        '201':
          description: created
          headers: { Location: { required: true, schema: { type: string, pattern: '^/members/[0-9]+$' } } }
          content: { application/json: { schema: { $ref: '#/components/schemas/Member' } } }
  /members/{id}:
    get:
      operationId: getMember
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: the member, content: { application/json: { schema: { $ref: '#/components/schemas/Member' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /audits/{id}:
    get:
      operationId: getAudit
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: a member as an audit sees it, content: { application/json: { schema: { $ref: '#/components/schemas/Audited' } } } }
components:
  schemas:
    Member:
      type: object
      required: [id, owner]
      properties:
        id: { type: integer, readOnly: true }
        owner: { type: string, minLength: 1 }
        password: { type: string, writeOnly: true }
        tier: { type: string, enum: [free, paid] }
    Audited:
      type: object
      required: [id, owner, auditor]
      properties:
        id: { type: integer }
        owner: { type: string }
        auditor: { type: string }
    Problem:
      type: object
      required: [code]
      properties: { code: { type: string }, message: { type: string } }
`;

let dir: string;
let compiled: CompiledContract;
let engine: GenericEngine;
/** The fourth argument of every response check the engine's guard made, by operation: the schema it was told the body passed. */
const told: { operationId: string; validAgainst: object | undefined }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'generic-checked-once-'));
  const file = join(dir, 'checked-once.yaml');
  writeFileSync(file, DOCUMENT);
  compiled = compileContract(await loadContract(file));
  // The engine's compiled contract with each response check watched (what it is told, not what it answers).
  const operations = new Map<string, OperationValidators>();
  for (const [id, validators] of compiled.operations) {
    operations.set(id, {
      ...validators,
      response(status, headers, body, bodyValidAgainst) {
        told.push({ operationId: id, validAgainst: bodyValidAgainst });
        return validators.response(status, headers, body, bodyValidAgainst);
      },
    });
  }
  engine = createGenericEngine({ ...compiled, operations }, { basePath: '', fixtures: 'none' });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operation = (id: string): Operation => compiled.contract.operations.find((o) => o.operationId === id)!;
const memberSchema = (): Schema => operation('getMember').responses.get('200')!.content[0]!.schema as Schema;

/** An operation's handler and the answer guard, as the core runs them (app.ts): the answer as it leaves. */
function send(operationId: string, path: Record<string, string>, json?: unknown): MockResponse {
  const params = { path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, Number(v)])), query: {}, header: {} };
  const result = engine.handlers.get(operationId)!({ session: undefined, params, pathParams: path, body: json, location: () => '' } as unknown as OperationInput);
  if (!('status' in result)) throw new Error(`${operationId} answered no status`);
  const answered: MockResponse = { status: result.status, headers: { ...(result.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(result.headers ?? {}) }, ...(result.body !== undefined ? { body: result.body } : {}) };
  return engine.conform(operation(operationId), answered);
}

/** The document's own verdict, by validators that were told nothing. */
function problems(operationId: string, response: MockResponse): readonly unknown[] {
  return compiled.operations.get(operationId)!.response(response.status, response.headers, response.body).diagnostics;
}

describe('a record checked once', () => {
  it('is stored as it was sent, noted as valid against the record schema, and answered without that check again', () => {
    told.length = 0;
    const created = send('createMember', {}, { owner: 'ada', tier: 'paid' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ owner: 'ada', tier: 'paid', id: expect.any(Number) });
    expect(problems('createMember', created)).toEqual([]);
    expect(isImmutableJson(created.body)).toBe(true);
    expect(validAgainst(created.body)).toBe(memberSchema());
    // The guard told the create's check the body passed the Member schema: the same object its 201 documents.
    expect(told.filter((t) => t.operationId === 'createMember').map((t) => t.validAgainst)).toEqual([memberSchema()]);
    const id = (created.body as { id: number }).id;
    const read = send('getMember', { id: String(id) });
    expect(read.body).toBe(created.body);
    expect(problems('getMember', read)).toEqual([]);
  });

  it('is still fitted where fitting would change it: a writeOnly member is never kept to be answered', () => {
    const created = send('createMember', {}, { owner: 'grace', password: 'hunter2' });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('password');
    const read = send('getMember', { id: String((created.body as { id: number }).id) });
    expect(read.body).not.toHaveProperty('password');
    expect(problems('getMember', read)).toEqual([]);
    expect(keptWhenValid(memberSchema(), 'response')).toBe(false);
  });

  it('still has its status, media type and headers checked: a Location the document refuses is fitted', () => {
    const record = send('createMember', {}, { owner: 'linus' }).body;
    expect(validAgainst(record)).toBe(memberSchema());
    const answer = engine.conform(operation('createMember'), { status: 201, headers: { 'content-type': 'application/json', location: 'elsewhere' }, body: record });
    expect(answer.headers['location']).toMatch(/^\/members\/[0-9]+$/);
    expect(problems('createMember', answer)).toEqual([]);
  });
});

describe('an answer that is not provably valid is checked in full', () => {
  it('a body noted against one schema, answered under another, is validated and fitted', () => {
    const record = send('createMember', {}, { owner: 'margaret' }).body;
    expect(validAgainst(record)).toBe(memberSchema());
    told.length = 0;
    const answer = engine.conform(operation('getAudit'), { status: 200, headers: { 'content-type': 'application/json' }, body: record });
    // Audited requires an auditor the Member record has not: the check ran, and the answer was fitted.
    expect(answer.body).toHaveProperty('auditor');
    expect(problems('getAudit', answer)).toEqual([]);
  });

  it('an immutable copy made elsewhere, or a record a hook spread afresh, carries no note and is fitted', () => {
    const broken = immutableJson({ id: 3, owner: '' });
    expect(validAgainst(broken)).toBeUndefined();
    const fitted = engine.conform(operation('getMember'), { status: 200, headers: { 'content-type': 'application/json' }, body: broken });
    expect(problems('getMember', fitted)).toEqual([]);
    const record = send('createMember', {}, { owner: 'barbara' }).body as Record<string, unknown>;
    const spread = immutableFresh({ ...record, tier: 'gold' });
    expect(validAgainst(spread)).toBeUndefined();
    const answer = engine.conform(operation('getMember'), { status: 200, headers: { 'content-type': 'application/json' }, body: spread });
    expect(problems('getMember', answer)).toEqual([]);
    expect((answer.body as { tier?: string }).tier).not.toBe('gold');
  });

  it('a note is made only with an immutable copy, never carried by a copy of it, and only the schema it names is skipped', () => {
    // Noted only by the engine, as it makes an immutable copy: a plain object or a spread of a noted one has none.
    const noted = immutableJson({ id: 1, owner: 'x' }, memberSchema());
    expect(validAgainst(noted)).toBe(memberSchema());
    expect(validAgainst({ ...noted })).toBeUndefined();
    expect(isImmutableJson({ ...noted })).toBe(false);
    expect(Object.keys(noted)).toEqual(['id', 'owner']);
    expect(JSON.stringify(noted)).toBe('{"id":1,"owner":"x"}');
    expect(structuredClone(noted)).toEqual({ id: 1, owner: 'x' });
    expect(isImmutableJson(structuredClone(noted))).toBe(false);
    // The validator skips the body check only for the very schema object it was told.
    const validators = compiled.operations.get('getMember')!;
    const invalid = immutableJson({ id: 'one' });
    expect(validators.response(200, { 'content-type': 'application/json' }, invalid, {}).diagnostics.length).toBeGreaterThan(0);
    expect(validators.response(200, { 'content-type': 'application/json' }, invalid, memberSchema()).diagnostics).toEqual([]);
    expect(validators.response(200, { 'content-type': 'text/plain' }, invalid, memberSchema()).diagnostics.length).toBeGreaterThan(0);
  });
});

describe('keptWhenValid and immutableFresh', () => {
  it('a schema with branches at its root, or a member a view drops, is fitted; a plain one is kept', () => {
    expect(keptWhenValid({ type: 'object', properties: { a: { type: 'string' } } } as Schema, 'response')).toBe(true);
    expect(keptWhenValid({ oneOf: [{ type: 'object' }, { type: 'string' }] } as Schema, 'response')).toBe(false);
    const nested = { type: 'object', properties: { inner: { type: 'array', items: { type: 'object', properties: { secret: { type: 'string', writeOnly: true } } } } } } as Schema;
    expect(keptWhenValid(nested, 'response')).toBe(false);
    expect(keptWhenValid({ type: 'object', properties: { id: { type: 'integer', readOnly: true } } } as Schema, 'request')).toBe(false);
  });

  it('freezes the object it is handed where it is, and copies what else it holds rather than freeze the caller’s', () => {
    const links = { self: '/a/1' };
    const fresh: Record<string, unknown> = { id: 1, links };
    Object.defineProperty(fresh, '__proto__', { value: { polluted: true }, enumerable: true, writable: true, configurable: true });
    const sealed = immutableFresh(fresh);
    expect(sealed).toBe(fresh);
    expect(Object.isFrozen(sealed)).toBe(true);
    expect(isImmutableJson(sealed)).toBe(true);
    expect(Object.isFrozen(links)).toBe(false);
    expect(sealed['links']).toEqual(links);
    expect(Object.isFrozen(sealed['links'])).toBe(true);
    expect(Object.getPrototypeOf(sealed)).toBe(Object.prototype);
    expect(JSON.stringify(sealed)).toBe('{"id":1,"links":{"self":"/a/1"},"__proto__":{"polluted":true}}');
  });
});

describe('the kit’s own generated data (fixturesGenerated)', () => {
  it('is kept as it is at start-up, where a user\'s fixtures that break their schema are refused; its answers are still checked', () => {
    const fixtures = { members: [{ id: 1, owner: '' }] };
    const raw = (from: GenericEngine): unknown => {
      const result = from.handlers.get('getMember')!({ session: undefined, params: { path: { id: 1 }, query: {}, header: {} }, pathParams: { id: '1' }, body: undefined, location: () => '' } as unknown as OperationInput);
      return 'body' in result ? result.body : undefined;
    };
    const generated = createGenericEngine(compiled, { basePath: '', fixtures, fixturesGenerated: true });
    expect(raw(generated)).toEqual({ id: 1, owner: '' });
    // The same records as a user's fixtures: refused in the schema's words (initial.ts), no longer fitted in silence.
    expect(() => createGenericEngine(compiled, { basePath: '', fixtures })).toThrow(/^members\.json at \/0\/owner: must NOT have fewer than 1 characters/);
    const answer = generated.conform(operation('getMember'), { status: 200, headers: { 'content-type': 'application/json' }, body: raw(generated) });
    expect(problems('getMember', answer)).toEqual([]);
  });
});
