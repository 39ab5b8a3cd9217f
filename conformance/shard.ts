/**
 * `--shard K/N` (issue 33, point 6): a run split by operation across N machines. Every operation of the document is
 * in exactly one shard, decided by the document alone, so every machine of a CI matrix computes the same split
 * without talking to the others.
 *
 * Operations are split by resource, never inside one: every operation on a collection path and its item paths
 * (`/pets`, `/pets/{petId}`; `/Calls.json`, `/Calls/{Sid}.json`) goes to one shard, so the checks that cross
 * operations of one resource (405 with `Allow` for a path, a create read back) run where all of them are.
 * A check's case belongs to its subject operation (the create of a create-read-back, the subject of a workflow),
 * so a workflow that spans operations runs whole, in its subject's shard; the other operations it calls are
 * called there as well, and the answers are judged there too (runner.ts), as a single run would.
 *
 * Resources are placed largest first on the shard with the fewest operations so far (ties: the lower shard), in
 * the order of their path: balanced, and the same on every machine.
 */
import type { Contract } from '../src/contract/index.js';
import { KitError } from '../src/kit-error.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

/** `K/N` with 1 <= K <= N <= 1000, or a USAGE error that says what the flag takes. */
export function parseShard(value: string): Shard {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(value.trim());
  const index = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!match || total < 1 || total > 1000 || index < 1 || index > total) {
    throw new KitError('USAGE', `petstore-kit conformance: --shard takes K/N, this machine's share of N (1 <= K <= N <= 1000), e.g. --shard 2/4; got '${value}'.`);
  }
  return { index, total };
}

/** The resource an operation's path belongs to: trailing path parameters and a file suffix dropped (`/a/{id}.json` → `/a`). */
export function resourceKey(pathTemplate: string): string {
  const segments = pathTemplate.split('/');
  while (segments.length > 1 && /^\{[^}]+\}(\.[A-Za-z0-9]+)?$/.test(segments[segments.length - 1]!)) segments.pop();
  const last = segments.length - 1;
  segments[last] = segments[last]!.replace(/\.[A-Za-z0-9]+$/, '');
  return segments.join('/') || '/';
}

/** Every shard's operations (index 0 is shard 1): each operationId of the document in exactly one. */
export function shardPlan(contract: Contract, total: number): ReadonlySet<string>[] {
  const byResource = new Map<string, string[]>();
  for (const operation of contract.operations) {
    const key = resourceKey(operation.pathTemplate);
    let ids = byResource.get(key);
    if (!ids) byResource.set(key, (ids = []));
    ids.push(operation.operationId);
  }
  const resources = [...byResource].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0));
  const shards = Array.from({ length: total }, () => new Set<string>());
  for (const [, ids] of resources) {
    let least = 0;
    for (let i = 1; i < total; i++) if (shards[i]!.size < shards[least]!.size) least = i;
    for (const id of ids) shards[least]!.add(id);
  }
  return shards;
}

/** The operations of one shard. */
export function shardOperations(contract: Contract, shard: Shard): ReadonlySet<string> {
  return shardPlan(contract, shard.total)[shard.index - 1]!;
}
