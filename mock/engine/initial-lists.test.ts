/**
 * The initial records come with the lists the store keeps them in (initial.ts listWithIds, store.ts withBuiltLists):
 * built while the ids are given, so a million records at start-up are put in one map rather than in a set of the ids
 * taken and then again in the store's map (issue 34: 1M pets under 2 s). The store must then hold exactly what it would
 * have built from the records itself (store.ts buildLists): the same records under the same ids, in the same order,
 * the same scopes, and each sequence past the same highest id. Checked here against a copy of the same state, which
 * has no lists handed with it, over the cases the id rules have: ids given as numbers and as texts, taken twice, of the
 * wrong kind, missing, a text that is no number's own writing (`007`), and a record made under another id than the
 * one it was given (a fit that changed it).
 */
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { buildContract } from '../../src/contract/index.js';
import type { ValueGenerator } from './generate.js';
import { inferResources } from './infer.js';
import { buildInitialState, type MakeRecord } from './initial.js';
import { createGenericRegistry, type GenericState } from './store.js';

const record = (extra: Record<string, OpenAPIV3.SchemaObject> = {}): OpenAPIV3.SchemaObject => ({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, ...extra } });
const ok = (schema: OpenAPIV3.SchemaObject) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
const itemParam = (name: string): OpenAPIV3.ParameterObject => ({ name, in: 'path', required: true, schema: { type: 'integer' } });

const document: OpenAPIV3.Document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/things': { get: { operationId: 'listThings', responses: ok({ type: 'array', items: record() }) } },
    '/things/{thingId}': { get: { operationId: 'getThing', parameters: [itemParam('thingId')], responses: ok(record()) } },
    '/things/{thingId}/parts': { get: { operationId: 'listParts', parameters: [itemParam('thingId')], responses: ok({ type: 'array', items: record() }) } },
    '/things/{thingId}/parts/{partId}': { get: { operationId: 'getPart', parameters: [itemParam('thingId'), itemParam('partId')], responses: ok(record()) } },
  },
};

const fixtures = {
  things: [
    { id: 3, name: 'three' },
    { id: '5', name: 'five as text' },
    { id: 5, name: 'five again: taken' },
    { name: 'no id' },
    { id: 'seven', name: 'not an integer' },
    { id: 1.5, name: 'not whole' },
    { id: 40, name: 'made under another id' },
    { id: 40, name: 'forty again: taken, by the one made under another id' },
    { id: 2, name: 'two, after the one made under another id' },
    { id: 41, name: 'forty-one' },
  ],
  // Scopes that are numbers' texts, listed by an object in their numeric order whatever the order they came in.
  // Consecutive ids are kept without a map (DenseList): taken while so (`b again`), and no longer so (`e`, then `f`).
  parts: { '10': [{ id: 1, name: 'a' }], '2': [{ id: 1, name: 'b' }, { id: 1, name: 'b again' }, { id: 3, name: 'c' }], '1': [{ name: 'd' }, { id: 5, name: 'e' }, { id: 2, name: 'f' }, { id: 5, name: 'g' }] },
};

/** The record as given with its id set, except the one a fit would have changed: kept under 9, not the 40 it was given. */
const makeRecord: MakeRecord = (_resource, input, id) => {
  const fields = input as Record<string, unknown>;
  return Object.freeze({ ...fields, id: fields['name'] === 'made under another id' ? 9 : Number(id) });
};

describe('the initial records and their lists', () => {
  it('are held as the store would hold the same records it built into lists itself', () => {
    const contract = buildContract({ file: '/tmp/t.yaml', sha256: '0'.repeat(64), document }, { strict: false });
    const map = inferResources(contract);
    // No record is generated where fixtures are given: the generator is never asked.
    const initial = buildInitialState(contract, map, fixtures, {} as ValueGenerator, makeRecord);
    const copy: GenericState = Object.fromEntries(Object.entries(initial.state).map(([key, scopes]) => [key, { ...scopes }]));
    const built = createGenericRegistry(initial.state, initial.idOf).get();
    const fromRecords = createGenericRegistry(copy, initial.idOf).get();
    expect(built.snapshot()).toEqual(fromRecords.snapshot());
    for (const key of Object.keys(initial.state)) {
      expect(built.sequence(key)).toBe(fromRecords.sequence(key));
      expect([...built.scopes(key)]).toEqual([...fromRecords.scopes(key)]);
      for (const scope of built.scopes(key)) {
        expect(built.count(key, scope)).toBe(fromRecords.count(key, scope));
        for (const held of built.records(key, scope)) expect(built.get(key, scope, String(held['id']))).toBe(fromRecords.get(key, scope, String(held['id'])));
      }
    }
    // The ids given as before: taken or of the wrong kind, the next free number; the record made under 9 keeps 40 taken.
    const things = [...built.records('/things', '')].map((held) => [held['id'], held['name']]);
    expect(things).toEqual([
      [3, 'three'],
      [5, 'five as text'],
      [1, 'five again: taken'],
      [2, 'no id'],
      [4, 'not an integer'],
      [6, 'not whole'],
      [9, 'made under another id'],
      [7, 'forty again: taken, by the one made under another id'],
      [8, 'two, after the one made under another id'],
      [41, 'forty-one'],
    ]);
    expect(built.sequence('/things')).toBe(41);
    expect([...built.scopes('/things/{thingId}/parts')]).toEqual(['1', '2', '10']);
    expect([...built.records('/things/{thingId}/parts', '2')].map((held) => held['id'])).toEqual([1, 2, 3]);
    expect([...built.records('/things/{thingId}/parts', '1')].map((held) => held['id'])).toEqual([1, 5, 2, 3]);
  });
});
