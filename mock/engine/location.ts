/**
 * Where a created resource lives, derived from the 201 response's links
 * (OpenAPI 3.0.3 §4.7.20): the first link to a GET whose path parameters are
 * all read from the response body (`$response.body#/id`). So `Location` comes
 * from the document (getPet's path for createPet, getOrder's for placeOrder),
 * for real answers and forced ones alike, with no path typed in a handler.
 */
import type { Contract, ResponseSpec } from '../../src/contract/index.js';
import { wirePath } from '../../src/router.js';

export type LocationOf = (body: unknown) => string | undefined;

const BODY = '$response.body#';

export function locationFromLinks(spec: ResponseSpec, contract: Contract, basePath: string): LocationOf | undefined {
  for (const link of spec.links) {
    const target = contract.operationsById.get(link.operationId);
    if (!target || target.method !== 'get') continue;
    const names = target.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const pointers = names.map((name) => link.parameters[name]);
    if (names.length === 0 || !pointers.every((p): p is string => typeof p === 'string' && p.startsWith(BODY))) continue;
    // Compiled once: the template cut at its parameters, each pointer cut into its keys (issue 5: nothing re-parsed per
    // request). A key's `#fragment` (`/v1/connectors/{id}#id`) is not part of the path a client requests (RFC 3986 §3.5).
    const parts = wirePath(target.pathTemplate).split(/\{([^}]+)\}/);
    const keysOf = new Map(names.map((name, i) => [name, parsePointer((pointers[i] ?? BODY).slice(BODY.length))]));
    return (body) => {
      let path = `${basePath}${parts[0] ?? ''}`;
      for (let i = 1; i < parts.length; i += 2) {
        const value = resolve(body, keysOf.get(parts[i] ?? '') ?? []);
        if (typeof value !== 'string' && typeof value !== 'number') return undefined;
        // An integer's digits need no escaping (String(1e21) would hold a '+', so only safe integers skip it).
        path += (Number.isSafeInteger(value) ? String(value) : encodeURIComponent(value)) + (parts[i + 1] ?? '');
      }
      return path;
    };
  }
  return undefined;
}

/** RFC 6901: `/a/b~1c` → ['a', 'b/c']. */
function parsePointer(pointer: string): readonly string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Follows the keys into a plain value; own properties only. */
function resolve(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
