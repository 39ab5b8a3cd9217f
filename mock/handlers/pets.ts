/** Pets: listPets, createPet, getPet (deprecated; its headers and sunset are the core's), replacePet, deletePet. */
import type { NewPet } from '../../src/types.js';
import { collection, created, integer, integerList, noContent, ok, optionalInteger, optionalStatus, page, string } from './read.js';
import type { Handler } from './types.js';

/** The body as the store takes it, field by field: unknown fields are dropped, never copied. */
function newPet(body: unknown): NewPet {
  const status = optionalStatus(body, 'status');
  return { name: string(body, 'name'), categoryId: integer(body, 'categoryId'), ...(status !== undefined ? { status } : {}) };
}

export const petHandlers = {
  listPets: ({ store, params: { query } }) =>
    collection(store.listPets({ status: optionalStatus(query, 'status'), categoryId: optionalInteger(query, 'categoryId'), ids: integerList(query, 'id') }, page(query))),
  createPet: ({ store, body, location }) => created(store.createPet(newPet(body)), location),
  getPet: ({ store, params: { path } }) => ok(store.getPet(integer(path, 'petId'))),
  replacePet: ({ store, params: { path }, body }) => ok(store.replacePet(integer(path, 'petId'), newPet(body))),
  deletePet: ({ store, params: { path } }) => noContent(store.deletePet(integer(path, 'petId'))),
} satisfies Record<string, Handler>;
