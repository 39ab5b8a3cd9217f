/**
 * What a check works with: the contract and its validators, the link model,
 * the generator, the HTTP client, and the recorder that sees every exchange
 * (for the response-family checks, coverage and cleanup). A check opens a
 * `Case` per thing it tries; the case collects its evidence and ends in one
 * CheckResult.
 */
import type { Contract, Operation, ParameterSpec } from '../src/contract/index.js';
import type { GenerationBudget } from '../src/generate/index.js';
import type { CompiledContract } from '../src/schema/index.js';
import { CleanupRegistry } from './cleanup.js';
import { UNSAFE_PATH } from './safe-path.js';
import { Credentials, isCredentialRefusal } from './credentials.js';
import { CoverageRecorder } from './coverage.js';
import { encodeBody, otherBodyMedia } from './bodies.js';
import { bodyCandidates, Generator, isObject, jsonBodyOf, mergeAllOf, parameterCandidates, propertiesOf, schema, type JsonObject } from './generate.js';
import { HttpClient, type HttpRequest, type HttpResult } from './http.js';
import { parseJson, plainJson, reportableJson, stringifyJson } from './json.js';
import { evaluateExpression, identityField, linkParameter, type ExpressionSource, type LinkModel, type LinkTarget, type ResourceKind } from './links.js';
import { NOT_RUN_PREFIX, type CheckResult, type Exchange, type Finding } from './model.js';
import { cookieHeader, serializeParameter } from './serialize.js';
import { enveloped, ownIntegerKeys } from './own-keys.js';
import { SharedRecords } from './shared-records.js';

export type ExchangeTarget =
  | { readonly kind: 'operation'; readonly operation: Operation }
  | { readonly kind: 'unmatched'; readonly which: 'unknownPath' | 'wrongMethod' }
  /** Not a request the document describes (a CORS preflight): no response check applies. */
  | { readonly kind: 'none' };

/** One exchange as the recorder keeps it: who made it, what it was for, and the full result. */
export interface RecordedExchange {
  readonly seq: number;
  readonly checkId: string;
  readonly target: ExchangeTarget;
  readonly method: string;
  /** The path relative to the base URL, without the query (`/pets/12`). */
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  /** The body sent, parsed back from the exact text, when it was JSON. */
  readonly requestJson?: unknown;
  readonly result: HttpResult;
}

/** A parameter's value before it is written as text; a bigint is an int64 id past 2^53, written digit for digit; objects and arrays are written by the parameter's style (serialize.ts). */
export type ParamValue = string | number | bigint | boolean | readonly (string | number | bigint | boolean)[] | ParamObject;
export type ParamObject = { readonly [key: string]: string | number | boolean };

export interface CallInput {
  readonly path?: Readonly<Record<string, ParamValue>>;
  readonly query?: Readonly<Record<string, ParamValue | undefined>>;
  /** A JSON value, serialized with stringifyJson (bigint ids digit for digit). */
  readonly body?: unknown;
  /** The exact text to send instead of `body`. */
  readonly bodyText?: string;
  /** The Content-Type to send with a body; null sends none. Default application/json. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The outcome of one call, with what the checks ask of it most. */
export interface Call {
  readonly result: HttpResult;
  readonly status?: number;
  /** The JSON body, when there is one. */
  readonly json?: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** Why there is nothing to judge: a transport error or a redirect, in words. */
  readonly problem?: string;
  readonly source: ExpressionSource;
  readonly path: string;
}

export interface CreatedRecord {
  readonly kind: ResourceKind;
  /** The body sent. */
  readonly sent: JsonObject;
  /** The body of the 201. */
  readonly body: JsonObject;
  readonly call: Call;
}

export type CreateOutcome =
  | { readonly ok: true; readonly record: CreatedRecord }
  /** `setup` is true when a record the check needed (not the one it tests) could not be made. */
  | { readonly ok: false; readonly reason: string; readonly setup: boolean; readonly transport: boolean; readonly noValidInput?: boolean };

export interface RunSettings {
  readonly readOnly: boolean;
  readonly origin?: string;
  /** Names of the `--header` headers (a preflight announces them). */
  readonly headerNames: readonly string[];
  /** The checks that send requests a correct server refuses (invalid inputs, absent ids, wrong methods): their 4xx answers are expected. */
  readonly provokingChecks?: ReadonlySet<string>;
  /** `--generation-budget`: the caps on one generated value (src/generate/budget.ts); the defaults when absent. */
  readonly generationBudget?: GenerationBudget;
}

export class RunContext {
  readonly results: CheckResult[] = [];
  /** Counted per exchange, not kept: no response body outlives the check that asked for it (issue 12, finding 2). */
  readonly coverage: CoverageRecorder;
  /** How many exchanges the run recorded. */
  exchangeCount = 0;
  readonly cleanup: CleanupRegistry;
  /**
   * Reads found not to be stable (two reads, nothing sent between, different
   * declared fields), by what they read (`record getPet`, `count listPets`):
   * no difference in them is blamed on a request (checks/support.ts).
   */
  readonly unstableReads = new Map<string, string>();
  /** Records the run does not own, written and observed in turns (shared-records.ts). */
  readonly sharedRecords = new SharedRecords();
  /** Counts the calls that had optional header or cookie parameters to send or leave out (Case.varyOptional). */
  optionalTurns = 0;
  private seq = 0;
  private interrupted = false;
  private readonly holds = new Map<string, CheckResult[]>();
  /** Answers a passive check found breaking the document's schema or media type, with who found it: what later failures may only be consequences of. */
  readonly brokenAnswers = new WeakMap<Exchange, { readonly checkId: string; readonly operationId?: string }>();
  private readonly generators = new Map<string, Generator>();
  /**
   * Operations that document no 4xx answer at all (no 4xx code, no 4XX, no default), whose 4xx answers to the run's
   * deliberately invalid requests status-documented therefore did not judge: the document's silence, said once.
   */
  readonly silentOnErrors = new Set<string>();
  /**
   * Operations that document no success answer at all (no 2xx code, no 2XX, no default), whose 2xx answers
   * status-documented therefore did not judge: nothing in the document says which success status is right.
   */
  readonly silentOnSuccess = new Set<string>();
  /** Which operations need credentials the run does not send (credentials.ts). */
  readonly credentials: Credentials;

  /**
   * Why a request with these path values is one the operation's own parameters rule out (an order id 20 where
   * getOrderById takes 1 to 10, while the Order schema bounds nothing), as `getOrderById does not take /path/orderId
   * (must be <= 10): the document itself rules that request out`; undefined when they pass. A value the target gave
   * back that way is the document contradicting itself, not the target: the refusal it would get says nothing.
   */
  ruledOutPath(operation: Operation, path: Readonly<Record<string, ParamValue>>): string | undefined {
    const validators = this.compiled.operations.get(operation.operationId);
    if (!validators) return undefined;
    const texts = Object.fromEntries(Object.entries(path).map(([name, value]) => [name, Array.isArray(value) ? String(value[0] ?? '') : String(value)]));
    const checked = validators.parameters({ path: texts, query: {}, headers: {} });
    const first = checked.ok ? undefined : checked.diagnostics.find((d) => d.pointer.startsWith('/path/'));
    return first ? `${operation.operationId} does not take ${first.pointer} (${first.message}): the document itself rules that request out` : undefined;
  }

  constructor(
    readonly contract: Contract,
    readonly compiled: CompiledContract,
    readonly links: LinkModel,
    /** --seed: each check gets its own generator from it, so checks running side by side still send the same values run after run. */
    readonly seed: number,
    /** Short and unique per run: the suffix of every name the run makes up, so it never collides with data already there. */
    readonly runTag: string,
    readonly client: HttpClient,
    readonly settings: RunSettings,
    /** The operations --only/--skip leave in. */
    readonly selectedOperations: ReadonlySet<string>,
    private readonly listener: { onExchange(x: RecordedExchange): void; onResult(r: CheckResult): void },
  ) {
    this.cleanup = new CleanupRegistry(runTag);
    this.coverage = new CoverageRecorder(contract);
    this.credentials = new Credentials(contract, settings.headerNames);
  }

  /** A value its schema accepts for a parameter (generate.ts parameterCandidates, validated here before it is sent), or undefined when none is. */
  validParameterValue(parameter: ParameterSpec, generator: Generator): ParamValue | undefined {
    const value = parameterCandidates(parameter, generator).find((candidate) => this.compiled.validate(parameter.schema, candidate, 'request').length === 0);
    return value === undefined ? undefined : toParamValue(value);
  }

  /**
   * `query` with each required query parameter the link left out taken from the record as it was sent, where it
   * has a field of that name the parameter accepts: Adyen's `DELETE /storedPaymentMethods/{id}` requires the
   * shopperReference and merchantAccount the record was stored with, and a made-up pair names no record. What the
   * record cannot give is left to the call, which fills it with a valid value.
   */
  recordQuery(operation: Operation, query: Readonly<Record<string, ParamValue>>, sent: unknown): Record<string, ParamValue> {
    const out: Record<string, ParamValue> = { ...query };
    if (!isObject(sent)) return out;
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'query' || !parameter.required || parameter.name in out) continue;
      const value = sent[parameter.name];
      if ((typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && this.compiled.validate(parameter.schema, value, 'request').length === 0) out[parameter.name] = value;
    }
    return out;
  }

  /**
   * The header and cookie parameters of an operation that `include` picks, each a value its schema accepts
   * (serialize.ts writes it); a header in `given` is left to the caller. Case.call sends the required ones always and
   * the optional ones on every other call; the clean-up, which sends its requests itself, the required ones (Xero's
   * `xero-tenant-id`: without it every clean-up read was refused with 400).
   */
  headerParameters(operation: Operation, generator: Generator, given: Readonly<Record<string, string>>, include: (spec: ParameterSpec) => boolean): Record<string, string> {
    const out: Record<string, string> = {};
    const cookies: (readonly [string, string])[] = [];
    const givenNames = new Set(Object.keys(given).map((name) => name.toLowerCase()));
    for (const spec of operation.parameters) {
      if (spec.in !== 'header' && spec.in !== 'cookie') continue;
      if (spec.in === 'header' && (IGNORED_HEADER_PARAMETERS.has(spec.name.toLowerCase()) || givenNames.has(spec.name.toLowerCase()))) continue;
      if (!include(spec)) continue;
      const value = this.validParameterValue(spec, generator);
      if (value === undefined) continue;
      const serialized = serializeParameter(spec, value);
      if (serialized.header) out[serialized.header[0].toLowerCase()] = serialized.header[1];
      cookies.push(...(serialized.cookie ?? []));
    }
    if (cookies.length > 0 && !givenNames.has('cookie')) out['cookie'] = cookieHeader(cookies);
    return out;
  }

  /**
   * `given` with every required query parameter it leaves out filled with a value its schema accepts (Case.call, and
   * the clean-up, which sends its requests itself). An explicit `undefined` leaves a parameter out on purpose.
   */
  withRequiredQuery<Q extends Readonly<Record<string, ParamValue | undefined>>>(operation: Operation, given: Q | undefined, generator: Generator): Q | Record<string, ParamValue | undefined> | undefined {
    const missing = operation.parameters.filter((p) => p.in === 'query' && p.required && !(given !== undefined && p.name in given));
    if (missing.length === 0) return given;
    const out: Record<string, ParamValue | undefined> = { ...(given ?? {}) };
    for (const spec of missing) out[spec.name] = this.validParameterValue(spec, generator);
    return out;
  }

  /** The operation's required header and cookie parameters, for a request sent outside Case.call (probes, clean-up, a Location read). */
  requiredHeaders(operation: Operation, generator: Generator): Record<string, string> {
    return this.headerParameters(operation, generator, {}, (spec) => spec.required === true);
  }

  /** The generator of one check, seeded from --seed and the check's id. */
  generatorFor(checkId: string): Generator {
    let generator = this.generators.get(checkId);
    if (!generator) {
      let hash = 0;
      for (const char of checkId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
      // Every body the generator calls valid has passed the operation's compiled request validator, as the exact text sent.
      const validate = (operation: Operation, value: unknown): readonly Finding[] => this.compiled.operations.get(operation.operationId)?.body(value) ?? [];
      const options = { document: this.contract.document, ...(this.settings.generationBudget ? { budget: this.settings.generationBudget } : {}) };
      generator = new Generator((this.seed * 7919 + hash) >>> 0, this.runTag, `${(this.generators.size + 1).toString(36)}.`, validate, options);
      this.generators.set(checkId, generator);
    }
    return generator;
  }

  get aborted(): boolean {
    return this.interrupted;
  }

  abort(): void {
    this.interrupted = true;
  }

  isSelected(operation: Operation | string): boolean {
    return this.selectedOperations.has(typeof operation === 'string' ? operation : operation.operationId);
  }

  /** Operations of the document that --only/--skip leave in, in document order. */
  get operations(): Operation[] {
    return this.contract.operations.filter((op) => this.isSelected(op));
  }

  newCase(checkId: string, title: string, operationId?: string): Case {
    return new Case(this, checkId, title, operationId);
  }

  report(raw: CheckResult): void {
    // Findings may quote what a target sent: bounded, and JSON-safe for the reporters (a bigint id as its digits).
    const result: CheckResult = { ...raw, findings: raw.findings.map(reportableFinding) };
    const held = this.holds.get(result.checkId);
    if (held) {
      held.push(result);
      return;
    }
    this.results.push(result);
    this.listener.onResult(result);
  }

  /**
   * Runs one check with its results held back, not reported: the runner
   * re-checks a stateful check's failures on fresh records before it reports
   * them (recheck.ts). A check id runs once at a time, so holding by id is safe
   * while other checks run beside it.
   */
  async held(checkId: string, run: () => Promise<void>): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    this.holds.set(checkId, results);
    try {
      await run();
    } finally {
      this.holds.delete(checkId);
    }
    return results;
  }

  /** Sends a request and records it; never throws for a transport problem. */
  async send(checkId: string, request: HttpRequest, target: ExchangeTarget): Promise<RecordedExchange> {
    const hasAccept = Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'accept');
    // A request for an operation must stay on one of its paths once normalised; http.ts refuses it otherwise (safe-path.ts).
    const meant: HttpRequest = target.kind === 'operation' ? { ...request, pathTemplate: target.operation.pathTemplate } : request;
    const result = await this.client.send(target.kind === 'operation' && !hasAccept ? { ...meant, headers: { ...request.headers, accept: acceptFor(target.operation) } } : meant);
    const query: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(request.query ?? {})) query[name] = typeof value === 'string' ? [value] : [...value];
    for (const [name, value] of request.rawQuery ?? []) (query[safeDecode(name)] ??= []).push(safeDecode(value));
    let requestJson: unknown;
    if (request.body !== undefined) {
      try {
        requestJson = parseJson(request.body);
      } catch {
        requestJson = undefined;
      }
    }
    this.seq += 1;
    const record: RecordedExchange = {
      seq: this.seq,
      checkId,
      target,
      method: request.method,
      path: pathOf(request.path, this.client.baseUrl),
      query,
      ...(requestJson !== undefined ? { requestJson } : {}),
      result,
    };
    this.exchangeCount += 1;
    this.coverage.observe(record);
    this.cleanup.observe(this, record);
    this.listener.onExchange(record);
    return record;
  }
}

/**
 * The Accept of a request to an operation, from the media types its
 * responses document (RFC 9110 §12.5.1; issue 11, point 3): application/json
 * where the operation answers JSON (what the checks read), else the types it
 * documents, its successes' first, else anything. An operation that produces
 * only text/csv is never asked for JSON it cannot give.
 */
export function acceptFor(operation: Operation): string {
  const { success, other } = documentedMediaTypes(operation);
  const types = [...new Set([...success, ...other])];
  if (types.includes('application/json') && (success.length === 0 || success.includes('application/json'))) return 'application/json';
  return types.length > 0 ? types.join(', ') : '*/*';
}

/** Whether the operation's successes answer application/json: the operations our JSON-only checks (Accept and charset variants) apply to. */
export function answersJson(operation: Operation): boolean {
  return documentedMediaTypes(operation).success.includes('application/json');
}

/** The media types (lower-case) an operation's responses document: its successes' (2xx, default) and the others'. */
function documentedMediaTypes(operation: Operation): { success: string[]; other: string[] } {
  const success: string[] = [];
  const other: string[] = [];
  for (const [status, response] of operation.responses) {
    for (const media of response.content) (/^2|^default$/i.test(status) ? success : other).push(media.mediaType.toLowerCase());
  }
  return { success, other };
}

function reportableFinding(finding: Finding): Finding {
  return {
    ...finding,
    ...('expected' in finding ? { expected: reportableJson(finding.expected) } : {}),
    ...('actual' in finding ? { actual: reportableJson(finding.actual) } : {}),
  };
}

/** The path of a request relative to the base URL, whether it was given relative or absolute. */
function pathOf(path: string, baseUrl: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(path)) return path.split('?')[0]!;
  const url = new URL(path);
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
}

/**
 * Substitutes path parameters into a template: a value of an array or object
 * parameter, or of one with the label or matrix style, as its style says
 * (OpenAPI 3.0.3 §4.7.12.4, serialize.ts); any other value percent-encoded
 * (RFC 6570 simple expansion).
 */
export function expandPath(template: string, values: Readonly<Record<string, ParamValue>>, parameters: readonly ParameterSpec[] = []): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    const spec = parameters.find((p) => p.in === 'path' && p.name === name);
    if (value !== undefined && spec && needsStyle(spec, value)) return serializeParameter(spec, value).path ?? '';
    return encodeURIComponent(value === undefined ? `{${name}}` : String(Array.isArray(value) ? value[0] : value));
  });
}

/**
 * Whether a value needs its parameter's style to be written (serialize.ts)
 * rather than a plain `name=value` per item: an object, an array of a
 * parameter that is not exploded form (nor an array schema in a path), a
 * label or matrix path value. The rest goes out as it always did.
 */
function needsStyle(spec: ParameterSpec, value: ParamValue): boolean {
  const style = spec.style ?? (spec.in === 'query' || spec.in === 'cookie' ? 'form' : 'simple');
  if (isObject(value)) return true;
  if (spec.in === 'path') return style !== 'simple' || (Array.isArray(value) && spec.schema.type === 'array');
  return Array.isArray(value) && !(style === 'form' && spec.explode);
}

/** A generated value as a parameter value: primitives and arrays of them as they are, an object's entries as texts. */
function toParamValue(value: unknown): ParamValue {
  if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint' ? item : String(item)));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]));
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? value : String(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function lowerCaseKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function queryOf(input: CallInput['query']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(String) : isObject(value) ? JSON.stringify(value) : String(value);
  }
  return out;
}

/**
 * The query of a call: plain values as `name=value` pairs (URLSearchParams
 * encodes them), values that need their parameter's style (a deepObject, a
 * pipe-delimited array, an unexploded form array) already serialized.
 */
function queryParts(operation: Operation, input: CallInput['query']): { query: Record<string, string | string[]>; rawQuery: (readonly [string, string])[] } {
  const plain: Record<string, ParamValue> = {};
  const rawQuery: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    const spec = operation.parameters.find((p) => p.in === 'query' && p.name === name);
    if (spec && needsStyle(spec, value)) rawQuery.push(...(serializeParameter(spec, value).query ?? []));
    else plain[name] = value;
  }
  return { query: queryOf(plain), rawQuery };
}

/**
 * Header parameters OpenAPI 3.0.3 §4.7.12 says are ignored (Accept,
 * Content-Type and Authorization are the request's own business).
 */
const IGNORED_HEADER_PARAMETERS: ReadonlySet<string> = new Set(['accept', 'content-type', 'authorization']);

export function describeProblem(result: HttpResult): string | undefined {
  if (!result.error) return undefined;
  return `${result.exchange.request.method} ${result.exchange.request.url}: ${result.error.message} (${result.error.code})`;
}

/** The key under which checkValid's split reports a typed value its schema refuses (no parameter is named so). */
const TYPED_INVALID = '\u0000invalid';

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'options', 'trace']);

export { NOT_RUN_PREFIX } from './model.js';

/** One thing a check tries, with its evidence; ends in exactly one CheckResult. */
export class Case {
  readonly evidence: Exchange[] = [];
  readonly generator: Generator;
  mutation: CheckResult['mutation'];
  private done = false;
  /** 5xx answers this case met: they are no-server-error's finding, so this case does not fail on their account. */
  private readonly serverErrors: string[] = [];
  /** The operation whose answer broke the rule, when it is not the case's own (a workflow's step). */
  private blamed: string | undefined;
  /** Why a call of this case was not sent (an unfilled path parameter): the case cannot conclude. */
  private unsent: string | undefined;
  /** A 401/403 this case met on an operation the run has no credentials for: the case cannot conclude (credentials.ts). */
  private refusedForCredentials: string | undefined;

  constructor(
    readonly ctx: RunContext,
    readonly checkId: string,
    readonly title: string,
    readonly operationId?: string,
  ) {
    this.generator = ctx.generatorFor(checkId);
  }

  async send(request: HttpRequest, target: ExchangeTarget): Promise<HttpResult> {
    const record = await this.ctx.send(this.checkId, request, target);
    this.evidence.push(record.result.exchange);
    // An id that would take the request off the operation's path (`..`, `.`, ''): the case skips, saying which and why.
    if (record.result.error?.code === UNSAFE_PATH) this.skip(record.result.error.message);
    const status = record.result.response?.status;
    if (status !== undefined && status >= 500) this.serverErrors.push(`${request.method} ${record.path} answered ${status}`);
    if (isCredentialRefusal(status) && target.kind !== 'none' && this.refusedForCredentials === undefined) {
      const schemes = target.kind === 'operation' ? this.ctx.credentials.missingFor(target.operation) : this.ctx.credentials.missingForUnmatched();
      const who = target.kind === 'operation' ? target.operation.operationId : 'the API';
      if (schemes !== undefined) this.refusedForCredentials = `${request.method} ${record.path} answered ${status}: ${who} requires credentials (${schemes}) that the run does not send; pass them with --header`;
    }
    return record.result;
  }

  /** Calls an operation of the document with typed inputs. */
  async call(operation: Operation, input: CallInput = {}): Promise<Call> {
    // A path parameter with no value (an id the runner could not find in what the target answered) is never sent
    // as `{thingId}` or `undefined`: the case cannot conclude, and says why (issue 21, point 3).
    const unfilled = [...operation.pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((name) => input.path?.[name] === undefined || input.path[name] === '');
    if (unfilled.length > 0) return this.notSent(operation, `no value for the path parameter${unfilled.length > 1 ? 's' : ''} ${unfilled.join(', ')} of ${operation.operationId} (the record's id was not found in what the target answered)`);
    const path = expandPath(operation.pathTemplate, input.path ?? {}, operation.parameters);
    const headers: Record<string, string> = { ...this.headerParameters(operation, input.headers ?? {}), ...(input.headers ?? {}) };
    let body: string | undefined;
    if (input.bodyText !== undefined || input.body !== undefined) {
      body = input.bodyText ?? stringifyJson(input.body);
      const type = input.contentType === undefined ? 'application/json' : input.contentType;
      if (type !== null) headers['content-type'] = type;
    } else {
      const other = this.otherBody(operation);
      if (other) {
        body = other.text;
        headers['content-type'] = other.contentType;
      }
    }
    const { query, rawQuery } = queryParts(operation, this.withRequiredQuery(operation, input.query));
    const request: HttpRequest = { method: operation.method.toUpperCase(), path, query, ...(rawQuery.length > 0 ? { rawQuery } : {}), headers, ...(body !== undefined ? { body } : {}) };
    // A write waits while another check observes the records its path touches (shared-records.ts).
    const send = (): Promise<HttpResult> => this.send(request, { kind: 'operation', operation });
    const result = await (SAFE_METHODS.has(operation.method) ? send() : this.ctx.sharedRecords.write(path, send));
    // A redirect the operation documents (a 302 to a download, a 303 after a create) is its answer, not a transport problem.
    const status = result.response?.status;
    const documentedRedirect = result.error?.code === 'REDIRECT' && status !== undefined && (operation.responses.has(String(status)) || operation.responses.has('3XX'));
    return toCall(result, path, operation.method.toUpperCase(), body, input.path ?? {}, query, documentedRedirect);
  }

  /**
   * The query with every required parameter the caller left out filled with a value its schema accepts (like
   * the required headers): a list read after a create must not be refused for a parameter the runner forgot.
   * An explicit `undefined` leaves a parameter out on purpose.
   */
  private withRequiredQuery(operation: Operation, given: CallInput['query']): CallInput['query'] {
    return this.ctx.withRequiredQuery(operation, given, this.generator);
  }

  /** A call that was not sent: the case ends skipped with `reason` whatever the check makes of it. */
  private notSent(operation: Operation, reason: string): Call {
    this.unsent ??= reason;
    const url = new URL(this.ctx.client.baseUrl);
    const method = operation.method.toUpperCase();
    const result: HttpResult = { exchange: { request: { method, url: `${url.href.replace(/\/$/, '')}${operation.pathTemplate}`, headers: {} }, durationMs: 0 }, error: { code: 'NOT_SENT', message: `not sent: ${reason}` }, url };
    return toCall(result, operation.pathTemplate, method, undefined, {}, {});
  }

  /**
   * The operation's header and cookie parameters (issue 11, point 3): the
   * required ones always, the optional ones on every other call, each a
   * value its schema accepts (serialize.ts writes it). A header the caller
   * sets itself is left to the caller.
   */
  private headerParameters(operation: Operation, given: Readonly<Record<string, string>>): Record<string, string> {
    return this.ctx.headerParameters(operation, this.generator, given, (spec) => spec.required === true || this.varyOptional());
  }

  /** Optional parameters are sent on every other call of the run, so both their presence and their absence are tried. */
  private varyOptional(): boolean {
    this.ctx.optionalTurns += 1;
    return this.ctx.optionalTurns % 2 === 1;
  }

  /**
   * A body for an operation that takes no JSON (form, multipart, text,
   * octet-stream: bodies.ts), when the caller gave none: the first candidate
   * its schema accepts, encoded as its media type says.
   */
  private otherBody(operation: Operation): { text: string; contentType: string } | undefined {
    const media = otherBodyMedia(operation);
    if (!media) return undefined;
    const valid = bodyCandidates(media, this.generator).find((value) => !media.schema || this.ctx.compiled.validate(media.schema, value, 'request').length === 0);
    if (valid === undefined) return undefined;
    return encodeBody(media.mediaType, valid, `petstore-kit-${this.generator.nextTag()}`);
  }

  /** Follows a link of a created record: the target operation with the parameters the link binds (OpenAPI 3.0.3 §4.7.20). */
  async follow(target: LinkTarget, record: CreatedRecord, input: Omit<CallInput, 'path' | 'query'> & { readonly query?: CallInput['query'] } = {}): Promise<Call> {
    const { path, query } = linkInputs(target, record.call.source);
    // A value the target's own path parameter refuses is not sent: the case cannot conclude (RunContext.ruledOutPath).
    // A created id that breaks the create's own answer schema is response-schema's finding.
    const ruledOut = this.ctx.ruledOutPath(target.operation, path);
    if (ruledOut !== undefined) return this.notSent(target.operation, `the create gave a value ${ruledOut}`);
    return this.call(target.operation, { ...input, path, query: { ...this.ctx.recordQuery(target.operation, query, record.sent), ...(input.query ?? {}) } });
  }

  /**
   * Creates a record of a kind through its create operation, with a valid
   * body from the generator; records it needs first (a category for a pet)
   * are created the same way unless `bindings` names them.
   */
  async create(
    kind: ResourceKind,
    options: {
      bindings?: Readonly<Record<string, unknown>>;
      body?: JsonObject;
      headers?: Readonly<Record<string, string>>;
      /** True when the record is only a means to the check's end: its failure then skips rather than fails. */
      setup?: boolean;
      depth?: number;
      /** Fill every optional field and make free text diverse (Generator.enrich): the round trip of data the generator never makes. */
      enrich?: boolean;
    } = {},
  ): Promise<CreateOutcome> {
    const depth = options.depth ?? (options.setup ? 1 : 0);
    if (depth > 5) return { ok: false, reason: 'the document links its resources in a cycle', setup: true, transport: false };
    const bindings: Record<string, unknown> = { ...(options.bindings ?? {}) };
    const bodySchema = schema(jsonBodyOf(kind.create)?.schema);
    for (const name of Object.keys(propertiesOf(bodySchema))) {
      const producer = this.ctx.links.producers.get(name);
      if (!producer || producer.kind === kind || name in bindings) continue;
      const parent = await this.create(producer.kind, { depth: depth + 1 });
      if (!parent.ok) return { ...parent, setup: true };
      bindings[name] = evaluateExpression(producer.expression, parent.record.call.source);
    }
    let generated = options.body !== undefined ? this.checkValid(kind.create, { body: options.body }) : this.generator.validBodyOrReason(kind.create, bindings);
    if (options.enrich && generated.ok && isObject(generated.body)) {
      // The record's id is the server's to assign, whatever the schema says of it: never sent, so never compared.
      const id = identityField(kind);
      const enriched = this.generator.enrich(generated.body, bodySchema, new Set([...Object.keys(bindings), ...(id !== undefined ? [id] : []), 'id']));
      generated = this.checkValid(kind.create, { body: enriched });
    }
    if (options.body === undefined && generated.ok && isObject(generated.body)) generated = { ok: true, body: this.ownIdentity(kind, generated.body) };
    // No valid input, no verdict: the check is skipped with the reason, never failed (issue 9, point 1).
    if (!generated.ok) return { ok: false, reason: generated.reason, setup: true, transport: false, noValidInput: true };
    const body = generated.body;
    if (!isObject(body)) return { ok: false, reason: `the valid body for ${kind.create.operationId} is not an object, so no record can be tracked`, setup: true, transport: false, noValidInput: true };
    const call = await this.call(kind.create, { body, ...(options.headers ? { headers: options.headers } : {}) });
    if (call.problem) return { ok: false, reason: call.problem, setup: depth > 0, transport: true };
    // Any 2xx with a record will do: whether the status is the documented one is status-documented's to say.
    // An inferred kind may name its record by Location alone (links.ts LOCATION_ID): an empty 201 with a Location is a record then.
    const created = isObject(call.json) ? call.json : kind.inferred && call.headers['location'] !== undefined ? {} : undefined;
    if (call.status === undefined || call.status < 200 || call.status >= 300 || created === undefined) {
      return {
        ok: false,
        reason: `${kind.create.operationId} answered ${call.status}${isObject(call.json) && typeof call.json['code'] === 'string' ? ` ${call.json['code']}` : ''} to a valid body, not ${kind.createdStatus} with a record`,
        setup: depth > 0,
        transport: false,
      };
    }
    return { ok: true, record: { kind, sent: body, body: created, call } };
  }

  /**
   * A body whose client-chosen identity (the field the kind's links read its path id from: Svix's event type `name`)
   * is the run's own. The generator leaves a string with a pattern or format as the document's example gave it, and a
   * server that holds that example (a mock seeded from the examples, a shared sandbox) rightly refuses the create
   * with its documented 409. The run tag is appended in the first form the body's validator accepts; an integer key
   * is drawn high in its range instead (own-keys.ts); none valid, and the body stays as it was.
   */
  private ownIdentity(kind: ResourceKind, body: JsonObject): JsonObject {
    const field = identityField(kind) ?? enveloped(kind, body);
    const value = field === undefined ? undefined : body[field];
    if (field !== undefined && typeof value === 'number' && Number.isInteger(value)) {
      // An integer key: high in its range, away from the target's own sequence and data (own-keys.ts).
      const property = propertiesOf(jsonBodyOf(kind.create)?.schema)[field];
      for (const key of property ? ownIntegerKeys(mergeAllOf(property), this.generator.nextTag()) : []) {
        const candidate = { ...body, [field]: key };
        if (this.checkValid(kind.create, { body: candidate }).ok) return candidate;
      }
      return body;
    }
    if (field === undefined || typeof value !== 'string' || value.includes(this.ctx.runTag)) return body;
    const tag = this.generator.nextTag().replace(/[^A-Za-z0-9]/g, '');
    for (const separator of ['-', '_', '.', '']) {
      const candidate = { ...body, [field]: `${value}${separator}${tag}` };
      if (this.checkValid(kind.create, { body: candidate }).ok) return candidate;
    }
    return body;
  }

  /**
   * Validates an input the runner calls valid, as it will be sent: the body
   * as its exact JSON text read back, the path and query parameters as the
   * texts in the URL, with the operation's compiled validators (src/schema).
   */
  checkValid(operation: Operation, input: CallInput): { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reason: string } {
    const validators = this.ctx.compiled.operations.get(operation.operationId);
    if (!validators) return { ok: true, body: input.body };
    // Values written by their style (objects, delimited arrays) are validated as the typed values they are; the rest as the texts sent.
    const typed = new Set<string>();
    const split = (location: 'path' | 'query', values: CallInput['query']): CallInput['query'] => {
      const out: Record<string, ParamValue | undefined> = {};
      for (const [name, value] of Object.entries(values ?? {})) {
        const spec = operation.parameters.find((p) => p.in === location && p.name === name);
        if (value !== undefined && spec && needsStyle(spec, value)) {
          typed.add(`/${location}/${name}`);
          const problems = this.ctx.compiled.validate(spec.schema, value, 'request', `/${location}/${name}`);
          if (problems.length > 0) return { [TYPED_INVALID]: `${problems[0]!.pointer} ${problems[0]!.message}` };
        } else {
          out[name] = value;
        }
      }
      return out;
    };
    const pathValues = split('path', input.path);
    const queryValues = split('query', input.query);
    const invalid = pathValues?.[TYPED_INVALID] ?? queryValues?.[TYPED_INVALID];
    if (invalid !== undefined) return { ok: false, reason: `no valid input for ${operation.operationId}: the parameter ${String(invalid)}` };
    const path = Object.fromEntries(Object.entries(queryOf(pathValues)).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : v]));
    const parameters = validators.parameters({ path, query: queryOf(queryValues), headers: lowerCaseKeys(input.headers ?? {}) });
    // A required header the caller leaves out is one call() fills (headerParameters), so its absence here is no problem.
    const diagnostics = parameters.ok ? [] : parameters.diagnostics.filter((d) => !typed.has(d.pointer) && !(d.pointer.startsWith('/header') && d.keyword === 'required'));
    if (diagnostics.length > 0) {
      const first = diagnostics[0]!;
      return { ok: false, reason: `no valid input for ${operation.operationId}: the parameter ${first.pointer} ${first.message}` };
    }
    if (input.body === undefined && input.bodyText === undefined) return { ok: true, body: undefined };
    let sent: unknown;
    try {
      sent = plainJson(parseJson(input.bodyText ?? stringifyJson(input.body)));
    } catch {
      return { ok: false, reason: `no valid input for ${operation.operationId}: the body is not JSON` };
    }
    const problems = validators.body(sent);
    if (problems.length > 0) return { ok: false, reason: `no valid body for ${operation.operationId}: ${problems[0]!.pointer} ${problems[0]!.message}` };
    return { ok: true, body: input.body };
  }

  /** Ends the case once; later calls are ignored (a check may bail out early). */
  private finish(verdict: CheckResult['verdict'], reason: string | undefined, findings: readonly Finding[]): CheckResult | undefined {
    if (this.done) return undefined;
    if (this.unsent !== undefined && verdict !== 'skipped') {
      const reason = this.unsent;
      this.unsent = undefined;
      return this.finish('skipped', `cannot conclude: ${reason}`, []);
    }
    const budget = this.evidence.find((x) => x.error?.code === 'REQUEST_BUDGET');
    if (budget && verdict !== 'skipped') {
      // Not sent is not failed: the check did not run (issue 21, point 3); the run says it is incomplete.
      return this.finish('skipped', `${NOT_RUN_PREFIX} ${budget.error!.message}`, []);
    }
    if (this.refusedForCredentials !== undefined && verdict !== 'skipped') {
      // Refused before it was judged: neither a valid request refused nor an invalid one refused for the right reason.
      return this.finish('skipped', `cannot conclude: ${this.refusedForCredentials}`, []);
    }
    if (verdict === 'failed' && this.serverErrors.length > 0) {
      // One defect, one owner: a 5xx on the way is no-server-error's, and what failed after it may only be its consequence.
      return this.finish('skipped', `${this.serverErrors[0]}, which no-server-error reports; this check cannot conclude`, []);
    }
    this.done = true;
    // A passed case keeps a little evidence (what was tried); a failed one keeps it all, up to a bound.
    const evidence = verdict === 'failed' ? this.evidence.slice(-12) : this.evidence.slice(-3);
    const operationId = verdict === 'failed' && this.blamed ? this.blamed : this.operationId;
    // A failure that read an answer already known to break the document follows from that defect: it is filed under it.
    const cause = verdict === 'failed' ? this.evidence.map((x) => this.ctx.brokenAnswers.get(x)).find((c) => c !== undefined && c.checkId !== this.checkId) : undefined;
    const result: CheckResult = {
      checkId: this.checkId,
      ...(operationId ? { operationId } : {}),
      title: this.title,
      verdict,
      ...(reason ? { reason } : {}),
      findings,
      evidence,
      ...(this.mutation ? { mutation: this.mutation } : {}),
      ...(verdict === 'failed' && this.blamed && evidence.length > 0 ? { failedAt: evidence.length - 1 } : {}),
      ...(cause ? { consequenceOf: cause } : {}),
    };
    this.ctx.report(result);
    return result;
  }

  pass(): void {
    this.finish('passed', undefined, []);
  }

  fail(reason: string, findings: readonly Finding[] = []): void {
    this.finish('failed', reason, findings);
  }

  /**
   * Fails on the exchange just made, filed under the operation that answered
   * it (issue 10: a workflow's failure belongs to the step that misbehaved,
   * not to the operation the scenario is named after).
   */
  failOn(operationId: string, reason: string, findings: readonly Finding[] = []): void {
    this.blamed = operationId;
    this.finish('failed', reason, findings);
  }

  skip(reason: string): void {
    this.finish('skipped', reason, []);
  }

  /** Fails or passes from a list of findings. */
  conclude(findings: readonly Finding[], reason?: string): void {
    if (findings.length === 0) this.pass();
    else this.fail(reason ?? findings[0]!.message, findings);
  }

  /** A record the check needed could not be made: a transport failure fails the case (no other check owns it), an HTTP answer skips it (the checks of that operation own it). */
  setupFailed(outcome: Extract<CreateOutcome, { ok: false }>): void {
    if (outcome.noValidInput) this.skip(outcome.reason);
    else if (outcome.transport) this.fail(outcome.reason);
    else if (outcome.setup) this.skip(`setup failed: ${outcome.reason}`);
    else this.fail(outcome.reason);
  }
}

function toCall(result: HttpResult, path: string, method: string, body: string | undefined, pathValues: Readonly<Record<string, ParamValue>>, query: Record<string, string | string[]>, documentedRedirect = false): Call {
  let requestBody: unknown;
  if (body !== undefined) {
    try {
      requestBody = parseJson(body);
    } catch {
      requestBody = undefined;
    }
  }
  const response = result.response;
  const json = response?.body.kind === 'json' ? response.body.value : response?.body.kind === 'text' ? response.body.lenient : undefined;
  const problem = documentedRedirect ? undefined : describeProblem(result);
  return {
    result,
    ...(response ? { status: response.status } : {}),
    ...(json !== undefined ? { json } : {}),
    headers: response?.headers ?? {},
    ...(problem ? { problem } : {}),
    path,
    source: {
      url: result.url.href,
      method,
      ...(response ? { status: response.status } : {}),
      requestBody,
      requestPath: pathValues,
      requestQuery: query,
      responseBody: json,
      responseHeaders: response?.headers ?? {},
    },
  };
}

/** The path and query inputs a link gives its target operation. */
export function linkInputs(target: LinkTarget, source: ExpressionSource): { path: Record<string, ParamValue>; query: Record<string, ParamValue> } {
  const path: Record<string, ParamValue> = {};
  const query: Record<string, ParamValue> = {};
  for (const [name, expression] of Object.entries(target.link.parameters)) {
    const parameter = linkParameter(target.operation, name);
    const value = evaluateExpression(expression, source);
    if (!parameter || value === undefined || value === null) continue;
    const text = typeof value === 'object' ? stringifyJson(value) : typeof value === 'bigint' ? value.toString() : (value as string | number | boolean);
    if (parameter.in === 'path') path[parameter.name] = text;
    else if (parameter.in === 'query') query[parameter.name] = text;
  }
  return { path, query };
}

/** What a call got, in a few words for a failure reason: `answered 500 INTERNAL_ERROR`. */
export function answered(call: Call): string {
  if (call.problem) return call.problem;
  const code = isObject(call.json) && typeof call.json['code'] === 'string' ? ` ${call.json['code']}` : '';
  return `${call.result.exchange.request.method} ${call.path} answered ${call.status}${code}`;
}
