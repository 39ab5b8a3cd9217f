/**
 * Every filter and paging parameter of every collection (contract.md,
 * "Details": X-Total-Count is the number of records matching the filters,
 * before limit and offset), written as data like the state rules. Each
 * scenario makes records of its own and narrows the lists to them where the
 * collection can be narrowed (a category of its own for pets, pets of its own
 * for orders); the inventory and the categories cannot be, so their scenarios
 * compare counts before and after and run alone.
 *
 * One defect, one owner: a filter that does not hold on the run's own
 * records is list-contains-created's, a count under a plain narrowing
 * total-count's. Those steps carry `owner` and skip the scenario when they
 * fail; what is left to these scenarios is what no other check sees: counts
 * under the other filters, repeated ids combined with filters, the complete
 * orders a `complete=true` filter lists, and the inventory's and categories'
 * filters, pages and counts.
 */
import type { Scenario, Step, Value } from './dsl.js';
import { category, categoryId, pet } from './steps.js';

const id = (name: string): Value => ({ $var: `${name}#/id` });

function petWith(save: string, status: string): Step {
  return { operationId: 'createPet', note: `a ${status} pet of its own`, body: { $valid: true, with: { categoryId, status } }, expect: { status: 'success' }, save };
}

function soldPet(save: string): Step {
  return petWith(save, 'sold');
}

export const COLLECTIONS: readonly Scenario[] = [
  {
    id: 'collection-pets-filters',
    description: 'listPets: status, categoryId and repeated id filters combine, page with limit and offset, and X-Total-Count counts the matches before paging.',
    subject: 'listPets',
    steps: [
      category,
      petWith('a', 'pending'),
      petWith('b', 'pending'),
      petWith('c', 'available'),
      { operationId: 'listPets', note: 'the pets of the category', params: { categoryId }, expect: { status: 'success', only: { field: 'id', equals: [id('a'), id('b'), id('c')] } }, owner: 'list-contains-created' },
      { operationId: 'listPets', note: 'their count', params: { categoryId, limit: 1 }, expect: { status: 'success', count: 3 }, owner: 'total-count' },
      { operationId: 'listPets', note: 'the pending ones', params: { categoryId, status: 'pending' }, expect: { status: 'success', only: { field: 'id', equals: [id('a'), id('b')] }, every: { '/status': 'pending' } }, owner: 'list-contains-created' },
      { operationId: 'listPets', note: 'the first page of the pending ones counts both', params: { categoryId, status: 'pending', limit: 1 }, expect: { status: 'success', length: 1, count: 2 } },
      { operationId: 'listPets', note: 'the second page of the pending ones', params: { categoryId, status: 'pending', limit: 1, offset: 1 }, expect: { status: 'success', length: 1, count: 2, every: { '/status': 'pending' } } },
      { operationId: 'listPets', note: 'two ids, one of them available', params: { id: [id('a'), id('c')], status: 'available' }, expect: { status: 'success', only: { field: 'id', equals: [id('c')] }, count: 1 } },
      { operationId: 'listPets', note: 'three ids, the last page of two', params: { id: [id('a'), id('b'), id('c')], limit: 2, offset: 2 }, expect: { status: 'success', length: 1, count: 3 } },
      { operationId: 'listPets', note: 'an offset past the end', params: { categoryId, status: 'pending', offset: 1000 }, expect: { status: 'success', length: 0, count: 2 } },
    ],
  },
  {
    id: 'collection-orders-filters',
    description: 'listOrders: petId and complete filters combine, page, and X-Total-Count counts the matches before paging; complete=true lists complete orders.',
    subject: 'listOrders',
    steps: [
      category,
      pet,
      { ...pet, note: 'a second pet', save: 'second' },
      { operationId: 'placeOrder', note: 'an open order for the pet', body: { $valid: true, with: { petId: id('pet'), quantity: 1 }, without: ['complete'] }, expect: { status: 'success' }, save: 'open' },
      { operationId: 'placeOrder', note: 'a complete order for the second pet', body: { $valid: true, with: { petId: id('second'), quantity: 1, complete: true } }, expect: { status: 'success' }, save: 'done' },
      { operationId: 'listOrders', note: 'the open order is not complete', params: { petId: id('pet'), complete: true }, expect: { status: 'success', length: 0 }, owner: 'list-contains-created' },
      { operationId: 'listOrders', note: 'the open orders of the pet', params: { petId: id('pet'), complete: false, limit: 1 }, expect: { status: 'success', only: { field: 'id', equals: [id('open')] }, count: 1 } },
      { operationId: 'listOrders', note: 'the complete orders of the second pet', params: { petId: id('second'), complete: true }, expect: { status: 'success', only: { field: 'id', equals: [id('done')] }, count: 1, every: { '/complete': true } } },
      { operationId: 'listOrders', note: 'no open order of the second pet', params: { petId: id('second'), complete: false }, expect: { status: 'success', length: 0, count: 0 } },
      { operationId: 'listOrders', note: 'complete orders, one page', params: { complete: true, limit: 2 }, expect: { status: 'success', every: { '/complete': true } } },
      { operationId: 'listOrders', note: 'an offset past the end', params: { petId: id('second'), complete: true, offset: 1000 }, expect: { status: 'success', length: 0 } },
      { operationId: 'listOrders', note: 'still counts the match', params: { petId: id('second'), offset: 1000 }, expect: { status: 'success', count: 1 }, owner: 'total-count' },
    ],
  },
  {
    id: 'collection-inventory-filters',
    description: 'listInventory: the status filter holds, pages with limit and offset, and X-Total-Count counts the matches before paging.',
    subject: 'listInventory',
    exclusive: true,
    steps: [
      { operationId: 'listInventory', note: 'the sold entries before', params: { status: 'sold', limit: 1 }, expect: { status: 'success' }, save: 'before' },
      category,
      soldPet('s1'),
      soldPet('s2'),
      {
        operationId: 'listInventory',
        note: 'two more sold entries, counted before paging',
        params: { status: 'sold', limit: 1 },
        expect: { status: 'success', length: 1, count: { $add: [{ $count: 'before' }, 2] }, every: { '/status': 'sold' } },
        save: 'after',
      },
      { operationId: 'listInventory', note: 'a page of two', params: { status: 'sold', limit: 2 }, expect: { status: 'success', length: 2, every: { '/status': 'sold' } }, save: 'page' },
      {
        operationId: 'listInventory',
        note: 'offset 1 starts at the second entry of that page',
        params: { status: 'sold', limit: 1, offset: 1 },
        expect: { status: 'success', length: 1, count: { $count: 'after' }, fields: { '/0/petId': { $var: 'page#/1/petId' } } },
      },
      { operationId: 'listInventory', note: 'an offset past the end', params: { status: 'sold', offset: { $add: [{ $count: 'after' }, 5] } }, expect: { status: 'success', length: 0, count: { $count: 'after' } } },
      { operationId: 'listInventory', note: 'the pending entries', params: { status: 'pending', limit: 20 }, expect: { status: 'success', every: { '/status': 'pending' } } },
      { operationId: 'listInventory', note: 'the available entries', params: { status: 'available', limit: 20 }, expect: { status: 'success', every: { '/status': 'available' } } },
    ],
  },
  {
    id: 'collection-categories-paging',
    description: 'listCategories: limit and offset page it, and X-Total-Count counts every category whatever the page, past the end too.',
    subject: 'listCategories',
    exclusive: true,
    steps: [
      { operationId: 'listCategories', note: 'the count before', params: { limit: 1 }, expect: { status: 'success' }, save: 'before' },
      category,
      { ...category, note: 'a second category', save: 'second' },
      // Whether the created categories are counted at all is list-contains-created's (a list hiding them hides them from the count too).
      { operationId: 'listCategories', note: 'two more, counted', params: { limit: 1 }, expect: { status: 'success', length: 1, count: { $add: [{ $count: 'before' }, 2] } }, save: 'after', owner: 'list-contains-created' },
      { operationId: 'listCategories', note: 'a page of two', params: { limit: 2 }, expect: { status: 'success', length: 2 }, save: 'page' },
      {
        operationId: 'listCategories',
        note: 'offset 1 starts at the second category of that page',
        params: { limit: 1, offset: 1 },
        expect: { status: 'success', length: 1, count: { $count: 'after' }, fields: { '/0/id': { $var: 'page#/1/id' } } },
      },
      { operationId: 'listCategories', note: 'an offset past the end', params: { offset: { $add: [{ $count: 'after' }, 5] } }, expect: { status: 'success', length: 0, count: { $count: 'after' } } },
    ],
  },
];
