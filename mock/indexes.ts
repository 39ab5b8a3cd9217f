/**
 * Ordered id sets and id tables for the store (issue 5), shared between
 * stores by copy-on-write (issue 14).
 *
 * Speed (issue 5): a filtered, paged list must cost the same at 1,000,000
 * pets as at 10,000, so no request may scan every record. Each filter value
 * keeps its ids in ascending order (lists are "oldest first"), and a page at
 * `offset` is found by skipping whole chunks.
 *
 * Sharing (issue 14): every `X-Mock-Session` starts from the same initial
 * data, so a session must not copy it. Each structure here is cut into
 * fixed-size pieces (chunks of ids, pages of records) held in one outer array;
 * `fork()` gives a second structure over the same pieces, and whichever side
 * writes first copies only the piece it changes, the list of pieces holding
 * it (64 references) and, once, the outer list of those (1/8,192 of the
 * data): a write costs kilobytes whatever the data size. Reads run the very same code on a
 * fork as on the original, so a session reads exactly as fast as the default
 * store. After a fork neither side owns any piece any more, so forking a live
 * structure is as safe as forking the frozen initial data.
 */

/** Told of every byte a copy-on-write copy costs, so a session's memory can be bounded (store.ts). */
export interface Meter {
  add(bytes: number): void;
}

/** What one array slot costs on a 64-bit V8 without pointer compression (Node's default build). */
export const SLOT_BYTES = 8;
/** An array's or a Set entry's own header, roughly. */
const ARRAY_BYTES = 32;

/**
 * Which pieces a structure may edit in place. `undefined` means all of them:
 * a structure never forked (the initial data while it is built, an imported
 * state) pays nothing for sharing.
 */
class Ownership {
  #owned: Set<object> | undefined;
  #outerOwned = true;
  /**
   * The two pieces last found owned: appends write the same tail block and
   * chunk (or directory and page) again and again, and an identity check is
   * cheaper than a Set lookup on every write.
   */
  #recent: object | undefined;
  #previous: object | undefined;

  constructor(readonly meter: Meter | undefined) {}

  /** After a fork both sides share every piece: whoever writes next copies. */
  share(): void {
    this.#owned = new Set();
    this.#outerOwned = false;
    this.#recent = undefined;
    this.#previous = undefined;
  }

  /** Whether the outer array must be copied before it changes (and notes that it will have been). */
  claimOuter(length: number): boolean {
    if (this.#outerOwned) return false;
    this.#outerOwned = true;
    this.meter?.add(ARRAY_BYTES + length * SLOT_BYTES);
    return true;
  }

  owns(piece: object): boolean {
    if (this.#owned === undefined || piece === this.#recent || piece === this.#previous) return true;
    if (!this.#owned.has(piece)) return false;
    this.#remember(piece);
    return true;
  }

  /** A piece this structure made (a copy, a split, a new chunk): it may edit it from now on. */
  adopt<P extends object>(piece: P, bytes: number): P {
    if (this.#owned !== undefined) {
      this.#owned.add(piece);
      this.#remember(piece);
      this.meter?.add(ARRAY_BYTES + bytes);
    }
    return piece;
  }

  /** A piece replaced by another: no longer held, so no longer tracked. */
  release(piece: object): void {
    this.#owned?.delete(piece);
    if (piece === this.#recent) this.#recent = undefined;
    if (piece === this.#previous) this.#previous = undefined;
  }

  #remember(piece: object): void {
    if (piece === this.#recent) return;
    this.#previous = this.#recent;
    this.#recent = piece;
  }
}

/**
 * Target chunk length. A chunk splits past twice this, so an insert or delete
 * moves (or copies, when shared) at most 256 numbers. Small, because a
 * session's write copies whole chunks (issue 14: 512 cost ~250 KiB per
 * session for 10 writes at 1,000,000 pets, 128 costs ~80 KiB); blocks keep
 * the number of pieces a page skips small all the same.
 */
const CHUNK = 128;

/**
 * A set of ids kept in ascending order, stored as a list of sorted chunks
 * (the layout of Python's sortedcontainers): inserts and deletes stay cheap
 * at any size, unlike one big array, and ordered paging stays cheap, unlike
 * an insertion-ordered Set whose order breaks when a pet leaves and re-enters.
 * The chunks are also the unit of sharing between forks.
 */
/**
 * Target chunks per block. Chunks are grouped in blocks, so the outer list
 * a fork copies on its first write is a block list (1/8,192 of the ids),
 * not a chunk list, and a page skips whole blocks by their size.
 */
const BLOCK = 64;

/** A run of chunks and how many ids they hold; copied as a unit (its chunk list, not the chunks) by a fork. */
interface Block {
  readonly chunks: number[][];
  size: number;
}

/**
 * A set of ids kept in ascending order, stored as blocks of sorted chunks
 * (the layout of Python's sortedcontainers, with one more level): inserts
 * and deletes stay cheap at any size, unlike one big array, and ordered
 * paging stays cheap, unlike an insertion-ordered Set whose order breaks when
 * a pet leaves and re-enters. Blocks and chunks are the units of sharing
 * between forks: a fork's write copies one chunk (<= 2 KiB), its block's
 * chunk list (<= 1 KiB), and once the block list.
 */
export class SortedIds {
  #blocks: Block[] = [];
  #size = 0;
  #ownership: Ownership;

  constructor(meter?: Meter) {
    this.#ownership = new Ownership(meter);
  }

  /** Builds the set from ids already in strictly ascending order (a snapshot sorted once), in linear time. */
  static fromAscending(ids: readonly number[]): SortedIds {
    const set = new SortedIds();
    for (let start = 0; start < ids.length; start += CHUNK * BLOCK) {
      const chunks: number[][] = [];
      const end = Math.min(ids.length, start + CHUNK * BLOCK);
      for (let from = start; from < end; from += CHUNK) chunks.push(ids.slice(from, Math.min(end, from + CHUNK)));
      set.#blocks.push({ chunks, size: end - start });
    }
    set.#size = ids.length;
    return set;
  }

  /** A set with the same ids sharing every block and chunk; `meter` is told what the fork's own copies cost. O(1). */
  fork(meter?: Meter): SortedIds {
    const copy = new SortedIds(meter);
    copy.#blocks = this.#blocks;
    copy.#size = this.#size;
    copy.#ownership.share();
    this.#ownership.share();
    return copy;
  }

  get size(): number {
    return this.#size;
  }

  has(id: number): boolean {
    const block = this.#blocks[this.#blockFor(id)];
    if (block === undefined) return false;
    const chunk = block.chunks[chunkIn(block, id)]!;
    return chunk[lowerBound(chunk, id)] === id;
  }

  /** Adds an id; false when it was there already. New ids are the largest so far, so appending is the fast path. */
  add(id: number): boolean {
    const blocks = this.#blocks;
    const lastBlock = blocks[blocks.length - 1];
    const lastChunk = lastBlock?.chunks[lastBlock.chunks.length - 1];
    if (lastBlock === undefined || lastChunk === undefined) {
      this.#outer().push(this.#ownership.adopt({ chunks: [this.#ownership.adopt([id], SLOT_BYTES)], size: 1 }, SLOT_BYTES));
      this.#size++;
      return true;
    }
    if (lastChunk[lastChunk.length - 1]! < id) {
      if (lastChunk.length < CHUNK) {
        const block = this.#writableBlock(blocks.length - 1);
        this.#writableChunk(block, block.chunks.length - 1).push(id);
        block.size++;
      } else if (lastBlock.chunks.length < BLOCK) {
        const block = this.#writableBlock(blocks.length - 1);
        block.chunks.push(this.#ownership.adopt([id], SLOT_BYTES));
        block.size++;
      } else {
        this.#outer().push(this.#ownership.adopt({ chunks: [this.#ownership.adopt([id], SLOT_BYTES)], size: 1 }, SLOT_BYTES));
      }
      this.#size++;
      return true;
    }
    const at = this.#blockFor(id);
    const found = blocks[at]!;
    const index = chunkIn(found, id);
    const position = lowerBound(found.chunks[index]!, id);
    if (found.chunks[index]![position] === id) return false;
    const block = this.#writableBlock(at);
    const chunk = this.#writableChunk(block, index);
    chunk.splice(position, 0, id);
    block.size++;
    this.#size++;
    if (chunk.length > 2 * CHUNK) {
      this.#ownership.release(chunk);
      block.chunks.splice(index, 1, this.#ownership.adopt(chunk.slice(0, CHUNK), CHUNK * SLOT_BYTES), this.#ownership.adopt(chunk.slice(CHUNK), CHUNK * SLOT_BYTES));
      if (block.chunks.length > 2 * BLOCK) this.#splitBlock(at);
    }
    return true;
  }

  /** Removes an id; false when it was not there. */
  delete(id: number): boolean {
    const at = this.#blockFor(id);
    const found = this.#blocks[at];
    if (found === undefined) return false;
    const index = chunkIn(found, id);
    const position = lowerBound(found.chunks[index]!, id);
    if (found.chunks[index]![position] !== id) return false;
    this.#size--;
    if (found.size === 1) {
      this.#ownership.release(found);
      this.#outer().splice(at, 1);
      return true;
    }
    const block = this.#writableBlock(at);
    block.size--;
    if (block.chunks[index]!.length === 1) {
      this.#ownership.release(block.chunks[index]!);
      block.chunks.splice(index, 1);
      return true;
    }
    const chunk = this.#writableChunk(block, index);
    chunk.splice(position, 1);
    // Merge a shrunken chunk into its successor, so deletions cannot leave thousands of tiny chunks to skip.
    const next = block.chunks[index + 1];
    if (next !== undefined && chunk.length + next.length <= CHUNK) {
      this.#ownership.release(chunk);
      this.#ownership.release(next);
      block.chunks.splice(index, 2, this.#ownership.adopt(chunk.concat(next), (chunk.length + next.length) * SLOT_BYTES));
    }
    return true;
  }

  /** Up to `limit` ids after skipping `offset`, ascending. Costs O(offset / (CHUNK * BLOCK) + BLOCK + limit), whatever the size. */
  slice(offset: number, limit: number): number[] {
    const out: number[] = [];
    if (limit <= 0 || offset >= this.#size) return out;
    let skip = Math.max(0, offset);
    for (const block of this.#blocks) {
      if (skip >= block.size) {
        skip -= block.size;
        continue;
      }
      for (const chunk of block.chunks) {
        if (skip >= chunk.length) {
          skip -= chunk.length;
          continue;
        }
        for (let i = skip; i < chunk.length && out.length < limit; i++) out.push(chunk[i]!);
        skip = 0;
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  *values(): IterableIterator<number> {
    for (const block of this.#blocks) for (const chunk of block.chunks) yield* chunk;
  }

  /** The block list, copied first if it is shared. */
  #outer(): Block[] {
    if (this.#ownership.claimOuter(this.#blocks.length)) this.#blocks = this.#blocks.slice();
    return this.#blocks;
  }

  /** The block at `at`, copied first if it is shared (its chunk list only: the chunks stay shared). */
  #writableBlock(at: number): Block {
    const block = this.#blocks[at]!;
    if (this.#ownership.owns(block)) return block;
    const copy = this.#ownership.adopt({ chunks: block.chunks.slice(), size: block.size }, block.chunks.length * SLOT_BYTES);
    this.#outer()[at] = copy;
    return copy;
  }

  /** The chunk at `index` of a writable block, copied first if it is shared. */
  #writableChunk(block: Block, index: number): number[] {
    const chunk = block.chunks[index]!;
    if (this.#ownership.owns(chunk)) return chunk;
    const copy = this.#ownership.adopt(chunk.slice(), chunk.length * SLOT_BYTES);
    block.chunks[index] = copy;
    return copy;
  }

  #splitBlock(at: number): void {
    const block = this.#blocks[at]!;
    const halves = [block.chunks.slice(0, BLOCK), block.chunks.slice(BLOCK)].map((chunks) => this.#ownership.adopt({ chunks, size: chunks.reduce((sum, chunk) => sum + chunk.length, 0) }, chunks.length * SLOT_BYTES));
    this.#ownership.release(block);
    this.#outer().splice(at, 1, ...halves);
  }

  /** Index of the first block whose last id is >= id, or the block count when id is above them all. */
  #blockFor(id: number): number {
    const blocks = this.#blocks;
    let low = 0;
    let high = blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunks = blocks[middle]!.chunks;
      const last = chunks[chunks.length - 1]!;
      if (last[last.length - 1]! < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Index of the first chunk of `block` whose last id is >= id (the block's last id is >= id). */
function chunkIn(block: Block, id: number): number {
  const chunks = block.chunks;
  let low = 0;
  let high = chunks.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const chunk = chunks[middle]!;
    if (chunk[chunk.length - 1]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
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

/** The empty set every absent key reads as, so callers need no undefined checks. Never written. */
const NONE = new SortedIds();

/**
 * One SortedIds per key (a status, a category, a pet). A fork shares the
 * map of sets and forks a key's set only when that key is first written, so
 * forking costs O(1) whatever the number of keys.
 */
export class KeyedIds<K> {
  /** Sets this structure may write (each a fork or its own). */
  #own = new Map<K, SortedIds>();
  /** Sets shared with other forks: read here, forked into #own before a write. */
  #shared: ReadonlyMap<K, SortedIds> | undefined;
  readonly #meter: Meter | undefined;

  constructor(meter?: Meter) {
    this.#meter = meter;
  }

  fork(meter?: Meter): KeyedIds<K> {
    // Both sides now read one frozen map; a key's set is forked by whichever side writes it first.
    const merged = this.#shared === undefined ? this.#own : new Map([...this.#shared, ...this.#own]);
    this.#shared = merged;
    this.#own = new Map();
    const copy = new KeyedIds<K>(meter);
    copy.#shared = merged;
    return copy;
  }

  get(key: K): SortedIds {
    return this.#own.get(key) ?? this.#shared?.get(key) ?? NONE;
  }

  add(key: K, id: number): void {
    this.#writable(key).add(id);
  }

  delete(key: K, id: number): void {
    // Checked first, so deleting what is not there never forks a shared set for nothing.
    if (!this.get(key).has(id)) return;
    const set = this.#writable(key);
    set.delete(id);
    // A key disappears with its last id, unless a shared set still has it: then the empty set masks it.
    if (set.size === 0 && !this.#shared?.has(key)) this.#own.delete(key);
  }

  #writable(key: K): SortedIds {
    let set = this.#own.get(key);
    if (set === undefined) {
      set = this.#shared?.get(key)?.fork(this.#meter) ?? new SortedIds(this.#meter);
      this.#own.set(key, set);
    }
    return set;
  }
}

/** Slots per page of an IdTable, and pages per directory: a fork's write copies one page (1 KiB) and one directory (512 B). */
const PAGE_BITS = 7;
const PAGE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE - 1;
const DIRECTORY_BITS = 6;
const DIRECTORY = 1 << DIRECTORY_BITS;
const DIRECTORY_MASK = DIRECTORY - 1;
const DIRECTORY_SHIFT = PAGE_BITS + DIRECTORY_BITS;

type Page<T> = (T | undefined)[];

/**
 * Records by id. Ids are server-assigned and sequential, so they are dense:
 * pages of a plain array indexed by id hold them in a tenth of a Map's memory
 * and time (a million pets, issue 5). Pages are grouped in directories of 64,
 * and pages and directories are the units of sharing between forks, so a
 * fork's first write copies a page, a directory and a list of 1/8,192 of the
 * ids. An id far past the dense part (imported data with a huge id) goes to a
 * Map instead, so the pages never turn sparse; that Map is copied whole on a
 * fork's first write to it (imports rarely hold many such ids).
 */
export class IdTable<T> {
  #directories: Page<T>[][] = [];
  /** Ids below this are looked up in the pages: a multiple of PAGE, kept below 2^31 (see set). */
  #limit = 0;
  #sparse = new Map<number, T>();
  #sparseOwned = true;
  #size = 0;
  #ownership: Ownership;

  /** How far past the dense part an id may land and still be stored densely (the gap is filled). */
  static readonly GAP = 4096;
  /** No dense page beyond this id: far ids go to the Map (and `>>>` stays exact). */
  static readonly MAX_DENSE = 2 ** 31 - 1;

  constructor(meter?: Meter) {
    this.#ownership = new Ownership(meter);
  }

  fork(meter?: Meter): IdTable<T> {
    const copy = new IdTable<T>(meter);
    copy.#directories = this.#directories;
    copy.#limit = this.#limit;
    copy.#sparse = this.#sparse;
    copy.#size = this.#size;
    copy.#sparseOwned = false;
    this.#sparseOwned = false;
    copy.#ownership.share();
    this.#ownership.share();
    return copy;
  }

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    // `id >>> 0 === id`: a whole number in the pages' range, so a fraction never lands on a neighbour's slot.
    const found = id < this.#limit && id >>> 0 === id ? this.#directories[id >>> DIRECTORY_SHIFT]![(id >>> PAGE_BITS) & DIRECTORY_MASK]![id & PAGE_MASK] : undefined;
    return found !== undefined || this.#sparse.size === 0 ? found : this.#sparse.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, value: T): void {
    if (!this.#sparse.has(id) && Number.isSafeInteger(id) && id >= 0 && id < this.#limit + IdTable.GAP && id <= IdTable.MAX_DENSE) {
      while (id >= this.#limit) this.#addPage();
      const page = this.#writablePage(id);
      if (page[id & PAGE_MASK] === undefined) this.#size++;
      page[id & PAGE_MASK] = value;
      return;
    }
    const sparse = this.#writableSparse();
    if (!sparse.has(id)) this.#size++;
    sparse.set(id, value);
  }

  delete(id: number): boolean {
    if (id < this.#limit && id >>> 0 === id && this.#directories[id >>> DIRECTORY_SHIFT]![(id >>> PAGE_BITS) & DIRECTORY_MASK]![id & PAGE_MASK] !== undefined) {
      this.#writablePage(id)[id & PAGE_MASK] = undefined;
      this.#size--;
      return true;
    }
    if (this.#sparse.has(id)) {
      this.#writableSparse().delete(id);
      this.#size--;
      return true;
    }
    return false;
  }

  #outer(): Page<T>[][] {
    if (this.#ownership.claimOuter(this.#directories.length)) this.#directories = this.#directories.slice();
    return this.#directories;
  }

  #addPage(): void {
    const last = this.#directories.length - 1;
    const page = this.#ownership.adopt(new Array<T | undefined>(PAGE).fill(undefined), PAGE * SLOT_BYTES);
    if (last < 0 || this.#directories[last]!.length === DIRECTORY) this.#outer().push(this.#ownership.adopt([page], SLOT_BYTES));
    else this.#writableDirectory(last).push(page);
    this.#limit += PAGE;
  }

  #writableDirectory(at: number): Page<T>[] {
    const directory = this.#directories[at]!;
    if (this.#ownership.owns(directory)) return directory;
    const copy = this.#ownership.adopt(directory.slice(), directory.length * SLOT_BYTES);
    this.#outer()[at] = copy;
    return copy;
  }

  #writablePage(id: number): Page<T> {
    const directory = this.#writableDirectory(id >>> DIRECTORY_SHIFT);
    const at = (id >>> PAGE_BITS) & DIRECTORY_MASK;
    const page = directory[at]!;
    if (this.#ownership.owns(page)) return page;
    const copy = this.#ownership.adopt(page.slice(), PAGE * SLOT_BYTES);
    directory[at] = copy;
    return copy;
  }

  #writableSparse(): Map<number, T> {
    if (!this.#sparseOwned) {
      this.#sparse = new Map(this.#sparse);
      this.#sparseOwned = true;
      this.#ownership.meter?.add(this.#sparse.size * 4 * SLOT_BYTES);
    }
    return this.#sparse;
  }
}

/** A Map shared between forks and copied whole on a fork's first write: for small maps (category names). */
export class SharedMap<K, V> {
  #map: Map<K, V>;
  #owned = true;
  readonly #meter: Meter | undefined;

  constructor(meter?: Meter, map = new Map<K, V>()) {
    this.#meter = meter;
    this.#map = map;
  }

  fork(meter?: Meter): SharedMap<K, V> {
    this.#owned = false;
    const copy = new SharedMap<K, V>(meter, this.#map);
    copy.#owned = false;
    return copy;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    this.#writable().set(key, value);
  }

  delete(key: K): void {
    if (this.#map.has(key)) this.#writable().delete(key);
  }

  #writable(): Map<K, V> {
    if (!this.#owned) {
      this.#map = new Map(this.#map);
      this.#owned = true;
      this.#meter?.add(this.#map.size * 4 * SLOT_BYTES);
    }
    return this.#map;
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
  readonly all: SortedIds;
  readonly #byStatus: KeyedIds<string>;
  readonly #byCategory: KeyedIds<number>;
  /** Status → category → ids: nested rather than a composite string key, so no string is built per change. */
  readonly #byBoth: Map<string, KeyedIds<number>>;
  readonly #meter: Meter | undefined;

  constructor(meter?: Meter, parts?: { all: SortedIds; byStatus: KeyedIds<string>; byCategory: KeyedIds<number>; byBoth: Map<string, KeyedIds<number>> }) {
    this.#meter = meter;
    this.all = parts?.all ?? new SortedIds(meter);
    this.#byStatus = parts?.byStatus ?? new KeyedIds(meter);
    this.#byCategory = parts?.byCategory ?? new KeyedIds(meter);
    this.#byBoth = parts?.byBoth ?? new Map();
  }

  /** An index with the same answers sharing every set (O(number of statuses)); see SortedIds.fork. */
  fork(meter?: Meter): PetIndex {
    const byBoth = new Map<string, KeyedIds<number>>();
    for (const [status, byCategory] of this.#byBoth) byBoth.set(status, byCategory.fork(meter));
    return new PetIndex(meter, { all: this.all.fork(meter), byStatus: this.#byStatus.fork(meter), byCategory: this.#byCategory.fork(meter), byBoth });
  }

  add(id: number, keys: PetKeys): void {
    this.all.add(id);
    this.#byStatus.add(keys.status, id);
    this.#byCategory.add(keys.categoryId, id);
    this.#bothFor(keys.status).add(keys.categoryId, id);
  }

  remove(id: number, keys: PetKeys): void {
    this.all.delete(id);
    this.#byStatus.delete(keys.status, id);
    this.#byCategory.delete(keys.categoryId, id);
    this.#byBoth.get(keys.status)?.delete(keys.categoryId, id);
  }

  /** Only the sets whose key changed are touched (never `all`), so a fork copies as few chunks as it can. */
  move(id: number, before: PetKeys, after: PetKeys): void {
    const statusChanged = before.status !== after.status;
    const categoryChanged = before.categoryId !== after.categoryId;
    if (!statusChanged && !categoryChanged) return;
    if (statusChanged) {
      this.#byStatus.delete(before.status, id);
      this.#byStatus.add(after.status, id);
    }
    if (categoryChanged) {
      this.#byCategory.delete(before.categoryId, id);
      this.#byCategory.add(after.categoryId, id);
    }
    this.#byBoth.get(before.status)?.delete(before.categoryId, id);
    this.#bothFor(after.status).add(after.categoryId, id);
  }

  #bothFor(status: string): KeyedIds<number> {
    let byCategory = this.#byBoth.get(status);
    if (byCategory === undefined) {
      byCategory = new KeyedIds<number>(this.#meter);
      this.#byBoth.set(status, byCategory);
    }
    return byCategory;
  }

  /** The ids matching the filter, ascending. */
  select(filter: { readonly status?: string | undefined; readonly categoryId?: number | undefined }): SortedIds {
    const { status, categoryId } = filter;
    if (status !== undefined && categoryId !== undefined) return this.#byBoth.get(status)?.get(categoryId) ?? NONE;
    if (status !== undefined) return this.#byStatus.get(status);
    if (categoryId !== undefined) return this.#byCategory.get(categoryId);
    return this.all;
  }
}
