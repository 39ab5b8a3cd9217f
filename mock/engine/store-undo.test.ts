/**
 * A generic store's transactions (store.ts atomically), one after another: each store notes how to undo its writes in
 * one list it uses again (issue 34, point 1), so what one transaction noted must never be undone by the next, a large
 * one (a cascade) must be undone whole, and a transaction refused after either undoes only its own writes.
 */
import { describe, expect, it } from 'vitest';
import { createGenericRegistry } from './store.js';

const PETS = '/pets';

describe('a generic store’s transactions, one after another', () => {
  it('undoes only what the refused one wrote, whatever the ones before it wrote or undid', () => {
    const store = createGenericRegistry({ [PETS]: { '': [{ id: 1, name: 'Rex' }] } }, (_resource, record) => String(record['id'])).get();
    // Sorted: a record removed and put back is listed last (the order is not this test's).
    const names = (): unknown[] => [...store.records(PETS, '')].map((record) => record['name']).sort();
    const refused = store.atomically(() => {
      store.set(PETS, '', '1', { id: 1, name: 'Renamed' });
      store.set(PETS, '', String(store.nextNumber(PETS)), { id: 2, name: 'Two' });
      return 'no';
    }, () => false);
    expect(refused).toBe('no');
    expect(names()).toEqual(['Rex']);
    expect(store.sequence(PETS)).toBe(1);
    store.atomically(() => store.set(PETS, '', '3', { id: 3, name: 'Three' }), () => true);
    expect(() => store.atomically(() => {
      store.remove(PETS, '', '3');
      throw new Error('a hook threw');
    }, () => true)).toThrow('a hook threw');
    expect(names()).toEqual(['Rex', 'Three']);
    // A large transaction (more writes than the list keeps room for), refused whole; then a small one refused.
    store.atomically(() => {
      for (let id = 10; id < 1010; id += 1) store.set(PETS, '', String(id), { id, name: `Pet ${id}` });
      store.remove(PETS, '', '1');
      return 'no';
    }, () => false);
    expect(names()).toEqual(['Rex', 'Three']);
    expect(store.sequence(PETS)).toBe(3);
    store.atomically(() => {
      store.set(PETS, '', '1', { id: 1, name: 'Rex again' });
      return 'no';
    }, () => false);
    expect(names()).toEqual(['Rex', 'Three']);
    // A kept one inside another keeps with it: a nested call is part of the outer transaction.
    store.atomically(() => {
      store.atomically(() => store.set(PETS, '', '4', { id: 4, name: 'Four' }), () => true);
      return 'no';
    }, () => false);
    expect(names()).toEqual(['Rex', 'Three']);
  });
});
