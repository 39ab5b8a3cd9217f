/**
 * Records the run does not own, taken in turns. Checks run side by side because each owns its records (it created
 * them, under the run's tag); but where an operation's id cannot come from a create of the run (a PUT that only
 * replaces, a create that answers 202 with no record), the runner names a record the target already holds, the same
 * one for every check (the id its schema samples first). Two checks then share it without knowing: one replaces it
 * while another reads it twice to see that a rejected request "changed nothing", and the target is blamed for the
 * first one's write. So a write to a record (an item path: its path names the record) and an observation of one (a
 * snapshot, the request, the read after) take the record in turns: the observation holds it from its first read to
 * its last, and a write waits for it. A record the run owns is never contended, so this costs it nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class SharedRecords {
  private readonly held = new Map<string, Promise<void>>();
  /** The record an observation running in this async context holds (node:async_hooks: no holder passed around). */
  private readonly observing = new AsyncLocalStorage<string>();

  /**
   * Runs `observation` (a snapshot, the request, the read after) holding the record at `key`, once whoever holds it
   * now lets go: no write of another check reaches it until the observation is over.
   */
  observe<T>(key: string, observation: () => Promise<T>): Promise<T> {
    return this.inTurn(key, () => this.observing.run(key, observation));
  }

  /**
   * Runs a write to the record at `key` in its turn. A write made inside an observation is the request the observation
   * is about, and goes at once: so no observation ever waits while holding a record, and none can wait on another.
   */
  write<T>(key: string, write: () => Promise<T>): Promise<T> {
    return this.observing.getStore() === undefined ? this.inTurn(key, write) : write();
  }

  private async inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    for (let current = this.held.get(key); current; current = this.held.get(key)) await current;
    let release!: () => void;
    this.held.set(key, new Promise<void>((resolve) => (release = resolve)));
    try {
      return await work();
    } finally {
      this.held.delete(key);
      release();
    }
  }
}

/**
 * The record a request's path names: the path up to its last path parameter's value (`/teams/7` of `/teams/7` and of
 * `/teams/7/archive`, which changes team 7), or undefined for a path that names none (`/teams`, a create).
 */
export function recordKeyOf(template: string, path: string): string | undefined {
  const last = template.lastIndexOf('}');
  if (last < 0) return undefined;
  // As many segments of the concrete path as the template has up to that parameter.
  const segments = template.slice(0, last + 1).split('/').length;
  return path.split('/').slice(0, segments).join('/');
}
