/** Inventory: listInventory, getInventoryItem, updateInventory. An entry's status is its pet's (rule 6, in the store). */
import { collection, integer, ok, optionalStatus, page } from './read.js';
import type { Handler } from './types.js';

export const inventoryHandlers = {
  listInventory: ({ store, params: { query } }) => collection(store.listInventory({ status: optionalStatus(query, 'status') }, page(query))),
  getInventoryItem: ({ store, params: { path } }) => ok(store.getInventoryItem(integer(path, 'petId'))),
  updateInventory: ({ store, params: { path }, body }) => ok(store.updateInventory(integer(path, 'petId'), integer(body, 'quantity'))),
} satisfies Record<string, Handler>;
