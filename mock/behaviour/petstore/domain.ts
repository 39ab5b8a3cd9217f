/**
 * The Pet Store's data as JSON (its fixtures, its generator, an export). Shapes come from the generated types, never
 * restated by hand.
 */
import type { Category, Order, Pet } from '../../../src/types.js';

/** The id each collection issues next: ids are sequential and never issued twice. */
export interface NextIds {
  readonly pet: number;
  readonly category: number;
  readonly order: number;
}

/** The Pet Store's data as plain JSON: what its fixtures and its generator (seed.ts) hold, and what an export carries. */
export interface StoreSnapshot {
  readonly categories: readonly Readonly<Category>[];
  readonly pets: readonly Readonly<Pet>[];
  readonly orders: readonly Readonly<Order>[];
  /** Stock per pet; an entry's status is always derived from its pet (state rule 6), so it is not stored. */
  readonly inventory: readonly { readonly petId: number; readonly quantity: number }[];
  /**
   * The counters an export carries (GET /__mock/state): a store built from the snapshot issues no id below them,
   * so an id deleted before the export is not issued again after the import. Absent in fixtures and older exports.
   */
  readonly nextIds?: NextIds;
}
