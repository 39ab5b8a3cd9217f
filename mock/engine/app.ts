/**
 * The mock's transport-free core: one function from a plain request to a
 * plain response (architecture principle 4). Everything it needs is derived
 * from the document and compiled once here; per request it only looks up,
 * validates with compiled functions, calls one handler and assembles headers.
 *
 * The order of checks, each answering with the one Error builder:
 *   1. the /__mock/ admin surface (no CORS), then a CORS preflight (Fetch §3.2.2);
 *   2. router: 404 ROUTE_NOT_FOUND, 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6);
 *   3. 406 NOT_ACCEPTABLE when `Accept` excludes JSON (RFC 9110 §12.5.1);
 *   4. the body: 413, 415, 400 MALFORMED_JSON;
 *   5. 400 VALIDATION_FAILED listing every problem: parameters and body against
 *      the compiled validators, and the mock's own control headers;
 *   6. 410 OPERATION_SUNSET after a deprecated operation's sunset;
 *   7. `Prefer: code|example` answers from the document's examples;
 *   8. the operation's handler and its store.
 * A request refused at any step has not reached the store, so it changed nothing. Every answer outside /__mock/ is
 * written to the request journal (journal.ts), whichever transport (node:http, MSW) brought it.
 */
import type { Contract, Operation } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { isJsonMediaType, type CompiledContract, type Diagnostic, type OperationValidators, type ParsedParameters, type RawParameters } from '../../src/schema/index.js';
import { createRouter, type RouteMatch } from '../../src/router.js';
import { claimsQueryName } from '../../src/schema/parameter-text.js';
import { shapeOfSchema } from '../../src/schema/schema-types.js';
import { acceptsAnyOf, acceptsJson } from './accept.js';
import { isAdminPath } from '../admin/admin.js';
import type { AdminAccessSettings } from '../admin/access.js';
import { createJournal, JOURNAL_METHODS, JOURNAL_PATH, type Journal } from '../conveniences/journal.js';
import { bodyLimitOf, MAX_BODY_DEPTH, readJsonBody, type BodyOutcome } from '../transport/body.js';
import { formReading, formSchemaOf, readFormBody } from '../transport/form-body.js';
import { boundBeyondInt64, withIntegersAsSent, withMessageAsSent } from '../transport/body-integers.js';
import { createClock, parseRfc3339 } from '../conveniences/clock.js';
import { createCors, isPreflight } from '../transport/cors.js';
import { compileDeprecation, type Deprecation } from '../conveniences/deprecation.js';
import { createDocs, type DocsFiles } from '../conveniences/docs.js';
import type { ErrorAnswer } from './errors.js';
import { createExampleCatalog, type ForcedAnswer } from '../conveniences/examples.js';
import { createChaos, type Fault } from '../conveniences/faults.js';
import { documentBasePath } from './base-path.js';
import { schemaAtPointer, type Schema } from '../../src/generate/composition.js';
import type { createGenericEngine, GenericSettings } from './engine.js';
import type { BoundHandler, CarriedData, CarriedVerdict, FixtureProblem, HandlerResult, MockEngine } from './seam.js';
import { locationFromLinks, type LocationOf } from './location.js';
import { copiedHeaders, headerList, headerValue, type MockRequest, type MockResponse } from './message.js';
import { rememberMatches } from './match-memo.js';
import { rememberParameterPasses, type ParameterCheck } from './parameter-memo.js';
import { parsePrefer, type Preferences } from '../conveniences/prefer.js';
import { compileRelaxed } from './relaxed.js';
import { readSession, SESSION_DROPPED_HEADER, SESSION_HEADER } from '../conveniences/session.js';
import { normalizeBasePath, type ValidationMode } from '../transport/settings.js';

export { normalizeBasePath, VALIDATION_MODES, type ValidationMode } from '../transport/settings.js';

export interface MockAppOptions {
  readonly compiled: CompiledContract;
  /** A path prefix such as `/api/v1`; '' (the default) serves at the root. */
  readonly basePath?: string;
  /** `*` (the default) or the one origin CORS allows. */
  readonly corsOrigin?: string;
  /** What an invalid request gets: a 400 (default), a logged warning, or nothing (see relaxed.ts). */
  readonly validation?: ValidationMode;
  /** The mock's clock, fixed at this instant; the real clock when absent. */
  readonly now?: Date;
  /**
   * Whether answers carry `notes` for a request log (default true). The server turns it off under --quiet, where
   * nothing reads them, so no note is built for nothing (getPet's deprecation warning would be one per request).
   */
  readonly notes?: boolean;
  /** How many requests the journal (`GET /__mock/requests`) keeps; the newest win. */
  readonly journalSize?: number;
  /** A journal to keep writing to (--watch hands the running one to the reloaded core); a new one by default. */
  readonly journal?: Journal;
  /**
   * The kit's version for /__mock/health. An option, not an import of package-info.ts (which reads package.json
   * from disk), so the core bundles for a browser (MSW's worker) with no Node module in it.
   */
  readonly kitVersion?: string;
  /** What `/openapi.yaml`, `/openapi.json` and `/__mock/docs` serve (docs-files.ts reads them); no docs without. */
  readonly docs?: DocsFiles;
  /** `--chaos RATE` with its seed: that share of API requests get a random documented error or a fault (faults.ts). */
  readonly chaos?: { readonly rate: number; readonly seed: number };
  /** Who may use the /__mock/ admin surface (admin-access.ts). */
  readonly adminAccess?: AdminAccessSettings;
  /** The generic engine's data, corrections and rules (engine/engine.ts); the Pet Store's are its rule file's. */
  readonly generic?: GenericSettings;
  /** What answers the operations, when not made here with `genericEngine` (the proxy's fallback makes its own). */
  readonly engine?: MockEngine;
  /**
   * The generic engine (engine/engine.ts), which serves every document, the Pet Store with its rule file. Handed in
   * rather than imported here, so that petstore-kit/msw/browser alone carries neither it nor faker's English data:
   * a page brings it from petstore-kit/msw/generic (issue 23, point 3).
   */
  readonly genericEngine?: typeof createGenericEngine;
}

export interface MockApp {
  handle(request: MockRequest): MockResponse;
  /** How many body bytes a request to `path` may carry; the adapter stops reading past it. */
  bodyLimit(path: string): number;
  /** A 500 for an exception that escaped handle(): a bug, answered in the Error shape all the same. */
  internalError(): MockResponse;
  /** A 400 for a request the adapter could not even parse as HTTP (a request line over the header limit, say). */
  unparsableRequest(message: string): MockResponse;
  /** A 408 for a request that did not arrive in time (RFC 9110 §15.5.9); the adapter closes the connection after it. */
  requestTimeout(message: string): MockResponse;
  readonly contract: Contract;
  /** Back to the initial data, in whichever engine holds the stores: every store, or one session's (MSW's reset()). */
  reset(session?: string): void;
  /** The requests answered so far (bounded): what `GET /__mock/requests` lists. */
  readonly journal: Journal;
  /** The path prefix the API is served under ('' for none). */
  readonly basePath: string;
  /** Starts what the core does in the background (the generic engine's proof sweep), once the server listens. */
  startBackground(): void;
  /** Stops what the core does in the background (the generic engine's proof sweep); it still answers after. */
  close(): void;
  /** The generic engine's data, for the core of a reloaded document (watch.ts); undefined for the Pet Store's. */
  carry(): CarriedData | undefined;
  /** Whether the generic engine kept the data it was handed at its start (watch.ts says so), when it was handed any. */
  readonly carried: CarriedVerdict | undefined;
  /** How the generic engine's fixture records break this document as they are (watch.ts); none for the Pet Store's handlers. */
  fixtureProblems(): readonly FixtureProblem[];
}

/**
 * Names the query parameters a request sent that its operation does not document (`?stauts=sold`), which would
 * otherwise be ignored in silence; exposed to browser code (cors.ts).
 */
export const UNKNOWN_QUERY_HEADER = 'x-mock-unknown-query';
/** Says that `--chaos` chose this answer (`code=503`), so a developer can tell it from a real one. */
export const CHAOS_HEADER = 'x-mock-chaos';

/** The per-request header through which a client sets the mock's clock, e.g. to rehearse a sunset. */
export const NOW_HEADER = 'x-mock-now';
const JSON_TYPE = 'application/json';

interface Route {
  readonly operation: Operation;
  readonly validators: OperationValidators;
  /** The parameter check of `validators`, its passes remembered by the values read (parameter-memo.ts). */
  readonly parameters: ParameterCheck;
  readonly relaxed?: OperationValidators;
  readonly handler: BoundHandler;
  readonly deprecation?: Deprecation;
  readonly expectsBody: boolean;
  readonly location: LocationOf;
  /** The query parameters the operation documents: anything else is named back (UNKNOWN_QUERY_HEADER). */
  readonly queryNames: ReadonlySet<string>;
  /** Whether a query name is one a documented parameter takes besides its own (`color[R]` of a deepObject). */
  readonly claimsQuery: (name: string) => boolean;
  /** The error statuses --chaos may pick: those the operation documents and the document has an example for. */
  readonly chaosStatuses: readonly number[];
  /** A foreign document's operation that takes a body other than JSON (a file): the generic engine reads none of it. */
  readonly otherBody?: true;
  /** A foreign document's operation that takes a form (`application/x-www-form-urlencoded`): its schema (form-body.ts). */
  readonly form?: Schema;
  /**
   * A foreign document's operation: the media types its successes answer with, and whether it may refuse an Accept
   * that admits none of them with 406 (it documents 406 or 4XX). Where it may not, the Accept is disregarded (RFC 9110
   * §12.5.1 allows either), so no answer carries a status the operation does not document.
   */
  readonly answers?: { readonly mediaTypes: readonly string[]; readonly refuses406: boolean };
  /** The generic engine's: where the operation's request schema bounds an integer past int64 (readJsonBody), made once, not per request. */
  readonly beyondInt64?: (pointer: string) => boolean;
}

/** The generic engine for the document; a clear refusal when the caller brought none. */
function genericEngineFor(options: MockAppOptions, compiled: CompiledContract, basePath: string): MockEngine {
  if (!options.genericEngine) {
    throw new KitError(
      'HANDLER_MISSING',
      `This mock of ${compiled.contract.title} was made without the generic engine that serves it: pass { genericEngine } from petstore-kit/msw/generic.`,
    );
  }
  return options.genericEngine(compiled, { ...options.generic, basePath, ...(options.now ? { now: options.now } : {}) });
}

export function createMockApp(options: MockAppOptions): MockApp {
  const { compiled } = options;
  const { contract } = compiled;
  const generic = options.engine === undefined;
  // A document is served where its first server says (base-path.ts) unless told otherwise.
  const basePath = normalizeBasePath(options.basePath ?? (generic ? documentBasePath(contract.document) : ''));
  const mode = options.validation ?? 'error';
  const clock = createClock(options.now);
  // RFC 9110 §6.6.1: Date is the origin server's clock. A clock set with --now is the one clients must see, so a
  // client (the conformance runner) can tell from Date alone that the sunset has passed.
  const fixedDate = options.now !== undefined ? options.now.toUTCString() : undefined;
  const withNotes = options.notes ?? true;

  // Every document, the Pet Store too, is served by the generic engine (issue 34), through the same seam.
  const engine = options.engine ?? genericEngineFor(options, compiled, basePath);
  const errors = engine.errors;
  const operationBodyLimit = bodyLimitOf(contract.document);
  const handlers = engine.handlers;
  const router = createRouter(contract, basePath);
  const matchOf = rememberMatches(router);
  const cors = createCors(contract, options.corsOrigin ?? '*');
  const catalog = createExampleCatalog(contract, basePath);
  const adminSettings = { errors, kitVersion: options.kitVersion ?? 'unknown', ...(options.adminAccess ? { access: options.adminAccess } : {}) };
  const admin = engine.admin(adminSettings);
  const sessions: Pick<MockEngine, 'dropNotice'> = engine;
  const strictMode = mode === 'error' || mode === 'strict';
  const relaxed = strictMode ? undefined : compileRelaxed(contract);
  const journal = options.journal ?? createJournal(options.journalSize);
  const docs = options.docs ? createDocs(options.docs, basePath, `${contract.title} ${contract.version}`) : undefined;
  const chaos = options.chaos && options.chaos.rate > 0 ? createChaos(options.chaos.rate, options.chaos.seed) : undefined;

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
      parameters: rememberParameterPasses(operation.parameters, (raw) => validators.parameters(raw)),
      handler,
      location,
      expectsBody: operation.requestBody !== undefined,
      queryNames: new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)),
      claimsQuery: queryClaims(operation),
      chaosStatuses: [...operation.responses.keys()].map(Number).filter((status) => status >= 400 && catalog.force(id, status, undefined).ok),
      ...(engine ? mediaOf(operation) : {}),
      ...(relaxedValidators ? { relaxed: relaxedValidators } : {}),
      ...(deprecation ? { deprecation } : {}),
      ...(generic ? { beyondInt64: (pointer: string) => boundBeyondInt64(schemaAtPointer(jsonRequestSchema(operation), pointer)) } : {}),
    });
  }

  /**
   * Assembles a response: JSON content type when there is a body, CORS, the operation's own headers (deprecation),
   * then this answer's (Location, X-Total-Count, Allow), and `Preference-Applied` (RFC 7240 §3) naming only the
   * preferences this answer honoured: a delay always, `code`/`example` only when the forced answer is the one sent.
   */
  const respond = (
    status: number,
    body: unknown,
    corsHeaders: Readonly<Record<string, string>>,
    operationHeaders?: Readonly<Record<string, string>>,
    answerHeaders?: Readonly<Record<string, string>>,
    preferences?: Preferences,
    notes?: readonly string[],
    forced = false,
  ): MockResponse => {
    // Plain assignments rather than object spreads: this runs for every answer, and spreads cost (issue 5).
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = JSON_TYPE;
    copy(corsHeaders, headers);
    if (operationHeaders) copy(operationHeaders, headers);
    if (answerHeaders) copy(answerHeaders, headers);
    if (preferences) {
      const { code, example, delay, fault } = preferences.tokens;
      const applied = forced ? [code, example, delay, fault] : [delay, fault];
      const text = applied.filter((token) => token !== undefined).join(', ');
      if (text !== '') headers['preference-applied'] = text;
    }
    if (fixedDate !== undefined) headers['date'] = fixedDate;
    const response: { status: number; headers: Record<string, string>; body?: unknown; delayMs?: number; fault?: Fault; notes?: readonly string[] } = { status, headers };
    if (body !== undefined) response.body = body;
    if (preferences?.delayMs) response.delayMs = preferences.delayMs;
    if (preferences?.fault) response.fault = preferences.fault;
    if (withNotes && notes && notes.length > 0) response.notes = notes;
    return response;
  };

  /** Whether the request being handled had its body read as JSON, for the journal (handle() is synchronous: one at a time). */
  let journalBodyRead = false;

  const preflight = (request: MockRequest): MockResponse => {
    // Admin paths never reach here: they are answered before any preflight, without CORS (admin-access.ts).
    const methods = anyMethodOnKnownPath(router.match('OPTIONS', request.path), request.headers);
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
    let unknownQuery: Record<string, string> | undefined;
    const fail = (answer: ErrorAnswer): MockResponse => respond(answer.status, answer.body, corsHeaders, deprecationHeaders, unknownQuery, preferences, notes);

    if (route.answers === undefined ? !acceptsJson(headerList(request.headers, 'accept')) : route.answers.refuses406 && !acceptsAnyOf(headerList(request.headers, 'accept'), route.answers.mediaTypes)) {
      // One type is named as the Pet Store's operations name theirs; several are listed.
      const types = route.answers?.mediaTypes ?? ['application/json'];
      const what = types.length === 1 ? `${types[0]} only; accept it (Accept: ${types[0]})` : `${types.join(', ')}; accept one of them`;
      return fail(errors.error('NOT_ACCEPTABLE', `This operation answers ${what} or leave Accept out.`));
    }

    // A form the operation takes is read by its form schema (form-body.ts); any other body that is not JSON is not read.
    const reading = route.form === undefined ? 'other' : formReading(route.otherBody !== true, request.body, request.headers);
    if (typeof reading === 'object' && !reading.ok) return fail(errors.error(reading.code, reading.message));
    const form = reading === 'form' ? route.form : undefined;
    const body = form !== undefined ? readFormBody(request.body, request.headers, form) : route.otherBody && request.body?.kind !== 'too-large' ? NO_JSON_BODY : readJsonBody(request.body, request.headers, route.expectsBody, MAX_BODY_DEPTH, route.beyondInt64);
    if (!body.ok) return fail(errors.error(body.code, body.message, body.details));
    journalBodyRead = body.value !== undefined;

    // The mock's own control headers: always checked, whatever --validation says.
    const control: Diagnostic[] = [];
    // A parameter the operation does not document is ignored by the contract, so a typo (`?stauts=sold`) would
    // silently answer every pet: name it in a header and the log, and refuse it under --validation strict.
    for (const name in request.query) {
      if (route.queryNames.has(name) || route.claimsQuery(name)) continue;
      unknownQuery ??= {};
      const listed = unknownQuery[UNKNOWN_QUERY_HEADER];
      const shown = encodeURIComponent(name).slice(0, 100);
      unknownQuery[UNKNOWN_QUERY_HEADER] = listed === undefined ? shown : `${listed}, ${shown}`;
      if (mode === 'strict') control.push({ pointer: `/query/${name}`, keyword: 'additionalProperties', message: `is not a query parameter of ${route.operation.operationId}; it takes ${[...route.queryNames].join(', ') || 'none'}` });
    }
    if (unknownQuery && mode !== 'strict') notes.push(`unknown query parameter ${unknownQuery[UNKNOWN_QUERY_HEADER]}, ignored (not documented for ${route.operation.operationId})`);
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
      const sessionName = session.ok ? session.session : undefined;
      const outcome = catalog.force(route.operation.operationId, preferences.code, preferences.example, {
        pathParams,
        body: body.value,
        locationTaken: (location) => exists(sessionName, location),
        // The Pet Store's forced refusals name its real records (the open order of the pet); a foreign document has no such words.
        // The generic engine's are its stated rules' words, about the records it holds (rule-book.ts forcedMessage).
        ...(engine.forcedMessage ? { ownMessage: (code: string, id: number, status: number) => engine.forcedMessage!(sessionName, code, id, status) } : {}),
      });
      if (outcome.ok) forced = outcome.answer;
      else control.push(...outcome.diagnostics);
    }

    const raw: RawParameters = { path: pathParams, query: request.query, headers: request.headers };
    const checked = validate(route, raw, body.value, control, notes, form);
    if (!checked.ok) return fail(errors.validationFailed(checked.diagnostics));

    if (deprecation?.isSunset(now ?? clock())) return fail(errors.error('OPERATION_SUNSET', deprecation.sunsetMessage(pathParams)));

    if (forced) return respond(forced.status, forced.body, corsHeaders, deprecationHeaders, withExtra(forced.headers, unknownQuery), preferences, notes, true);

    const sessionName = session.ok ? session.session : undefined;
    // A session dropped by a bound starts afresh with this request (the handler opened it): its answer says so, whatever it is.
    const tell = (response: MockResponse): MockResponse => {
      const dropped = sessionName === undefined ? undefined : sessions.dropNotice(sessionName);
      if (dropped !== undefined) response.headers[SESSION_DROPPED_HEADER] = dropped;
      return response;
    };
    let result: HandlerResult;
    try {
      result = route.handler({ session: sessionName, params: checked.values, pathParams, body: body.value, location: route.location });
    } catch (error) {
      notes.push(`internal error in ${route.operation.operationId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const what = 'failed';
      return tell(fail(errors.error('INTERNAL_ERROR', `The mock ${what} while handling ${route.operation.operationId}; nothing was changed. Please report it with the request.`)));
    }
    if ('error' in result) {
      // A handler saw a long id as JSON.parse rounded it; its message names the id as sent (body-integers.ts).
      const message = body.longIntegers ? withIntegersAsSent(result.error.message, body.longIntegers) : result.error.message;
      return tell(fail(errors.error(result.error.code, message)));
    }
    // The generic engine answers a refusal as a body (a rule's "No pet has id {petId}."): its message too.
    if (body.longIntegers && result.status >= 400) result = { ...result, body: withMessageAsSent(result.body, body.longIntegers) };
    return tell(respond(result.status, result.body, corsHeaders, deprecationHeaders, withExtra(result.headers, unknownQuery), preferences, notes));
  };

  /** Whether a GET of `path` (a created record's Location) finds a record: a forced 201 must not name one. */
  const exists = (session: string | undefined, path: string): boolean => {
    const match = router.match('GET', path);
    const route = match.kind === 'match' ? routes.get(match.operation.operationId) : undefined;
    if (!route || match.kind !== 'match') return false;
    const params = route.validators.parameters({ path: match.pathParams, query: {}, headers: {} });
    if (!params.ok) return false;
    try {
      // The Pet Store's handlers refuse with an error; the generic engine's answer the 404 as a status.
      const found = route.handler({ session, params: params.values, pathParams: match.pathParams, body: undefined, location: noLocation });
      return !('error' in found) && found.status < 400;
    } catch {
      return false;
    }
  };

  type Checked = { ok: true; values: ParsedParameters } | { ok: false; diagnostics: Diagnostic[] };

  /** What an operation's form schema says of a form body (form-body.ts), as its JSON validator says of a JSON one. */
  const formProblems = (schema: Schema, body: unknown, operation: Operation): Diagnostic[] => {
    if (body === undefined) return operation.requestBody?.required === true ? [{ pointer: '/body', keyword: 'required', message: 'a form body is required' }] : [];
    return compiled.validate(schema, body, 'request', '/body');
  };

  /** Step 5, per --validation: strict (400), warn (log, then the guard) or off (the guard only). */
  const validate = (route: Route, raw: RawParameters, body: unknown, control: readonly Diagnostic[], notes: string[], form?: Schema): Checked => {
    if (mode !== 'off' || !route.relaxed) {
      const params = route.parameters(raw);
      const bodyProblems = form !== undefined ? formProblems(form, body, route.operation) : route.otherBody ? [] : route.validators.body(body);
      if (params.ok && bodyProblems.length === 0 && control.length === 0) return params;
      const problems = [...control, ...(params.ok ? [] : params.diagnostics), ...bodyProblems];
      if (strictMode || !route.relaxed || control.length > 0) return { ok: false, diagnostics: problems };
      notes.push(`the request breaks the contract, let through by --validation warn: ${problems.map((d) => `${d.pointer} ${d.message}`).join('; ')}`);
    } else if (control.length > 0) {
      return { ok: false, diagnostics: [...control] };
    }
    // The guard: even relaxed, a value that would corrupt the store or break an answer is refused.
    const params = route.relaxed.parameters(raw);
    const bodyProblems = route.otherBody || form !== undefined ? [] : route.relaxed.body(body);
    if (params.ok && bodyProblems.length === 0) return params;
    return { ok: false, diagnostics: [...(params.ok ? [] : params.diagnostics), ...bodyProblems] };
  };

  return {
    contract,
    bodyLimit: (path) => (isAdminPath(path) ? admin.bodyLimit() : operationBodyLimit),
    internalError() {
      const answer = errors.error('INTERNAL_ERROR', 'The mock failed while handling this request; please report it with the request.');
      return respond(answer.status, answer.body, cors.responseHeaders({}));
    },
    unparsableRequest(message) {
      const answer = errors.error('VALIDATION_FAILED', message);
      return respond(answer.status, answer.body, cors.responseHeaders({}));
    },
    requestTimeout(message) {
      const answer = errors.error('REQUEST_TIMEOUT', message);
      return respond(answer.status, answer.body, cors.responseHeaders({}));
    },
    journal,
    basePath,
    startBackground: () => engine.startBackground?.(),
    close: () => engine.close?.(),
    carry: () => engine.carry?.(),
    reset: (session) => engine.reset?.(session),
    carried: engine.carried,
    fixtureProblems: () => engine.fixtureProblems?.() ?? [],
    handle(request) {
      // The document and its docs page are public and read-only: any page may read them.
      const page = docs?.answer(request.method, request.path);
      // The admin surface next, preflights included, and without CORS headers: no other origin may use it
      // (admin-access.ts); the request journal is part of it, since it holds what the front end sent.
      if (!page && isAdminPath(request.path)) {
        const answer = request.path === JOURNAL_PATH ? (admin.guard(request) ?? journalAnswer(request)) : admin.handle(request);
        return respond(answer.status, answer.body, NO_CORS, answer.headers);
      }
      if (isPreflight(request.method, request.headers)) return preflight(request);
      const corsHeaders = cors.responseHeaders(request.headers);
      if (page) {
        if ('refused' in page) {
          const answer = errors.error(page.refused === 'method' ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND', page.message);
          return respond(answer.status, answer.body, corsHeaders, page.refused === 'method' ? { allow: 'GET, HEAD' } : undefined);
        }
        return { status: page.status, headers: copiedHeaders(corsHeaders, { 'content-type': page.contentType }), raw: page.bytes };
      }
      journalBodyRead = false;
      const match = matchOf(request.method, request.path);
      const response = api(request, match, corsHeaders);
      journal.record(request, response.status, match.kind === 'match' ? match.operation.operationId : undefined, journalBodyRead);
      return response;
    },
  };

  function api(request: MockRequest, match: RouteMatch, corsHeaders: Readonly<Record<string, string>>): MockResponse {
    if (match.kind === 'no-path') {
      const answer = errors.error('ROUTE_NOT_FOUND', notFoundMessage(request));
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
    const draw = chaos?.draw(route.chaosStatuses);
    if (draw?.kind === 'status') {
      // A canned error of this operation, like `Prefer: code=`, instead of reaching the store.
      const outcome = catalog.force(route.operation.operationId, draw.status, undefined, { pathParams: match.pathParams, body: undefined });
      if (outcome.ok) {
        const { status, body, headers } = outcome.answer;
        return respond(status, body, corsHeaders, route.deprecation?.headers(match.pathParams), copiedHeaders(headers, { [CHAOS_HEADER]: `code=${status}` }), undefined, [`chaos: code=${status}`]);
      }
    }
    const answered = operation(request, route, match.pathParams, corsHeaders);
    // The generic engine checks every answer against the document before it leaves, and fits it where it can.
    const response = engine?.conform ? engine.conform(route.operation, answered, headerList(request.headers, 'accept')) : answered;
    if (draw?.kind !== 'fault') return response;
    // A fault strikes after the request was handled, as a dropped connection does: the change may have happened.
    return { ...response, fault: draw.fault, ...(withNotes ? { notes: [...(response.notes ?? []), `chaos: fault=${draw.fault}`] } : {}) };
  }

  /** A 404 that says what would have matched: the path under --base-path, or where the paths are listed. */
  function notFoundMessage(request: MockRequest): string {
    const where = `${request.method} ${clip(request.path)}`;
    if (basePath !== '' && !request.path.startsWith(`${basePath}/`) && router.match(request.method, `${basePath}${request.path}`).kind !== 'no-path') {
      return `No operation matches ${where}: this mock serves the API under the base path ${basePath} (--base-path); did you mean ${clip(`${basePath}${request.path}`)}?`;
    }
    return `No operation matches ${where}; see the paths of ${contract.title} ${contract.version} at /__mock/docs (the document itself: /openapi.yaml).`;
  }

  /** GET /__mock/requests (filtered by method, path, operationId, session), DELETE to forget them (journal.ts). */
  function journalAnswer(request: MockRequest): { status: number; body: unknown; headers?: Readonly<Record<string, string>> } {
    if (!JOURNAL_METHODS.includes(request.method)) {
      const allow = JOURNAL_METHODS.join(', ');
      const answer = errors.error('METHOD_NOT_ALLOWED', `${clip(request.method)} is not allowed on ${JOURNAL_PATH}; use ${allow}.`);
      return { ...answer, headers: { allow } };
    }
    if (request.method === 'DELETE') return { status: 200, body: { cleared: journal.clear() } };
    const filter: Record<string, string> = {};
    const problems: Diagnostic[] = [];
    for (const name in request.query) {
      const value = request.query[name];
      if (name !== 'method' && name !== 'path' && name !== 'operationId' && name !== 'session') {
        problems.push({ pointer: `/query/${name}`, keyword: 'additionalProperties', message: 'the journal filters by method, path, operationId and session only' });
      } else if (typeof value !== 'string') {
        problems.push({ pointer: `/query/${name}`, keyword: 'type', message: 'give each filter once' });
      } else {
        filter[name] = value;
      }
    }
    if (problems.length > 0) return errors.validationFailed(problems);
    const requests = journal.list(filter);
    return { status: 200, body: { count: requests.length, requests } };
  }
}

const noLocation: LocationOf = () => undefined;
const NO_JSON_BODY: BodyOutcome = Object.freeze({ ok: true as const, value: undefined });

/** Whether an operation of a foreign document takes media types other than JSON, and what its successes answer with (generic engine). */
function mediaOf(operation: Operation): Pick<Route, 'otherBody' | 'form' | 'answers'> {
  const content = operation.requestBody?.content ?? [];
  const otherBody = content.length > 0 && !content.some((media) => isJsonMediaType(media.mediaType));
  const form = formSchemaOf(operation);
  const mediaTypes = new Set<string>();
  for (const [status, response] of operation.responses) {
    if (/^2/.test(status) || status === 'default') for (const media of response.content) mediaTypes.add(media.mediaType);
  }
  const refuses406 = operation.responses.has('406') || operation.responses.has('4XX');
  // A success documented without content is answered as JSON, if at all: what such an Accept is weighed against.
  return { ...(otherBody ? { otherBody: true as const } : {}), ...(form !== undefined ? { form } : {}), answers: { mediaTypes: mediaTypes.size > 0 ? [...mediaTypes] : ['application/json'], refuses406 } };
}
const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

/** The query names an operation's object parameters take besides their own (parameter-text.ts); none for most. */
function queryClaims(operation: Operation): (name: string) => boolean {
  const query = operation.parameters.filter((p) => p.in === 'query');
  const names = new Set(query.map((p) => p.name));
  const claiming = query.filter((p) => p.mediaType === undefined && shapeOfSchema(p.schema) === 'object');
  if (claiming.length === 0) return () => false;
  return (name) => claiming.some((spec) => claimsQueryName(spec, name, names));
}

function copy(from: Readonly<Record<string, string>>, to: Record<string, string>): void {
  for (const name in from) {
    const value = from[name];
    if (value !== undefined) to[name] = value;
  }
}

/**
 * A preflight on a known path allows the documented methods AND the one asked for: a browser then sends a wrong
 * method for real and its code sees the 405 with `Allow` (RFC 9110 §15.5.6), instead of "TypeError: Failed to
 * fetch" from a refused preflight (Fetch §4.8 "CORS-preflight fetch").
 */
function anyMethodOnKnownPath(match: ReturnType<ReturnType<typeof createRouter>['match']>, headers: MockRequest['headers']): readonly string[] | undefined {
  if (match.kind !== 'no-method') return undefined;
  const requested = headerValue(headers, 'access-control-request-method')?.trim();
  if (requested === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/.test(requested) || match.allow.includes(requested)) return match.allow;
  return [...match.allow, requested];
}

function withExtra(headers: Readonly<Record<string, string>> | undefined, extra: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  if (!extra) return headers;
  return headers ? copiedHeaders(headers, extra) : extra;
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** The schema of an operation's JSON request body, where it documents one. */
function jsonRequestSchema(operation: Operation): Schema | undefined {
  const media = operation.requestBody?.content.find((m) => isJsonMediaType(m.mediaType));
  return media?.schema as Schema | undefined;
}
