/**
 * Faults: the failures a network, a proxy or a crashing server produce, which a front end must survive and which
 * no status code can rehearse (WireMock's `Fault` is the model). The core only decides that a fault happens; the
 * transport enacts it, since only a transport has a connection to break:
 *
 *   reset      the connection is destroyed without a response (TCP RST): fetch rejects, undici says ECONNRESET
 *   empty      the connection is closed before a byte of a response (curl's "Empty reply from server")
 *   malformed  a complete HTTP response whose JSON body is cut in half: parsing it fails
 *
 * The request is handled first, so a change may have happened: the case a front end finds hardest ("was my order
 * placed?"), as when a connection drops after the server did the work.
 *
 * `--chaos RATE` (createChaos) applies a random documented error status or fault to that share of requests,
 * drawn from a seeded generator so a run with the same `--seed` fails the same requests the same way.
 */
import { mulberry32 } from '../engine/random.js';

export const FAULTS = ['reset', 'empty', 'malformed'] as const;
export type Fault = (typeof FAULTS)[number];

export function isFault(value: string): value is Fault {
  return (FAULTS as readonly string[]).includes(value);
}

/** The body of a `malformed` answer: the JSON text cut in the middle, so it cannot be parsed. */
export function truncateJson(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/** What chaos does to one request: nothing, a documented error status, or a fault. */
export type ChaosDraw = { readonly kind: 'none' } | { readonly kind: 'status'; readonly status: number } | { readonly kind: 'fault'; readonly fault: Fault };

export interface Chaos {
  /** Draws for one request of an operation that documents these error statuses. */
  draw(errorStatuses: readonly number[]): ChaosDraw;
}

const NONE: ChaosDraw = { kind: 'none' };

/** `rate` in [0, 1]: the share of requests that fail. Same seed, same sequence of draws. */
export function createChaos(rate: number, seed: number): Chaos {
  const next = mulberry32(seed);
  return {
    draw(errorStatuses) {
      // Two draws per request whatever happens, so one request's outcome never shifts the next one's.
      const hit = next();
      const pick = next();
      if (hit >= rate) return NONE;
      const choices = errorStatuses.length + FAULTS.length;
      const index = Math.floor(pick * choices);
      const status = errorStatuses[index];
      if (status !== undefined) return { kind: 'status', status };
      return { kind: 'fault', fault: FAULTS[index - errorStatuses.length] ?? 'reset' };
    },
  };
}
