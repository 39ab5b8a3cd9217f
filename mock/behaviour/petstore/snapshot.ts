/**
 * A store snapshot's shape (composed from the document's schemas) and its validation: records against the
 * schemas, then ids, references and the state rules. Pure, with no Node built-in, because the MSW mock in a
 * browser imports it through the state import (issue 23, point 3); seed.ts reads fixture folders with it.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { StoreSnapshot } from './domain.js';
import { checkConsistency, type ConsistencyLevel } from './store-consistency.js';
import { KitError } from '../../../src/kit-error.js';
import type { CompiledContract, Diagnostic } from '../../../src/schema/index.js';

/** The collections of a snapshot, each read from `<name>.json` in a fixtures folder. */
export const COLLECTIONS = ['categories', 'pets', 'orders', 'inventory'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/**
 * Every problem of a snapshot: each record against the document's schemas
 * (Category, Pet, Order, and InventoryItem without its derived `status`),
 * then ids, references and the state rules. Pointers are rooted at the
 * snapshot (`/pets/3/categoryId`). `level` is `fixtures` by default (seed
 * data must look like a history the state rules produced); pass `reachable`
 * for a state exported from a running mock, which replacePet and deletePet
 * can legitimately take past those stricter rules (see store-consistency.ts).
 */
export function validateSnapshot(snapshot: unknown, compiled: CompiledContract, level: ConsistencyLevel = 'fixtures'): Diagnostic[] {
  const diagnostics = compiled.validate(snapshotSchema(compiled), snapshot, 'response');
  if (diagnostics.length > 0 || !hasSnapshotShape(snapshot)) return diagnostics;
  return checkConsistency(snapshot, level);
}

/** After the schema check passed: narrows without a cast (the schema has checked every record). */
export function hasSnapshotShape(value: unknown): value is StoreSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  return COLLECTIONS.every((name) => Array.isArray((value as Record<string, unknown>)[name]));
}

/** One schema object per compiled contract: Ajv caches by object, so a second validation does not compile again. */
const snapshotSchemas = new WeakMap<CompiledContract, OpenAPIV3.SchemaObject>();

/**
 * The snapshot's own shape, composed from the document's schemas (never
 * restated): an object of four arrays of stored records. Closed at the top,
 * so a misspelt collection is caught; the records stay as open as the document has them.
 */
export function snapshotSchema(compiled: CompiledContract): OpenAPIV3.SchemaObject {
  const cached = snapshotSchemas.get(compiled);
  if (cached) return cached;
  const schemas = compiled.contract.document.components?.schemas ?? {};
  const named = (name: string): OpenAPIV3.SchemaObject => {
    const schema = schemas[name];
    if (schema === undefined || '$ref' in schema) {
      throw new KitError('SPEC_INVALID', `${compiled.contract.file} at /components/schemas/${name}: the mock's data needs this schema, and the document has none.`, {
        file: compiled.contract.file,
        pointer: `/components/schemas/${name}`,
        reason: 'missing schema',
      });
    }
    return schema;
  };
  const item = named('InventoryItem');
  // A stored inventory entry is an InventoryItem without `status`: rule 6 derives it from the pet, so it is not stored.
  const { status: _derived, ...stored } = item.properties ?? {};
  const inventoryEntry: OpenAPIV3.SchemaObject = {
    ...item,
    properties: stored,
    required: (item.required ?? []).filter((name) => name !== 'status'),
  };
  const arrayOf = (items: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject => ({ type: 'array', items });
  const schema: OpenAPIV3.SchemaObject = {
    type: 'object',
    additionalProperties: false,
    required: [...COLLECTIONS],
    properties: {
      categories: arrayOf(named('Category')),
      pets: arrayOf(named('Pet')),
      orders: arrayOf(named('Order')),
      inventory: arrayOf(inventoryEntry),
    },
  };
  snapshotSchemas.set(compiled, schema);
  return schema;
}
