/**
 * The rule book as compiled for the write path (issue 34, point 1): each write meets only the rules of its own
 * collection (and, for effects, of its kind), looked up once at start-up rather than filtered on every write; a
 * uniqueness of one field is keyed without the array its general form makes. These show it refuses what a book of
 * every rule refused, in the order the rules were stated, applies nothing of another collection's, and that a refusal
 * inside the store's transaction changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/contract/index.js';
import type { Resource } from '../engine/infer.js';
import { createGenericRegistry, type GenericStore, type StoredRecord } from '../engine/store.js';
import { createRuleBook, type WriteEvent } from './rule-book.js';
import type { EffectRule, ReferenceRule, Rule, StateRule, UniqueRule } from './rules.js';

const resource = (path: string): Resource => ({ key: path, name: path.slice(1), collectionPath: path, itemPath: `${path}/{id}`, idParam: 'id', scopeParams: [], idField: 'id', idKind: 'integer', idIsNumber: true }) as unknown as Resource;
const PETS = resource('/pets');
const ORDERS = resource('/orders');
const TAGS = resource('/tags');
const operation = { operationId: 'op', responses: new Map([['409', {}], ['422', {}]]) } as unknown as Operation;

const uniqueName = (on: Resource, ignoreCase: boolean, code: string): UniqueRule => ({ kind: 'unique', resource: on, fields: ['name'], ignoreCase, when: [], answer: { code }, where: 'test' });
const rules: Rule[] = [
  uniqueName(TAGS, true, 'TAG_TAKEN'),
  uniqueName(PETS, false, 'PET_NAME_TAKEN'),
  { kind: 'unique', resource: PETS, fields: ['name', 'colour'], ignoreCase: false, when: [], answer: { code: 'PAIR_TAKEN' }, where: 'test' },
  { kind: 'reference', resource: ORDERS, field: 'petId', target: PETS, onDelete: 'restrict', when: [['open', [true]]], missing: { code: 'UNKNOWN_PET' }, inUse: { code: 'PET_IN_USE' }, where: 'test' } satisfies ReferenceRule,
  { kind: 'states', resource: ORDERS, field: 'open', initial: undefined, transitions: new Map([['true', [false]], ['false', []]]), deletable: undefined, answer: { code: 'CLOSED' }, where: 'test' } satisfies StateRule,
  { kind: 'effect', resource: ORDERS, on: new Set(['create']), when: [], was: [], target: PETS, by: 'petId', require: [['status', ['available']]], set: [['status', 'pending']], add: [['orders', 1]], answer: { code: 'NOT_AVAILABLE' }, where: 'test' } satisfies EffectRule,
  { kind: 'effect', resource: ORDERS, on: new Set(['delete']), when: [], was: [], target: PETS, by: 'petId', require: [], set: [['status', 'available']], add: [], answer: {}, where: 'test' } satisfies EffectRule,
];

function store(): GenericStore {
  const state = {
    '/pets': { '': [{ id: 1, name: 'Rex', colour: 'brown', status: 'available', orders: 0 }, { id: 2, name: 'Tom', colour: 'grey', status: 'sold', orders: 0 }] as StoredRecord[] },
    '/tags': { '': [{ id: 1, name: 'Friendly' }] as StoredRecord[] },
    '/orders': { '': [] as StoredRecord[] },
  };
  return createGenericRegistry(state, (_resource, record) => String(record['id'])).get();
}

/** A write as the engine makes it (engine.ts write): the rules before, the store, the rules after, in one transaction. */
function write(book: ReturnType<typeof createRuleBook>, s: GenericStore, event: WriteEvent): string | undefined {
  const refusal = s.atomically(
    () => {
      const refused = book.before(event, s, operation);
      if (refused) return refused;
      if (event.kind === 'delete') s.remove(event.resource.key, event.scope, event.id);
      else s.set(event.resource.key, event.scope, event.id, event.after!);
      return book.after(event, s, operation);
    },
    (result) => result === undefined,
  );
  return refusal?.body.code;
}

const snapshot = (s: GenericStore): string => JSON.stringify(s.snapshot());

describe('the rule book, compiled per collection', () => {
  it("applies a collection's rules only to its own writes, in the order they were stated", () => {
    const book = createRuleBook(rules);
    const s = store();
    // A tag named like a pet, a pet named like a tag: another collection's uniqueness says nothing of it.
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '2', after: { id: 2, name: 'Rex' } })).toBeUndefined();
    expect(write(book, s, { kind: 'create', resource: PETS, scope: '', id: '3', after: { id: 3, name: 'Friendly', colour: 'black', status: 'available' } })).toBeUndefined();
    // The first stated uniqueness of pets refuses before the pair's.
    expect(write(book, s, { kind: 'create', resource: PETS, scope: '', id: '4', after: { id: 4, name: 'Rex', colour: 'brown' } })).toBe('PET_NAME_TAKEN');
    // A tag's uniqueness ignores case; a pet's does not.
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '3', after: { id: 3, name: 'friendly' } })).toBe('TAG_TAKEN');
    expect(write(book, s, { kind: 'create', resource: PETS, scope: '', id: '5', after: { id: 5, name: 'rex', colour: 'white' } })).toBeUndefined();
  });

  it('keys a one-field uniqueness as the general form does, through every kind of write', () => {
    const book = createRuleBook(rules);
    const s = store();
    expect(write(book, s, { kind: 'update', resource: TAGS, scope: '', id: '1', before: s.get('/tags', '', '1')!, after: { id: 1, name: 'Shy' } })).toBeUndefined();
    // The old name is free again, the new one taken, whatever its case; a name that is no text is compared as JSON.
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '2', after: { id: 2, name: 'Friendly' } })).toBeUndefined();
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '3', after: { id: 3, name: 'SHY' } })).toBe('TAG_TAKEN');
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '4', after: { id: 4, name: 7 } })).toBeUndefined();
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '5', after: { id: 5, name: 7 } })).toBe('TAG_TAKEN');
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '6', after: { id: 6, name: '7' } })).toBeUndefined();
    // A record without the field is not indexed, and clashes with none.
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '7', after: { id: 7 } })).toBeUndefined();
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '8', after: { id: 8 } })).toBeUndefined();
    expect(write(book, s, { kind: 'delete', resource: TAGS, scope: '', id: '1', before: s.get('/tags', '', '1')! })).toBeUndefined();
    expect(write(book, s, { kind: 'create', resource: TAGS, scope: '', id: '9', after: { id: 9, name: 'shy' } })).toBeUndefined();
  });

  it("runs only the effects of the write's kind, and a refusal at any step changes nothing", () => {
    const book = createRuleBook(rules);
    const s = store();
    expect(write(book, s, { kind: 'create', resource: ORDERS, scope: '', id: '1', after: { id: 1, petId: 1, open: true } })).toBeUndefined();
    expect(s.get('/pets', '', '1')).toMatchObject({ status: 'pending', orders: 1 });
    // Refused by the reference (no pet 9), by the effect's condition (pet 2 is sold), by the restrict (pet 1 is named).
    const before = snapshot(s);
    expect(write(book, s, { kind: 'create', resource: ORDERS, scope: '', id: '2', after: { id: 2, petId: 9, open: true } })).toBe('UNKNOWN_PET');
    expect(write(book, s, { kind: 'create', resource: ORDERS, scope: '', id: '2', after: { id: 2, petId: 2, open: true } })).toBe('NOT_AVAILABLE');
    expect(write(book, s, { kind: 'delete', resource: PETS, scope: '', id: '1', before: s.get('/pets', '', '1')! })).toBe('PET_IN_USE');
    expect(snapshot(s)).toBe(before);
    // An update runs no create or delete effect; the state machine refuses a closed order reopened.
    expect(write(book, s, { kind: 'update', resource: ORDERS, scope: '', id: '1', before: s.get('/orders', '', '1')!, after: { id: 1, petId: 1, open: false } })).toBeUndefined();
    expect(s.get('/pets', '', '1')).toMatchObject({ status: 'pending', orders: 1 });
    expect(write(book, s, { kind: 'update', resource: ORDERS, scope: '', id: '1', before: s.get('/orders', '', '1')!, after: { id: 1, petId: 1, open: true } })).toBe('CLOSED');
    expect(write(book, s, { kind: 'delete', resource: ORDERS, scope: '', id: '1', before: s.get('/orders', '', '1')! })).toBeUndefined();
    expect(s.get('/pets', '', '1')).toMatchObject({ status: 'available', orders: 1 });
  });

  it('an effect with cap: true stops a sum at the field\'s documented bounds; without it the sum past them refuses the write', () => {
    // A stock of at most 10 (the Pet Store's is int32): a give-back past it stops at 10, a take past 0 stops at 0.
    const STOCK = { ...PETS, key: '/stock', collectionPath: '/stock', recordSchema: { type: 'object', properties: { quantity: { type: 'integer', minimum: 0, maximum: 10 } } } } as unknown as Resource;
    const giveBack = (cap: boolean): EffectRule => ({ kind: 'effect', resource: ORDERS, on: new Set(['delete']), when: [], was: [], target: STOCK, by: 'petId', require: [], set: [], add: [['quantity', { field: 'quantity', sign: 1 }]], ...(cap ? { cap } : {}), answer: { code: 'TOO_MUCH' }, where: 'test' });
    const state = (): GenericStore =>
      createGenericRegistry({ '/stock': { '': [{ id: 1, quantity: 9 }] as StoredRecord[] }, '/orders': { '': [{ id: 1, petId: 1, quantity: 4 }] as StoredRecord[] } }, (_resource, record) => String(record['id'])).get();
    const cancel = (s: GenericStore): WriteEvent => ({ kind: 'delete', resource: ORDERS, scope: '', id: '1', before: s.get('/orders', '', '1')! });
    const capped = state();
    expect(write(createRuleBook([giveBack(true)]), capped, cancel(capped))).toBeUndefined();
    expect(capped.get('/stock', '', '1')).toMatchObject({ quantity: 10 });
    const refused = state();
    expect(write(createRuleBook([giveBack(false)]), refused, cancel(refused))).toBe('TOO_MUCH');
    expect(refused.get('/stock', '', '1')).toMatchObject({ quantity: 9 });
  });
});
