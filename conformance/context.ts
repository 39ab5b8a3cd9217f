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
import { bodyCandidates, Generator, isObject, jsonBodyOf, mergeAllOf, propertiesOf, schema, type FormBody, type JsonObject, type Schema } from './generate.js';
import { BREAKER_OPEN, HttpClient, REQUEST_UNSENDABLE, type HttpRequest, type HttpResult, type RawRequest } from './http.js';
import { reportableJson } from './json.js';
import { deepestPathFirst, evaluateExpression, guessedByName, identityField, parentsNamedBy, pathProducer, type LinkModel, type LinkTarget, type ResourceKind } from './links.js';
import { BREAKER_PREFIX, NOT_RUN_PREFIX, type CheckResult, type Exchange, type Finding } from './model.js';
import type { ExchangeTarget, RecordedExchange } from './recorded.js';
import { encodeBody, FORM_URLENCODED, otherBodyMedia } from './requests/bodies.js';
import { formCreateOf } from './requests/form-create.js';
import { requiredDeleteBody } from './requests/delete-body.js';
import { buildRequest, isDocumentedRedirect, notSentCall, toCall, type Call, type CallInput, type WireBody } from './requests/call.js';
import { linkInputs } from './requests/link-inputs.js';
import { RequestParameters } from './requests/parameters.js';
import { templateParameters } from './requests/paths.js';
import { forTarget, pathOf, sentJson, sentQuery } from './requests/send.js';
import { checkValid, type Validity } from './requests/validity.js';
import type { ParamValue } from './requests/values.js';
import { enveloped, envelopedIdentity, envelopedItemKey, itemParameters, memberNamedBy, namesARecord, ownIntegerKeys } from './own-keys.js';
import { SharedRecords, type Observation } from './shared-records.js';

/** A form's validity: the path and query as `checked` found them, the fields by the form's own validator. */
function formValidity(form: FormBody, checked: Validity, body: unknown): Validity {
  if (!checked.ok) return checked;
  const problems = form.problems(body);
  return problems.length > 0 ? { ok: false, reason: `no valid body for the form: ${problems[0]!.pointer} ${problems[0]!.message}` } : { ok: true, body };
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
  | { readonly ok: false; readonly reason: string; readonly setup: boolean; readonly transport: boolean; readonly noValidInput?: boolean; /** The status the create answered, when it answered. */ readonly status?: number };

export interface RunSettings {
  readonly readOnly: boolean;
  readonly origin?: string;
  /** --max-body-bytes: the target's request body limit, where its document states none. */
  readonly bodyLimitBytes?: number;
  /** Names of the `--header` headers (a preflight announces them). */
  readonly headerNames: readonly string[];
  /** The checks that send requests a correct server refuses (invalid inputs, absent ids, wrong methods): their 4xx answers are expected. */
  readonly provokingChecks?: ReadonlySet<string>;
  /** `--generation-budget`: the caps on one generated value (src/generate/budget.ts); the defaults when absent. */
  readonly generationBudget?: GenerationBudget;
  /**
   * The operations --only/--skip leave in, across every shard of a sharded run (the context's selectedOperations are
   * this shard's share): a check that judges one operation for the whole run picks it here, and runs it in the shard
   * that holds it. Every operation of the selection when absent.
   */
  readonly runSelection?: ReadonlySet<string>;
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
  /** Ids of records the target lists, read once per list and parent values, for reads of records no create makes (checks/listed-records.ts). */
  readonly listedIds = new Map<string, Promise<string | undefined>>();
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
  /** Parameter values from the schemas and from the records the run made (requests/parameters.ts). */
  readonly requests: RequestParameters;

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
    this.requests = new RequestParameters(compiled);
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

  /** Why checks were not started: an interrupt, or --fail-fast's first failure. */
  abortReason = 'interrupted';

  abort(reason = 'interrupted'): void {
    if (!this.interrupted) this.abortReason = reason;
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
    const result = await this.client.send(forTarget(request, target));
    return this.record(checkId, request.method, request.path, sentQuery(request), keptJson(request, result), result, target);
  }

  /** Sends a request byte for byte on a connection of its own (HttpClient.sendRaw) and records it like any other. */
  async sendRaw(checkId: string, request: RawRequest, target: ExchangeTarget): Promise<RecordedExchange> {
    const result = await this.client.sendRaw(request);
    const query: Record<string, string[]> = {};
    for (const [name, value] of result.url.searchParams) (query[name] ??= []).push(value);
    return this.record(checkId, request.method, request.path, query, undefined, result, target);
  }

  private record(checkId: string, method: string, path: string, query: Record<string, string[]>, requestJson: unknown, result: HttpResult, target: ExchangeTarget): RecordedExchange {
    this.seq += 1;
    const record: RecordedExchange = {
      seq: this.seq,
      checkId,
      target,
      method,
      path: pathOf(path, this.client.baseUrl),
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

function reportableFinding(finding: Finding): Finding {
  return {
    ...finding,
    ...('expected' in finding ? { expected: reportableJson(finding.expected) } : {}),
    ...('actual' in finding ? { actual: reportableJson(finding.actual) } : {}),
  };
}

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'options', 'trace']);

/**
 * Above this many characters a refused request's body is not parsed back for the record: the bodies that large are
 * the 413 checks' padding (25 of 1 MiB in a Pet Store run, a fifth of the runner's parse time), and a refusal makes
 * no record whose link or clean-up reads the body. A body the target took is always parsed.
 */
const REFUSED_BODY_PARSE_LIMIT = 256 * 1024;

function keptJson(request: HttpRequest, result: HttpResult): unknown {
  const status = result.response?.status;
  const taken = status !== undefined && status >= 200 && status < 300;
  return !taken && request.body !== undefined && request.body.length > REFUSED_BODY_PARSE_LIMIT ? undefined : sentJson(request);
}

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
  /** The observation of shared records this case is inside (observeRecords): its own writes go at once. */
  private observation: Observation | undefined;
  /** The first record of each kind a PUT made for this case (create): its parents, kept to. */
  private readonly madeByPuts = new Map<ResourceKind, CreateOutcome>();

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
    if (record.result.error?.code === UNSAFE_PATH || record.result.error?.code === REQUEST_UNSENDABLE) this.skip(record.result.error.message);
    const status = record.result.response?.status;
    if (status !== undefined && status >= 500) this.serverErrors.push(`${request.method} ${record.path} answered ${status}`);
    if (isCredentialRefusal(status) && target.kind !== 'none' && this.refusedForCredentials === undefined) {
      const schemes = target.kind === 'operation' ? this.ctx.credentials.missingFor(target.operation) : this.ctx.credentials.missingForUnmatched();
      const who = target.kind === 'operation' ? target.operation.operationId : 'the API';
      if (schemes !== undefined) this.refusedForCredentials = `${request.method} ${record.path} answered ${status}: ${who} requires credentials (${schemes}) that the run does not send; pass them with --header`;
    }
    return record.result;
  }

  /** Sends a request byte for byte (RunContext.sendRaw), kept as the case's evidence like any other. */
  async sendRaw(request: RawRequest, target: ExchangeTarget): Promise<HttpResult> {
    const record = await this.ctx.sendRaw(this.checkId, request, target);
    this.evidence.push(record.result.exchange);
    // A 5xx the passive checks see is no-server-error's; one they do not (target none) is the sending check's to judge.
    const status = record.result.response?.status;
    if (status !== undefined && status >= 500 && status !== 501 && target.kind !== 'none') this.serverErrors.push(`${request.method} ${record.path} answered ${status}`);
    return record.result;
  }

  /** Calls an operation of the document with typed inputs. */
  async call(operation: Operation, input: CallInput = {}): Promise<Call> {
    // A path parameter with no value (an id the runner could not find in what the target answered) is never sent
    // as `{thingId}` or `undefined`: the case cannot conclude, and says why (issue 21, point 3).
    const unfilled = templateParameters(operation.pathTemplate).filter((name) => input.path?.[name] === undefined || input.path[name] === '');
    if (unfilled.length > 0) return this.notSent(operation, `no value for the path parameter${unfilled.length > 1 ? 's' : ''} ${unfilled.join(', ')} of ${operation.operationId} (the record's id was not found in what the target answered)`);
    const headers: Record<string, string> = { ...this.headerParameters(operation, input.headers ?? {}), ...(input.headers ?? {}) };
    const built = buildRequest(operation, input, { headers, otherBody: () => this.otherBody(operation), query: () => this.withRequiredQuery(operation, input.query) });
    // A write waits while another check observes the records its path touches (shared-records.ts).
    const send = (): Promise<HttpResult> => this.send(built.request, { kind: 'operation', operation, ...(input.path ? { pathValues: input.path } : {}) });
    const result = await (SAFE_METHODS.has(operation.method) ? send() : this.ctx.sharedRecords.write(built.path, send, this.observation));
    return toCall(result, built.path, built.request.method, built.body, input.path ?? {}, built.query, isDocumentedRedirect(operation, result));
  }

  /**
   * Runs an observation of the records at `key` (a snapshot, the request, the read after) holding that path, so no
   * other check's write lands inside it; this case's own writes inside it go at once (shared-records.ts).
   */
  async observeRecords<T>(key: string, observation: () => Promise<T>): Promise<T> {
    return this.ctx.sharedRecords.observe(key, async (within) => {
      const outer = this.observation;
      this.observation = within;
      try {
        return await observation();
      } finally {
        this.observation = outer;
      }
    });
  }

  /**
   * The query with every required parameter the caller left out filled with a value its schema accepts (like
   * the required headers): a list read after a create must not be refused for a parameter the runner forgot.
   * An explicit `undefined` leaves a parameter out on purpose.
   */
  private withRequiredQuery(operation: Operation, given: CallInput['query']): CallInput['query'] {
    return this.ctx.requests.withRequiredQuery(operation, given, this.generator);
  }

  /** A call that was not sent: the case ends skipped with `reason` whatever the check makes of it. */
  private notSent(operation: Operation, reason: string): Call {
    this.unsent ??= reason;
    return notSentCall(this.ctx.client.baseUrl, operation, reason);
  }

  /**
   * The operation's header and cookie parameters (issue 11, point 3): the
   * required ones always, the optional ones on every other call, each a
   * value its schema accepts (serialize.ts writes it). A header the caller
   * sets itself is left to the caller.
   */
  private headerParameters(operation: Operation, given: Readonly<Record<string, string>>): Record<string, string> {
    return this.ctx.requests.headerParameters(operation, this.generator, given, (spec) => spec.required === true || this.varyOptional());
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
  private otherBody(operation: Operation): WireBody | undefined {
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
    const ruledOut = this.ctx.requests.ruledOutPath(target.operation, path);
    if (ruledOut !== undefined) return this.notSent(target.operation, `the create gave a value ${ruledOut}`);
    // A DELETE that documents a required body is sent one, as its clients must (requests/delete-body.ts).
    const body = input.body === undefined && input.bodyText === undefined ? requiredDeleteBody(target.operation, this.generator) : undefined;
    return this.call(target.operation, { ...input, ...(body !== undefined ? { body: body.value, contentType: body.contentType } : {}), path, query: { ...this.ctx.requests.recordQuery(target.operation, query, record.sent), ...(input.query ?? {}) } });
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
      /** For a nested collection's create, the parents to create it in (another record's, links.ts createdUnder) instead of new ones. */
      within?: Readonly<Record<string, ParamValue>>;
      depth?: number;
      /** Fill every optional field and make free text diverse (Generator.enrich): the round trip of data the generator never makes. */
      enrich?: boolean;
      /**
       * Changes the (enriched) body before it is sent, field by field: `keep` names the fields bound to other records
       * and the record's own id, which stay; `isValid` says whether a candidate body is still valid for the create.
       */
      vary?: (body: JsonObject, bodySchema: Schema, keep: ReadonlySet<string>, isValid: (candidate: JsonObject) => boolean) => JsonObject;
    } = {},
  ): Promise<CreateOutcome> {
    const depth = options.depth ?? (options.setup ? 1 : 0);
    if (depth > 5) return { ok: false, reason: 'the document links its resources in a cycle', setup: true, transport: false };
    const bindings: Record<string, unknown> = { ...(options.bindings ?? {}) };
    // A create that takes a form (requests/form-create.ts) is made as one that takes JSON, and its form sent.
    const formCreate = formCreateOf(this.ctx.compiled, kind.create);
    if (formCreate && 'reason' in formCreate) return { ok: false, reason: formCreate.reason, setup: true, transport: false, noValidInput: true };
    const form = formCreate?.form;
    const bodySchema = schema((form?.media ?? jsonBodyOf(kind.create))?.schema);
    // A record a PUT makes on its item path (links.ts putCreates): its key is the run's own, its parents made first.
    // A case makes one such record of a kind as a means to its end and keeps to it, so the parent an operation's
    // parameters name one by one is the same parent its nested record was made in (`/sets/{set}/items/{item}`).
    let path: Record<string, ParamValue> | undefined;
    const made = kind.keyParameter !== undefined && (options.setup === true || depth > 0) ? this.madeByPuts.get(kind) : undefined;
    if (made) return made;
    if (kind.keyParameter !== undefined) {
      const keyed = await this.keyedPath(kind, depth);
      if (!keyed.ok) return { ok: false, reason: keyed.reason, setup: true, transport: false };
      path = keyed.path;
      if (jsonBodyOf(kind.create) === undefined) return this.madeByPut(kind, path, undefined, options.headers, depth);
      // A body member the key names (`reportId` for `{reportId}`) holds the key the path holds: never another one.
      const member = memberNamedBy(kind.keyParameter, propertiesOf(bodySchema));
      if (member !== undefined && !(member in bindings)) bindings[member] = path[kind.keyParameter];
    }
    // The records the body names (its category), made first; a member bound already (given, or the key a PUT makes its
    // record at: `slug` for `/users/{userSlug}`) is not taken for a reference to the kind another path names by the same
    // word (`/projects/{slug}`).
    for (const name of Object.keys(propertiesOf(bodySchema))) {
      const producer = this.ctx.links.producers.get(name);
      if (!producer || producer.kind === kind || name in bindings) continue;
      const parent = await this.create(producer.kind, { depth: depth + 1 });
      if (!parent.ok) return { ...parent, setup: true };
      bindings[name] = evaluateExpression(producer.expression, parent.record.call.source);
    }
    // A POST into a nested collection (`/lists/{tasklist}/tasks`): the parents its path names are made first, and the
    // record's links name them as this request did (links.ts inferLinks).
    let parentPath: Record<string, ParamValue> | undefined;
    let guessed: readonly string[] = [];
    const pathParameters = kind.create.parameters.filter((p) => p.in === 'path');
    if (path === undefined && pathParameters.length > 0) {
      const given = options.within;
      if (given !== undefined && pathParameters.every((p) => given[p.name] !== undefined)) parentPath = { ...given };
      else {
        const parents = await this.keyedPath(kind, depth);
        if (!parents.ok) return { ok: false, reason: parents.reason, setup: true, transport: false };
        parentPath = parents.path;
        guessed = parents.guessed;
      }
    }
    // A nested create is judged valid with the parents its path names (checkValid reads every required parameter).
    const within = parentPath !== undefined ? { path: parentPath } : {};
    const validBody = (body: unknown): Validity => (form ? formValidity(form, this.checkValid(kind.create, within), body) : this.checkValid(kind.create, { ...within, body }));
    let generated = options.body !== undefined ? validBody(options.body) : this.generator.validBodyOrReason(kind.create, bindings, form);
    // An empty form is no body on the wire (zero bytes, which a server may read as none at all): a form create sends
    // its optional fields rather than nothing.
    const emptyForm = form !== undefined && generated.ok && isObject(generated.body) && Object.keys(generated.body).length === 0;
    if ((options.enrich || emptyForm) && generated.ok && isObject(generated.body)) {
      // The record's id is the server's to assign, whatever the schema says of it: never sent, so never compared.
      const id = identityField(kind);
      const enriched = this.generator.enrich(generated.body, bodySchema, new Set([...Object.keys(bindings), ...(id !== undefined ? [id] : []), 'id']));
      generated = validBody(enriched);
    }
    // The run's own identity before any vary: a vary that sets the id on purpose (create-new-identity's collision, an
    // unused id where the server assigns ids) is what is sent.
    if (options.body === undefined && generated.ok && isObject(generated.body)) generated = { ok: true, body: this.ownIdentity(kind, generated.body) };
    if (options.vary && generated.ok && isObject(generated.body)) {
      const id = identityField(kind);
      const keep = new Set([...Object.keys(bindings), ...(id !== undefined ? [id] : []), 'id']);
      generated = validBody(options.vary(generated.body, bodySchema, keep, (candidate) => validBody(candidate).ok));
    }
    // No valid input, no verdict: the check is skipped with the reason, never failed (issue 9, point 1).
    if (!generated.ok) return { ok: false, reason: generated.reason, setup: true, transport: false, noValidInput: true };
    const body = generated.body;
    if (path !== undefined) return this.madeByPut(kind, path, body, options.headers, depth);
    if (!isObject(body)) return { ok: false, reason: `the valid body for ${kind.create.operationId} is not an object, so no record can be tracked`, setup: true, transport: false, noValidInput: true };
    const sent = form ? { bodyText: encodeBody(form.media.mediaType, body, '').text, contentType: FORM_URLENCODED } : { body };
    const call = await this.call(kind.create, { ...sent, ...(parentPath ? { path: parentPath } : {}), ...(options.headers ? { headers: options.headers } : {}) });
    if (call.problem) return { ok: false, reason: call.problem, setup: depth > 0, transport: true };
    // Any 2xx with a record will do: whether the status is the documented one is status-documented's to say.
    // An inferred kind may name its record by Location alone (links.ts LOCATION_ID): an empty 201 with a Location is a record then.
    const created = isObject(call.json) ? call.json : kind.inferred && call.headers['location'] !== undefined ? {} : undefined;
    if (call.status === 404 && guessed.length > 0) {
      // The runner's own input explains it: a parent taken by its name from another collection may be no such record.
      return { ok: false, reason: `${kind.create.operationId} answered 404 under ${guessed.join(', ')}, taken by its name alone: the document does not say that record is one its path names`, setup: true, transport: false, status: 404 };
    }
    if (call.status === undefined || call.status < 200 || call.status >= 300 || created === undefined) {
      return {
        ok: false,
        reason: `${kind.create.operationId} answered ${call.status}${isObject(call.json) && typeof call.json['code'] === 'string' ? ` ${call.json['code']}` : ''} to a valid body, not ${kind.createdStatus} with a record`,
        setup: depth > 0,
        transport: false,
        ...(call.status !== undefined ? { status: call.status } : {}),
      };
    }
    return { ok: true, record: { kind, sent: body, body: created, call } };
  }

  /** The path of a PUT that makes a record at its own key: each parent's value from a record made for it, the key the run's own. */
  private async keyedPath(kind: ResourceKind, depth: number): Promise<{ ok: true; path: Record<string, ParamValue>; guessed: string[] } | { ok: false; reason: string }> {
    const path: Record<string, ParamValue> = {};
    // The parameters whose record is taken by its name alone from another collection (links.ts guessedByName).
    const guessed: string[] = [];
    // The deepest parent first, and the parents above it the ones it was made in (links.ts parentsNamedBy): an issue
    // made in `/orgs/{org}/projects/{project}/issues` names a project of that very org.
    const madeIn: Record<string, string> = {};
    for (const parameter of deepestPathFirst(kind.create)) {
      if (parameter.in !== 'path') continue;
      if (madeIn[parameter.name] !== undefined && parameter.name !== kind.keyParameter) {
        path[parameter.name] = madeIn[parameter.name]!;
        continue;
      }
      if (parameter.name === kind.keyParameter) {
        const key = this.ownPathKey(parameter);
        if (key === undefined) return { ok: false, reason: `no value valid for ${kind.create.operationId}'s ${parameter.name} that is the run's own` };
        path[parameter.name] = key;
        continue;
      }
      const producer = pathProducer(this.ctx.links, kind.create, parameter.name);
      if (!producer) return { ok: false, reason: `no record names ${kind.create.operationId}'s ${parameter.name}` };
      const parent = await this.create(producer.kind, { depth: depth + 1 });
      if (!parent.ok) return { ok: false, reason: parent.reason };
      const value = evaluateExpression(producer.expression, parent.record.call.source);
      if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, reason: `the ${producer.kind.create.operationId} answer gives no ${parameter.name}` };
      path[parameter.name] = String(value);
      if (guessedByName(this.ctx.links, kind.create, parameter.name)) guessed.push(`${parameter.name} (a record of ${producer.kind.create.operationId})`);
      Object.assign(madeIn, parentsNamedBy(producer.kind, parent.record.call.source, kind.create));
    }
    return { ok: true, path, guessed };
  }

  /**
   * A value for a path parameter that names a record the run makes (a PUT's own key): a valid value with the run's tag
   * in the first form the parameter's schema takes, or an integer high in its range (own-keys.ts); a made-up word
   * alone could be a record the target already holds, which the PUT would overwrite.
   */
  ownPathKey(parameter: ParameterSpec): ParamValue | undefined {
    const valid = (value: unknown): boolean => this.ctx.compiled.validate(parameter.schema, value, 'request').length === 0;
    const tag = this.generator.nextTag().replace(/[^A-Za-z0-9]/g, '');
    const base = this.ctx.requests.validParameterValue(parameter, this.generator);
    const word = typeof base === 'string' ? base : 'pk';
    const key = typeof base === 'number' && Number.isInteger(base) ? ownIntegerKeys(mergeAllOf(schema(parameter.schema)), tag).find(valid) : [`${word}-${tag}`, `${word}_${tag}`, `${word}${tag}`, tag, `pk${tag}`].find(valid);
    if (key !== undefined) this.ctx.cleanup.claimKey(String(key));
    return key;
  }

  /** Sends a PUT that makes a record at its own key: any 2xx makes it, whatever its body (Qdrant answers `{result: true}`). */
  private async madeByPut(kind: ResourceKind, path: Record<string, ParamValue>, body: unknown, headers: Readonly<Record<string, string>> | undefined, depth: number): Promise<CreateOutcome> {
    const call = await this.call(kind.create, { path, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
    if (call.problem) return { ok: false, reason: call.problem, setup: depth > 0, transport: true };
    if (call.status === undefined || call.status < 200 || call.status >= 300) {
      return { ok: false, reason: `${kind.create.operationId} answered ${call.status} to a valid request at a key of the run's own, not ${kind.createdStatus}`, setup: depth > 0, transport: false, ...(call.status !== undefined ? { status: call.status } : {}) };
    }
    const outcome: CreateOutcome = { ok: true, record: { kind, sent: isObject(body) ? body : {}, body: isObject(call.json) ? call.json : {}, call } };
    if (!this.madeByPuts.has(kind)) this.madeByPuts.set(kind, outcome);
    return outcome;
  }

  /**
   * A body whose client-chosen identity (the field the kind's links read its path id from: Svix's event type `name`)
   * is the run's own. The generator leaves a string with a pattern or format as the document's example gave it, and a
   * server that holds that example (a mock seeded from the examples, a shared sandbox) rightly refuses the create
   * with its documented 409. The run tag is appended in the first form the body's validator accepts; an integer key
   * is drawn high in its range instead (own-keys.ts); none valid, and the body stays as it was.
   */
  /**
   * A body for `operation` with the run's own key where the operation creates a kind's records (ownIdentity): a check
   * that sends a create's body itself (accepts-valid-bodies' variants) must not send the example's key, which a
   * target seeded from the examples holds, nor the key of a record an earlier variant created.
   */
  ownKey(operation: Operation, body: unknown): unknown {
    if (!isObject(body)) return body;
    const kind = this.ctx.links.kinds.get(operation.operationId);
    if (kind) return this.ownIdentity(kind, body);
    // A create the links model has no kind for (it answers 204, no record to read a link from): the member named as
    // the item path's parameter beside it (`POST /orders {id}` beside `GET /orders/{id}`) is still its key.
    const field = operation.method === 'post' ? itemKeyOf(this.ctx.contract, operation.pathTemplate, body) : undefined;
    return field === undefined ? body : this.ownField(operation, body, undefined, field);
  }

  private ownIdentity(kind: ResourceKind, sent: JsonObject): JsonObject {
    const body = this.withoutExampleKeys(kind, sent);
    // A record sent in the envelope its answer has (`{ "file": { "id": ... } }`, Box's Doc Gen templates): its key inside.
    // With no link naming it, the member the item path's parameter names inside a one-member envelope
    // (`{incident_type: {name}}` read at `/incidents/types/{type_id_or_name}`).
    const top = clientKeyField(kind, body);
    const nested = envelopedIdentity(kind, body) ?? (top === undefined ? envelopedItemKey(kind, body) : undefined);
    return this.ownField(kind.create, body, nested?.envelope, nested ? nested.field : top);
  }

  /**
   * `body` without the members that name a record and that the request schema does not declare (at the top and in a
   * one-member envelope): an example's key (SendGrid's `campaign_request` example carries `id: 986724`, its schema no
   * `id`), which every create would repeat. Left out, not made the run's own: the schema does not ask for it. Kept
   * when the body without it is not valid.
   */
  private withoutExampleKeys(kind: ResourceKind, body: JsonObject): JsonObject {
    const bodySchema = jsonBodyOf(kind.create)?.schema;
    const parameters = itemParameters(kind);
    const strip = (record: JsonObject, declared: Record<string, unknown>): JsonObject | undefined => {
      if (Object.keys(declared).length === 0) return undefined;
      const extra = Object.keys(record).filter((name) => !(name in declared) && namesARecord(name, parameters));
      return extra.length === 0 ? undefined : Object.fromEntries(Object.entries(record).filter(([name]) => !extra.includes(name)));
    };
    let out = body;
    const top = strip(body, propertiesOf(bodySchema));
    if (top) out = top;
    const members = Object.keys(out);
    const inner = members.length === 1 ? out[members[0]!] : undefined;
    if (isObject(inner)) {
      const stripped = strip(inner, propertiesOf(propertiesOf(bodySchema)[members[0]!]));
      if (stripped) out = { [members[0]!]: stripped };
    }
    return out !== body && this.checkValid(kind.create, { body: out }).ok ? out : body;
  }

  /** `body` with its key `field` (inside `envelope`, where given) made the run's own, in the first form `create` accepts. */
  private ownField(create: Operation, body: JsonObject, envelope: string | undefined, field: string | undefined): JsonObject {
    const nested = envelope === undefined ? undefined : { envelope };
    const holder = nested ? (body[nested.envelope] as JsonObject) : body;
    const wrap = (inner: JsonObject): JsonObject => (nested ? { ...body, [nested.envelope]: inner } : inner);
    const value = field === undefined ? undefined : holder[field];
    // The body alone is judged: the path and query are not known here, and judged with the body, a create under a
    // parent (`POST /accounts/{accountId}/items`) found every candidate invalid for its missing `accountId` and kept
    // the example's key, which a target seeded from the examples rightly refuses as taken (generated document 7027).
    const bodyValid = (candidate: JsonObject): boolean => (this.ctx.compiled.operations.get(create.operationId)?.body(candidate) ?? []).length === 0;
    if (field !== undefined && typeof value === 'number' && Number.isInteger(value)) {
      // An integer key: high in its range, away from the target's own sequence and data (own-keys.ts).
      const bodySchema = jsonBodyOf(create)?.schema;
      const holderSchema = nested ? propertiesOf(bodySchema)[nested.envelope] : bodySchema;
      const property = propertiesOf(holderSchema)[field];
      for (const key of property ? ownIntegerKeys(mergeAllOf(property), this.generator.nextTag()) : []) {
        const candidate = wrap({ ...holder, [field]: key });
        if (bodyValid(candidate)) return candidate;
      }
      return body;
    }
    if (field === undefined || typeof value !== 'string' || value.includes(this.ctx.runTag)) return body;
    const tag = this.generator.nextTag().replace(/[^A-Za-z0-9]/g, '');
    // A key of digits only (Box's file ids) takes the tag as digits: its FNV-1a hash, so two cases' tags never meet.
    // A pattern may refuse a leading zero (Discord's snowflakes: `^(0|[1-9][0-9]*)$`, where the example is "0"): the
    // hash alone, and after a 1, are tried too.
    const digits = /^\d+$/.test(value) ? [`${value}${fnv1a(tag)}`, fnv1a(tag), `1${fnv1a(tag)}`] : [];
    for (const candidateKey of [...digits, ...['-', '_', '.', ''].map((separator) => `${value}${separator}${tag}`)]) {
      const candidate = wrap({ ...holder, [field]: candidateKey });
      if (bodyValid(candidate)) return candidate;
    }
    return body;
  }

  /**
   * Validates an input the runner calls valid, as it will be sent: the body
   * as its exact JSON text read back, the path and query parameters as the
   * texts in the URL, with the operation's compiled validators (src/schema).
   */
  checkValid(operation: Operation, input: CallInput): Validity {
    return checkValid(this.ctx.compiled, operation, input);
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
    const keptBack = this.evidence.find((x) => x.error?.code === BREAKER_OPEN);
    if (keptBack && verdict !== 'skipped') {
      // A request the breaker kept back was never sent: the failures it follows are the earlier requests', reported there.
      return this.finish('skipped', `${BREAKER_PREFIX} ${keptBack.error!.message}`, []);
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

/** FNV-1a (32 bits) of a text, in decimal: digits that tell two tags apart. */
/**
 * The member of a create's body that names the record, where the client sends it: the field the kind's links read
 * the id from (at the top or inside the answer's envelope), else the member named as the item path's last parameter
 * (`/orders/{id}`), for a create that answers no body to read a link from (a 204 and a Location).
 */
export function clientKeyField(kind: ResourceKind, body: Readonly<Record<string, unknown>>): string | undefined {
  const linked = identityField(kind) ?? enveloped(kind, body);
  if (linked !== undefined) return linked;
  const item = kind.reads.map((target) => /\{([^{}]+)\}$/.exec(target.operation.pathTemplate)?.[1]).find((name) => name !== undefined);
  // The member the item's parameter names, or its last word (`{type_id_or_name}`: `name`, as `{pool_name}`).
  return item !== undefined ? memberNamedBy(item, body) : undefined;
}

/** The body member named as the last parameter of an item path beside a collection (`/orders/{id}` beside `/orders`), or by its last word (`id` for `/tags/{tagId}`). */
export function itemKeyOf(contract: Contract, collectionPath: string, body: Readonly<Record<string, unknown>>): string | undefined {
  const prefix = `${collectionPath.replace(/\/+$/, '')}/{`;
  for (const operation of contract.operations) {
    if (operation.method !== 'get' || !operation.pathTemplate.startsWith(prefix)) continue;
    const name = /^\{([^{}]+)\}$/.exec(operation.pathTemplate.slice(prefix.length - 1))?.[1];
    // The member of that name, or the one its last word names (`id` for `{tagId}`, as the mock reads a record's key).
    const member = name === undefined ? undefined : memberNamedBy(name, body);
    if (member !== undefined) return member;
  }
  return undefined;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return String(hash);
}
