/**
 * The closed set of error codes the API answers with, as a TypeScript union so
 * the mock cannot invent one. The document's `x-error-codes` is the source of
 * truth (each code's status and meaning live there); a test fails when this
 * list and the document differ.
 */
export const API_ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'PET_NOT_FOUND',
  'CATEGORY_NOT_FOUND',
  'ORDER_NOT_FOUND',
  'INVENTORY_ITEM_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'CATEGORY_NAME_TAKEN',
  'CATEGORY_IN_USE',
  'PET_HAS_OPEN_ORDER',
  'PET_NOT_AVAILABLE',
  'INSUFFICIENT_STOCK',
  'ORDER_ALREADY_COMPLETE',
  'REQUEST_TIMEOUT',
  'OPERATION_SUNSET',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNKNOWN_CATEGORY',
  'UNKNOWN_PET',
  'INTERNAL_ERROR',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
