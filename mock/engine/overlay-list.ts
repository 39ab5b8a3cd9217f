/**
 * A session's list of records written over the shared one (store.ts fork): the records the session replaced, removed
 * and added, beside the shared list, which it never writes. It reads and iterates as a copy of the shared list written
 * the same way would (a Map: a record replaced keeps its place, one added or put back after its removal comes last),
 * but a session's first write to a collection costs a few small maps, not a copy of every entry: 28 MiB and a third of
 * a second at a million pets (issue 34), where the Pet Store's chunked store (mock/indexes.ts) copies one chunk.
 */
import type { ListKey, StoredRecord } from './store.js';

/** What reading a list takes: a Map has it. */
export interface ListView {
  readonly size: number;
  get(key: ListKey): StoredRecord | undefined;
  values(): IterableIterator<StoredRecord>;
  [Symbol.iterator](): IterableIterator<[ListKey, StoredRecord]>;
}

/** A list no store writes (a template's): a Map, or a DenseList. */
export interface SharedList extends ListView {
  has(key: ListKey): boolean;
  entries(): IterableIterator<[ListKey, StoredRecord]>;
}

/**
 * A shared list whose ids are consecutive whole numbers in their order (`first`, `first + 1`, ...), as generated data's
 * are: the records' own array, found by position. It reads and iterates as the Map of the same records would, and
 * costs nothing to build: a million records put in a Map at start-up cost 0.4-0.5 s and some 40 MiB (issue 34).
 */
export class DenseList implements SharedList {
  readonly #records: readonly StoredRecord[];
  readonly #first: number;

  constructor(records: readonly StoredRecord[], first: number) {
    this.#records = records;
    this.#first = first;
  }

  get size(): number {
    return this.#records.length;
  }

  get(key: ListKey): StoredRecord | undefined {
    if (typeof key !== 'number') return undefined;
    const at = key - this.#first;
    return at >= 0 && at < this.#records.length && Number.isInteger(at) ? this.#records[at] : undefined;
  }

  has(key: ListKey): boolean {
    return this.get(key) !== undefined;
  }

  values(): IterableIterator<StoredRecord> {
    return this.#records.values();
  }

  entries(): IterableIterator<[ListKey, StoredRecord]> {
    return new DenseEntries(this.#records, this.#first);
  }

  [Symbol.iterator](): IterableIterator<[ListKey, StoredRecord]> {
    return this.entries();
  }
}

class DenseEntries implements IterableIterator<[ListKey, StoredRecord]> {
  readonly #records: readonly StoredRecord[];
  readonly #first: number;
  #at = 0;

  constructor(records: readonly StoredRecord[], first: number) {
    this.#records = records;
    this.#first = first;
  }

  next(): IteratorResult<[ListKey, StoredRecord]> {
    if (this.#at >= this.#records.length) return { done: true, value: undefined };
    const at = this.#at++;
    return { done: false, value: [this.#first + at, this.#records[at]!] };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** What writing one takes: a Map has it too. */
export interface WritableList extends ListView {
  set(key: ListKey, record: StoredRecord): unknown;
  delete(key: ListKey): boolean;
}

/** The widest run of never-used numbers a TailList leaves in its array for a new key past its end (ids skipped). */
const MAX_GAP = 64;
/** Holes past which a TailList's array, mostly removed records, is moved into its Map once (TailList#delete). */
const MAX_HOLES = 1024;

/**
 * A list a store writes (records it added to a collection: a list of its own, or the records after an overlay's
 * shared ones), with a Map's reads, writes and order. New records under consecutive numbers, as the mock's own ids
 * come, go at the end of an array found by position (as DenseList's); anything else goes in a Map after them. At a
 * hundred thousand records each lookup in a Map missed the cache on its table, 0.1 µs or more, and a create of a pet
 * looks its lists up five times (a CPU profile of POST /pets on the generic engine: 13% of it; issue 34, point 1).
 * Unlike a Map's, an iterator of it is not to be read on after the list is written (no caller does: each reads a
 * list whole, or copies it, before writing).
 */
export class TailList implements SharedList, WritableList {
  /** The records under `#first`, `#first + 1`, ...: undefined where there is none (removed, or a number skipped). */
  #dense: (StoredRecord | undefined)[] = [];
  #first = 0;
  /** How many records `#dense` holds. */
  #live = 0;
  /** Every other record, after the array's in order: other keys, and numbers put back after their removal. */
  #rest = new Map<ListKey, StoredRecord>();

  get size(): number {
    return this.#live + this.#rest.size;
  }

  get(key: ListKey): StoredRecord | undefined {
    if (typeof key === 'number' && this.#live > 0) {
      const record = this.#dense[key - this.#first];
      if (record !== undefined) return record;
    }
    return this.#rest.size > 0 ? this.#rest.get(key) : undefined;
  }

  has(key: ListKey): boolean {
    return this.get(key) !== undefined;
  }

  set(key: ListKey, record: StoredRecord): this {
    const dense = this.#dense;
    if (typeof key === 'number') {
      const at = key - this.#first;
      // Held in the array: replaced in its place.
      if (this.#live > 0 && at >= 0 && at < dense.length && dense[at] !== undefined) {
        dense[at] = record;
        return this;
      }
      // New, and after every record held: at the end of the array, a Map's order kept.
      if (this.#rest.size === 0 && Number.isSafeInteger(key)) {
        if (this.#live === 0) {
          dense.length = 0;
          this.#first = key;
          dense.push(record);
          this.#live = 1;
          return this;
        }
        if (at >= dense.length && at - dense.length <= MAX_GAP) {
          while (dense.length < at) dense.push(undefined);
          dense.push(record);
          this.#live += 1;
          return this;
        }
      }
    }
    this.#rest.set(key, record);
    return this;
  }

  delete(key: ListKey): boolean {
    const dense = this.#dense;
    if (typeof key === 'number' && this.#live > 0) {
      const at = key - this.#first;
      if (at >= 0 && at < dense.length && dense[at] !== undefined) {
        dense[at] = undefined;
        this.#live -= 1;
        // The last ones removed: the array ends at its last record, so a number after it goes at its end again.
        while (dense.length > 0 && dense[dense.length - 1] === undefined) dense.pop();
        // Mostly holes (records removed from its middle): its records go into the Map, in their order, once.
        if (dense.length - this.#live > MAX_HOLES && dense.length > 2 * this.#live) this.#spill();
        return true;
      }
    }
    return this.#rest.delete(key);
  }

  /** The array's records moved to the front of the Map, which keeps every record after. */
  #spill(): void {
    const rest = new Map<ListKey, StoredRecord>();
    this.#dense.forEach((record, at) => {
      if (record !== undefined) rest.set(this.#first + at, record);
    });
    for (const [key, record] of this.#rest) rest.set(key, record);
    this.#rest = rest;
    this.#dense = [];
    this.#live = 0;
  }

  values(): IterableIterator<StoredRecord> {
    return new TailIterator(this.#dense, this.#first, this.#rest, false) as IterableIterator<StoredRecord>;
  }

  entries(): IterableIterator<[ListKey, StoredRecord]> {
    return new TailIterator(this.#dense, this.#first, this.#rest, true) as IterableIterator<[ListKey, StoredRecord]>;
  }

  [Symbol.iterator](): IterableIterator<[ListKey, StoredRecord]> {
    return this.entries();
  }
}

/** A TailList's array (its holes skipped), then its Map. */
class TailIterator implements IterableIterator<unknown> {
  readonly #dense: readonly (StoredRecord | undefined)[];
  readonly #first: number;
  readonly #rest: ReadonlyMap<ListKey, StoredRecord>;
  readonly #entries: boolean;
  #at = 0;
  #restIterator: Iterator<[ListKey, StoredRecord]> | undefined;

  constructor(dense: readonly (StoredRecord | undefined)[], first: number, rest: ReadonlyMap<ListKey, StoredRecord>, entries: boolean) {
    this.#dense = dense;
    this.#first = first;
    this.#rest = rest;
    this.#entries = entries;
  }

  next(): IteratorResult<unknown> {
    if (this.#restIterator === undefined) {
      const dense = this.#dense;
      while (this.#at < dense.length) {
        const at = this.#at++;
        const record = dense[at];
        if (record !== undefined) return { done: false, value: this.#entries ? [this.#first + at, record] : record };
      }
      this.#restIterator = this.#rest.entries();
    }
    const step = this.#restIterator.next();
    if (step.done) return step;
    return { done: false, value: this.#entries ? step.value : step.value[1] };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** A shared record the session removed (in `changed`). */
const GONE = Symbol('gone');

export class OverlayList implements WritableList {
  readonly #shared: SharedList;
  /** Shared records replaced in their place, or removed (GONE). */
  readonly #changed = new Map<ListKey, StoredRecord | typeof GONE>();
  /** Records after the shared ones, in the order they came: new ids, and shared ids put back after their removal. */
  readonly #added = new TailList();
  #gone = 0;

  constructor(shared: SharedList) {
    this.#shared = shared;
  }

  get size(): number {
    return this.#shared.size - this.#gone + this.#added.size;
  }

  get(key: ListKey): StoredRecord | undefined {
    if (this.#added.size > 0) {
      const added = this.#added.get(key);
      if (added !== undefined) return added;
    }
    if (this.#changed.size > 0) {
      const changed = this.#changed.get(key);
      if (changed !== undefined) return changed === GONE ? undefined : changed;
    }
    return this.#shared.get(key);
  }

  set(key: ListKey, record: StoredRecord): this {
    // A shared id is in `added` only once removed (GONE in `changed`): whether it is there needs no lookup in `added`,
    // which holds every record the session made (a miss in it was a create's dearest lookup).
    if (!this.#shared.has(key) || (this.#changed.size > 0 && this.#changed.get(key) === GONE)) this.#added.set(key, record);
    else this.#changed.set(key, record);
    return this;
  }

  delete(key: ListKey): boolean {
    if (this.#added.delete(key)) return true;
    if (!this.#shared.has(key) || this.#changed.get(key) === GONE) return false;
    this.#changed.set(key, GONE);
    this.#gone += 1;
    return true;
  }

  values(): IterableIterator<StoredRecord> {
    return new OverlayIterator(this.#shared, this.#changed, this.#added, false) as IterableIterator<StoredRecord>;
  }

  [Symbol.iterator](): IterableIterator<[ListKey, StoredRecord]> {
    return new OverlayIterator(this.#shared, this.#changed, this.#added, true) as IterableIterator<[ListKey, StoredRecord]>;
  }
}

/**
 * The shared entries as changed, then the added ones. A class, not a generator: a list page reads every record of its
 * collection (engine/lists.ts), a million in a session at --pets 1000000.
 */
class OverlayIterator implements IterableIterator<unknown> {
  #shared: Iterator<[ListKey, StoredRecord]> | undefined;
  #sharedValues: Iterator<StoredRecord> | undefined;
  readonly #changed: ReadonlyMap<ListKey, StoredRecord | typeof GONE>;
  readonly #added: TailList;
  #rest: Iterator<[ListKey, StoredRecord]> | undefined;
  readonly #entries: boolean;

  constructor(shared: SharedList, changed: ReadonlyMap<ListKey, StoredRecord | typeof GONE>, added: TailList, entries: boolean) {
    // Records alone, none of them replaced or removed: the shared list's own values, no entry made for each.
    if (!entries && changed.size === 0) this.#sharedValues = shared.values();
    else this.#shared = shared.entries();
    this.#changed = changed;
    this.#added = added;
    this.#entries = entries;
  }

  next(): IteratorResult<unknown> {
    if (this.#sharedValues !== undefined) {
      const step = this.#sharedValues.next();
      if (!step.done) return step;
      this.#sharedValues = undefined;
      this.#rest = this.#added.entries();
    } else if (this.#shared !== undefined) {
      for (let step = this.#shared.next(); !step.done; step = this.#shared.next()) {
        const [key, record] = step.value;
        const changed = this.#changed.size === 0 ? undefined : this.#changed.get(key);
        if (changed === GONE) continue;
        const value = changed ?? record;
        return { done: false, value: this.#entries ? [key, value] : value };
      }
      this.#shared = undefined;
      this.#rest = this.#added.entries();
    }
    const step = this.#rest!.next();
    if (step.done) return step;
    return { done: false, value: this.#entries ? step.value : step.value[1] };
  }

  [Symbol.iterator](): this {
    return this;
  }
}
