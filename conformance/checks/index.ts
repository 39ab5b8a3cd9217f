/**
 * The registry: every check the runner knows, in the order it runs them.
 * The id is the public name (--only/--skip, `--list-checks`, the reports);
 * each kind of defect has exactly one owning check, so one defect is
 * reported once (schemathesis checks.py, the architecture's principle 6).
 */
import type { CheckInfo } from '../model.js';
import { acceptsJsonAccept } from './accepts-json-accept.js';
import { acceptsJsonCharset } from './accepts-json-charset.js';
import { acceptsLargeIds } from './accepts-large-ids.js';
import { acceptsValidBodies } from './accepts-valid-bodies.js';
import { acceptsValidQueries } from './accepts-valid-queries.js';
import { contentType } from './content-type.js';
import { corsExposeHeaders } from './cors-expose-headers.js';
import { corsOnErrors } from './cors-on-errors.js';
import { corsPreflight } from './cors-preflight.js';
import { createNewIdentity } from './create-new-identity.js';
import { prototypeKeys } from './prototype-keys.js';
import { createReadBack } from './create-read-back.js';
import { deleteRemoves } from './delete-removes.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { deprecationLinks } from './deprecation-links.js';
import { errorCodeDocumented } from './error-code-documented.js';
import { errorShape } from './error-shape.js';
import { errorsBeforeRouting } from './errors-before-routing.js';
import { headLikeGet } from './head-like-get.js';
import { otherMethods } from './other-methods.js';
import { listContainsCreated } from './list-contains-created.js';
import { locationResolves } from './location-resolves.js';
import { malformedJson } from './malformed-json.js';
import { methodNotAllowed405 } from './method-not-allowed-405.js';
import { negativeBody } from './negative-body.js';
import { negativeParameters } from './negative-parameters.js';
import { notAcceptable406 } from './not-acceptable-406.js';
import { pagingWalk } from './paging-walk.js';
import { patchKeepsFields } from './patch-keeps-fields.js';
import { payloadTooLarge413 } from './payload-too-large-413.js';
import { noServerError } from './no-server-error.js';
import { noUnexpectedDeprecation } from './no-unexpected-deprecation.js';
import { replaceVisible } from './replace-visible.js';
import { responseHeaders } from './response-headers.js';
import { responseSchema } from './response-schema.js';
import { stableReads } from './stable-reads.js';
import { statusDocumented } from './status-documented.js';
import { sunset410 } from './sunset-410.js';
import { totalCountCheck } from './total-count.js';
import type { CheckDefinition } from './types.js';
import { unknownId404 } from './unknown-id-404.js';
import { unknownPath404 } from './unknown-path-404.js';
import { unknownReference422 } from './unknown-reference-422.js';
import { unsupportedMediaType } from './unsupported-media-type.js';
import { workflowChecks } from './workflows.js';

export type { CheckDefinition, JudgeContext } from './types.js';

export const CHECKS: readonly CheckDefinition[] = [
  // response: judged on every exchange; location-resolves and total-count also send their own requests
  statusDocumented,
  contentType,
  responseSchema,
  responseHeaders,
  locationResolves,
  totalCountCheck,
  pagingWalk,
  // errors: judged on every exchange
  errorShape,
  errorCodeDocumented,
  noServerError,
  // routing
  unknownId404,
  unknownPath404,
  methodNotAllowed405,
  // http: HTTP as a whole, beyond the operations (methods, framing, what a server's HTTP layer answers)
  headLikeGet,
  otherMethods,
  errorsBeforeRouting,
  // negative
  negativeParameters,
  negativeBody,
  malformedJson,
  unsupportedMediaType,
  // negative: every documented error status provoked with a request that must draw it
  notAcceptable406,
  payloadTooLarge413,
  unknownReference422,
  // acceptance: valid variety the document allows must be taken, not refused
  acceptsJsonAccept,
  acceptsJsonCharset,
  acceptsValidBodies,
  acceptsValidQueries,
  acceptsLargeIds,
  // stateful, from the 201 links
  createReadBack,
  createNewIdentity,
  replaceVisible,
  patchKeepsFields,
  listContainsCreated,
  deleteRemoves,
  stableReads,
  prototypeKeys,
  // workflow: the contract's state rules as data
  ...workflowChecks,
  // deprecation
  deprecationHeaders,
  deprecationLinks,
  noUnexpectedDeprecation,
  sunset410,
  // cors, with --origin
  corsPreflight,
  corsExposeHeaders,
  corsOnErrors,
];

export const CHECK_IDS: readonly string[] = CHECKS.map((check) => check.id);

export const CHECK_FAMILIES: readonly string[] = [...new Set(CHECKS.map((check) => check.family))];

/** The registry as the reports carry it. */
export function checkInfos(): CheckInfo[] {
  return CHECKS.map(({ id, family, description, writes }) => ({ id, family, description, writes }));
}
