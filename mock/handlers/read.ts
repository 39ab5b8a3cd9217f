/**
 * Typed reads of validated input. The validators (or, with --validation
 * warn|off, the relaxed guard) have already checked every value against the
 * document; these reads only narrow `unknown` to the TypeScript type, without
 * a cast, and read own properties by name, so nothing a client adds (an
 * unknown field, `__proto__`) is ever copied. A failed read means the core let
 * through what it should not: it is a bug, answered as a 500.
 */
import type { Page, Result } from '../domain.js';
import type { PetStatus } from '../../src/types.js';
import type { HandlerResult } from './types.js';

export class UncheckedInputError extends Error {
  override readonly name = 'UncheckedInputError';
}

type Values = Readonly<Record<string, unknown>>;

function own(values: unknown, name: string): unknown {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new UncheckedInputError(`expected an object holding ${name}`);
  return Object.hasOwn(values, name) ? (values as Values)[name] : undefined;
}

export function integer(values: unknown, name: string): number {
  const value = own(values, name);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new UncheckedInputError(`${name} is not an integer`);
  return value;
}

export function optionalInteger(values: unknown, name: string): number | undefined {
  return own(values, name) === undefined ? undefined : integer(values, name);
}

export function integerList(values: unknown, name: string): number[] | undefined {
  const value = own(values, name);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new UncheckedInputError(`${name} is not a list`);
  return value.map((item: unknown) => {
    if (typeof item !== 'number' || !Number.isInteger(item)) throw new UncheckedInputError(`${name} holds a non-integer`);
    return item;
  });
}

export function string(values: unknown, name: string): string {
  const value = own(values, name);
  if (typeof value !== 'string') throw new UncheckedInputError(`${name} is not a string`);
  return value;
}

export function optionalString(values: unknown, name: string): string | undefined {
  return own(values, name) === undefined ? undefined : string(values, name);
}

export function optionalBoolean(values: unknown, name: string): boolean | undefined {
  const value = own(values, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new UncheckedInputError(`${name} is not a boolean`);
  return value;
}

/** A PetStatus: the validators checked it against the document's enum; here only its JavaScript type is narrowed. */
export function optionalStatus(values: unknown, name: string): PetStatus | undefined {
  return optionalString(values, name) as PetStatus | undefined;
}

/** `limit` and `offset`, defaults applied by the validators from the document. */
export function page(query: Values): Page {
  return { limit: integer(query, 'limit'), offset: integer(query, 'offset') };
}

// ---- results ----

export function ok<T>(result: Result<T>, status = 200): HandlerResult {
  return result.ok ? { status, body: result.value } : { error: result.error };
}

export function noContent(result: Result<void>): HandlerResult {
  return result.ok ? { status: 204 } : { error: result.error };
}

/** 201 with `Location` (every 201 of the document declares it). */
export function created<T>(result: Result<T>, location: (body: unknown) => string | undefined): HandlerResult {
  if (!result.ok) return { error: result.error };
  const url = location(result.value);
  return { status: 201, body: result.value, headers: url === undefined ? {} : { location: url } };
}

/** A page and `X-Total-Count`, the number of matches before paging (contract.md, "Details"). */
export function collection<T>(pageOf: { readonly items: readonly T[]; readonly total: number }): HandlerResult {
  return { status: 200, body: pageOf.items, headers: { 'x-total-count': String(pageOf.total) } };
}
