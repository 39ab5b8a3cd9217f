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
import { CASE_INSENSITIVE } from '../checks/accepts-valid-bodies.js';
import type { Scenario } from './dsl.js';
import { category, categoryId, orderId, pet, petId, placeOrder, readPet, readStock, setStock } from './steps.js';

export const WORKFLOWS: readonly Scenario[] = [
  {
    id: 'workflow-order-reserves-stock',
    description: 'Placing an order reserves its quantity from the inventory and moves the pet to pending, an order placed complete too; a second order for the pet is refused, also after a replace marks the pet available (rule 2).',
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
      // The same rule through another path: an order placed already complete takes its quantity too.
      { ...pet, note: 'a second pet', save: 'second' },
      { operationId: 'updateInventory', note: 'stock 3 for it', params: { petId: { $var: 'second#/id' } }, body: { quantity: 3 }, expect: { status: 200 } },
      { operationId: 'getInventoryItem', note: 'its stock before', params: { petId: { $var: 'second#/id' } }, expect: { status: 200 }, save: 'secondBefore' },
      {
        operationId: 'placeOrder',
        note: 'order 2 of it with complete: true, placed and fulfilled at once',
        body: { $valid: true, with: { petId: { $var: 'second#/id' }, quantity: 2, complete: true } },
        expect: { status: 'success' },
      },
      {
        operationId: 'getInventoryItem',
        note: 'an order placed complete reserved its quantity too',
        params: { petId: { $var: 'second#/id' } },
        expect: { status: 200, fields: { '/quantity': { $add: [{ $var: 'secondBefore#/quantity' }, -2] } } },
      },
      // ...and one open order per pet holds whatever else changed the pet: a replace that marks it available again.
      {
        operationId: 'replacePet',
        note: 'mark the pet with the open order available (a replace, not an order)',
        params: { petId },
        body: { $valid: true, with: { categoryId, status: 'available' } },
        expect: { status: 'success', endsOn: [409] },
      },
      { operationId: 'placeOrder', note: 'another order for the pet that still has an open order', body: { $valid: true, with: { petId, quantity: 1 }, without: ['complete'] }, expect: { status: 409 } },
    ],
  },
  {
    id: 'workflow-orders-at-once',
    description: 'Orders for one pet sent at once: one is placed, the others are refused with 409, and the stock gives up only what that one took (rule 2, whatever order the server takes them in).',
    subject: 'placeOrder',
    // Alone, so the orders have every connection of --concurrency to themselves and reach the server together.
    exclusive: true,
    steps: [
      category,
      pet,
      setStock(1),
      readStock('the stock before the orders', 'before'),
      {
        operationId: 'placeOrder',
        note: 'five orders of 1 for the pet, sent at once',
        body: { $valid: true, with: { petId, quantity: 1 }, without: ['complete'] },
        atOnce: { times: 5, atMost: 1, othersAnswer: 409 },
        expect: { status: 'success' },
        save: 'order',
      },
      readStock('one order took its quantity, no more', 'after', { '/quantity': { $add: [{ $var: 'before#/quantity' }, -1] } }),
    ],
  },
  {
    id: 'workflow-order-complete-sells',
    description: 'Completing an order sells the pet and keeps its quantity taken; completing it again or moving its ship date is no reopening, but a complete order can be neither reopened nor cancelled (rules 3, 4).',
    subject: 'updateOrder',
    steps: [
      category,
      pet,
      setStock(3),
      placeOrder(1),
      readStock('the stock before the completion', 'beforeCompletion'),
      { operationId: 'updateOrder', note: 'complete it', params: { orderId }, body: { complete: true }, expect: { status: 200, fields: { '/complete': true } } },
      readPet('a complete order sells the pet', { '/status': 'sold' }),
      // The quantity stays taken: only a cancel returns it (rule 4), and a complete order cannot be cancelled.
      readStock('the completion returns nothing to the stock', 'afterCompletion', { '/quantity': { $var: 'beforeCompletion#/quantity' } }),
      // Completing a complete order again reopens nothing: only `complete: false` is the 409.
      { operationId: 'updateOrder', note: 'complete it again', params: { orderId }, body: { complete: true }, expect: { status: 200, fields: { '/complete': true } } },
      // ...and its ship date may still move (updateOrder: only a reopening is refused); what it reads back is patch-keeps-fields'.
      { operationId: 'updateOrder', note: 'move the ship date of the complete order', params: { orderId }, body: { shipDate: '2026-12-24T10:00:00Z' }, expect: { status: 200, fields: { '/complete': true } } },
      { operationId: 'updateOrder', note: 'reopen it', params: { orderId }, body: { complete: false }, expect: { status: 409 } },
      { operationId: 'cancelOrder', note: 'cancel it', params: { orderId }, expect: { status: 409 } },
      { ...pet, note: 'a second pet', save: 'second' },
      {
        operationId: 'placeOrder',
        note: 'order it with complete: true, placed and fulfilled at once',
        body: { $valid: true, with: { petId: { $var: 'second#/id' }, quantity: 1, complete: true } },
        expect: { status: 'success', fields: { '/complete': true } },
      },
      {
        operationId: 'listPets',
        note: 'an order placed complete sells the pet at once',
        params: { id: { $var: 'second#/id' } },
        expect: { status: 200, item: { field: 'id', equals: { $var: 'second#/id' }, fields: { '/status': 'sold' } } },
      },
    ],
  },
  {
    id: 'workflow-order-cancel-restores',
    description: 'Cancelling an open order returns its quantity to the inventory and the pet to available, where it can be ordered again (rule 4).',
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
      // A cancelled order is gone: its own read is delete-removes' to judge (cancelOrder is the DELETE placeOrder links to), the list's is this rule's.
      { operationId: 'getOrder', note: 'the cancelled order is gone', params: { orderId }, expect: { status: 404 }, owner: 'delete-removes' },
      { operationId: 'listOrders', note: 'the orders of the pet no longer list it', params: { petId }, expect: { status: 200, item: { field: 'id', equals: orderId, absent: true } } },
      // A cancelled order is no open order: the pet, available again with its stock back, can be ordered again.
      { operationId: 'placeOrder', note: 'order the pet again', body: { $valid: true, with: { petId, quantity: 1 }, without: ['complete'] }, expect: { status: 'success' }, save: 'again' },
      { operationId: 'cancelOrder', note: 'cancel that order too', params: { orderId: { $var: 'again#/id' } }, expect: { status: 'success' } },
    ],
  },
  {
    id: 'workflow-inventory-follows-pet',
    description: "A new pet is available with 1 in stock; an inventory entry's status is always its pet's, through a replace and through every transition an order makes, and a replace without status keeps it (rules 1, 6).",
    subject: 'replacePet',
    steps: [
      category,
      { ...pet, note: 'a new pet is available unless the body says otherwise', expect: { status: 'success', fields: { '/status': 'available' } } },
      readStock('a new pet gets 1 in stock, with its status', 'stock', { '/quantity': 1, '/status': 'available' }),
      { operationId: 'replacePet', note: 'mark it sold', params: { petId }, body: { $valid: true, with: { categoryId, status: 'sold' } }, expect: { status: 200, fields: { '/status': 'sold' } } },
      readStock('the entry follows', 'stock', { '/status': 'sold' }),
      // A restock changes the quantity only: the entry still shows its pet's status, whatever that is after it.
      setStock(4),
      readStock('the entry after a restock', 'restocked'),
      readPet('the pet after the restock: the status its entry shows', { '/status': { $var: 'restocked#/status' } }),
      { operationId: 'replacePet', note: 'rename it, status omitted', params: { petId }, body: { $valid: true, with: { categoryId }, without: ['status'] }, expect: { status: 200, fields: { '/status': 'sold' } } },
      readStock('still sold', 'stock', { '/status': 'sold' }),
      { operationId: 'replacePet', note: 'make it available', params: { petId }, body: { $valid: true, with: { categoryId, status: 'available' } }, expect: { status: 200, fields: { '/status': 'available' } } },
      readStock('the entry follows back', 'stock', { '/status': 'available' }),
      { operationId: 'createPet', note: 'a pet created pending', body: { $valid: true, with: { categoryId, status: 'pending' } }, expect: { status: 'success', fields: { '/status': 'pending' } }, save: 'pending' },
      { operationId: 'getInventoryItem', note: 'its entry is pending too, with 1 in stock like every new pet', params: { petId: { $var: 'pending#/id' } }, expect: { status: 200, fields: { '/status': 'pending', '/quantity': 1 } } },
      // The entry follows its pet through every transition an order makes, not only through a replace. What the pet's
      // status becomes is rules 2-4's to say: here only that the entry shows the same one.
      placeOrder(1),
      readStock('the entry after an order', 'ordered'),
      readPet('the pet after the order: the status its entry shows', { '/status': { $var: 'ordered#/status' } }),
      { operationId: 'updateOrder', note: 'complete the order', params: { orderId }, body: { complete: true }, expect: { status: 200 } },
      readStock('the entry after the order is completed', 'completed'),
      readPet('the pet after the completion: the status its entry shows', { '/status': { $var: 'completed#/status' } }),
      { ...pet, note: 'another pet', save: 'third' },
      { operationId: 'placeOrder', note: 'order the other pet', body: { $valid: true, with: { petId: { $var: 'third#/id' }, quantity: 1 }, without: ['complete'] }, expect: { status: 'success' }, save: 'thirdOrder' },
      { operationId: 'cancelOrder', note: 'cancel that order', params: { orderId: { $var: 'thirdOrder#/id' } }, expect: { status: 'success' } },
      { operationId: 'getInventoryItem', note: 'the entry after the order is cancelled', params: { petId: { $var: 'third#/id' } }, expect: { status: 200 }, save: 'cancelled' },
      {
        operationId: 'listPets',
        note: 'the pet after the cancel: the status its entry shows',
        params: { id: { $var: 'third#/id' } },
        expect: { status: 200, item: { field: 'id', equals: { $var: 'third#/id' }, fields: { '/status': { $var: 'cancelled#/status' } } } },
      },
    ],
  },
  {
    id: 'workflow-category-in-use',
    description: 'A category that still has pets cannot be deleted, whether they were created in it or moved into it by a replace; once they are gone (or moved away) it can (rule 5).',
    subject: 'deleteCategory',
    steps: [
      category,
      pet,
      { operationId: 'deleteCategory', note: 'delete the category of a pet', params: { categoryId }, expect: { status: 409 } },
      { operationId: 'getCategory', note: 'it is still there', params: { categoryId }, expect: { status: 200, fields: { '/id': categoryId } } },
      { operationId: 'deletePet', note: 'delete its pet', params: { petId }, expect: { status: 'success' } },
      { operationId: 'deleteCategory', note: 'now delete the category', params: { categoryId }, expect: { status: 'success' } },
      // "A category with pets": pets of any status, not only available ones (a server counting only orderable pets breaks it).
      { ...category, note: 'a second category', save: 'second' },
      { operationId: 'createPet', note: 'a sold pet in it', body: { $valid: true, with: { categoryId: { $var: 'second#/id' }, status: 'sold' } }, expect: { status: 'success' }, save: 'sold' },
      { operationId: 'createPet', note: 'a pending pet in it', body: { $valid: true, with: { categoryId: { $var: 'second#/id' }, status: 'pending' } }, expect: { status: 'success' }, save: 'pending' },
      { operationId: 'deleteCategory', note: 'delete the category of a sold and a pending pet', params: { categoryId: { $var: 'second#/id' } }, expect: { status: 409 } },
      { operationId: 'deletePet', note: 'delete the pending pet', params: { petId: { $var: 'pending#/id' } }, expect: { status: 'success' } },
      { operationId: 'deleteCategory', note: 'delete the category of a sold pet', params: { categoryId: { $var: 'second#/id' } }, expect: { status: 409 } },
      // Pets move between categories by a replace too: the category follows the pet, not where it was created.
      { ...category, note: 'a third category', save: 'third' },
      { ...category, note: 'a fourth category', save: 'fourth' },
      { operationId: 'createPet', note: 'a pet in the third', body: { $valid: true, with: { categoryId: { $var: 'third#/id' } }, without: ['status'] }, expect: { status: 'success' }, save: 'mover' },
      { operationId: 'replacePet', note: 'move it to the fourth', params: { petId: { $var: 'mover#/id' } }, body: { $valid: true, with: { categoryId: { $var: 'fourth#/id' } }, without: ['status'] }, expect: { status: 200 } },
      { operationId: 'deleteCategory', note: 'delete the category it moved into', params: { categoryId: { $var: 'fourth#/id' } }, expect: { status: 409 } },
      { operationId: 'deleteCategory', note: 'delete the category it left, now empty', params: { categoryId: { $var: 'third#/id' } }, expect: { status: 'success' } },
    ],
  },
  {
    id: 'workflow-pet-open-order-blocks-delete',
    description: 'A pet with an open order cannot be deleted; once the order is cancelled, or when its order is complete, it can (rule 5).',
    subject: 'deletePet',
    steps: [
      category,
      pet,
      placeOrder(1),
      { operationId: 'deletePet', note: 'delete a pet with an open order', params: { petId }, expect: { status: 409 } },
      readPet('it is still there'),
      { operationId: 'cancelOrder', note: 'cancel the order', params: { orderId }, expect: { status: 'success' } },
      { operationId: 'deletePet', note: 'now delete the pet', params: { petId }, expect: { status: 'success' } },
      // Deleting a pet removes its inventory entry (contract.md, Details); the inventory read is a link of createPet's 201, so delete-removes owns it.
      { operationId: 'getInventoryItem', note: "the deleted pet's inventory entry is gone", params: { petId }, expect: { status: 404 }, owner: 'delete-removes' },
      // Only an open order holds a pet: one whose order is complete (sold) can be deleted.
      { ...pet, note: 'a second pet', save: 'second' },
      { operationId: 'placeOrder', note: 'order it complete at once', body: { $valid: true, with: { petId: { $var: 'second#/id' }, quantity: 1, complete: true } }, expect: { status: 'success' } },
      { operationId: 'deletePet', note: 'delete the pet whose order is complete', params: { petId: { $var: 'second#/id' } }, expect: { status: 'success' } },
    ],
  },
  {
    id: 'workflow-order-whole-stock',
    description: 'An order may reserve the whole remaining stock: an order for exactly the stock succeeds (rule 2).',
    subject: 'placeOrder',
    steps: [
      category,
      pet,
      setStock(3),
      placeOrder(3),
      // What the order reserved is workflow-order-reserves-stock's rule; this one is that the whole stock may be ordered.
      { ...readStock('the whole stock is reserved', 'after', { '/quantity': 0 }), owner: 'workflow-order-reserves-stock' },
    ],
  },
  {
    id: 'workflow-order-refused',
    description: 'An order for more than the stock, or for a pet that is not available, is a 409 and reserves nothing, placed complete or not (rule 2).',
    subject: 'placeOrder',
    steps: [
      category,
      pet,
      setStock(2),
      { operationId: 'placeOrder', note: 'order 3 of a stock of 2', body: { $valid: true, with: { petId, quantity: 3 }, without: ['complete'] }, expect: { status: 409 } },
      // An order placed complete is placed too: the same stock rule holds for it.
      { operationId: 'placeOrder', note: 'order 3 of a stock of 2, placed complete', body: { $valid: true, with: { petId, quantity: 3, complete: true } }, expect: { status: 409 } },
      readStock('nothing was reserved', 'after', { '/quantity': 2 }),
      readPet('the pet is still available', { '/status': 'available' }),
      { operationId: 'createPet', note: 'a pet created pending', body: { $valid: true, with: { categoryId, status: 'pending' } }, expect: { status: 'success' }, save: 'pending' },
      { operationId: 'placeOrder', note: 'order the pending pet', body: { $valid: true, with: { petId: { $var: 'pending#/id' }, quantity: 1 }, without: ['complete'] }, expect: { status: 409 } },
      { operationId: 'createPet', note: 'a pet created sold', body: { $valid: true, with: { categoryId, status: 'sold' } }, expect: { status: 'success' }, save: 'sold' },
      { operationId: 'placeOrder', note: 'order the sold pet', body: { $valid: true, with: { petId: { $var: 'sold#/id' }, quantity: 1 }, without: ['complete'] }, expect: { status: 409 } },
      { operationId: 'placeOrder', note: 'order the sold pet, placed complete', body: { $valid: true, with: { petId: { $var: 'sold#/id' }, quantity: 1, complete: true } }, expect: { status: 409 } },
    ],
  },
  {
    id: 'workflow-category-name-taken',
    description: 'A category name belongs to one category: creating another, or renaming another, to a taken name is a 409 (in another case too, where the document says names compare case-insensitively; and when the creates come at once); a category may keep its own name, in another case too.',
    subject: 'createCategory',
    // Alone, so the creates sent at once have every connection of --concurrency to themselves.
    exclusive: true,
    steps: [
      category,
      { operationId: 'createCategory', note: 'a second category with the same name', body: { $valid: true, with: { name: { $var: 'category#/name' } } }, expect: { status: 409 } },
      {
        operationId: 'createCategory',
        note: 'a second category with the same name in another case, where the document says names compare case-insensitively',
        body: { $valid: true, with: { name: { $otherCase: { $var: 'category#/name' } } } },
        expect: { status: 409 },
        documented: CASE_INSENSITIVE,
      },
      { operationId: 'createCategory', note: 'another category', body: { $valid: true }, expect: { status: 'success' }, save: 'other' },
      {
        operationId: 'replaceCategory',
        note: 'rename the other category to the taken name',
        params: { categoryId: { $var: 'other#/id' } },
        body: { $valid: true, with: { name: { $var: 'category#/name' } } },
        expect: { status: 409 },
      },
      // Clients that click together: one name sent by several creates at once names one category (a server that
      // checks the name, awaits, then inserts lets them all through).
      {
        operationId: 'createCategory',
        note: 'four categories of one new name, sent at once',
        body: { $valid: true },
        atOnce: { times: 4, atMost: 1, othersAnswer: 409 },
        expect: { status: 'success' },
      },
      {
        operationId: 'replaceCategory',
        note: 'replace the category keeping its own name',
        params: { categoryId },
        body: { $valid: true, with: { name: { $var: 'category#/name' } } },
        expect: { status: 200, fields: { '/name': { $var: 'category#/name' } } },
      },
      // Its own name in another case is no other category's, whether names compare with case or without.
      {
        operationId: 'replaceCategory',
        note: 'replace the category with its own name in another case',
        params: { categoryId },
        body: { $valid: true, with: { name: { $otherCase: { $var: 'category#/name' } } } },
        expect: { status: 200, fields: { '/name': { $otherCase: { $var: 'category#/name' } } } },
      },
    ],
  },
];
