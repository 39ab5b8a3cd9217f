/**
 * What the generic engine's create takes on trust (engine.ts newId, issue 34 point 1): a collection's next number is
 * held by none of its records, so a new integer id is not looked up among them. It holds for ids the store was built
 * with, ids a client chose (written in any way JSON or a path gives a number), writes undone by a refused transaction,
 * an import with counters, and a session apart from the default store.
 */
import { describe, expect, it } from 'vitest';
import { createGenericRegistry, type GenericStore, type StoredRecord } from './store.js';

const PETS = '/pets';

function registry(ids: readonly string[]) {
  const pets: StoredRecord[] = ids.map((id) => ({ id, name: `pet ${id}` }));
  return createGenericRegistry({ [PETS]: { '': pets, 'other scope': [{ id: '40', name: 'elsewhere' }] } }, (_resource, record) => String(record['id']));
}

/** Takes the next number and says whether a record of any scope is held under its text: it never should be. */
function nextIsFree(store: GenericStore): boolean {
  const next = String(store.nextNumber(PETS));
  return [...store.scopes(PETS)].every((scope) => store.get(PETS, scope, next) === undefined);
}

describe("a generic store's sequence", () => {
  it('starts past every integer id it was built with, in every scope, whatever their text', () => {
    const store = registry(['3', '007', '1e1', 'abc', '12.0']).get();
    expect(store.nextNumber(PETS)).toBe(41);
    expect(nextIsFree(store)).toBe(true);
  });

  it('moves past an id a client chose, and is free after every kind of write', () => {
    const store = registry(['1']).get();
    const number = store.nextNumber(PETS);
    for (const chosen of [String(number + 1), String(number + 5), '0x40', ' 70', '1e2']) {
      store.set(PETS, '', chosen, { id: chosen });
      expect(nextIsFree(store)).toBe(true);
    }
    expect(store.sequence(PETS)).toBeGreaterThanOrEqual(100);
    store.remove(PETS, '', '1e2');
    expect(nextIsFree(store)).toBe(true);
  });

  it('goes back with the records of a refused transaction, never below what a record holds', () => {
    const store = registry(['1', '2']).get();
    store.atomically(
      () => {
        store.nextNumber(PETS);
        store.set(PETS, '', '50', { id: '50' });
        store.nextNumber(PETS);
        return 'refused';
      },
      () => false,
    );
    expect(store.get(PETS, '', '50')).toBeUndefined();
    expect(nextIsFree(store)).toBe(true);
    store.atomically(
      () => {
        store.set(PETS, '', '60', { id: '60' });
        return 'kept';
      },
      () => true,
    );
    expect(store.nextNumber(PETS)).toBe(61);
  });

  it('is past an imported state and its counter, and each session keeps its own', () => {
    const registryOfPets = registry(['1']);
    registryOfPets.load({ [PETS]: { '': [{ id: '90', name: 'imported' }] } }, 'session', new Map([[PETS, 95]]));
    const session = registryOfPets.get('session');
    expect(session.nextNumber(PETS)).toBe(96);
    expect(nextIsFree(session)).toBe(true);
    expect(nextIsFree(registryOfPets.get())).toBe(true);
  });
});
