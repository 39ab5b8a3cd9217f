/**
 * The mock's transport-free core: one function from a plain request to a
 * plain response (architecture principle 4). Everything it needs is derived
 * from the document and compiled once here; per request it only looks up,
 * validates with compiled functions, calls one handler and assembles headers.
 *
 * The order of checks, each answering with the one Error builder:
 *   1. CORS preflight (Fetch §3.2.2), then the /__mock/ admin surface;
 *   2. router: 404 ROUTE_NOT_FOUND, 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6);
 *   3. 406 NOT_ACCEPTABLE when `Accept` excludes JSON (RFC 9110 §12.5.1);
 *   4. the body: 413, 415, 400 MALFORMED_JSON;
 *   5. 400 VALIDATION_FAILED listing every problem: parameters and body against
 *      the compiled validators, and the mock's own control headers;
 *   6. 410 OPERATION_SUNSET after a deprecated operation's sunset;
 *   7. `Prefer: code|example` answers from the document's examples;
 *   8. the operation's handler and its store.
 * A request refused at any step has not reached the store, so it changed nothing.
 */
import type { Contract, Operation } from '../src/contract/index.js';
import { KitError } from '../src/kit-error.js';
import { KIT_VERSION } from '../src/package-info.js';
import type { CompiledContract, Diagnostic, OperationValidators, ParsedParameters, RawParameters } from '../src/schema/index.js';
import { createRouter } from '../src/router.js';
import { acceptsJson } from './accept.js';
import { ADMIN_BODY_LIMIT, createAdmin, isAdminPath } from './admin.js';
import { BODY_LIMIT, readJsonBody } from './body.js';
import { createClock, parseRfc3339 } from './clock.js';
import { createCors, isPreflight } from './cors.js';
import { compileDeprecation, type Deprecation } from './deprecation.js';
import type { StoreRegistry } from './domain.js';
import { createErrorFactory, type ErrorAnswer } from './errors.js';
import { createExampleCatalog, type ForcedAnswer } from './examples.js';
import { bindHandlers } from './handlers/index.js';
import { UncheckedInputError } from './handlers/read.js';
import type { Handler, HandlerResult } from './handlers/types.js';
import { locationFromLinks, type LocationOf } from './location.js';
import { headerList, type MockRequest, type MockResponse } from './message.js';
import { parsePrefer, type Preferences } from './prefer.js';
import { compileRelaxed } from './relaxed.js';
import { readSession, SESSION_HEADER } from './session.js';
import { normalizeBasePath, type ValidationMode } from './settings.js';

export { normalizeBasePath, VALIDATION_MODES, type ValidationMode } from './settings.js';

export interface MockAppOptions {
  readonly compiled: CompiledContract;
  readonly registry: StoreRegistry;
  /** A path prefix such as `/api/v1`; '' (the default) serves at the root. */
  readonly basePath?: string;
  /** `*` (the default) or the one origin CORS allows. */
  readonly corsOrigin?: string;
  /** What an invalid request gets: a 400 (default), a logged warning, or nothing (see relaxed.ts). */
  readonly validation?: ValidationMode;
  /** The mock's clock, fixed at this instant; the real clock when absent. */
  readonly now?: Date;
  /** For tests of the start-up check; the real table by default. */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /**
   * Whether answers carry `notes` for a request log (default true). The server turns it off under --quiet, where
   * nothing reads them, so no note is built for nothing (getPet's deprecation warning would be one per request).
   */
  readonly notes?: boolean;
}

export interface MockApp {
  handle(request: MockRequest): MockResponse;
  /** How many body bytes a request to `path` may carry; the adapter stops reading past it. */
  bodyLimit(path: string): number;
  /** A 500 for an exception that escaped handle(): a bug, answered in the Error shape all the same. */
  internalError(): MockResponse;
  /** A 400 for a request the adapter could not even parse as HTTP (a request line over the header limit, say). */
  unparsableRequest(message: string): MockResponse;
  readonly contract: Contract;
  readonly registry: StoreRegistry;
}

/** The per-request header through which a client sets the mock's clock, e.g. to rehearse a sunset. */
export const NOW_HEADER = 'x-mock-now';
const JSON_TYPE = 'application/json';

interface Route {
  readonly operation: Operation;
  readonly validators: OperationValidators;
  readonly relaxed?: OperationValidators;
  readonly handler: Handler;
  readonly deprecation?: Deprecation;
  readonly expectsBody: boolean;
  readonly location: LocationOf;
}

export function createMockApp(options: MockAppOptions): MockApp {
  const { compiled, registry } = options;
  const { contract } = compiled;
  const basePath = normalizeBasePath(options.basePath ?? '');
  const mode = options.validation ?? 'error';
  const clock = createClock(options.now);
  // RFC 9110 §6.6.1: Date is the origin server's clock. A clock set with --now is the one clients must see, so a
  // client (the conformance runner) can tell from Date alone that the sunset has passed.
  const fixedDate = options.now !== undefined ? options.now.toUTCString() : undefined;
  const withNotes = options.notes ?? true;

  const errors = createErrorFactory(contract);
  const handlers = bindHandlers(contract, options.handlers);
  const router = createRouter(contract, basePath);
  const cors = createCors(contract, options.corsOrigin ?? '*');
  const catalog = createExampleCatalog(contract, basePath);
  const admin = createAdmin({ compiled, registry, errors, kitVersion: KIT_VERSION });
  const relaxed = mode === 'error' ? undefined : compileRelaxed(contract);

  const routes = new Map<string, Route>();
  for (const operation of contract.operations) {
    const id = operation.operationId;
    const validators = compiled.operations.get(id);
    const handler = handlers.get(id);
    if (!validators || !handler) throw new KitError('HANDLER_MISSING', `${id} has no compiled validators or no handler.`);
    const created = operation.responses.get('201');
    const location = (created && locationFromLinks(created, contract, basePath)) ?? noLocation;
    const deprecation = compileDeprecation(operation, basePath);
    const relaxedValidators = relaxed?.operations.get(id);
    routes.set(id, {
      operation,
      validators,
      handler,
      location,
      expectsBody: operation.requestBody !== undefined,
      ...(relaxedValidators ? { relaxed: relaxedValidators } : {}),
      ...(deprecation ? { deprecation } : {}),
    });
  }

  /**
   * Assembles a response: JSON content type when there is a body, CORS, the operation's own headers (deprecation),
   * then this answer's (Location, X-Total-Count, Allow), and `Preference-Applied` (RFC 7240 §3).
   */
  const respond = (
    status: number,
    body: unknown,
    corsHeaders: Readonly<Record<string, string>>,
    operationHeaders?: Readonly<Record<string, string>>,
    answerHeaders?: Readonly<Record<string, string>>,
    preferences?: Preferences,
    notes?: readonly string[],
  ): MockResponse => {
    // Plain assignments rather than object spreads: this runs for every answer, and spreads cost (issue 5).
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = JSON_TYPE;
    copy(corsHeaders, headers);
    if (operationHeaders) copy(operationHeaders, headers);
    if (answerHeaders) copy(answerHeaders, headers);
    if (preferences) headers['preference-applied'] = preferences.applied.join(', ');
    if (fixedDate !== undefined) headers['date'] = fixedDate;
    const response: { status: number; headers: Record<string, string>; body?: unknown; delayMs?: number; notes?: readonly string[] } = { status, headers };
    if (body !== undefined) response.body = body;
    if (preferences?.delayMs) response.delayMs = preferences.delayMs;
    if (withNotes && notes && notes.length > 0) response.notes = notes;
    return response;
  };

  const preflight = (request: MockRequest): MockResponse => {
    const methods = isAdminPath(request.path) ? admin.methods(request.path) : allowedMethods(router.match('OPTIONS', request.path));
    if (!methods) {
      const answer = errors.error('ROUTE_NOT_FOUND', `No operation matches ${request.path}, so there is nothing to preflight.`);
      return respond(answer.status, answer.body, cors.responseHeaders(request.headers));
    }
    return respond(204, undefined, cors.preflightHeaders(request.headers, methods));
  };

  const operation = (request: MockRequest, route: Route, pathParams: Readonly<Record<string, string>>, corsHeaders: Readonly<Record<string, string>>): MockResponse => {
    const { deprecation } = route;
    // Every answer of a deprecated operation carries its headers, errors included (contract.md, Deprecation).
    const deprecationHeaders = deprecation?.headers(pathParams);
    const notes: string[] = deprecation && withNotes ? [deprecation.warning(pathParams)] : [];

    const prefer = parsePrefer(headerList(request.headers, 'prefer'));
    const preferences = prefer.ok ? prefer.preferences : undefined;
    const fail = (answer: ErrorAnswer): MockResponse => respond(answer.status, answer.body, corsHeaders, deprecationHeaders, undefined, preferences, notes);

    if (!acceptsJson(headerList(request.headers, 'accept'))) {
      return fail(errors.error('NOT_ACCEPTABLE', 'This API answers application/json only; accept it (Accept: application/json) or leave Accept out.'));
    }

    const body = readJsonBody(request.body, request.headers, route.expectsBody);
    if (!body.ok) return fail(errors.error(body.code, body.message));

    // The mock's own control headers: always checked, whatever --validation says.
    const control: Diagnostic[] = [];
    if (!prefer.ok) control.push(...prefer.diagnostics);
    const session = readSession(request.headers[SESSION_HEADER], `/header/${SESSION_HEADER}`);
    if (!session.ok) control.push(session.diagnostic);
    let now: number | undefined;
    const nowText = request.headers[NOW_HEADER];
    if (nowText !== undefined) {
      now = typeof nowText === 'string' ? parseRfc3339(nowText) : undefined;
      if (now === undefined) control.push({ pointer: `/header/${NOW_HEADER}`, keyword: 'format', message: 'must be one RFC 3339 date-time with an offset, e.g. 2027-07-01T00:00:00Z', actual: nowText });
    }
    let forced: ForcedAnswer | undefined;
    if (preferences && (preferences.code !== undefined || preferences.example !== undefined)) {
      const outcome = catalog.force(route.operation.operationId, preferences.code, preferences.example);
      if (outcome.ok) forced = outcome.answer;
      else control.push(...outcome.diagnostics);
    }

    const raw: RawParameters = { path: pathParams, query: request.query, headers: request.headers };
    const checked = validate(route, raw, body.value, control, notes);
    if (!checked.ok) return fail(errors.validationFailed(checked.diagnostics));

    if (deprecation?.isSunset(now ?? clock())) return fail(errors.error('OPERATION_SUNSET', deprecation.sunsetMessage(pathParams)));

    if (forced) return respond(forced.status, forced.body, corsHeaders, deprecationHeaders, forced.headers, preferences, notes);

    let result: HandlerResult;
    try {
      result = route.handler({ store: registry.get(session.ok ? session.session : undefined), params: checked.values, body: body.value, location: route.location });
    } catch (error) {
      notes.push(`internal error in ${route.operation.operationId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const what = error instanceof UncheckedInputError ? 'let through input it should have refused' : 'failed';
      return fail(errors.error('INTERNAL_ERROR', `The mock ${what} while handling ${route.operation.operationId}; nothing was changed. Please report it with the request.`));
    }
    if ('error' in result) return fail(errors.error(result.error.code, result.error.message));
    return respond(result.status, result.body, corsHeaders, deprecationHeaders, result.headers, preferences, notes);
  };

  type Checked = { ok: true; values: ParsedParameters } | { ok: false; diagnostics: Diagnostic[] };

  /** Step 5, per --validation: strict (400), warn (log, then the guard) or off (the guard only). */
  const validate = (route: Route, raw: RawParameters, body: unknown, control: readonly Diagnostic[], notes: string[]): Checked => {
    if (mode !== 'off' || !route.relaxed) {
      const params = route.validators.parameters(raw);
      const bodyProblems = route.validators.body(body);
      if (params.ok && bodyProblems.length === 0 && control.length === 0) return params;
      const problems = [...control, ...(params.ok ? [] : params.diagnostics), ...bodyProblems];
      if (mode === 'error' || !route.relaxed || control.length > 0) return { ok: false, diagnostics: problems };
      notes.push(`the request breaks the contract, let through by --validation warn: ${problems.map((d) => `${d.pointer} ${d.message}`).join('; ')}`);
    } else if (control.length > 0) {
      return { ok: false, diagnostics: [...control] };
    }
    // The guard: even relaxed, a value that would corrupt the store or break an answer is refused.
    const params = route.relaxed.parameters(raw);
    const bodyProblems = route.relaxed.body(body);
    if (params.ok && bodyProblems.length === 0) return params;
    return { ok: false, diagnostics: [...(params.ok ? [] : params.diagnostics), ...bodyProblems] };
  };

  return {
    contract,
    registry,
    bodyLimit: (path) => (isAdminPath(path) ? ADMIN_BODY_LIMIT : BODY_LIMIT),
    internalError() {
      const answer = errors.error('INTERNAL_ERROR', 'The mock failed while handling this request; please report it with the request.');
      return respond(answer.status, answer.body, cors.responseHeaders({}));
    },
    unparsableRequest(message) {
      const answer = errors.error('VALIDATION_FAILED', message);
      return respond(answer.status, answer.body, cors.responseHeaders({}));
    },
    handle(request) {
      if (isPreflight(request.method, request.headers)) return preflight(request);
      const corsHeaders = cors.responseHeaders(request.headers);
      if (isAdminPath(request.path)) {
        const answer = admin.handle(request);
        return respond(answer.status, answer.body, corsHeaders, answer.headers);
      }
      const match = router.match(request.method, request.path);
      if (match.kind === 'no-path') {
        const answer = errors.error('ROUTE_NOT_FOUND', `No operation matches ${request.method} ${clip(request.path)}; see the paths of ${contract.title} ${contract.version}.`);
        return respond(answer.status, answer.body, corsHeaders);
      }
      if (match.kind === 'no-method') {
        const allow = match.allow.join(', ');
        const answer = errors.error('METHOD_NOT_ALLOWED', `${clip(request.method)} is not allowed on ${match.pathTemplate}; use ${allow}.`);
        return respond(answer.status, answer.body, corsHeaders, { allow });
      }
      const route = routes.get(match.operation.operationId);
      if (!route) {
        const answer = errors.error('INTERNAL_ERROR', `The mock has no route for ${match.operation.operationId}.`);
        return respond(answer.status, answer.body, corsHeaders);
      }
      return operation(request, route, match.pathParams, corsHeaders);
    },
  };
}

const noLocation: LocationOf = () => undefined;

function copy(from: Readonly<Record<string, string>>, to: Record<string, string>): void {
  for (const name in from) {
    const value = from[name];
    if (value !== undefined) to[name] = value;
  }
}

function allowedMethods(match: ReturnType<ReturnType<typeof createRouter>['match']>): readonly string[] | undefined {
  if (match.kind === 'no-method') return match.allow;
  return undefined;
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
