import type { HttpMethod } from './model.js';

/**
 * `operationId` is optional in OpenAPI 3.0.3 (§4.7.10), yet every part of the
 * kit keys operations by it (selection, links, reports). An operation without
 * one gets an id derived from its method and path: `GET /pets/{petId}` →
 * `getPetsPetId`. The derivation reads only the operation's own method and
 * path, so the id is the same on every run; a collision (with a declared id or
 * another derived one) takes the first free `_2`, `_3`, … in document order.
 */
export function deriveOperationId(method: HttpMethod, pathTemplate: string): string {
  const words = pathTemplate.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/**
 * Gives every operation an id: its declared one, or a derived one no other operation has. A declared id an
 * earlier operation already has (OpenAPI requires them unique, yet published documents repeat them: Svix's
 * GET and HEAD /api/v1/health are both `v1.health.get`) takes the first free `_2`, `_3`, …, so that each
 * operation is judged against its own responses, never another's.
 */
export function assignOperationIds<T extends { readonly method: HttpMethod; readonly pathTemplate: string; readonly declaredId?: string }>(
  operations: readonly T[],
): string[] {
  const taken = new Set(operations.flatMap((operation) => (operation.declaredId ? [operation.declaredId] : [])));
  const given = new Set<string>();
  return operations.map((operation) => {
    const base = operation.declaredId ?? deriveOperationId(operation.method, operation.pathTemplate);
    let id = base;
    if (operation.declaredId === undefined || given.has(id)) for (let n = 2; taken.has(id) || given.has(id); n += 1) id = `${base}_${n}`;
    taken.add(id);
    given.add(id);
    return id;
  });
}
