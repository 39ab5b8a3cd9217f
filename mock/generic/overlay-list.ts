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

/** A shared record the session removed (in `changed`). */
const GONE = Symbol('gone');

export class OverlayList implements WritableList {
  readonly #shared: SharedList;
  /** Shared records replaced in their place, or removed (GONE). */
  readonly #changed = new Map<ListKey, StoredRecord | typeof GONE>();
  /** Records after the shared ones, in the order they came: new ids, and shared ids put back after their removal. */
  readonly #added = new Map<ListKey, StoredRecord>();
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
    if (this.#added.has(key) || !this.#shared.has(key) || this.#changed.get(key) === GONE) this.#added.set(key, record);
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
 * collection (generic/lists.ts), a million in a session at --pets 1000000.
 */
class OverlayIterator implements IterableIterator<unknown> {
  #shared: Iterator<[ListKey, StoredRecord]> | undefined;
  #sharedValues: Iterator<StoredRecord> | undefined;
  readonly #changed: ReadonlyMap<ListKey, StoredRecord | typeof GONE>;
  readonly #added: ReadonlyMap<ListKey, StoredRecord>;
  #rest: Iterator<[ListKey, StoredRecord]> | undefined;
  readonly #entries: boolean;

  constructor(shared: SharedList, changed: ReadonlyMap<ListKey, StoredRecord | typeof GONE>, added: ReadonlyMap<ListKey, StoredRecord>, entries: boolean) {
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
