/**
 * Every operation's documented answers proved after start-up (answer-guard.ts), one operation per turn of the event
 * loop, so the mock listens at once and answers requests in between: proving compiles every response validator, which
 * on a large document (Twilio's 2010 API: 1.2 s of its 2 s start) is what compiling on first use saves at start-up.
 * An answer a request needs before the sweep reaches it is proved then. When the sweep ends, what cannot be made is
 * said once; `state()` is what `GET /__mock/resources` shows meanwhile.
 */
import type { Operation } from '../../src/contract/index.js';
import type { Unanswerable } from './answer-guard.js';

export interface ProofState {
  /** How many operations have had every documented answer proved. */
  readonly proved: number;
  readonly operations: number;
  /** The documented answers found so far that no valid answer can be made for. */
  readonly unanswerable: readonly Unanswerable[];
}

export interface ProofSweep {
  /** Starts proving (the server listens: the start-up is not slowed by it). */
  start(): void;
  state(): ProofState;
  /** Stops the sweep (the mock closes, or --watch replaces it). */
  stop(): void;
}

export function sweepProofs(operations: readonly Operation[], prove: (operation: Operation) => readonly Unanswerable[], done: (unanswerable: readonly Unanswerable[]) => void): ProofSweep {
  const unanswerable: Unanswerable[] = [];
  let proved = 0;
  let timer: NodeJS.Immediate | undefined;
  const step = (): void => {
    const operation = operations[proved];
    if (operation === undefined) {
      timer = undefined;
      done(unanswerable);
      return;
    }
    unanswerable.push(...prove(operation));
    proved += 1;
    timer = setImmediate(step);
    // A sweep never keeps a process alive that has nothing else to do.
    timer.unref();
  };
  let started = false;
  return {
    start() {
      if (started) return;
      started = true;
      timer = setImmediate(step);
      timer.unref();
    },
    state: () => ({ proved, operations: operations.length, unanswerable: [...unanswerable] }),
    stop() {
      started = true;
      if (timer) clearImmediate(timer);
      timer = undefined;
    },
  };
}
