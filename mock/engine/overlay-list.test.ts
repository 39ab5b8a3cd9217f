/**
 * A session's list written over the shared one (overlay-list.ts) reads as a copy of the shared list written the same
 * way did before (store.ts fork, issue 34): the same records by key, the same size, and the same order (a record
 * replaced keeps its place; one added, or put back after its removal, comes last), whatever the writes. Checked
 * against a Map copy over random writes, with the shared list left untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DenseList, OverlayList, TailList, type SharedList } from './overlay-list.js';
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

  it('a list a store writes (TailList) reads, counts and iterates as a Map written the same way', () => {
    // Mostly the next numbers (the mock's own ids), with gaps, removals, numbers put back and text keys among them.
    const tailOp = fc.oneof(
      { weight: 6, arbitrary: fc.record({ next: fc.integer({ min: 1, max: 3 }), n: fc.integer({ min: 0, max: 99 }) }) },
      { weight: 1, arbitrary: fc.record({ set: fc.oneof(fc.integer({ min: -2, max: 200 }), fc.constantFrom('a', '007')), n: fc.integer({ min: 0, max: 99 }) }) },
      { weight: 3, arbitrary: fc.record({ remove: fc.integer({ min: -2, max: 200 }) }) },
      { weight: 1, arbitrary: fc.record({ removeLast: fc.constant(true) }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.array(tailOp, { maxLength: 120 }), (start, ops) => {
        const copy = new Map<ListKey, StoredRecord>();
        const tail = new TailList();
        let next = start;
        const write = (key: ListKey, n: number): void => {
          copy.set(key, { key, n });
          tail.set(key, { key, n });
        };
        for (const op of ops) {
          if ('next' in op) write((next += op.next), op.n);
          else if ('set' in op) write(op.set, op.n);
          else if ('remove' in op) expect(tail.delete(op.remove)).toBe(copy.delete(op.remove));
          else {
            const last = [...copy.keys()].at(-1);
            if (last !== undefined) expect(tail.delete(last)).toBe(copy.delete(last));
          }
          expect(tail.size).toBe(copy.size);
        }
        expect([...tail]).toEqual([...copy]);
        expect([...tail.values()]).toEqual([...copy.values()]);
        for (const key of [...copy.keys(), -1, 0, next + 1, 1.5, 'a', 'zz']) expect([tail.get(key), tail.has(key)]).toEqual([copy.get(key), copy.has(key)]);
      }),
      { numRuns: 500 },
    );
  });

  it('moves a TailList mostly removed from its middle into its Map, in order', () => {
    const copy = new Map<ListKey, StoredRecord>();
    const tail = new TailList();
    for (let key = 1; key <= 5000; key += 1) {
      copy.set(key, { key });
      tail.set(key, { key });
    }
    for (let key = 1; key < 5000; key += 1) if (key % 5 !== 0) expect(tail.delete(key)).toBe(copy.delete(key));
    for (const key of [5001, 3, 'x']) {
      copy.set(key, { key });
      tail.set(key, { key });
    }
    expect([...tail]).toEqual([...copy]);
    expect(tail.size).toBe(copy.size);
  });
});
