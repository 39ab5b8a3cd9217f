/**
 * The handler table, keyed by operationId, and the start-up check that it and
 * the loaded document name the same operations (architecture: "each
 * operationId has exactly one handler, checked at start-up"). The compiler
 * already checks the table against the generated ids; the run-time check
 * catches a `--spec` document that differs from the bundled one.
 */
import type { Contract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { categoryHandlers } from './categories.js';
import { inventoryHandlers } from './inventory.js';
import { orderHandlers } from './orders.js';
import { petHandlers } from './pets.js';
import type { Handler, HandlerTable } from './types.js';

export const HANDLERS: HandlerTable = merge(petHandlers, categoryHandlers, orderHandlers, inventoryHandlers);

/** Spreading would let a second handler for one id silently win; refuse it instead. */
function merge<A extends object, B extends object, C extends object, D extends object>(a: A, b: B, c: C, d: D): A & B & C & D {
  const seen = new Set<string>();
  for (const part of [a, b, c, d]) {
    for (const id of Object.keys(part)) {
      if (seen.has(id)) throw new KitError('HANDLER_MISSING', `Two handlers claim ${id}; each operation has exactly one.`, { reason: `duplicate handler ${id}` });
      seen.add(id);
    }
  }
  return { ...a, ...b, ...c, ...d };
}

export function bindHandlers(contract: Contract, table: Readonly<Record<string, Handler>> = HANDLERS): ReadonlyMap<string, Handler> {
  const unhandled = contract.operations.map((o) => o.operationId).filter((id) => !Object.hasOwn(table, id));
  const orphans = Object.keys(table).filter((id) => !contract.operationsById.has(id));
  if (unhandled.length > 0 || orphans.length > 0) {
    const parts = [
      unhandled.length ? `no handler for ${unhandled.join(', ')}` : '',
      orphans.length ? `a handler for ${orphans.join(', ')}, which ${contract.file} does not define` : '',
    ].filter(Boolean);
    throw new KitError('HANDLER_MISSING', `The mock and the document disagree: ${parts.join('; ')}. The mock serves the Pet Store contract's 18 operations; use a document that defines exactly those.`, {
      file: contract.file,
      reason: parts.join('; '),
    });
  }
  const bound = new Map<string, Handler>();
  for (const operation of contract.operations) {
    const handler = table[operation.operationId];
    if (handler) bound.set(operation.operationId, handler);
  }
  return bound;
}
