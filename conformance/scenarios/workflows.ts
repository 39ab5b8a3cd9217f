/**
 * The contract's state rules (contract.md, "State rules"; the operation
 * descriptions of openapi.yaml say them in words), written as data keyed by
 * operationId. Each scenario sets up its own records, so none depends on
 * data already in the target; the cleanup deletes them afterwards.
 *
 * One rule, one owner: each scenario asserts only its own rule and reads the
 * state it needs without asserting what other rules made of it (a stock is
 * compared with the stock just before, not with what an earlier rule should
 * have left). Only statuses and field values are asserted: error codes are
 * error-code-documented's, bodies error-shape's, a later 404 after a delete
 * delete-removes', and a filter that does not hold list-contains-created's.
 */
import type { Scenario, Step, Value } from './dsl.js';

const categoryId = { $var: 'category#/id' } as const;
const petId = { $var: 'pet#/id' } as const;
const orderId = { $var: 'order#/id' } as const;

const category: Step = { operationId: 'createCategory', note: 'a category of its own', body: { $valid: true }, expect: { status: 'success' }, save: 'category' };
const pet: Step = {
  operationId: 'createPet',
  note: 'a pet of its own',
  body: { $valid: true, with: { categoryId }, without: ['status'] },
  expect: { status: 'success' },
  save: 'pet',
};

/** Reads the pet through listPets filtered by its id (the successor of the deprecated getPet) and asserts its fields. */
function readPet(note: string, fields: Readonly<Record<string, Value>> = {}): Step {
  return { operationId: 'listPets', note, params: { id: petId }, expect: { status: 200, item: { field: 'id', equals: petId, fields } } };
}

function readStock(note: string, save: string, fields: Readonly<Record<string, Value>> = {}): Step {
  return { operationId: 'getInventoryItem', note, params: { petId }, expect: { status: 200, fields }, save };
}

function setStock(quantity: number): Step {
  return { operationId: 'updateInventory', note: `stock ${quantity}`, params: { petId }, body: { quantity }, expect: { status: 200 } };
}

function placeOrder(quantity: number): Step {
  return {
    operationId: 'placeOrder',
    note: `order ${quantity} of the pet`,
    body: { $valid: true, with: { petId, quantity }, without: ['complete'] },
    expect: { status: 'success' },
    save: 'order',
  };
}

export const WORKFLOWS: readonly Scenario[] = [
  {
    id: 'workflow-order-reserves-stock',
    description: 'Placing an order reserves its quantity from the inventory and moves the pet to pending; a second order for the pet is refused (rule 2).',
    subject: 'placeOrder',
    steps: [
      category,
      pet,
      setStock(3),
      readStock('the stock before the order', 'before'),
      placeOrder(2),
      readStock('the order reserved its quantity', 'after', { '/quantity': { $add: [{ $var: 'before#/quantity' }, -2] } }),
      readPet('the ordered pet is pending', { '/status': 'pending' }),
      { operationId: 'placeOrder', note: 'a second order for the pet', body: { $valid: true, with: { petId, quantity: 1 }, without: ['complete'] }, expect: { status: 409 } },
    ],
  },
  {
    id: 'workflow-order-complete-sells',
    description: 'Completing an order sells the pet; a complete order can be neither reopened nor cancelled (rules 3, 4).',
    subject: 'updateOrder',
    steps: [
      category,
      pet,
      placeOrder(1),
      { operationId: 'updateOrder', note: 'complete it', params: { orderId }, body: { complete: true }, expect: { status: 200, fields: { '/complete': true } } },
      readPet('a complete order sells the pet', { '/status': 'sold' }),
      { operationId: 'updateOrder', note: 'reopen it', params: { orderId }, body: { complete: false }, expect: { status: 409 } },
      { operationId: 'cancelOrder', note: 'cancel it', params: { orderId }, expect: { status: 409 } },
    ],
  },
  {
    id: 'workflow-order-cancel-restores',
    description: 'Cancelling an open order returns its quantity to the inventory and the pet to available (rule 4).',
    subject: 'cancelOrder',
    steps: [
      category,
      pet,
      setStock(2),
      placeOrder(1),
      readStock('the stock before the cancel', 'before'),
      { operationId: 'cancelOrder', note: 'cancel it', params: { orderId }, expect: { status: 'success' } },
      readStock('the ordered quantity is back', 'after', { '/quantity': { $add: [{ $var: 'before#/quantity' }, 1] } }),
      readPet('the pet is available again', { '/status': 'available' }),
    ],
  },
  {
    id: 'workflow-inventory-follows-pet',
    description: "A new pet is available with 1 in stock; an inventory entry's status is always its pet's, and a replace without status keeps it (rules 1, 6).",
    subject: 'replacePet',
    steps: [
      category,
      { ...pet, note: 'a new pet is available unless the body says otherwise', expect: { status: 'success', fields: { '/status': 'available' } } },
      readStock('a new pet gets 1 in stock, with its status', 'stock', { '/quantity': 1, '/status': 'available' }),
      { operationId: 'replacePet', note: 'mark it sold', params: { petId }, body: { $valid: true, with: { categoryId, status: 'sold' } }, expect: { status: 200, fields: { '/status': 'sold' } } },
      readStock('the entry follows', 'stock', { '/status': 'sold' }),
      { operationId: 'replacePet', note: 'rename it, status omitted', params: { petId }, body: { $valid: true, with: { categoryId }, without: ['status'] }, expect: { status: 200, fields: { '/status': 'sold' } } },
      readStock('still sold', 'stock', { '/status': 'sold' }),
      { operationId: 'replacePet', note: 'make it available', params: { petId }, body: { $valid: true, with: { categoryId, status: 'available' } }, expect: { status: 200, fields: { '/status': 'available' } } },
      readStock('the entry follows back', 'stock', { '/status': 'available' }),
      { operationId: 'createPet', note: 'a pet created pending', body: { $valid: true, with: { categoryId, status: 'pending' } }, expect: { status: 'success', fields: { '/status': 'pending' } }, save: 'pending' },
      { operationId: 'getInventoryItem', note: 'its entry is pending too', params: { petId: { $var: 'pending#/id' } }, expect: { status: 200, fields: { '/status': 'pending' } } },
    ],
  },
  {
    id: 'workflow-category-in-use',
    description: 'A category that still has pets cannot be deleted; once they are gone it can (rule 5).',
    subject: 'deleteCategory',
    steps: [
      category,
      pet,
      { operationId: 'deleteCategory', note: 'delete the category of a pet', params: { categoryId }, expect: { status: 409 } },
      { operationId: 'getCategory', note: 'it is still there', params: { categoryId }, expect: { status: 200, fields: { '/id': categoryId } } },
      { operationId: 'deletePet', note: 'delete its pet', params: { petId }, expect: { status: 'success' } },
      { operationId: 'deleteCategory', note: 'now delete the category', params: { categoryId }, expect: { status: 'success' } },
    ],
  },
  {
    id: 'workflow-pet-open-order-blocks-delete',
    description: 'A pet with an open order cannot be deleted; once the order is cancelled it can (rule 5).',
    subject: 'deletePet',
    steps: [
      category,
      pet,
      placeOrder(1),
      { operationId: 'deletePet', note: 'delete a pet with an open order', params: { petId }, expect: { status: 409 } },
      readPet('it is still there'),
      { operationId: 'cancelOrder', note: 'cancel the order', params: { orderId }, expect: { status: 'success' } },
      { operationId: 'deletePet', note: 'now delete the pet', params: { petId }, expect: { status: 'success' } },
    ],
  },
];
