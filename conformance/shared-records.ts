/**
 * Records the run does not own, taken in turns. Checks run side by side because each owns its records (it created
 * them, under the run's tag); but where an operation's id cannot come from a create of the run (a PUT that only
 * replaces, a create that answers 202 with no record), the runner names a record the target already holds, the same
 * one for every check (the id its schema samples first). Two checks then share it without knowing: one replaces it
 * while another reads it twice to see that a rejected request "changed nothing", and the target is blamed for the
 * first one's write. So an observation (a snapshot, the request, the read after) holds the path it reads, and a write
 * to a path that touches the same records (the same path, one under it, one above it) waits until it is over. Paths
 * the run owns are never contended, so this costs them nothing.
 */
/**
 * The observation a write is made in, handed to the observation's body: its own writes go at once. Passed by hand
 * rather than found through node:async_hooks' AsyncLocalStorage, which, once used, taxes every promise of the run
 * (a promise hook on each: 3-4% of the runner's CPU, issue 33).
 */
export interface Observation {
  readonly key: string;
}

export class SharedRecords {
  /** What is in progress: each observation and write, by the path it reads or writes, until it settles. */
  private readonly held = new Set<{ readonly key: string; readonly observation: boolean; readonly settled: Promise<void> }>();
  /**
   * Runs `observation` (a snapshot, the request, the read after) once no write or other observation of an overlapping
   * path is in progress, and holds that path until it is over: no write of another check lands inside it.
   */
  observe<T>(key: string, observation: (within: Observation) => Promise<T>): Promise<T> {
    return this.inTurn(key, true, () => observation({ key }));
  }

  /**
   * Runs a write once no observation of an overlapping path is in progress. A write made inside an observation is the
   * request the observation is about (`within` it), and goes at once: so no observation ever waits while it holds a path.
   */
  write<T>(key: string, write: () => Promise<T>, within?: Observation): Promise<T> {
    return within === undefined ? this.inTurn(key, false, write) : write();
  }

  private async inTurn<T>(key: string, observation: boolean, work: () => Promise<T>): Promise<T> {
    for (;;) {
      const blocking = [...this.held].find((other) => (observation || other.observation) && overlaps(other.key, key));
      if (!blocking) break;
      await blocking.settled;
    }
    let settle!: () => void;
    const entry = { key, observation, settled: new Promise<void>((resolve) => (settle = resolve)) };
    this.held.add(entry);
    try {
      return await work();
    } finally {
      this.held.delete(entry);
      settle();
    }
  }
}

/**
 * Whether two paths touch the same records: one is the other or lies under it (`/teams/7` and `/teams/7/archive`; a
 * list `/teams/7/items` and its item `/teams/7/items/3`; a collection `/teams` and its records).
 */
export function overlaps(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long === short || long.startsWith(short.endsWith('/') ? short : `${short}/`);
}
