/**
 * What a forced Error (`Prefer: code=…`) says about the record the request names, taken from the store's real data
 * rather than from the document's example (issue 23, point 6: `Prefer: code=409` on `DELETE /pets/7` named "the
 * open order 1", which belongs to pet 2). Read-only: a forced answer never touches the store.
 */
import type { Store } from './domain.js';

/** The store's own words for `code` about record `id`, or undefined where the example's words, with the id put in, are right. */
export function storeMessage(store: Store, code: string, id: number, status: number): string | undefined {
  if (code === 'PET_HAS_OPEN_ORDER') {
    const [open] = store.listOrders({ petId: id, complete: false }, { offset: 0, limit: 1 }).items;
    // The same words as the real refusal (store.ts), or, with no open order to name, a forced answer that says so.
    return open !== undefined
      ? `Pet ${id} has the open order ${open.id}; complete or cancel it first.`
      : `Pet ${id} has no open order; ${askedFor(status)}`;
  }
  return undefined;
}

/** How a forced Error that no record bears out says so. */
export function askedFor(status: number): string {
  return `this ${status} was asked for with Prefer: code=${status}.`;
}
