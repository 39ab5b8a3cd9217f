/**
 * The generic engine's start-up for the node:http adapter (server.ts): its data options read from disk, and the
 * resource map it inferred printed once (issue 22, point 6), so a user sees at a glance what is stateful.
 */
import { documentBasePath } from './base-path.js';
import type { Contract } from '../../src/contract/index.js';
import type { GenericSettings } from './engine.js';
import { readBehaviour, readFixtureFiles, readOverlay } from './files.js';
import { inferResources } from './infer.js';
import { examplesOf } from './initial.js';
import { resourceLines } from './report.js';
import { CANNOT_GENERATE_STATUS, generationLines, generationReport } from './unmakeable.js';
import { documentedStatus } from './answer-guard.js';
import { DEFAULT_GENERATION_BUDGET, type GenerationBudget } from '../../src/generate/index.js';

export interface GenericStartupOptions {
  readonly seed?: number;
  readonly fixtures?: string;
  readonly mockOverlay?: string;
  /** `--behaviour FILE`: hooks around the operations; else the overlay's `behaviour:`. */
  readonly behaviour?: string;
  readonly maxSessions?: number;
  /** `--generation-budget`: the caps on one generated value (src/generate/budget.ts). */
  readonly generationBudget?: GenerationBudget;
  /** `--base-path`, when given: then the document's own server path is not used, and not announced. */
  readonly basePath?: string;
}

export async function genericStartup(contract: Contract, options: GenericStartupOptions, log?: (line: string) => void): Promise<GenericSettings> {
  const overlay = options.mockOverlay !== undefined ? await readOverlay(options.mockOverlay) : undefined;
  const behaviourFile = options.behaviour ?? overlay?.behaviour;
  const behaviour = behaviourFile !== undefined ? await readBehaviour(behaviourFile) : undefined;
  // --fixtures DIR reads `<collection>.json` files; without it the document's examples (or generated records) fill them.
  const fixtures = options.fixtures === 'none' ? 'none' : options.fixtures !== undefined ? await readFixtureFiles(options.fixtures) : undefined;
  const map = inferResources(contract, overlay);
  if (log) for (const line of resourceLines(contract, map)) log(line);
  // What cannot be generated within the budget, measured (never tried) and said once (issue 31, point 1).
  const budget = options.generationBudget ?? DEFAULT_GENERATION_BUDGET;
  const report = generationReport(contract, map, budget, (resource) => fixtures !== undefined || examplesOf(contract, resource).length > 0);
  // The status such an operation answers: 501, or the server error it documents (answer-guard.ts documentedStatus).
  const statusOf = (operationId: string): number => {
    const operation = contract.operationsById.get(operationId);
    return operation ? documentedStatus(operation, CANNOT_GENERATE_STATUS) : CANNOT_GENERATE_STATUS;
  };
  if (log) for (const line of generationLines(map, report, statusOf)) log(line);
  const served = documentBasePath(contract.document);
  if (log && options.basePath === undefined && served !== '') {
    log(`serving under ${served}, the path of the document's first server (${contract.document.servers?.[0]?.url ?? ''}); --base-path / serves at the root`);
  }
  return {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(fixtures !== undefined ? { fixtures } : {}),
    ...(overlay !== undefined ? { overlay } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    ...(behaviour ? { behaviour } : {}),
    proveInBackground: true,
    ...(log ? { announce: log } : {}),
    ...(options.generationBudget !== undefined ? { generationBudget: options.generationBudget } : {}),
  };
}
