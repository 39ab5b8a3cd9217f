/**
 * The steps the scenarios share: records of their own (a category, a pet in
 * it), reading a pet through its successor (listPets?id=) and its stock, and
 * placing an order, each saved under a name later steps refer to.
 */
import type { Step, Value } from './dsl.js';

export const categoryId = { $var: 'category#/id' } as const;
export const petId = { $var: 'pet#/id' } as const;
export const orderId = { $var: 'order#/id' } as const;

export const category: Step = { operationId: 'createCategory', note: 'a category of its own', body: { $valid: true }, expect: { status: 'success' }, save: 'category' };
export const pet: Step = {
  operationId: 'createPet',
  note: 'a pet of its own',
  body: { $valid: true, with: { categoryId }, without: ['status'] },
  expect: { status: 'success' },
  save: 'pet',
};

/** Reads the pet through listPets filtered by its id (the successor of the deprecated getPet) and asserts its fields. */
export function readPet(note: string, fields: Readonly<Record<string, Value>> = {}): Step {
  return { operationId: 'listPets', note, params: { id: petId }, expect: { status: 200, item: { field: 'id', equals: petId, fields } } };
}

export function readStock(note: string, save: string, fields: Readonly<Record<string, Value>> = {}): Step {
  return { operationId: 'getInventoryItem', note, params: { petId }, expect: { status: 200, fields }, save };
}

export function setStock(quantity: number): Step {
  return { operationId: 'updateInventory', note: `stock ${quantity}`, params: { petId }, body: { quantity }, expect: { status: 200 } };
}

export function placeOrder(quantity: number): Step {
  return {
    operationId: 'placeOrder',
    note: `order ${quantity} of the pet`,
    body: { $valid: true, with: { petId, quantity }, without: ['complete'] },
    expect: { status: 'success' },
    save: 'order',
  };
}

