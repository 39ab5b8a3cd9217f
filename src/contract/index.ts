import { loadDocument } from './load.js';
import { buildContract, type BuildOptions, type Contract } from './model.js';

export * from './model.js';
export { deriveOperationId } from './operation-ids.js';
export { WarningList } from './warnings.js';
export { loadDocument, type LoadedDocument } from './load.js';

/**
 * Loads, validates, dereferences and indexes a document: the one way any part
 * of the kit gets a Contract. Our own openapi.yaml is strict by default; any
 * other document is taken as valid OpenAPI (see Contract.strict).
 */
export async function loadContract(path: string, options: BuildOptions = {}): Promise<Contract> {
  return buildContract(await loadDocument(path), options);
}
