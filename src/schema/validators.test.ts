import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';
import { bundledContract } from '../test-support.js';

interface BodyCase { name: string; operationId: string; input: unknown; valid?: boolean; pointer?: string; keyword?: string }
interface ParameterCase extends Omit<BodyCase, 'input'> { path?: Record<string, string>; query?: Record<string, string | string[]>; values?: Record<string, unknown> }

const cases = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures/validation/cases.json'), 'utf8')) as { body: BodyCase[]; parameters: ParameterCase[] };

describe('compiled request validators (fixtures/validation/cases.json)', async () => {
  const { compiled } = await bundledContract();

  it.each(cases.body.map((c) => [c.name, c] as const))('body: %s', (_name, c) => {
    const diagnostics = compiled.operations.get(c.operationId)!.body(c.input);
    if (c.valid) {
      expect(diagnostics).toEqual([]);
    } else {
      expect(diagnostics).toContainEqual(expect.objectContaining({ pointer: c.pointer, keyword: c.keyword }));
      for (const d of diagnostics) expect(d.message.length).toBeGreaterThan(3);
    }
  });

  it.each(cases.parameters.map((c) => [c.name, c] as const))('parameters: %s', (_name, c) => {
    const result = compiled.operations.get(c.operationId)!.parameters({ path: c.path ?? {}, query: c.query ?? {}, headers: {} });
    if (c.valid) {
      expect(result.ok).toBe(true);
      if (result.ok && c.values) expect({ ...result.values.path, ...result.values.query }).toMatchObject(c.values);
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.diagnostics).toContainEqual(expect.objectContaining({ pointer: c.pointer, keyword: c.keyword }));
    }
  });

  it('reports every problem of a body at once, each at its own pointer', () => {
    const diagnostics = compiled.operations.get('createPet')!.body({ name: 3, status: 'adopted', extra: true });
    expect(diagnostics.map((d) => d.pointer).sort()).toEqual(['/body/categoryId', '/body/extra', '/body/name', '/body/status']);
  });

  it('caps the number of diagnostics so a huge invalid body cannot produce a huge answer', () => {
    const body = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field${i}`, i]));
    const diagnostics = compiled.operations.get('createPet')!.body(body);
    expect(diagnostics.length).toBe(51);
    expect(diagnostics.at(-1)!.keyword).toBe('truncated');
  });

  it('requires a body where the document says so', () => {
    expect(compiled.operations.get('createPet')!.body(undefined)).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'required' })]);
  });
});

describe('compiled response validators', async () => {
  const { compiled } = await bundledContract();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const deprecation = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT', link: '</pets?id=1>; rel="successor-version"' };

  it('accepts a conforming answer, with extra fields on an open shape', () => {
    const verdict = compiled.operations.get('getPet')!.response(200, { ...json, ...deprecation }, { id: 1, name: 'Rex', categoryId: 1, status: 'sold', colour: 'brown' });
    expect(verdict).toEqual({ statusKey: '200', diagnostics: [] });
  });

  it('names an undocumented status', () => {
    expect(compiled.operations.get('listPets')!.response(418, json, {}).diagnostics).toEqual([expect.objectContaining({ pointer: '/status', keyword: 'status' })]);
  });

  it('names a missing or invalid documented header', () => {
    const missing = compiled.operations.get('listPets')!.response(200, json, []).diagnostics;
    expect(missing).toEqual([expect.objectContaining({ pointer: '/header/x-total-count', keyword: 'required' })]);
    const invalid = compiled.operations.get('listPets')!.response(200, { ...json, 'x-total-count': 'many' }, []).diagnostics;
    expect(invalid).toEqual([expect.objectContaining({ pointer: '/header/x-total-count', keyword: 'type' })]);
    const legacy = compiled.operations.get('getPet')!.response(404, { ...json, ...deprecation, deprecation: 'true' }, { code: 'PET_NOT_FOUND', message: 'x', status: 404 }).diagnostics;
    expect(legacy).toEqual([expect.objectContaining({ pointer: '/header/deprecation', keyword: 'pattern' })]);
  });

  it('names an undocumented media type and a body that breaks the schema', () => {
    expect(compiled.operations.get('getCategory')!.response(200, { 'content-type': 'text/html' }, '<html>').diagnostics).toEqual([
      expect.objectContaining({ pointer: '/header/content-type', keyword: 'content' }),
    ]);
    expect(compiled.operations.get('getCategory')!.response(200, json, { id: '1', name: 'Dogs' }).diagnostics).toEqual([
      expect.objectContaining({ pointer: '/body/id', keyword: 'type' }),
    ]);
  });

  it('expects no body on a 204', () => {
    expect(compiled.operations.get('deletePet')!.response(204, {}, undefined).diagnostics).toEqual([]);
    expect(compiled.operations.get('deletePet')!.response(204, json, {}).diagnostics).toEqual([expect.objectContaining({ pointer: '/body' })]);
  });
});

describe('CompiledContract.validate', async () => {
  const { compiled } = await bundledContract();
  const pet = compiled.contract.document.components!.schemas!['Pet'] as Parameters<typeof compiled.validate>[0];

  it('keeps each schema its own verdicts per view, asked again and again (its validator is kept, not looked up)', () => {
    const good = { id: 1, name: 'Rex', categoryId: 1, status: 'sold' };
    for (let round = 0; round < 3; round++) {
      expect(compiled.validate(pet, good, 'response')).toEqual([]);
      expect(compiled.validate(pet, { ...good, status: 'lost' }, 'response', '/body')).toEqual([expect.objectContaining({ pointer: '/body/status' })]);
      // The request view of the same schema is its own validator: the server-set id is not the client's to send.
      expect(compiled.validate(pet, { name: 'Rex' }, 'request')).toEqual(compiled.validate(pet, { name: 'Rex' }, 'request'));
    }
  });
});
