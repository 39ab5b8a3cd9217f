import { describe, expect, it } from 'vitest';
import { IdTable, PetIndex, SortedIds } from './indexes.js';
import { mulberry32 as seeded } from './random.js';


describe('SortedIds', () => {
  it.each([1, 2, 3])('matches a sorted array through random adds and deletes that split and merge chunks (seed %i)', (seed) => {
    const random = seeded(seed);
    const set = new SortedIds();
    const reference = new Set<number>();
    let wrongAnswers = 0;
    for (let step = 0; step < 20_000; step++) {
      // Mostly adds early, mostly deletes late, so chunks grow past splitting and shrink to merging.
      const id = 1 + Math.floor(random() * 6_000);
      const adding = random() < (step < 12_000 ? 0.8 : 0.25);
      const answer = adding ? set.add(id) : set.delete(id);
      if (answer !== (adding ? !reference.has(id) : reference.has(id))) wrongAnswers++;
      if (adding) reference.add(id);
      else reference.delete(id);
    }
    expect(wrongAnswers).toBe(0);
    const sorted = [...reference].sort((a, b) => a - b);
    expect(set.size).toBe(sorted.length);
    expect([...set.values()]).toEqual(sorted);
    for (const [offset, limit] of [[0, 20], [513, 7], [1000, 100], [sorted.length - 3, 20], [sorted.length, 5]] as const) {
      expect(set.slice(offset, limit)).toEqual(sorted.slice(offset, offset + limit));
    }
    for (let probe = 0; probe < 500; probe++) {
      const id = Math.floor(random() * 6_500);
      expect(set.has(id)).toBe(reference.has(id));
    }
  });

  it('builds from ascending ids and keeps appending after them', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => 2 * i + 1);
    const set = SortedIds.fromAscending(ids);
    expect(set.add(4_001)).toBe(true);
    expect(set.add(2)).toBe(true);
    expect(set.add(2)).toBe(false);
    expect(set.slice(0, 3)).toEqual([1, 2, 3]);
    expect(set.slice(set.size - 2, 10)).toEqual([3_999, 4_001]);
    expect(set.size).toBe(2_002);
  });

  it('answers empty pages past the end and for a zero limit', () => {
    const set = SortedIds.fromAscending([1, 2, 3]);
    expect(set.slice(3, 10)).toEqual([]);
    expect(set.slice(0, 0)).toEqual([]);
  });
});

describe('IdTable', () => {
  it('holds dense ids in the array and far ids in the map, and finds both', () => {
    const table = new IdTable<string>();
    table.set(1, 'one');
    table.set(1e12, 'far');
    table.set(2, 'two');
    expect(table.get(1)).toBe('one');
    expect(table.get(1e12)).toBe('far');
    expect(table.get(3)).toBeUndefined();
    expect(table.size).toBe(3);
    expect(table.delete(1e12)).toBe(true);
    expect(table.delete(1e12)).toBe(false);
    expect(table.has(1e12)).toBe(false);
    expect(table.size).toBe(2);
  });

  it('still finds an id stored sparsely once the dense part grows past it', () => {
    const table = new IdTable<number>();
    const far = IdTable.GAP + 10;
    table.set(far, -1);
    for (let id = 1; id <= far + 5; id++) if (id !== far) table.set(id, id);
    expect(table.get(far)).toBe(-1);
    expect(table.size).toBe(far + 5);
  });
});

describe('PetIndex', () => {
  it('files a pet under status, category and both, and moves it on change', () => {
    const index = new PetIndex();
    index.add(1, { categoryId: 1, status: 'available' });
    index.add(2, { categoryId: 2, status: 'available' });
    index.move(1, { categoryId: 1, status: 'available' }, { categoryId: 2, status: 'sold' });
    expect([...index.select({ status: 'available' }).values()]).toEqual([2]);
    expect([...index.select({ categoryId: 2 }).values()]).toEqual([1, 2]);
    expect([...index.select({ categoryId: 2, status: 'sold' }).values()]).toEqual([1]);
    expect(index.select({ categoryId: 1 }).size).toBe(0);
    index.remove(2, { categoryId: 2, status: 'available' });
    expect([...index.select({}).values()]).toEqual([1]);
  });
});
