/**
 * Date-times a server keeps for itself, by the names APIs give them: `createdAt`, `updated_at`, `modifiedOn`,
 * `lastUpdated`, ... The mock of a document from elsewhere fills them (issue 22, point 1: "date-times such as
 * createdAt/updatedAt are filled by the mock"), stamping the update times on every change; the runner must then
 * not hold a server to an update time it was sent or read before a change, since a correct server moves it.
 */
const SERVER_TIMES = /^(created|updated|modified|inserted|last_?modified|last_?updated)(_?at|_?on|_?date|_?time)?$/i;
const UPDATE_TIMES = /^(updated|modified|last_?modified|last_?updated)/i;

/** A `date-time` field a server fills itself (created or updated). */
export function isServerTime(name: string, schema: { readonly format?: string }): boolean {
  return schema.format === 'date-time' && SERVER_TIMES.test(name);
}

/** A field named as a creation time (`createdAt`, `inserted_on`), whatever its type: a replace keeps it. */
export function isCreationTimeName(name: string): boolean {
  return SERVER_TIMES.test(name) && !UPDATE_TIMES.test(name);
}

/** A `date-time` field a server moves on every change of the record (`updatedAt`, `last_modified`). */
export function isUpdateTime(name: string, schema: { readonly format?: string }): boolean {
  return isServerTime(name, schema) && UPDATE_TIMES.test(name);
}
