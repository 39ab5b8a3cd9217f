/**
 * A valid body for a DELETE that documents a required one (VictorOps' `DELETE /user/{user}` names the user who takes
 * over: `{ replacement }`), as its clients must send it. A delete sent bare was refused 400: delete-removes failed a
 * server that did what its document says, and the clean-up left the record behind. OpenAPI 3.1 allows such a body;
 * 3.0 leaves it to the server, and a server that documents it as required refuses a DELETE without it.
 */
import type { Operation } from '../../src/contract/index.js';
import { jsonBodyOf, type Generator } from '../generate.js';
import { stringifyJson } from '../json.js';

export interface DeleteBody {
  readonly value: unknown;
  readonly text: string;
  readonly contentType: string;
}

/** The body to send with `operation`, or undefined where it is no DELETE with a required JSON body, or none can be made. */
export function requiredDeleteBody(operation: Operation, generator: Generator): DeleteBody | undefined {
  const media = jsonBodyOf(operation);
  if (operation.method !== 'delete' || operation.requestBody?.required !== true || !media) return undefined;
  const value = generator.validBody(operation, {});
  return value === undefined ? undefined : { value, text: stringifyJson(value), contentType: media.mediaType };
}
