/**
 * The cross-record rules a snapshot must satisfy before a store can hold it:
 * the part of a snapshot's validity that no single schema can say (ids,
 * references, the state rules of contract.md). Shared by seed.ts (fixtures,
 * imports) and store.ts (which refuses data it could not keep consistent).
 */
import type { StoreSnapshot } from './domain.js';
// diagnostics.js, not the schema index: the store stays free of Ajv, so it can run in a browser later.
import { MAX_DIAGNOSTICS, type Diagnostic } from '../../../src/schema/diagnostics.js';

/**
 * How strict to be about the state rules.
 * - `fixtures`: seed data must look like a history the rules produced: an
 *   open order's pet is `pending`, a complete order's pet exists and is `sold`.
 * - `reachable`: only what the store itself keeps true at all times, so that
 *   any state it exports can be imported back. A pet's status can still be
 *   set by replacePet (a sold pet listed again, a pending pet whose order is
 *   still open), and a pet with only complete orders can be deleted, so those
 *   two rules are not invariants of a live store.
 */
export type ConsistencyLevel = 'fixtures' | 'reachable';

/** Every consistency problem of a schema-valid snapshot, each with a JSON pointer rooted at the snapshot (`/pets/3/categoryId`). */
export function checkConsistency(snapshot: StoreSnapshot, level: ConsistencyLevel): Diagnostic[] {
  const problems: Diagnostic[] = [];
  let untold = 0;
  const problem = (pointer: string, keyword: string, message: string, expected?: unknown, actual?: unknown): void => {
    // A million broken records must not make a million diagnostics; the first ones show what to fix.
    if (problems.length >= MAX_DIAGNOSTICS) {
      untold++;
      return;
    }
    problems.push({ pointer, keyword, message, ...(expected === undefined ? {} : { expected }), ...(actual === undefined ? {} : { actual }) });
  };

  const categoryAt = uniqueIds(snapshot.categories, '/categories', problem);
  const petAt = uniqueIds(snapshot.pets, '/pets', problem);
  uniqueIds(snapshot.orders, '/orders', problem);

  const names = new Map<string, number>();
  snapshot.categories.forEach((category, index) => {
    const key = foldName(category.name);
    const first = names.get(key);
    if (first === undefined) names.set(key, index);
    else problem(`/categories/${index}/name`, 'uniqueName', `the name ${JSON.stringify(category.name)} is taken by /categories/${first} (names are compared case-insensitively); rename one of them`, undefined, category.name);
  });

  snapshot.pets.forEach((pet, index) => {
    if (!categoryAt.has(pet.categoryId)) problem(`/pets/${index}/categoryId`, 'reference', `no category has id ${pet.categoryId}; add it to categories or pick an existing one`, undefined, pet.categoryId);
  });

  // One flag per pet (by its position), not a second table of a million ids.
  const stocked = new Uint8Array(snapshot.pets.length);
  snapshot.inventory.forEach((item, index) => {
    const petIndex = petAt.get(item.petId);
    if (petIndex === undefined) problem(`/inventory/${index}/petId`, 'reference', `no pet has id ${item.petId}; an inventory entry belongs to an existing pet`, undefined, item.petId);
    else if (stocked[petIndex] === 1) problem(`/inventory/${index}/petId`, 'uniqueId', `pet ${item.petId} has an inventory entry already; keep one entry per pet`, undefined, item.petId);
    else stocked[petIndex] = 1;
  });
  snapshot.pets.forEach((pet, index) => {
    if (stocked[index] !== 1 && petAt.get(pet.id) === index) problem(`/pets/${index}`, 'inventory', `pet ${pet.id} has no inventory entry; add {"petId": ${pet.id}, "quantity": 1} to inventory (state rule 1)`);
  });

  const openOrderOf = new Map<number, number>();
  snapshot.orders.forEach((order, index) => {
    const at = `/orders/${index}`;
    // The Order schema requires nothing, but the store needs both to return stock on cancel and to find the pet.
    if (order.petId === undefined) return problem(`${at}/petId`, 'required', 'is required: the mock needs the pet of every order');
    if (order.quantity === undefined) return problem(`${at}/quantity`, 'required', 'is required: the mock needs the quantity of every order to return it on cancel');
    const petIndex = petAt.get(order.petId);
    const pet = petIndex === undefined ? undefined : snapshot.pets[petIndex];
    if (order.complete === true) {
      if (level === 'fixtures' && pet === undefined) problem(`${at}/petId`, 'reference', `no pet has id ${order.petId}; a complete order needs its sold pet`, undefined, order.petId);
      else if (level === 'fixtures' && pet !== undefined && pet.status !== 'sold') problem(`/pets/${petIndex}/status`, 'stateRule', `pet ${pet.id} has the complete order ${order.id ?? `at ${at}`}, so it must be sold (state rule 3)`, 'sold', pet.status ?? 'available');
      return;
    }
    if (pet === undefined) return problem(`${at}/petId`, 'reference', `no pet has id ${order.petId}; an open order needs an existing pet (state rule 5)`, undefined, order.petId);
    const other = openOrderOf.get(order.petId);
    if (other !== undefined) problem(`${at}/complete`, 'stateRule', `pet ${order.petId} has the open order at /orders/${other} already; one open order per pet (state rule 2): complete or remove one`, true, false);
    else openOrderOf.set(order.petId, index);
    if (level === 'fixtures' && pet.status !== 'pending') problem(`/pets/${petIndex}/status`, 'stateRule', `pet ${pet.id} has the open order ${order.id ?? `at ${at}`}, so it must be pending (state rule 2)`, 'pending', pet.status ?? 'available');
  });

  if (untold > 0) problems.push({ pointer: '/', keyword: 'truncated', message: `${untold} more problems not listed` });
  return problems;
}

/** How category names are compared: case-insensitively (the document's CategoryName). */
export function foldName(name: string): string {
  return name.toLowerCase();
}

/** Id → index of its first holder, reporting every later duplicate. */
function uniqueIds(
  records: readonly { readonly id?: number | undefined }[],
  root: string,
  problem: (pointer: string, keyword: string, message: string, expected?: unknown, actual?: unknown) => void,
): Map<number, number> {
  const at = new Map<number, number>();
  records.forEach((record, index) => {
    if (record.id === undefined) return problem(`${root}/${index}/id`, 'required', 'is required: stored records carry their id');
    const first = at.get(record.id);
    if (first === undefined) at.set(record.id, index);
    else problem(`${root}/${index}/id`, 'uniqueId', `id ${record.id} is used by ${root}/${first} already; ids must be unique`, undefined, record.id);
  });
  return at;
}
