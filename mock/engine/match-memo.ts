/**
 * The router's matches, kept by method and path (issue 22, point 8). The router is compiled once from a document
 * that does not change under a running core (`--watch` builds a new core), so a path matched once matches the same
 * way again: a front end that reads `/v1/Services/MG…` or `/pets/1` over and over gets the kept match (its path
 * parameters frozen, so nothing downstream can change them for the next request) instead of the path split and
 * walked again. Only matches are kept, only of the usual methods and of paths up to MAX_PATH characters, and at most
 * PER_METHOD paths per method (past it the memo starts over): a client sending random paths cannot make it grow.
 *
 * A match is kept the second time its path is seen, not the first: a path seen once (the Location of a record just
 * created, an order cancelled by its new id) is rarely seen again, and freezing and keeping its match for nothing
 * cost the Pet Store's order cycle more than the memo saves it.
 */
import type { Router, RouteMatch } from '../../src/router.js';

const MAX_PATH = 512;
const PER_METHOD = 512;
const KEPT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** A path matched once: the next match of it is kept. */
const SEEN_ONCE = 0;

export function rememberMatches(router: Router): Router['match'] {
  const byMethod = new Map<string, Map<string, RouteMatch | typeof SEEN_ONCE>>();
  return (method, path) => {
    if (path.length > MAX_PATH || !KEPT_METHODS.has(method)) return router.match(method, path);
    let kept = byMethod.get(method);
    if (kept === undefined) byMethod.set(method, (kept = new Map()));
    const known = kept.get(path);
    if (known !== undefined && known !== SEEN_ONCE) return known;
    const match = router.match(method, path);
    if (match.kind !== 'match') return match;
    if (kept.size >= PER_METHOD) kept.clear();
    if (known === undefined) {
      kept.set(path, SEEN_ONCE);
      return match;
    }
    const frozen: RouteMatch = Object.freeze({ kind: 'match', operation: match.operation, pathParams: Object.freeze(match.pathParams) });
    kept.set(path, frozen);
    return frozen;
  };
}
