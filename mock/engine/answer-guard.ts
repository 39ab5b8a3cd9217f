/**
 * The generic engine's last word on every answer (issue 32, point 1): no answer leaves that its document does not
 * allow, for any request the document allows.
 *
 * - **Status**: one the operation documents, or, for a refusal it documents no status for, the one the request
 *   deserves, as a real server's would (OpenAPI's responses need not be exhaustive); 400 and 422 stand for each other.
 * - **Media type**: the one the `Accept` prefers among those the status documents (RFC 9110 §12.5.1), JSON on a tie; an
 *   answer documented only as XML, CSV or text is written in it (media-text.ts).
 * - **Headers and body**: checked against the document and, where they do not match, fitted (conform.ts).
 * - **By construction**: each documented answer of each operation is proved once (a body and headers made from the
 *   document and checked against it): `prove()` says which no valid answer can be made for (proof-sweep.ts proves
 *   them all after start-up, for the log and `GET /__mock/resources`). An answer that still does not fit after fitting is replaced by the proved one for
 *   its status; where there is none, the operation answers a documented 5xx that can be made, else the kit's Error
 *   naming the spot of the document and why. An invalid answer never leaves as it is.
 *
 * The hot path stays a lookup: a check passed by an immutable body is remembered by its identity (mock/engine/json.ts).
 */
import { documentErrorSchema } from '../../src/contract/error-schema.js';
import type { MediaTypeSpec, Operation } from '../../src/contract/index.js';
import type { CompiledContract, Diagnostic } from '../../src/schema/index.js';
import { isJsonMediaType } from '../../src/schema/index.js';
import { preferredMediaType } from './accept.js';
import type { ErrorFactory } from './errors.js';
import { immutableJson, isImmutableJson, validAgainst } from './json.js';
import { copiedHeaders, type MockResponse } from './message.js';
import { fitTo, type Problems } from './conform.js';
import { documentedErrorBody, errorBodyOf, type ErrorWords } from './document-errors.js';
import type { ValueGenerator } from './generate.js';
import { concreteMediaType, textOf } from './media-text.js';
import { answerSpot, CANNOT_GENERATE, CANNOT_GENERATE_STATUS } from './unmakeable.js';
import type { AnswerPlan } from './plans.js';
import { asSchema, isObject, responseFor, type Schema } from './schemas.js';
import { hash } from './seeded.js';

/** A documented answer of an operation that no valid answer can be made for, and what is sent instead. */
export interface Unanswerable {
  readonly operationId: string;
  readonly status: string;
  /** The spot of the document (a JSON pointer into it) and what no value can satisfy there. */
  readonly where: string;
  readonly why: string;
  /** The status answered instead: a documented 5xx that can be made, or 501 with the kit's Error (CANNOT_GENERATE). */
  readonly answeredWith: number;
}

export interface AnswerGuard {
  /** The answer as the document allows it: the status, the media type the Accept prefers, headers and body checked. */
  conform(operation: Operation, response: MockResponse, accept?: string): MockResponse;
  /** Proves each documented answer of an operation (once; later calls look it up): those that cannot be made. */
  prove(operation: Operation): readonly Unanswerable[];
}

/**
 * A header an engine writes as fixed text around one part it encodes with `encodeURIComponent`: `prefix`, the part,
 * `suffix` (the Location of a create, `/pets/` and the new id). Lower-cased `name`.
 */
export interface TemplatedHeader {
  readonly name: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface AnswerGuardOptions {
  readonly compiled: CompiledContract;
  readonly planOf: (operation: Operation, status: number) => AnswerPlan;
  readonly errors: ErrorFactory;
  /** `--seed`: what fitting and proofs fill in is the same on every run. */
  readonly seed: number;
  /** A generator from a seed, within the engine's generation budget (`--generation-budget`). */
  readonly generatorFor: (seed: number) => ValueGenerator;
  /** The header an operation's answers may carry as a template (templatedPasses), if any. */
  readonly templatedHeader?: (operation: Operation) => TemplatedHeader | undefined;
}

/** A documented answer made once from the document and checked against it, or why none can be. */
type Proof =
  | { readonly ok: true; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body?: unknown; readonly raw?: string }
  | { readonly ok: false; readonly status: number; readonly where: string; readonly why: string };

const REFUSAL_ALIASES: Readonly<Record<number, number>> = { 400: 422, 422: 400 };
/** How many passed checks an immutable body keeps per operation and status (the header values it was sent with). */
const KEPT_PASSES = 16;

export function createAnswerGuard({ compiled, planOf, errors, seed, generatorFor, templatedHeader }: AnswerGuardOptions): AnswerGuard {
  const generator = generatorFor(seed);
  const problems: Problems = (schema, value) => compiled.validate(schema, value, 'response');
  const valid = (schema: Schema, value: unknown): boolean => problems(schema, value).length === 0;

  /**
   * The checks passed, remembered by the identity of an immutable body (mock/engine/json.ts: it and everything in it can
   * never change) with the operation and status (one plan each) and the values of every header the check reads: the
   * same validator given the same input gives the same verdict, so a record read again is not checked again (issue
   * 22, point 8). Header values are compared as strings, with no key built per request.
   */
  const passed = new WeakMap<object, Map<AnswerPlan, (string | undefined)[][]>>();
  const hasPassed = (body: object, plan: AnswerPlan, headers: Readonly<Record<string, string>>): boolean => {
    const seen = passed.get(body)?.get(plan);
    if (!seen) return false;
    const names = plan.checkedHeaders;
    // Loops rather than `some` with a function: asked on every read.
    next: for (const values of seen) {
      for (let i = 0; i < names.length; i += 1) if (headers[names[i]!] !== values[i]) continue next;
      return true;
    }
    return false;
  };
  const rememberPass = (body: object, plan: AnswerPlan, headers: Readonly<Record<string, string>>): void => {
    let byPlan = passed.get(body);
    if (!byPlan) passed.set(body, (byPlan = new Map()));
    let seen = byPlan.get(plan);
    if (!seen) byPlan.set(plan, (seen = []));
    // Bounded: a header generated afresh for each answer would add a new entry every time.
    if (seen.length < KEPT_PASSES) seen.push(plan.checkedHeaders.map((name) => headers[name]));
  };

  /**
   * A write's answer is a new record (validated when made: mock/engine/json.ts validAgainst) with a new Location, so no check
   * of it is ever remembered by its body; yet the verdict the validator gives it depends on its header values alone,
   * and the Location's on nothing but its template. Per operation and status, where that holds, the values of the
   * other headers checked that passed with a record proven against the answer's schema and a Location of the template
   * (issue 34, point 1): an answer with those values, such a record and such a Location gets the same verdict, so the
   * validator is not run for it. It holds where
   * - the answer documents one JSON media type, whose schema is the one the record was proven against (the validator
   *   then skips the body, and checks the header values and the media type only);
   * - the templated header is documented with a schema that says nothing but `type: string` and `format:
   *   uri-reference` (or no format): a path whose fixed text is `/`-separated segments of RFC 3986 path characters, and
   *   whose varying part is what `encodeURIComponent` writes (unreserved characters, `!'()*` and `%XX`, all of them path
   *   characters, at least one), is a URI reference whatever that part is (RFC 3986 §4.1, `path-absolute`).
   * Anything else is checked as before.
   */
  interface TemplatedPasses {
    readonly header: TemplatedHeader;
    /** The other headers the check reads (plan.checkedHeaders but the templated one), in order. */
    readonly others: readonly string[];
    /** Their values, for each answer that passed so. */
    readonly passed: (string | undefined)[][];
  }
  const templated = new Map<AnswerPlan, TemplatedPasses | null>();
  const templatedPasses = (operation: Operation, status: number, plan: AnswerPlan): TemplatedPasses | undefined => {
    let known = templated.get(plan);
    if (known === undefined) templated.set(plan, (known = templatedPassesOf(operation, status, plan) ?? null));
    return known ?? undefined;
  };
  const templatedPassesOf = (operation: Operation, status: number, plan: AnswerPlan): TemplatedPasses | undefined => {
    const header = templatedHeader?.(operation);
    if (!header || plan.key === undefined || plan.schema === undefined) return undefined;
    if (plan.content.filter((media) => isJsonMediaType(media.mediaType)).length !== 1) return undefined;
    if (!PATH_ABSOLUTE_TEXT.test(header.prefix) || !PATH_TEXT.test(header.suffix)) return undefined;
    const spec = responseFor(operation, status)?.headers.find((h) => h.name.toLowerCase() === header.name);
    if (!spec?.schema || !substitutable(spec.schema)) return undefined;
    return { header, others: plan.checkedHeaders.filter((name) => name !== header.name), passed: [] };
  };
  /** Whether `headers` are a proven record's answer's the templated passes hold for: see TemplatedPasses. */
  const passedAsTemplated = (passes: TemplatedPasses, headers: Readonly<Record<string, string>>): boolean => {
    const value = headers[passes.header.name];
    if (value === undefined || !fitsTemplate(value, passes.header)) return false;
    const names = passes.others;
    // Loops, not a closure: this runs for every create.
    for (const values of passes.passed) {
      let same = true;
      for (let i = 0; same && i < names.length; i += 1) same = headers[names[i]!] === values[i];
      if (same) return true;
    }
    return false;
  };

  const proofs = new Map<Operation, Map<string, Proof>>();
  /** The proof of the documented answer `status` falls under, made on first need. */
  const proofOf = (operation: Operation, key: string): Proof => {
    let byKey = proofs.get(operation);
    if (!byKey) proofs.set(operation, (byKey = new Map()));
    let proof = byKey.get(key);
    if (!proof) byKey.set(key, (proof = provedOrEndless(operation, key)));
    return proof;
  };
  /**
   * A schema that refers to itself with no value in between (Okta's `JsonSigningWebKey`: `oneOf` a `JsonWebKeyEC`
   * whose `allOf` is the `JsonSigningWebKey` again) has its validator call itself without end: the stack overflowed
   * in the proof sweep, out of any request, and the process died. Such an answer can be judged by no validator, so
   * none is made: it is declared like any other unmakeable answer.
   */
  const provedOrEndless = (operation: Operation, key: string): Proof => {
    try {
      return prove(operation, key);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return endless(operation, representative(operation, key), key);
    }
  };
  const endless = (operation: Operation, status: number, key: string): Proof & { readonly ok: false } => ({
    ok: false,
    status,
    where: `#/paths/${pointerText(operation.pathTemplate)}/${operation.method}/responses/${pointerText(key)}`,
    why: 'its schema refers to itself with no value in between (an allOf/oneOf loop), so no answer can be checked against it',
  });

  const prove = (operation: Operation, key: string): Proof => {
    const validators = compiled.operations.get(operation.operationId)!;
    const status = representative(operation, key);
    const plan = planOf(operation, status);
    const own = generatorFor(seed ^ hash(`${operation.operationId} ${key}`));
    const where = `/paths/${pointerText(operation.pathTemplate)}/${operation.method}/responses/${pointerText(key)}`;
    const media = plan.content.find((m) => isJsonMediaType(m.mediaType));
    const other = media ? undefined : plan.content[0];
    let last: readonly Diagnostic[] = [];
    for (let variant = 0; variant < 3; variant += 1) {
      const headers = declaredHeaders(plan, {}, own, variant);
      if (other) {
        headers['content-type'] = concreteMediaType(other.mediaType);
        last = validators.response(status, headers, undefined).diagnostics;
        if (last.length === 0) return { ok: true, status, headers, raw: textOf(other.mediaType, exampleOrValue(other, own, variant), other.schema) };
        continue;
      }
      if (!media) {
        last = validators.response(status, headers, undefined).diagnostics;
        if (last.length === 0) return { ok: true, status, headers };
        continue;
      }
      headers['content-type'] = plan.jsonType ?? 'application/json';
      const schema = media.schema ?? {};
      const attempt = own.attempt(schema, 'response', variant, 0, '', answerSpot(operation, status, media.mediaType));
      // No value within the generation budget (src/generate): the generator's own words say where and why.
      if (!attempt.ok && media.examples.size === 0) return { ok: false, status, where: attempt.why.at, why: attempt.why.message };
      const candidates = [...(variant === 0 ? media.examples.values() : []), ...(attempt.ok ? [attempt.value] : [])];
      // Nothing to fit (the examples were tried on the first turn): the generator's own words say where and why, not a
      // validator told of a missing body (PagerDuty's invocations: "at /body: … none was sent", for two equal oneOf branches).
      if (candidates.length === 0 && !attempt.ok) return { ok: false, status, where: attempt.why.at, why: attempt.why.message };
      for (const candidate of candidates) {
        last = validators.response(status, headers, candidate).diagnostics;
        if (last.length === 0) return { ok: true, status, headers, body: immutableJson(candidate) };
      }
      const fitted = fitTo(candidates[0], schema, own, 'response', problems);
      last = validators.response(status, headers, fitted).diagnostics;
      if (last.length === 0) return { ok: true, status, headers, body: immutableJson(fitted) };
    }
    const first = last[0];
    return { ok: false, status, where: `#${where}${first ? ` at ${first.pointer}` : ''}`, why: first?.message ?? 'no answer could be made' };
  };

  /**
   * What an operation answers when it cannot make the answer it documents: a documented 5xx it can make (the
   * document's own error), else the kit's Error, 501 CANNOT_GENERATE (unmakeable.ts), naming the spot and why.
   */
  const refusal = (operation: Operation, failed: Proof & { readonly ok: false }, base: MockResponse): MockResponse => {
    const message = `The mock cannot make an answer ${operation.operationId} documents for ${failed.status}: ${failed.where}: ${failed.why} (said at start-up and in GET /__mock/resources).`;
    const notes = [...(base.notes ?? []), message];
    const serverError = serverErrorProof(operation);
    if (serverError) {
      const words: ErrorWords = { status: serverError.status, code: 'INTERNAL_ERROR', message };
      const documented = serverError.body !== undefined ? documentedErrorBody(operation, words, generator, valid) : undefined;
      const headers = copiedHeaders(base.headers, serverError.headers);
      const body = documented?.kind === 'body' && documented.body !== undefined && compiled.operations.get(operation.operationId)!.response(serverError.status, headers, documented.body).diagnostics.length === 0 ? documented.body : serverError.body;
      return withBody({ ...base, status: serverError.status, headers, notes }, body, serverError.raw);
    }
    const answer = errors.error('INTERNAL_ERROR', message);
    const headers = copiedHeaders(base.headers, { 'content-type': 'application/json' });
    return withBody({ ...base, status: CANNOT_GENERATE_STATUS, headers, notes }, { ...answer.body, code: CANNOT_GENERATE, status: CANNOT_GENERATE_STATUS });
  };

  /** The lowest documented 5xx whose answer can be made. */
  const serverErrorProof = (operation: Operation): (Proof & { readonly ok: true }) | undefined => {
    const keys = [...operation.responses.keys()].filter((key) => /^5(\d\d|XX)$/.test(key) || key === 'default').sort();
    for (const key of keys) {
      const proof = proofOf(operation, key);
      if (proof.ok && proof.status >= 500) return proof;
    }
    return undefined;
  };

  /** An answer in a documented media type other than JSON: the value the JSON answer would have held, written in it. */
  const otherMediaAnswer = (operation: Operation, response: MockResponse, status: number, plan: AnswerPlan, media: MediaTypeSpec): MockResponse => {
    const headers = declaredHeaders(plan, response.headers, generator, 0);
    headers['content-type'] = concreteMediaType(media.mediaType);
    let value: unknown = response.body;
    if (status >= 400) {
      const words = wordsOf(status, response.body);
      // The error's words in the document's error schema where it gives one (`<error><code/><message/></error>`).
      value = media.schema ? fitTo(words, media.schema, generator, 'response', problems) : words;
    } else if (value === undefined) {
      value = exampleOrValue(media, generatorFor(seed ^ hash(operation.operationId)), 0);
    }
    const out: MockResponse = { ...response, status, headers, raw: textOf(media.mediaType, value, media.schema) };
    return withoutBody(out);
  };

  /** An error of a status its operation does not document, reshaped into the document-wide Error schema. */
  const documentError = documentErrorSchema(compiled.contract);
  const inDocumentErrorShape = (response: MockResponse, status: number): MockResponse => {
    if (!documentError || !isObject(response.body) || response.raw !== undefined) return response;
    if (valid(documentError, response.body)) return response;
    const body = errorBodyOf(documentError, [], wordsOf(status, response.body), generator, valid);
    if (body === undefined || !valid(documentError, body)) return response;
    return withBody({ ...response, headers: { ...response.headers, 'content-type': 'application/json' } }, immutableJson(body));
  };

  const conform = (operation: Operation, response: MockResponse, accept?: string): MockResponse => {
    try {
      return conformed(operation, response, accept);
    } catch (error) {
      // The validator of a schema that refers to itself without end (provedOrEndless): the declared refusal.
      if (!(error instanceof RangeError)) throw error;
      const key = planOf(operation, response.status).key ?? String(response.status);
      const proof = proofOf(operation, key);
      return refusal(operation, proof.ok ? endless(operation, response.status, key) : proof, response);
    }
  };
  const conformed = (operation: Operation, response: MockResponse, accept?: string): MockResponse => {
    const validators = compiled.operations.get(operation.operationId);
    if (!validators || response.raw !== undefined) return response;
    // The plan of the status meant says whether it is documented (its key): the hot path looks nothing else up.
    const meant = planOf(operation, response.status);
    const status = meant.key !== undefined ? response.status : documentedStatus(operation, response.status);
    const plan = status === response.status ? meant : planOf(operation, status);
    const other = plan.otherMedia === undefined && (accept === undefined || plan.mediaTypes.length < 2) ? undefined : otherMediaOf(plan, accept);
    if (other) return otherMediaAnswer(operation, response, status, plan, other);
    const given = response.headers;
    let body = response.body;
    // A JSON media type documented with parameters (`application/json;okta-version=1.0.0`) is sent as documented.
    const typed = plan.jsonType?.includes(';') === true && body !== undefined;
    // The headers as given where they hold every header the answer requires and keep their media type: read, not
    // copied (app.ts builds them afresh for each answer, so the answer may keep them); copied before anything below
    // changes them. A copy on every read was a tenth of GET /pets/{petId} on the generic engine (issue 34, point 1).
    let headers = !typed && holdsRequired(plan, given) ? given : declaredHeaders(plan, given, generator, 0);
    if (typed) headers['content-type'] = plan.jsonType!;
    const immutableBody = isImmutableJson(body) ? body : undefined;
    if (status === response.status && immutableBody && hasPassed(immutableBody, plan, headers)) return withHeaders(response, headers);
    // A stored record answered bare under the schema it was validated against when stored (mock/engine/json.ts
    // validAgainst): its body's validator is not run again; the status, media type and headers are.
    const proven = validAgainst(body);
    // A new record proven so, with header values that passed before but for a templated one (TemplatedPasses).
    const passes = status === response.status && proven !== undefined && proven === plan.schema ? templatedPasses(operation, status, plan) : undefined;
    if (passes && passedAsTemplated(passes, headers)) return withHeaders(response, headers);
    let verdict = validators.response(status, headers, body, proven);
    // A status of a class the operation documents none of: the one the request deserves, in the document's Error
    // shape where it has one (src/contract/error-schema.ts, the runner's rule too), else as it is.
    if (verdict.statusKey === undefined) return status >= 400 ? inDocumentErrorShape({ ...response, headers }, status) : { ...response, headers };
    if (verdict.diagnostics.length === 0 && status === response.status) {
      // Remembered for a read (a record is read again and again), and wherever the body's own check ran; a write's
      // answer of a proven record is seldom sent again, and its check would cost its headers' alone.
      if (immutableBody && (proven !== plan.schema || operation.method === 'get')) rememberPass(immutableBody, plan, headers);
      const value = passes ? headers[passes.header.name] : undefined;
      if (passes && value !== undefined && fitsTemplate(value, passes.header) && passes.passed.length < KEPT_PASSES) passes.passed.push(passes.others.map((name) => headers[name]));
      return withHeaders(response, headers);
    }
    if (headers === given) headers = copiedHeaders(given);
    // A refusal sent under another status (400 as the 422 the operation documents) says that status in its body too.
    if (status >= 400) {
      const documented = documentedErrorBody(operation, wordsOf(status, body), generator, valid);
      if (documented.kind === 'body') body = documented.body;
    } else if (plan.schema) {
      // Seeded per operation, so what a repair fills in is the same on every call (two reads in a row agree).
      generator.faker.seed(hash(operation.operationId) ^ seed);
      body = fitTo(body, plan.schema, generator, 'response', problems);
    }
    if (body === undefined) delete headers['content-type'];
    else headers['content-type'] = plan.jsonType ?? headers['content-type'] ?? 'application/json';
    verdict = validators.response(status, headers, body);
    const out: MockResponse = { ...response, status, headers };
    if (verdict.diagnostics.length === 0) return withBody(out, body);
    // Still not what the document allows: the proved answer for this status, else the declared refusal.
    const proof = proofOf(operation, verdict.statusKey ?? plan.key ?? String(status));
    const notes = [...(response.notes ?? []), `the answer did not fit the document at ${verdict.diagnostics.slice(0, 3).map((d) => `${d.pointer} ${d.message}`).join('; ')}`];
    if (!proof.ok) return refusal(operation, proof, { ...out, notes });
    const proved = copiedHeaders(headers, proof.headers);
    for (const diagnostic of verdict.diagnostics) {
      const name = /^\/header\/([^/]+)/.exec(diagnostic.pointer)?.[1];
      if (name !== undefined && proof.headers[name] === undefined) delete proved[name];
    }
    const candidate = withBody({ ...out, headers: proved, notes: [...notes, `answered the document's proved ${proof.status} instead`] }, proof.body, proof.raw);
    if (proof.raw === undefined && validators.response(status, proved, proof.body).diagnostics.length > 0) return refusal(operation, { ok: false, status, where: `the headers of ${operation.operationId}`, why: verdict.diagnostics[0]!.message }, { ...out, notes });
    return candidate;
  };

  return {
    conform,
    prove(operation) {
      const out: Unanswerable[] = [];
      for (const key of operation.responses.keys()) {
        const proof = proofOf(operation, key);
        if (!proof.ok) out.push({ operationId: operation.operationId, status: key, where: proof.where, why: proof.why, answeredWith: serverErrorProof(operation)?.status ?? CANNOT_GENERATE_STATUS });
      }
      return out;
    },
  };
}

/**
 * The status to answer for the one the engine means: itself when documented; else 400 or 422, whichever the
 * operation documents, for a refusal of the other (RFC 9110 §15.5.1 vs RFC 4918 §11.2); else, for a server error, the
 * 5xx the operation documents; else the status itself: a 404 for a record that is not there is what the request
 * deserves, and no other status the operation documents says so (a 400 would tell the client its request was
 * malformed).
 */
export function documentedStatus(operation: Operation, status: number): number {
  if (responseFor(operation, status)) return status;
  const alias = REFUSAL_ALIASES[status];
  if (alias !== undefined && operation.responses.has(String(alias))) return alias;
  // A server error says the same whatever its code ("the server could not"): the one the operation documents.
  const documented5xx = status >= 500 ? [...operation.responses.keys()].filter((key) => /^5\d\d$/.test(key)).sort()[0] : undefined;
  return documented5xx !== undefined ? Number(documented5xx) : status;
}

/** A status whose documented answer is `key`: the code itself, the first of a range it covers, or one `default` covers. */
function representative(operation: Operation, key: string): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  const range = /^(\d)XX$/i.exec(key);
  const candidates = range ? Array.from({ length: 100 }, (_, i) => Number(range[1]) * 100 + i) : [500, 400, 200, ...Array.from({ length: 500 }, (_, i) => 100 + i)];
  return candidates.find((status) => responseFor(operation, status)?.status === key) ?? candidates[0]!;
}

/** A media type other than JSON that the answer is sent in: the only kind it documents, or the one the Accept prefers. */
function otherMediaOf(plan: AnswerPlan, accept: string | undefined): MediaTypeSpec | undefined {
  if (plan.content.length === 0) return undefined;
  if (plan.otherMedia) {
    const preferred = preferredMediaType(accept, plan.mediaTypes);
    return plan.content.find((m) => m.mediaType === preferred) ?? plan.otherMedia;
  }
  const preferred = preferredMediaType(accept, plan.mediaTypes);
  return preferred === undefined || isJsonMediaType(preferred) ? undefined : plan.content.find((m) => m.mediaType === preferred);
}

/** Every header the documented response requires, generated from its schema where the answer lacks it. */
/** The response with these headers: itself where they are its own. */
function withHeaders(response: MockResponse, headers: Record<string, string>): MockResponse {
  return headers === response.headers ? response : { ...response, headers };
}

/** The lower-cased names of the headers a plan requires, by plan (made once). */
const requiredNames = new WeakMap<AnswerPlan, readonly string[]>();

/** Whether `given` holds every header the plan requires: declaredHeaders would then add none. */
function holdsRequired(plan: AnswerPlan, given: Readonly<Record<string, string>>): boolean {
  let names = requiredNames.get(plan);
  if (names === undefined) requiredNames.set(plan, (names = plan.requiredHeaders.map((header) => header.name.toLowerCase())));
  for (const name of names) if (given[name] === undefined) return false;
  return true;
}

function declaredHeaders(plan: AnswerPlan, given: Readonly<Record<string, string>>, generator: ValueGenerator, variant: number): Record<string, string> {
  const headers = copiedHeaders(given);
  for (const header of plan.requiredHeaders) {
    const name = header.name.toLowerCase();
    if (headers[name] !== undefined) continue;
    const value = generator.value(asSchema(header.schema), 'response', variant, 1, name);
    // Nothing within the generation budget: the header stays out, and the check names it.
    if (value !== undefined) headers[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return headers;
}

/** A media type's string example, else a value of its schema (or a sentence, for a media type with none). */
function exampleOrValue(media: MediaTypeSpec, generator: ValueGenerator, variant: number): unknown {
  const examples = [...media.examples.values()];
  const example = examples.find((value) => typeof value === 'string') ?? examples[0];
  if (example !== undefined && variant === 0) return example;
  return media.schema ? generator.value(media.schema, 'response', variant) : generator.faker.lorem.sentence();
}

/** What an error answer says: its own code and message where it is a plain Error, else the status's. */
function wordsOf(status: number, body: unknown): ErrorWords {
  const plain = isObject(body) ? body : {};
  return { status, code: typeof plain['code'] === 'string' ? plain['code'] : 'ERROR', message: typeof plain['message'] === 'string' ? plain['message'] : `HTTP ${status}` };
}

/** RFC 3986 path characters (`pchar`, `%XX` included) and `/`: the fixed text of a templated header. */
const PATH_TEXT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
/** The same, starting with one `/` (a `path-absolute`, not a `//` authority). */
const PATH_ABSOLUTE_TEXT = /^\/(?!\/)(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
/** The characters `encodeURIComponent` leaves as they are (RFC 3986 unreserved, and `!'()*`), by code below 128. */
const UNESCAPED = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") UNESCAPED[c.charCodeAt(0)] = 1;
/** What a header schema may hold beside `type: string` and `format: uri-reference` and still say nothing of a value. */
const ANNOTATIONS = new Set(['type', 'format', 'nullable', 'description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs']);

/** A header schema any URI reference meets: a string, of format `uri-reference` or none, and only annotations. */
function substitutable(schema: Schema | Readonly<Record<string, unknown>>): boolean {
  const own = schema as Readonly<Record<string, unknown>>;
  if (own['type'] !== 'string' || (own['format'] !== undefined && own['format'] !== 'uri-reference')) return false;
  return Object.keys(own).every((key) => ANNOTATIONS.has(key) || key.startsWith('x-'));
}

/** `value` is the template's prefix, a part `encodeURIComponent` could have written, and its suffix. */
function fitsTemplate(value: string, template: TemplatedHeader): boolean {
  const { prefix, suffix } = template;
  return value.length > prefix.length + suffix.length && value.startsWith(prefix) && value.endsWith(suffix) && encodedPart(value, prefix.length, value.length - suffix.length);
}

/**
 * Whether `value` from `from` to `to` is what `encodeURIComponent` writes: characters it leaves, and `%XX` with
 * upper-case hex digits. Read in place, with no slice or regular expression: each create's Location is read so (a CPU
 * profile of POST /pets on the generic engine; issue 34, point 1).
 */
function encodedPart(value: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = value.charCodeAt(at);
    if (code < 128 && UNESCAPED[code] === 1) continue;
    if (code !== 37 || at + 2 >= to || !upperHex(value.charCodeAt(at + 1)) || !upperHex(value.charCodeAt(at + 2))) return false;
    at += 2;
  }
  return true;
}

function upperHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70);
}

/** RFC 6901: `~` and `/` escaped. */
function pointerText(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function withBody(response: MockResponse, body: unknown, raw?: string): MockResponse {
  if (raw !== undefined) return { ...withoutBody(response), raw };
  return body === undefined ? withoutBody(response) : { ...response, body };
}

function withoutBody(response: MockResponse): MockResponse {
  const { body: _body, ...rest } = response;
  return rest;
}
