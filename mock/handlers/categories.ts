/** Categories: listCategories, createCategory, getCategory, replaceCategory, deleteCategory. */
import type { NewCategory } from '../../src/types.js';
import { collection, created, integer, noContent, ok, optionalString, page, string } from './read.js';
import type { Handler } from './types.js';

function newCategory(body: unknown): NewCategory {
  const description = optionalString(body, 'description');
  return { name: string(body, 'name'), ...(description !== undefined ? { description } : {}) };
}

export const categoryHandlers = {
  listCategories: ({ store, params: { query } }) => collection(store.listCategories(page(query))),
  createCategory: ({ store, body, location }) => created(store.createCategory(newCategory(body)), location),
  getCategory: ({ store, params: { path } }) => ok(store.getCategory(integer(path, 'categoryId'))),
  replaceCategory: ({ store, params: { path }, body }) => ok(store.replaceCategory(integer(path, 'categoryId'), newCategory(body))),
  deleteCategory: ({ store, params: { path } }) => noContent(store.deleteCategory(integer(path, 'categoryId'))),
} satisfies Record<string, Handler>;
