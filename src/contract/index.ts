import { loadDocument } from './load.js';
import { buildContract, type Contract } from './model.js';

export * from './model.js';
export { loadDocument, type LoadedDocument } from './load.js';

/** Loads, validates, dereferences and indexes a document: the one way any part of the kit gets a Contract. */
export async function loadContract(path: string): Promise<Contract> {
  return buildContract(await loadDocument(path));
}
