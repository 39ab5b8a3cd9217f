/**
 * Shorthand names for the types generated from openapi.yaml (src/generated/,
 * written by `npm run types`; a test fails when it is stale). Nothing here is
 * written by hand: every shape comes from the document.
 */
import type { components, operations } from './generated/openapi.js';

export type Schemas = components['schemas'];
export type Operations = operations;
export type OperationId = keyof operations;

export type PetStatus = Schemas['PetStatus'];
export type NewPet = Schemas['NewPet'];
export type Pet = Schemas['Pet'];
export type NewCategory = Schemas['NewCategory'];
export type Category = Schemas['Category'];
export type Order = Schemas['Order'];
export type NewOrder = Schemas['NewOrder'];
export type OrderUpdate = Schemas['OrderUpdate'];
export type InventoryItem = Schemas['InventoryItem'];
export type InventoryUpdate = Schemas['InventoryUpdate'];
export type ApiError = Schemas['Error'];
export type ErrorDetail = Schemas['ErrorDetail'];
