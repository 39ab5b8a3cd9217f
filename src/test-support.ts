/**
 * Shared by the tests of src/: the bundled contract, loaded and compiled once
 * per test file (loading takes ~0.5 s; compiling per test would hide the cost
 * the architecture forbids at run time anyway).
 */
import type { Contract } from './contract/index.js';
import { loadContract } from './contract/index.js';
import { DEFAULT_SPEC_PATH } from './package-info.js';
import { sharedCompiledContract, type CompiledContract } from './schema/index.js';

let cached: Promise<{ contract: Contract; compiled: CompiledContract }> | undefined;

export function bundledContract(): Promise<{ contract: Contract; compiled: CompiledContract }> {
  cached ??= loadContract(DEFAULT_SPEC_PATH).then((contract) => ({ contract, compiled: sharedCompiledContract(contract) }));
  return cached;
}
