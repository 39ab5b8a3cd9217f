/**
 * `--fallback`: the operations a target does not have yet are answered by the kit's stateful mock (architecture:
 * "its fallback is the mock's engine"), in this process, with its data options (`--fixtures`): the Pet Store core
 * (mock/engine/app.ts) for a document it serves, the generic engine (mock/engine/) for any other, or for a document
 * shaped like the Pet Store that the Pet Store's handlers cannot serve (an error catalogue without their codes).
 * The mock listens on a loopback port of its own, and the proxy forwards to it as it forwards to the target: the
 * node:http adapter (mock/transport/server.ts `serve`) is the mock's one way onto a socket, reused as it is.
 * `--fallback-url URL` names a mock already running instead (`petstore-kit mock`, to share its data with others).
 *
 * Which operations the target lacks: those named with `--mock` (operationIds or tags), and, with the fallback on,
 * any documented operation the target answers with 501 (RFC 9110 §15.6.2: it does not support the function), or
 * with a 404 that is not the operation's own documented 404 (an unknown route's page, not "no such record").
 */
import type { Contract, Operation } from '../../src/contract/index.js';
import { isKitError, KitError } from '../../src/kit-error.js';
import { KIT_VERSION } from '../../src/package-info.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { createMockApp, type MockApp } from '../../mock/engine/app.js';
import { servesPetStore } from '../../mock/engine/detect.js';
import { genericStartup } from '../../mock/engine/startup.js';
import { withPetStoreRules } from '../../mock/behaviour/petstore/options.js';
import { serve } from '../../mock/transport/server.js';
import { FALLBACK_URL_FLAG, targetOf, type Target } from './target.js';

/** Tells the client and the log that the mock answered, not the target. */
export const FALLBACK_HEADER = 'x-petstore-proxy-fallback';

export interface FallbackSettings {
  readonly compiled: CompiledContract;
  /** `--fixtures`: the mock's data (default: the bundled seed for the Pet Store, the document's examples otherwise). */
  readonly fixtures?: string;
  readonly log: (line: string) => void;
}

export interface RunningFallback {
  /** `http://127.0.0.1:PORT` (or the --fallback-url), with its path prefix. */
  readonly target: Target;
  /** Which mock answers, for the log and the report. */
  readonly describe: string;
  close(): Promise<void>;
}

/** The kit's mock for the document, in this process, on a free loopback port. */
export async function startFallback(settings: FallbackSettings): Promise<RunningFallback> {
  const { app, describe } = await mockApp(settings);
  const served = await serve(app, { port: 0, host: '127.0.0.1' });
  return { target: targetOf(`http://127.0.0.1:${served.port}`, FALLBACK_URL_FLAG), describe, close: () => served.close() };
}

/** A mock already running elsewhere (`--fallback-url`): only its address is known; a wrong one is a USAGE error naming the flag. */
export function fallbackAt(url: string): RunningFallback {
  const target = targetOf(url, FALLBACK_URL_FLAG);
  return { target, describe: `the mock at ${target.origin}`, close: async () => undefined };
}

/**
 * The proxy serves the document's paths at its root (a target's prefix is part of --target), so the mock serves them
 * there too, whatever path the document's first server has.
 */
const basePath = '';

async function mockApp(settings: FallbackSettings): Promise<{ app: MockApp; describe: string }> {
  const { compiled } = settings;
  const contract = compiled.contract;
  const given = settings.fixtures !== undefined ? { fixtures: settings.fixtures } : {};
  // Loaded only when needed: faker and the engine stay out of a proxy that mocks nothing.
  const { createGenericEngine } = await import('../../mock/engine/engine.js');
  const appOf = (generic: Awaited<ReturnType<typeof genericStartup>>): MockApp =>
    createMockApp({ compiled, basePath, engine: createGenericEngine(compiled, { ...generic, basePath }), kitVersion: KIT_VERSION, notes: false });
  if (servesPetStore(contract)) {
    try {
      // The Pet Store is the generic engine with its rule file and, unless told otherwise, its seed fixtures.
      return { app: appOf(await genericStartup(contract, { ...withPetStoreRules(given, true), basePath })), describe: 'the Pet Store mock (in process)' };
    } catch (error) {
      // The Pet Store's rule file names its fields and codes; an edited copy of the document may not have them.
      if (!isKitError(error)) throw error;
      settings.log(`fallback: the Pet Store's rules do not fit this document (${error.message}); the generic engine answers the mocked operations`);
    }
  }
  const generic = await genericStartup(contract, { ...given, basePath }, settings.log);
  return { app: appOf(generic), describe: 'the generic mock engine (in process)' };
}

/** `--mock` values (operationIds or tags, repeatable or comma-separated) as operationIds; anything else is a USAGE error. */
export function mockedOperations(contract: Contract, values: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const value of values) {
    const matched = contract.operations.filter((op) => op.operationId === value || op.tags.includes(value));
    if (matched.length === 0) throw new KitError('USAGE', `petstore-kit proxy: --mock ${value}: not an operationId or tag of ${contract.title}.`);
    for (const op of matched) out.add(op.operationId);
  }
  return out;
}

/**
 * Whether an answer of the target says it lacks the operation, not the record: 501, or a 404 that is not the
 * operation's own (the document's 404 for it, in its documented shape). `documented404` says whether the answer
 * validates as the operation's documented 404 (the caller asks the compiled validators).
 */
export function targetLacks(operation: Operation, status: number, documented404: () => boolean): boolean {
  if (status === 501) return true;
  if (status !== 404) return false;
  const documents404 = operation.responses.has('404') || operation.responses.has('4XX') || operation.responses.has('default');
  return !documents404 || !documented404();
}
