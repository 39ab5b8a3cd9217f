/**
 * Ordered id sets for the store's filters (issue 5): a filtered, paged list
 * must cost the same at 1,000,000 pets as at 10,000, so no request may scan
 * every record. Each filter value keeps its ids in ascending order (lists are
 * "oldest first"), and a page at `offset` is found by skipping whole chunks.
 */

/**
 * Target chunk length. A chunk splits past twice this, so an insert or delete
 * moves at most ~1,000 numbers, and a page skips `offset / CHUNK` chunks.
 */
const CHUNK = 512;

/**
 * A set of ids kept in ascending order, stored as a list of sorted chunks
 * (the layout of Python's sortedcontainers): inserts and deletes stay cheap
 * at any size, unlike one big array, and ordered paging stays cheap, unlike
 * an insertion-ordered Set whose order breaks when a pet leaves and re-enters.
 */
export class SortedIds {
  #chunks: number[][] = [];
  #size = 0;

  /** Builds the set from ids already in strictly ascending order (a snapshot sorted once), in linear time. */
  static fromAscending(ids: readonly number[]): SortedIds {
    const set = new SortedIds();
    for (let start = 0; start < ids.length; start += CHUNK) set.#chunks.push(ids.slice(start, start + CHUNK));
    set.#size = ids.length;
    return set;
  }

  get size(): number {
    return this.#size;
  }

  has(id: number): boolean {
    const chunk = this.#chunks[this.#chunkFor(id)];
    return chunk !== undefined && chunk[lowerBound(chunk, id)] === id;
  }

  /** Adds an id; false when it was there already. New ids are the largest so far, so appending is the fast path. */
  add(id: number): boolean {
    const chunks = this.#chunks;
    const last = chunks[chunks.length - 1];
    if (last === undefined || last[last.length - 1]! < id) {
      if (last === undefined || last.length >= CHUNK) chunks.push([id]);
      else last.push(id);
      this.#size++;
      return true;
    }
    const at = this.#chunkFor(id);
    const chunk = chunks[at]!;
    const position = lowerBound(chunk, id);
    if (chunk[position] === id) return false;
    chunk.splice(position, 0, id);
    this.#size++;
    if (chunk.length > 2 * CHUNK) chunks.splice(at, 1, chunk.slice(0, CHUNK), chunk.slice(CHUNK));
    return true;
  }

  /** Removes an id; false when it was not there. */
  delete(id: number): boolean {
    const chunks = this.#chunks;
    const at = this.#chunkFor(id);
    const chunk = chunks[at];
    if (chunk === undefined) return false;
    const position = lowerBound(chunk, id);
    if (chunk[position] !== id) return false;
    chunk.splice(position, 1);
    this.#size--;
    if (chunk.length === 0) {
      chunks.splice(at, 1);
    } else {
      // Merge a shrunken chunk into its successor, so deletions cannot leave thousands of tiny chunks to skip.
      const next = chunks[at + 1];
      if (next !== undefined && chunk.length + next.length <= CHUNK) chunks.splice(at, 2, chunk.concat(next));
    }
    return true;
  }

  /** Up to `limit` ids after skipping `offset`, ascending. Costs O(offset / CHUNK + limit), whatever the size. */
  slice(offset: number, limit: number): number[] {
    const out: number[] = [];
    if (limit <= 0 || offset >= this.#size) return out;
    let skip = Math.max(0, offset);
    for (const chunk of this.#chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      for (let i = skip; i < chunk.length && out.length < limit; i++) out.push(chunk[i]!);
      skip = 0;
      if (out.length >= limit) break;
    }
    return out;
  }

  *values(): IterableIterator<number> {
    for (const chunk of this.#chunks) yield* chunk;
  }

  /** Index of the first chunk whose last id is >= id, or the chunk count when id is above them all. */
  #chunkFor(id: number): number {
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = chunks[middle]!;
      if (chunk[chunk.length - 1]! < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** First position in an ascending array whose value is >= id. */
function lowerBound(values: readonly number[], id: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The empty set every absent key reads as, so callers need no undefined checks. Never mutated. */
const NONE = new SortedIds();

/** One SortedIds per key (a status, a category, a pet); a key disappears with its last id. */
export class KeyedIds<K> {
  readonly #sets = new Map<K, SortedIds>();

  get(key: K): SortedIds {
    return this.#sets.get(key) ?? NONE;
  }

  add(key: K, id: number): void {
    let set = this.#sets.get(key);
    if (set === undefined) {
      set = new SortedIds();
      this.#sets.set(key, set);
    }
    set.add(id);
  }

  delete(key: K, id: number): void {
    const set = this.#sets.get(key);
    if (set === undefined) return;
    set.delete(id);
    if (set.size === 0) this.#sets.delete(key);
  }

  isEmpty(): boolean {
    return this.#sets.size === 0;
  }
}

/**
 * Records by id. Ids are server-assigned and sequential, so they are dense:
 * a plain array indexed by id holds them in a tenth of a Map's memory and time
 * (a million pets, issue 5). An id far past the dense part (imported data
 * with a huge id) goes to a Map instead, so the array never turns sparse.
 */
export class IdTable<T> {
  readonly #dense: (T | undefined)[] = [];
  readonly #sparse = new Map<number, T>();
  #size = 0;

  /** How far past the array's end an id may land and still be stored densely (the gap is filled). */
  static readonly GAP = 4096;

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    const found = id < this.#dense.length ? this.#dense[id] : undefined;
    return found !== undefined || this.#sparse.size === 0 ? found : this.#sparse.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: T): void {
    const dense = this.#dense;
    if (!this.#sparse.has(id) && Number.isSafeInteger(id) && id >= 0 && id < dense.length + IdTable.GAP) {
      if (dense[id] === undefined) this.#size++;
      while (dense.length < id) dense.push(undefined);
      dense[id] = value;
      return;
    }
    if (!this.#sparse.has(id)) this.#size++;
    this.#sparse.set(id, value);
  }

  delete(id: number): boolean {
    if (id < this.#dense.length && this.#dense[id] !== undefined) {
      this.#dense[id] = undefined;
      this.#size--;
      return true;
    }
    if (this.#sparse.delete(id)) {
      this.#size--;
      return true;
    }
    return false;
  }
}

/** What the pet index files a pet under. */
export interface PetKeys {
  readonly categoryId: number;
  readonly status: string;
}

/**
 * Every pet filter the contract offers (`status`, `categoryId`, both, none)
 * answered by one ready set: the combination has its own set, so a combined
 * filter is neither a scan nor an intersection. The store calls `add`,
 * `remove` or `move` on every change of a pet's category or status.
 */
export class PetIndex {
  readonly all = new SortedIds();
  readonly #byStatus = new KeyedIds<string>();
  readonly #byCategory = new KeyedIds<number>();
  /** Category → status → ids: nested rather than a composite string key, so no string is built per change. */
  readonly #byBoth = new Map<number, KeyedIds<string>>();

  add(id: number, keys: PetKeys): void {
    this.all.add(id);
    this.#byStatus.add(keys.status, id);
    this.#byCategory.add(keys.categoryId, id);
    let statuses = this.#byBoth.get(keys.categoryId);
    if (statuses === undefined) {
      statuses = new KeyedIds<string>();
      this.#byBoth.set(keys.categoryId, statuses);
    }
    statuses.add(keys.status, id);
  }

  remove(id: number, keys: PetKeys): void {
    this.all.delete(id);
    this.#byStatus.delete(keys.status, id);
    this.#byCategory.delete(keys.categoryId, id);
    const statuses = this.#byBoth.get(keys.categoryId);
    statuses?.delete(keys.status, id);
    if (statuses?.isEmpty()) this.#byBoth.delete(keys.categoryId);
  }

  move(id: number, before: PetKeys, after: PetKeys): void {
    if (before.categoryId === after.categoryId && before.status === after.status) return;
    this.remove(id, before);
    this.add(id, after);
  }

  /** The ids matching the filter, ascending. */
  select(filter: { readonly status?: string | undefined; readonly categoryId?: number | undefined }): SortedIds {
    const { status, categoryId } = filter;
    if (status !== undefined && categoryId !== undefined) return this.#byBoth.get(categoryId)?.get(status) ?? NONE;
    if (status !== undefined) return this.#byStatus.get(status);
    if (categoryId !== undefined) return this.#byCategory.get(categoryId);
    return this.all;
  }
}
