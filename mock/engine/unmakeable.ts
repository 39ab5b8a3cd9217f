/**
 * What the generic engine cannot generate within the generation budget (issue 31, point 1), found before any
 * request by measuring the schemas (src/generate/cost.ts), never by trying: an operation whose documented answer
 * has no example and no value within the budget, and a collection whose records cannot be generated (it starts
 * empty, and its reads and writes answer as for any empty collection). Said at start-up; such an operation
 * answers a clear Error naming the schema's spot (cannotAnswer), never a value its document refuses.
 */
import type { Contract, Operation } from '../../src/contract/index.js';
import { describeUnmakeable, whyUnmakeable, type GenerationBudget, type Unmakeable } from '../../src/generate/index.js';
import type { ErrorFactory } from './errors.js';
import type { HandlerResult } from './seam.js';
import type { Resource, ResourceMap } from './infer.js';
import { jsonMedia, successStatus, type Schema } from './schemas.js';

/** The code of the Error an unanswerable operation answers: the mock's own, beside the document's (as NOT_FOUND is). */
export const CANNOT_GENERATE = 'CANNOT_GENERATE';
/** RFC 9110 §15.6.2: the server does not support what the request needs, here a value its document asks for. */
export const CANNOT_GENERATE_STATUS = 501;

export interface GenerationReport {
  /** Stateless operations by operationId: their success answer cannot be generated. */
  readonly operations: ReadonlyMap<string, Unmakeable>;
  /** Collections by resource key: their records cannot be generated, so they start empty. */
  readonly records: ReadonlyMap<string, Unmakeable>;
}

const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where an operation's answer schema is in the document: `#/paths/~1things/get/responses/200/content/application~1json/schema`. */
export function answerSpot(operation: Operation, status: number, mediaType: string): string {
  const key = operation.responses.has(String(status)) ? String(status) : operation.responses.has(`${String(status)[0]}XX`) ? `${String(status)[0]}XX` : 'default';
  return `#/paths/${escape(operation.pathTemplate)}/${operation.method.toLowerCase()}/responses/${key}/content/${escape(mediaType)}/schema`;
}

/** The success answer an operation documents in JSON, with its schema's spot, when it documents one without an example. */
function generatedAnswer(operation: Operation): { schema: Schema; at: string } | undefined {
  const status = successStatus(operation, [200, 201, 202, 204]);
  if (status === undefined) return undefined;
  const spec = operation.responses.get(String(status)) ?? operation.responses.get(`${String(status)[0]}XX`) ?? operation.responses.get('default');
  const media = jsonMedia(spec?.content ?? []);
  if (!media?.schema || media.examples.size > 0) return undefined;
  return { schema: media.schema, at: answerSpot(operation, status, media.mediaType) };
}

export function generationReport(contract: Contract, map: ResourceMap, budget: GenerationBudget, recordsFromExamples: (resource: Resource) => boolean): GenerationReport {
  const operations = new Map<string, Unmakeable>();
  const records = new Map<string, Unmakeable>();
  const document = contract.document;
  for (const operation of contract.operations) {
    if (map.roles.has(operation.operationId)) continue;
    const answer = generatedAnswer(operation);
    const why = answer ? whyUnmakeable(answer.schema, { view: 'response', budget, at: answer.at, document }) : undefined;
    if (why) operations.set(operation.operationId, why);
  }
  for (const resource of map.resources) {
    if (!resource.recordSchema || recordsFromExamples(resource)) continue;
    const why = whyUnmakeable(resource.recordSchema, { view: 'response', budget, at: `#/paths/${escape(resource.itemPath)}`, document });
    if (why) records.set(resource.key, why);
  }
  return { operations, records };
}

/** The report as start-up lines: nothing when everything can be generated. */
export function generationLines(map: ResourceMap, report: GenerationReport, statusOf: (operationId: string) => number = () => CANNOT_GENERATE_STATUS): string[] {
  const lines: string[] = [];
  for (const resource of map.resources) {
    const why = report.records.get(resource.key);
    if (why) lines.push(`  ${resource.collectionPath}: records cannot be generated, so it starts empty: ${describeUnmakeable(why)}`);
  }
  for (const [operationId, why] of report.operations) {
    lines.push(`  ${operationId}: its answer cannot be generated; it answers ${statusOf(operationId)} ${CANNOT_GENERATE}: ${describeUnmakeable(why)}`);
  }
  return lines.length === 0 ? [] : ['Some values of this document cannot be generated (docs/generation.md):', ...lines];
}

/** The Error an operation answers when its document's answer cannot be generated: the spot, the keyword and why. */
export function cannotAnswer(errors: ErrorFactory, operation: Operation, why: Unmakeable): HandlerResult {
  const answer = errors.error('INTERNAL_ERROR', `The mock cannot answer ${operation.operationId} with a value its document allows: ${describeUnmakeable(why)}.`, [{ pointer: why.at, keyword: why.keyword, message: why.message }]);
  return { status: CANNOT_GENERATE_STATUS, body: { ...(answer.body as object), code: CANNOT_GENERATE, status: CANNOT_GENERATE_STATUS } };
}
