/** Orders: listOrders, placeOrder, getOrder, updateOrder, cancelOrder. The state rules live in the store. */
import type { NewOrder, OrderUpdate } from '../../src/types.js';
import { collection, created, integer, noContent, ok, optionalBoolean, optionalInteger, optionalString, page } from './read.js';
import type { Handler } from './types.js';

function newOrder(body: unknown): NewOrder {
  const shipDate = optionalString(body, 'shipDate');
  const complete = optionalBoolean(body, 'complete');
  return {
    petId: integer(body, 'petId'),
    quantity: integer(body, 'quantity'),
    ...(shipDate !== undefined ? { shipDate } : {}),
    ...(complete !== undefined ? { complete } : {}),
  };
}

function orderUpdate(body: unknown): OrderUpdate {
  const shipDate = optionalString(body, 'shipDate');
  const complete = optionalBoolean(body, 'complete');
  return { ...(shipDate !== undefined ? { shipDate } : {}), ...(complete !== undefined ? { complete } : {}) };
}

export const orderHandlers = {
  listOrders: ({ store, params: { query } }) =>
    collection(store.listOrders({ petId: optionalInteger(query, 'petId'), complete: optionalBoolean(query, 'complete') }, page(query))),
  placeOrder: ({ store, body, location }) => created(store.placeOrder(newOrder(body)), location),
  getOrder: ({ store, params: { path } }) => ok(store.getOrder(integer(path, 'orderId'))),
  updateOrder: ({ store, params: { path }, body }) => ok(store.updateOrder(integer(path, 'orderId'), orderUpdate(body))),
  cancelOrder: ({ store, params: { path } }) => noContent(store.cancelOrder(integer(path, 'orderId'))),
} satisfies Record<string, Handler>;
