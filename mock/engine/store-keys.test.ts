/**
 * How a generic store keeps records by id (store.ts keyOf): a list holds the id `42` as the number 42, which a large
 * map finds faster than its text (issue 34, point 1), and every other text as it is. Each id is still its own record
 * and comes back as the text it was given: `1` and `01` are two records, `-0` is not `0`.
 */
import { describe, expect, it } from 'vitest';
import { createGenericRegistry, type RecordIndex, type StoredRecord } from './store.js';

const THINGS = '/things';
/** Texts that read as the same number, or as a number at all, beside the numbers' own writings. */
const IDS = ['1', '01', '0', '-0', '00', '-5', '1e3', '1000', '1.0', ' 1', '123456789012345', '1234567890123456', '9007199254740993', 'abc', ''];
const byTag: RecordIndex = { keyOf: (record) => String(record['tag']) };

describe('a generic store’s ids', () => {
  it('keeps each id as its own record, found, listed, indexed and removed by the text it was given', () => {
    const store = createGenericRegistry({ [THINGS]: { '': [] } }, (_resource, record) => String(record['key'])).get();
    for (const id of IDS) store.set(THINGS, '', id, { key: id, tag: 'all' });
    for (const id of IDS) expect(store.get(THINGS, '', id)?.['key']).toBe(id);
    expect(store.count(THINGS, '')).toBe(IDS.length);
    // In the order they were written, whatever their text.
    expect([...store.records(THINGS, '')].map((record) => record['key'])).toEqual(IDS);
    expect([...store.lookup(THINGS, '', byTag, 'all')].sort()).toEqual([...IDS].sort());
    expect(store.get(THINGS, '', '2')).toBeUndefined();
    expect(store.remove(THINGS, '', '1')).toBe(true);
    expect(store.get(THINGS, '', '01')?.['key']).toBe('01');
    expect(store.remove(THINGS, '', '0')).toBe(true);
    expect(store.get(THINGS, '', '-0')?.['key']).toBe('-0');
    expect(store.get(THINGS, '', '00')?.['key']).toBe('00');
  });

  it('keeps them so in a state built from records, handed over, and in a transaction undone', () => {
    const records: StoredRecord[] = IDS.map((key) => ({ key }));
    const registry = createGenericRegistry({ [THINGS]: { '': records } }, (_resource, record) => String(record['key']));
    const store = registry.get();
    for (const id of IDS) expect(store.get(THINGS, '', id)?.['key']).toBe(id);
    store.atomically(
      () => {
        store.remove(THINGS, '', '1000');
        store.set(THINGS, '', '1e3', { key: 'changed' });
        store.set(THINGS, '', '7', { key: '7' });
        return undefined;
      },
      () => false,
    );
    expect(store.get(THINGS, '', '1000')?.['key']).toBe('1000');
    expect(store.get(THINGS, '', '1e3')?.['key']).toBe('1e3');
    expect(store.get(THINGS, '', '7')).toBeUndefined();
    const handed = createGenericRegistry(store.handOver(), (_resource, record) => String(record['key'])).get();
    // (A record a transaction removed and put back is listed last: the order is not this test's.)
    expect([...handed.records(THINGS, '')].map((record) => record['key']).sort()).toEqual([...IDS].sort());
    for (const id of IDS) expect(handed.get(THINGS, '', id)?.['key']).toBe(id);
  });
});
