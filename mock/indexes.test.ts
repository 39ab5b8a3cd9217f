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

describe('SortedIds blocks', () => {
  const shuffled = (ids: number[], random: () => number): number[] => {
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    return ids;
  };

  it.each([false, true])('splits chunks and blocks under inserts in the middle, and frees them under deletes (forked: %s)', (forked) => {
    const random = seeded(9);
    // Every 4th id up to 280,000: 512-id chunks, 64 to a block. Filling the gaps in random order quadruples
    // every chunk (each splits, twice) and so every block (each splits past 128 chunks).
    const sparse = Array.from({ length: 70_000 }, (_, i) => 4 * (i + 1));
    const template = SortedIds.fromAscending(sparse);
    const set = forked ? template.fork() : template;
    const all = Array.from({ length: 280_000 }, (_, i) => i + 1);
    let wrong = 0;
    for (const id of shuffled(all.filter((id) => id % 4 !== 0), random)) if (!set.add(id)) wrong++;
    expect(wrong).toBe(0);
    expect(set.size).toBe(all.length);
    expect([...set.values()]).toEqual(all);
    for (const offset of [0, 511, 32_767, 32_768, 70_001, 279_990]) expect(set.slice(offset, 20)).toEqual(all.slice(offset, offset + 20));
    // Delete all but every 1,000th id, in random order: chunks merge and whole blocks empty out.
    for (const id of shuffled(all.filter((id) => id % 1_000 !== 0), random)) if (!set.delete(id)) wrong++;
    expect(wrong).toBe(0);
    const kept = all.filter((id) => id % 1_000 === 0);
    expect([...set.values()]).toEqual(kept);
    expect(set.slice(100, 50)).toEqual(kept.slice(100, 150));
    expect([set.has(5_000), set.has(5_001), set.delete(5_001), set.add(5_000)]).toEqual([true, false, false, false]);
    if (forked) expect([...template.values()]).toEqual(sparse);
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

describe('forks (copy-on-write, issue 14)', () => {
  it.each([4, 5])('a SortedIds and its fork diverge independently through random adds and deletes (seed %i)', (seed) => {
    const random = seeded(seed);
    const template = SortedIds.fromAscending(Array.from({ length: 3_000 }, (_, i) => 2 * i + 1));
    const frozen = [...template.values()];
    const copies: number[] = [];
    const meter = { add: (bytes: number) => copies.push(bytes) };
    // Both forks write; neither may see the other's writes, and the template never changes.
    const left = template.fork(meter);
    const right = template.fork();
    const references = [new Set(frozen), new Set(frozen)];
    for (let step = 0; step < 6_000; step++) {
      const side = step % 2;
      const set = side === 0 ? left : right;
      const id = 1 + Math.floor(random() * 7_000);
      if (random() < 0.5) {
        expect(set.add(id)).toBe(!references[side]!.has(id));
        references[side]!.add(id);
      } else {
        expect(set.delete(id)).toBe(references[side]!.has(id));
        references[side]!.delete(id);
      }
    }
    expect([...template.values()]).toEqual(frozen);
    for (const [side, set] of [left, right].entries()) {
      const sorted = [...references[side]!].sort((a, b) => a - b);
      expect([...set.values()]).toEqual(sorted);
      expect(set.size).toBe(sorted.length);
      expect(set.slice(700, 30)).toEqual(sorted.slice(700, 730));
    }
    // The metered side paid for its copies; the template paid nothing.
    expect(copies.length).toBeGreaterThan(0);
  });

  it('a fork copies only what it writes: one append costs one chunk and the outer list, not the set', () => {
    const template = SortedIds.fromAscending(Array.from({ length: 100_000 }, (_, i) => i + 1));
    let bytes = 0;
    const fork = template.fork({ add: (n) => (bytes += n) });
    expect(bytes).toBe(0);
    fork.add(100_001);
    // 100,000 ids are 800 KB; the fork copied the last chunk (<= 4 KB) and 196 chunk references.
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(8 * 1024);
    expect(template.size).toBe(100_000);
    expect(template.has(100_001)).toBe(false);
  });

  it('an IdTable fork shares pages until written, on either side', () => {
    const template = new IdTable<string>();
    for (let id = 1; id <= 2_000; id++) template.set(id, `v${id}`);
    template.set(1e12, 'far');
    const a = template.fork();
    const b = template.fork();
    a.set(5, 'a5');
    a.delete(6);
    a.set(2_001, 'a-new');
    b.set(1e12, 'b-far');
    b.delete(1_999);
    expect([template.get(5), template.get(6), template.get(2_001), template.get(1e12), template.get(1_999)]).toEqual(['v5', 'v6', undefined, 'far', 'v1999']);
    expect([a.get(5), a.get(6), a.get(2_001), a.get(1e12), a.get(1_999)]).toEqual(['a5', undefined, 'a-new', 'far', 'v1999']);
    expect([b.get(5), b.get(6), b.get(2_001), b.get(1e12), b.get(1_999)]).toEqual(['v5', 'v6', undefined, 'b-far', undefined]);
    expect([template.size, a.size, b.size]).toEqual([2_001, 2_001, 2_000]);
    // A fraction never lands on a neighbour's slot.
    expect(a.get(5.5)).toBeUndefined();
  });

  it('a PetIndex fork moves pets between its own sets without touching the template', () => {
    const template = new PetIndex();
    template.add(1, { categoryId: 1, status: 'available' });
    template.add(2, { categoryId: 2, status: 'pending' });
    const fork = template.fork();
    fork.move(1, { categoryId: 1, status: 'available' }, { categoryId: 2, status: 'sold' });
    fork.remove(2, { categoryId: 2, status: 'pending' });
    fork.add(3, { categoryId: 3, status: 'available' });
    expect([...fork.select({ categoryId: 2, status: 'sold' }).values()]).toEqual([1]);
    expect(fork.select({ categoryId: 1 }).size).toBe(0);
    expect(fork.select({ status: 'pending' }).size).toBe(0);
    expect([...fork.select({}).values()]).toEqual([1, 3]);
    expect([...template.select({ categoryId: 1, status: 'available' }).values()]).toEqual([1]);
    expect([...template.select({ status: 'pending' }).values()]).toEqual([2]);
    expect(template.select({ categoryId: 3 }).size).toBe(0);
    expect([...template.select({}).values()]).toEqual([1, 2]);
  });
});
