/**
 * A session's list written over the shared one (overlay-list.ts) reads as a copy of the shared list written the same
 * way did before (store.ts fork, issue 34): the same records by key, the same size, and the same order (a record
 * replaced keeps its place; one added, or put back after its removal, comes last), whatever the writes. Checked
 * against a Map copy over random writes, with the shared list left untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DenseList, OverlayList, type SharedList } from './overlay-list.js';
import type { ListKey, StoredRecord } from './store.js';

const keyArb = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constantFrom('a', 'b', '007'));
const opArb = fc.oneof(
  fc.record({ set: keyArb, n: fc.integer({ min: 0, max: 99 }) }),
  fc.record({ remove: keyArb }),
);

describe('a list written over a shared one', () => {
  it('reads, counts and iterates as a copy of it written the same way', () => {
    fc.assert(
      fc.property(fc.uniqueArray(keyArb, { maxLength: 8 }), fc.array(opArb, { maxLength: 40 }), fc.option(fc.record({ first: fc.integer({ min: 0, max: 4 }), count: fc.integer({ min: 0, max: 8 }) })), (mapKeys, ops, dense) => {
        // A Map, or the array of records kept under consecutive numbers (DenseList), which must read as their Map.
        const records = dense ? Array.from({ length: dense.count }, (_, index) => ({ key: dense.first + index, n: -1 })) : [];
        const sharedKeys: ListKey[] = dense ? records.map((record) => record.key) : mapKeys;
        const asMap = new Map<ListKey, StoredRecord>(sharedKeys.map((key, index) => [key, records[index] ?? { key, n: -1 }]));
        const shared: SharedList = dense ? new DenseList(records, dense.first) : asMap;
        if (dense) {
          expect([...shared]).toEqual([...asMap]);
          expect(shared.size).toBe(asMap.size);
          for (const key of [-1, 0, 3, 12, 1.5, '1']) expect([shared.get(key), shared.has(key)]).toEqual([asMap.get(key), asMap.has(key)]);
        }
        const before = [...shared];
        const copy = new Map(asMap);
        const overlay = new OverlayList(shared);
        for (const op of ops) {
          if ('set' in op) {
            const record = { key: op.set, n: op.n };
            copy.set(op.set, record);
            overlay.set(op.set, record);
          } else expect(overlay.delete(op.remove)).toBe(copy.delete(op.remove));
          expect(overlay.size).toBe(copy.size);
        }
        expect([...overlay]).toEqual([...copy]);
        expect([...overlay.values()]).toEqual([...copy.values()]);
        for (const key of [...sharedKeys, 0, 5, 'a', 'zz']) expect(overlay.get(key)).toBe(copy.get(key));
        expect([...shared]).toEqual(before);
      }),
      { numRuns: 500 },
    );
  });
});
