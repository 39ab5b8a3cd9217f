import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { resolve } from 'node:path';
import { loadDocument } from './load.js';
import { buildContract, type BuildOptions, type Contract } from './model.js';

export * from './model.js';
export { deriveOperationId } from './operation-ids.js';
export { WarningList } from './warnings.js';
export { loadDocument, type LoadedDocument, type LoadOptions, type OasVersion } from './load.js';

/**
 * Loads, validates, dereferences and indexes a document: the one way any part
 * of the kit gets a Contract. Our own openapi.yaml is strict by default; any
 * other document is taken as valid OpenAPI (see Contract.strict).
 */
export async function loadContract(path: string, options: LoadContractOptions = {}): Promise<Contract> {
  const strict = options.strict ?? resolve(path) === DEFAULT_SPEC_PATH;
  return buildContract(await loadDocument(path, { thorough: strict, ...(options.allowRefs ? { allowRefs: options.allowRefs } : {}) }), { strict });
}

export interface LoadContractOptions extends BuildOptions {
  /** `--allow-refs`: where $refs may read besides the document's folder and the working directory (see LoadOptions). */
  readonly allowRefs?: readonly string[];
}
