import { describe, expect, it } from 'vitest';
import { mulberry32 as seeded } from '../engine/random.js';
import { Recency } from './recency.js';

describe('Recency', () => {
  it.each([1, 2])('keeps keys in order of last use through random uses, sets and deletes (seed %i)', (seed) => {
    const random = seeded(seed);
    const recency = new Recency<number>();
    // The reference: an array from least to most recently used.
    let order: string[] = [];
    const values = new Map<string, number>();
    for (let step = 0; step < 5_000; step++) {
      const key = `k${Math.floor(random() * 40)}`;
      const action = random();
      if (action < 0.4) {
        expect(recency.use(key)).toBe(values.get(key));
        if (values.has(key)) order = [...order.filter((k) => k !== key), key];
      } else if (action < 0.7) {
        recency.set(key, step);
        values.set(key, step);
        order = [...order.filter((k) => k !== key), key];
      } else if (action < 0.9) {
        expect(recency.delete(key)).toBe(values.get(key));
        values.delete(key);
        order = order.filter((k) => k !== key);
      } else {
        // peek is not a use: the order stays.
        expect(recency.peek(key)).toBe(values.get(key));
      }
      expect(recency.oldest()).toBe(order[0]);
    }
    expect(recency.keys()).toEqual(order);
    expect(recency.size).toBe(order.length);
    recency.clear();
    expect([recency.size, recency.oldest(), recency.keys()]).toEqual([0, undefined, []]);
  });

  it('a key named __proto__ is a key like any other', () => {
    const recency = new Recency<string>();
    recency.set('__proto__', 'a');
    recency.set('constructor', 'b');
    expect([recency.peek('__proto__'), recency.peek('constructor'), recency.has('toString')]).toEqual(['a', 'b', false]);
  });
});
