/**
 * Which engine serves a document: the Pet Store's handlers when the document defines exactly their operations
 * (our openapi.yaml, or an edited copy of it), the generic engine for any other (issue 22).
 */
import type { Contract } from '../../src/contract/index.js';
import { HANDLERS } from '../handlers/index.js';

export function servesPetStore(contract: Contract): boolean {
  const ids = Object.keys(HANDLERS);
  return ids.length === contract.operations.length && ids.every((id) => contract.operationsById.has(id));
}
