/**
 * A map whose entries are kept in order of last use, for the session
 * registry's least-recently-used bounds (store.ts).
 *
 * Why not a Map re-inserted on each use (delete, then set, so the first key is
 * the least recent): V8 compacts a Map's table when deleted slots fill it, and
 * with a table just big enough for its entries (1,000 sessions) that is every
 * time: 5 µs per request, measured. Here a use moves one node of a linked list
 * and leaves the Map alone, O(1) whatever the number of sessions.
 */
interface Node<V> {
  readonly key: string;
  value: V;
  older: Node<V> | undefined;
  newer: Node<V> | undefined;
}

export class Recency<V> {
  // A Map, not an object: a session named `__proto__` is just a name.
  readonly #nodes = new Map<string, Node<V>>();
  #oldest: Node<V> | undefined;
  #newest: Node<V> | undefined;

  get size(): number {
    return this.#nodes.size;
  }

  has(key: string): boolean {
    return this.#nodes.has(key);
  }

  /** The value without counting it as a use. */
  peek(key: string): V | undefined {
    return this.#nodes.get(key)?.value;
  }

  /** The value, which becomes the most recently used. */
  use(key: string): V | undefined {
    const node = this.#nodes.get(key);
    if (node === undefined) return undefined;
    if (node !== this.#newest) {
      this.#unlink(node);
      this.#append(node);
    }
    return node.value;
  }

  /** Adds or replaces the value, as the most recently used. */
  set(key: string, value: V): void {
    const node = this.#nodes.get(key);
    if (node !== undefined) {
      node.value = value;
      this.use(key);
      return;
    }
    const added: Node<V> = { key, value, older: undefined, newer: undefined };
    this.#nodes.set(key, added);
    this.#append(added);
  }

  delete(key: string): V | undefined {
    const node = this.#nodes.get(key);
    if (node === undefined) return undefined;
    this.#nodes.delete(key);
    this.#unlink(node);
    return node.value;
  }

  /** The least recently used key, or undefined when empty. */
  oldest(): string | undefined {
    return this.#oldest?.key;
  }

  clear(): void {
    this.#nodes.clear();
    this.#oldest = undefined;
    this.#newest = undefined;
  }

  /** Keys from the least to the most recently used. */
  keys(): string[] {
    const out: string[] = [];
    for (let node = this.#oldest; node !== undefined; node = node.newer) out.push(node.key);
    return out;
  }

  #append(node: Node<V>): void {
    node.older = this.#newest;
    node.newer = undefined;
    if (this.#newest !== undefined) this.#newest.newer = node;
    else this.#oldest = node;
    this.#newest = node;
  }

  #unlink(node: Node<V>): void {
    if (node.older !== undefined) node.older.newer = node.newer;
    else this.#oldest = node.newer;
    if (node.newer !== undefined) node.newer.older = node.older;
    else this.#newest = node.older;
    node.older = undefined;
    node.newer = undefined;
  }
}
