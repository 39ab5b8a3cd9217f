/**
 * The indexes a generic store keeps for the stated rules (store.ts lookup; issue 34, point 1: a uniqueness or what
 * still names a record is looked up, not searched for among a million records): built on first use from the records
 * the store holds, kept on every write, an undone one included, and each session's its own.
 */
import { describe, expect, it } from 'vitest';
import { createGenericRegistry, type GenericState, type RecordIndex, type StoredRecord } from './store.js';

const PETS = '/pets';
const byCategory: RecordIndex = { keyOf: (record) => (record['categoryId'] === undefined ? undefined : String(record['categoryId'])) };

function registry() {
  const pets: StoredRecord[] = [
    { id: 1, name: 'Rex', categoryId: 1 },
    { id: 2, name: 'Tom', categoryId: 2 },
    { id: 3, name: 'Kit', categoryId: 1 },
    { id: 4, name: 'Nobody' },
  ];
  return createGenericRegistry({ [PETS]: { '': pets } }, (_resource, record) => String(record['id']));
}

const ids = (found: Iterable<string>): string[] => [...found].sort();

describe('a generic store’s indexes', () => {
  it('finds records by key from the records held, and none for a key no record has', () => {
    const store = registry().get();
    expect(ids(store.lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
    expect(ids(store.lookup(PETS, '', byCategory, '2'))).toEqual(['2']);
    expect(ids(store.lookup(PETS, '', byCategory, '9'))).toEqual([]);
    expect(ids(store.lookup(PETS, 'other scope', byCategory, '1'))).toEqual([]);
  });

  it('is kept on every write after it is built: a create, a change of key, a delete', () => {
    const store = registry().get();
    expect(ids(store.lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
    store.set(PETS, '', '5', { id: 5, name: 'New', categoryId: 1 });
    store.set(PETS, '', '3', { id: 3, name: 'Kit', categoryId: 2 });
    store.remove(PETS, '', '1');
    store.set(PETS, '', '2', { id: 2, name: 'Tom, renamed', categoryId: 2 });
    store.set(PETS, '', '4', { id: 4, name: 'Somebody', categoryId: 1 });
    expect(ids(store.lookup(PETS, '', byCategory, '1'))).toEqual(['4', '5']);
    expect(ids(store.lookup(PETS, '', byCategory, '2'))).toEqual(['2', '3']);
  });

  it('follows a transaction undone: every write of it taken back in the index too', () => {
    const store = registry().get();
    expect(ids(store.lookup(PETS, '', byCategory, '2'))).toEqual(['2']);
    const result = store.atomically(
      () => {
        store.set(PETS, '', '2', { id: 2, name: 'Tom', categoryId: 1 });
        store.remove(PETS, '', '1');
        store.set(PETS, '', '6', { id: 6, name: 'Six', categoryId: 2 });
        expect(ids(store.lookup(PETS, '', byCategory, '1'))).toEqual(['2', '3']);
        return 'refused';
      },
      () => false,
    );
    expect(result).toBe('refused');
    expect(ids(store.lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
    expect(ids(store.lookup(PETS, '', byCategory, '2'))).toEqual(['2']);
  });

  it('is each session’s own: a write in one is not seen in another’s, nor in the initial data', () => {
    const stores = registry();
    const one = stores.get('one');
    const two = stores.get('two');
    expect(ids(one.lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
    one.remove(PETS, '', '3');
    expect(ids(one.lookup(PETS, '', byCategory, '1'))).toEqual(['1']);
    expect(ids(two.lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
    expect(ids(stores.get().lookup(PETS, '', byCategory, '1'))).toEqual(['1', '3']);
  });
});

describe('a state handed over (GenericStore.handOver)', () => {
  it('is the store’s whole state, and every registry made from it starts from it, whatever another one writes', () => {
    const loaded = registry().get();
    loaded.set(PETS, '', '7', { id: 7, name: 'Loaded', categoryId: 3 });
    const state = loaded.handOver();
    expect(state).toEqual(loaded.snapshot());
    const idOf = (_resource: string, record: StoredRecord): string => String(record['id']);
    const first = createGenericRegistry(state, idOf).get();
    const second = createGenericRegistry(state, idOf).get();
    expect(first.snapshot()).toEqual(state);
    expect(first.nextNumber(PETS)).toBe(8);
    first.remove(PETS, '', '7');
    first.set(PETS, '', '1', { id: 1, name: 'Changed', categoryId: 3 });
    expect(second.snapshot()).toEqual(state);
    expect(second.get(PETS, '', '7')).toEqual({ id: 7, name: 'Loaded', categoryId: 3 });
    expect(ids(second.lookup(PETS, '', byCategory, '3'))).toEqual(['7']);
  });

  it('is the state the store was made from when nothing was written (a load hook with nothing to do), not a copy', () => {
    const state: GenericState = { [PETS]: { '': [{ id: 1, name: 'Rex', categoryId: 1 }, { id: 4, name: 'Tom', categoryId: 2 }] } };
    const idOf = (_resource: string, record: StoredRecord): string => String(record['id']);
    const untouched = createGenericRegistry(state, idOf).get();
    expect(untouched.handOver()).toBe(state);
    // A registry made from it again starts from it, its sequence past its highest id.
    const again = createGenericRegistry(state, idOf).get();
    expect(again.snapshot()).toEqual(state);
    expect(again.nextNumber(PETS)).toBe(5);
    // Written, it is the store's own state again.
    const written = createGenericRegistry(state, idOf).get();
    written.remove(PETS, '', '4');
    expect(written.handOver()).not.toBe(state);
    expect(written.handOver()[PETS]).toEqual({ '': [{ id: 1, name: 'Rex', categoryId: 1 }] });
  });
});
