/**
 * What a forced Error (`Prefer: code=…`) says about the record the request names, taken from the store's real data
 * rather than from the document's example (issue 23, point 6: `Prefer: code=409` on `DELETE /pets/7` named "the
 * open order 1", which belongs to pet 2); the stated rules word them (behaviour/rule-book.ts). Read-only: a forced
 * answer never touches the store. Here: how a forced Error that no record bears out says so.
 */
export function askedFor(status: number): string {
  return `this ${status} was asked for with Prefer: code=${status}.`;
}
