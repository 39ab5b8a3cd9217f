/**
 * Whether a document is the Pet Store: it defines exactly the contract's 18 operations (our openapi.yaml, or an
 * edited copy of it). The generic engine serves every document; the Pet Store is given its rule file
 * (petstore-rules.ts) and its seed fixtures by default, and says nothing of its resource map under --quiet.
 */
import type { Contract } from '../../src/contract/index.js';
import type { OperationId } from '../../src/types.js';

/** The contract's operations, each named once (the compiler checks them against the generated ids). */
const PET_STORE_OPERATIONS = {
  listPets: true, createPet: true, getPet: true, replacePet: true, deletePet: true,
  listCategories: true, createCategory: true, getCategory: true, replaceCategory: true, deleteCategory: true,
  listOrders: true, placeOrder: true, getOrder: true, updateOrder: true, cancelOrder: true,
  listInventory: true, getInventoryItem: true, updateInventory: true,
} as const satisfies { readonly [K in OperationId]: true };

export function servesPetStore(contract: Contract): boolean {
  const ids = Object.keys(PET_STORE_OPERATIONS);
  return ids.length === contract.operations.length && ids.every((id) => contract.operationsById.has(id));
}
