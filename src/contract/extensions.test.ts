/**
 * The two readers a document from elsewhere leans on, table-driven:
 * `x-error-codes` in the shapes documents write it, and the operationId an
 * operation without one gets.
 */
import { describe, expect, it } from 'vitest';
import { KitError } from '../kit-error.js';
import { readErrorCodes } from './error-codes.js';
import { assignOperationIds, deriveOperationId } from './operation-ids.js';
import { WarningList } from './warnings.js';

describe('readErrorCodes', () => {
  const cases: [title: string, raw: unknown, codes: [string, number][], warnings: string[]][] = [
    ['absent', undefined, [], []],
    ['our map of code → {status, description}', { PET_NOT_FOUND: { status: 404, description: 'x' } }, [['PET_NOT_FOUND', 404]], []],
    ['a map of code → status', { GONE: 410, TEAPOT: '418' }, [['GONE', 410], ['TEAPOT', 418]], []],
    ['an array of {code, status}', [{ code: 'A', status: 400 }, { code: 'B', httpStatus: 409, message: 'm' }], [['A', 400], ['B', 409]], []],
    ['an array with unusable entries', [{ code: 'A', status: 400 }, 'B', { status: 500 }, { code: 'C', status: 'soon' }], [['A', 400]], ['/x-error-codes/1', '/x-error-codes/2', '/x-error-codes/3']],
    ['a map whose key needs escaping', { 'a/b': { status: 'x' } }, [], ['/x-error-codes/a~1b']],
    ['a sentence', 'see the portal', [], ['/x-error-codes']],
  ];

  it.each(cases)('%s', (_title, raw, codes, warnings) => {
    const list = new WarningList();
    const read = readErrorCodes(raw, 'doc.yaml', false, list);
    expect([...read.values()].map((spec) => [spec.code, spec.status])).toEqual(codes);
    expect(list.items.map((w) => w.pointer)).toEqual(warnings);
  });

  it('keeps a description given as message', () => {
    expect(readErrorCodes([{ code: 'B', status: 409, message: 'taken' }], 'doc.yaml', false, new WarningList()).get('B')?.description).toBe('taken');
  });

  it('refuses, in a strict contract, what it would only warn about in another', () => {
    expect(() => readErrorCodes('see the portal', 'doc.yaml', true, new WarningList())).toThrow(KitError);
    expect(() => readErrorCodes({ A: { status: 'x' } }, 'doc.yaml', true, new WarningList())).toThrow(/status must be a number/);
  });
});

describe('derived operationIds', () => {
  it.each([
    ['get', '/pets/{petId}', 'getPetsPetId'],
    ['post', '/store/orders', 'postStoreOrders'],
    ['delete', '/v1/user-accounts/{account_id}/keys', 'deleteV1UserAccountsAccountIdKeys'],
    ['get', '/', 'get'],
  ] as const)('%s %s → %s', (method, path, id) => {
    expect(deriveOperationId(method, path)).toBe(id);
  });

  it('gives way to declared ids and to each other, in document order', () => {
    const ids = assignOperationIds([
      { method: 'get', pathTemplate: '/pets' },
      { method: 'get', pathTemplate: '/pets/' },
      { method: 'get', pathTemplate: '/pets-list', declaredId: 'getPets' },
    ]);
    expect(ids).toEqual(['getPets_2', 'getPets_3', 'getPets']);
  });

  it('a declared id repeated by a later operation (Svix: GET and HEAD /api/v1/health are both v1.health.get) takes the next free suffix, so each operation keeps its own responses', () => {
    const ids = assignOperationIds([
      { method: 'get', pathTemplate: '/health', declaredId: 'v1.health.get' },
      { method: 'head', pathTemplate: '/health', declaredId: 'v1.health.get' },
      { method: 'get', pathTemplate: '/other', declaredId: 'v1.health.get_2' },
    ]);
    expect(ids).toEqual(['v1.health.get', 'v1.health.get_3', 'v1.health.get_2']);
    expect(new Set(ids).size).toBe(3);
  });
});
