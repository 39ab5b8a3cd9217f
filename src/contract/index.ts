import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { resolve } from 'node:path';
import { loadDocument, type LoadedDocument } from './load.js';
import { buildContract, type BuildOptions, type Contract } from './model.js';

export * from './model.js';
export { deriveOperationId } from './operation-ids.js';
export { documentErrorSchema } from './error-schema.js';
export { WarningList } from './warnings.js';
export { loadDocument, type LoadedDocument, type LoadOptions, type OasVersion } from './load.js';

/**
 * Loads, validates, dereferences and indexes a document: the one way any part
 * of the kit gets a Contract. Our own openapi.yaml is strict by default; any
 * other document is taken as valid OpenAPI (see Contract.strict).
 */
export async function loadContract(path: string, options: LoadContractOptions = {}): Promise<Contract> {
  const strict = options.strict ?? resolve(path) === DEFAULT_SPEC_PATH;
  const loaded = await loadDocument(path, { thorough: strict, ...(options.allowRefs ? { allowRefs: options.allowRefs } : {}), ...(options.strictSchema ? { strictSchema: true } : {}) });
  if (!strict) return buildContract(loaded, { strict });
  // A strict contract never changes once built (a schema Ajv refuses stops the load instead of adding a warning
  // later), so a document loaded again from the same bytes (load-cache.ts) gets the same Contract, and with it the
  // validators compiled for it (compileContract's memo): a mock and a runner in one process compile once.
  let contract = strictContracts.get(loaded);
  if (!contract) strictContracts.set(loaded, (contract = buildContract(loaded, { strict })));
  return contract;
}

const strictContracts = new WeakMap<LoadedDocument, Contract>();

export interface LoadContractOptions extends BuildOptions {
  /** `--allow-refs`: where $refs may read besides the document's folder and the working directory (see LoadOptions). */
  readonly allowRefs?: readonly string[];
  /** `--strict`: refuse a document that breaks the OpenAPI schema, even where it does not change what it describes (LoadOptions). */
  readonly strictSchema?: boolean;
}
