/**
 * The conformance runner: loads the document, plans the checks the options
 * select, runs them against the target, judges every exchange with the
 * response-family checks, cleans up what it created, and returns a RunReport.
 * It emits events as it goes and never prints (architecture principle 8);
 * a target that breaks the contract is a finding, while an unusable document,
 * bad options or an unreachable target are KitErrors (principle 7).
 */
import { randomBytes } from 'node:crypto';
import { loadContract, responseFor, type Contract, type Operation } from '../src/contract/index.js';
import type { GenerationBudget } from '../src/generate/index.js';
import { KitError } from '../src/kit-error.js';
import { DEFAULT_SPEC_PATH, KIT_VERSION } from '../src/package-info.js';
import { sharedCompiledContract, type CompiledContract } from '../src/schema/index.js';
import { CHECKS, CHECK_FAMILIES, CHECK_IDS, checkInfos, type CheckDefinition } from './checks/index.js';
import { RunContext } from './context.js';
import { DEFAULT_MAX_BODY_BYTES, HttpClient } from './http.js';
import { describeExchange, judgeExchange } from './judge.js';
import { buildLinkModel } from './links.js';
import { REPORT_FORMAT_VERSION, type CleanupReport, type RunEvent, type RunMeta, type RunReport, type RunWarning, summarize } from './model.js';
import { coverageVerdict, MIN_COVERAGE_CHECK, type MinCoverage } from './min-coverage.js';
import { RECHECKED_FAMILIES, runRechecked } from './recheck.js';
import { PassiveTally } from './passive-tally.js';
import { startOrder } from './schedule.js';
import { shardOperations, type Shard } from './shard.js';

export interface RunOptions {
  /** The target, with its path prefix if any: `http://127.0.0.1:4010`, `https://staging.example.com/api/v1`. */
  readonly baseUrl: string;
  /** The OpenAPI 3.0 or 3.1 document; default the bundled openapi.yaml. */
  readonly specPath?: string;
  /** `--allow-refs`: where the document's $refs may read besides its folder and the working directory. */
  readonly allowRefs?: readonly string[];
  /** `--strict`: refuse a document that breaks the OpenAPI schema's letter (src/contract/load.ts). */
  readonly strictSchema?: boolean;
  /** Sent with every request (a staging token, say); values never appear in events or the report. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Only GET, HEAD and OPTIONS; checks that need writes are reported skipped. */
  readonly readOnly?: boolean;
  /** Check ids, check families, operationIds or tags to run (default: everything). */
  readonly only?: readonly string[];
  /** Check ids, check families, operationIds or tags to leave out. */
  readonly skip?: readonly string[];
  /** Per-request timeout; default 10000 ms. */
  readonly timeoutMs?: number;
  /** Requests in flight at most; default 4. */
  readonly concurrency?: number;
  /** Requests per second at most; default 0 (no cap). */
  readonly rate?: number;
  /** Seed of the generated inputs; default 1. */
  readonly seed?: number;
  /** With an origin (`http://localhost:5173`), the CORS checks run as a page on it would. */
  readonly origin?: string;
  readonly onEvent?: (event: RunEvent) => void;
  /** Aborting stops starting new checks; what was created is still cleaned up and a report is returned. */
  readonly signal?: AbortSignal;
  /**
   * --fail-fast (Schemathesis's --exitfirst, pytest's -x): the first failed result stops new checks from starting,
   * as an abort does; the checks not started are reported skipped, saying why, and the exit code is 1.
   */
  readonly failFast?: boolean;
  /**
   * false (--no-cleanup): what the run created is left on the target, each record listed in the report's cleanup, for
   * a target that is thrown away after the run. Default true: everything the run created is deleted at the end.
   */
  readonly cleanup?: boolean;
  /** Response bodies are read up to this many bytes; default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** --max-body-bytes: the target's request body limit, where its document states none (payload-too-large-413). */
  readonly bodyLimitBytes?: number;
  /** Requests the run sends at most; default 20,000 (http.ts MAX_REQUESTS_PER_RUN). Checks past it are reported not run. */
  readonly maxRequests?: number;
  /** --min-coverage: the least share (percent) of operations exercised and of documented statuses observed; below it the run fails. */
  readonly minCoverage?: MinCoverage;
  /**
   * --shard K/N: run only this shard's operations (shard.ts). Answers to any selected operation are still judged, so
   * `merge-reports` of the N reports gives a single run's verdicts (merge.ts).
   */
  readonly shard?: Shard;
  /** --generation-budget: the caps on one generated body or parameter (src/generate/budget.ts); the defaults when absent. */
  readonly generationBudget?: GenerationBudget;
}

/**
 * The passive checks whose finding on an answer makes what a later check concludes from that answer a
 * consequence: an answer that breaks its schema or media type (a string id, a missing field) fails every
 * check that reads it, and the report files those under the one defect that caused them.
 */
const CAUSE_CHECKS: ReadonlySet<string> = new Set(['response-schema', 'content-type']);

/** The families whose checks send requests a correct server refuses: invalid inputs, absent ids, unknown paths, wrong methods. */
const PROVOKING_FAMILIES: ReadonlySet<string> = new Set(['negative', 'errors', 'routing']);

/** Past this many failing exchanges per check, operation and reason, the rest are counted in the last listed result's `alike`. */
const MAX_FAILURES_LISTED = 10;

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const settings = validateOptions(options);
  const contract = await loadContract(options.specPath ?? DEFAULT_SPEC_PATH, { ...(options.allowRefs ? { allowRefs: options.allowRefs } : {}), ...(options.strictSchema ? { strictSchema: true } : {}) });
  // Validators that stop at the first problem and keep no reference to the value (not verbose: Ajv's `errors` of the
  // last call stay on each validator, and with `data` in them every validator would hold its last failing body), and a
  // detailed set made on first need for small failing answers (judge.ts).
  const compiled = sharedCompiledContract(contract, { allErrors: false, verbose: false, lazy: true });
  let detailed: CompiledContract | undefined;
  const validators = { fast: compiled, detailed: (): CompiledContract => (detailed ??= sharedCompiledContract(contract, { lazy: true })) };
  const selection = select(contract, options.only ?? [], options.skip ?? []);
  // The checks' subjects are the shard's operations; the passive checks judge answers to every selected operation.
  const inShard = options.shard ? shardOperations(contract, options.shard) : undefined;
  const subjects = inShard ? new Set([...selection.operations].filter((id) => inShard.has(id))) : selection.operations;
  const startedAt = new Date();
  const started = performance.now();
  const runTag = `pk${startedAt.getTime().toString(36).slice(-5)}${randomBytes(2).toString('hex')}`;
  const client = new HttpClient({
    baseUrl: settings.baseUrl,
    headers: options.headers ?? {},
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    rate: settings.rate,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
  });

  const emit = (event: RunEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A reporter's bug must not stop the run (nor skip the cleanup).
    }
  };
  const passive = CHECKS.filter((check) => check.judge && selection.checks.has(check.id) && applicable(check, settings) === undefined);
  const tallies = new PassiveTally({ maxListed: MAX_FAILURES_LISTED, noneJudged: 'no exchange of the run was one this check judges' });
  let done = 0;

  const ctx = new RunContext(
    contract,
    compiled,
    buildLinkModel(contract),
    settings.seed,
    runTag,
    client,
    {
      readOnly: settings.readOnly,
      ...(settings.origin ? { origin: settings.origin } : {}),
      ...(options.bodyLimitBytes !== undefined ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
      headerNames: Object.keys(options.headers ?? {}),
      provokingChecks: new Set(CHECKS.filter((check) => PROVOKING_FAMILIES.has(check.family)).map((check) => check.id)),
      ...(options.generationBudget ? { generationBudget: options.generationBudget } : {}),
      runSelection: selection.operations,
    },
    subjects,
    {
      onExchange(record) {
        const judged = judgeExchange(validators, record);
        if (!judged) return;
        if (judged.operation && !selection.operations.has(judged.operation.operationId)) return;
        const key = judged.operation?.operationId ?? '';
        for (const check of passive) {
          const verdict = check.judge!(judged, ctx);
          if (verdict.verdict === 'n/a') continue;
          if (verdict.verdict === 'fail' && CAUSE_CHECKS.has(check.id) && !ctx.brokenAnswers.has(record.result.exchange)) {
            ctx.brokenAnswers.set(record.result.exchange, { checkId: check.id, ...(key ? { operationId: key } : {}) });
          }
          tallies.add(check.id, key, verdict, () => ({ title: describeExchange(record), exchange: record.result.exchange }));
          // A check that judges every answer reports at the end; its first failed answer is its first failure.
          if (options.failFast && verdict.verdict === 'fail' && !ctx.aborted) ctx.abort(`not started: ${check.id} failed first (--fail-fast)`);
        }
      },
      onResult(result) {
        done += 1;
        emit({ type: 'check-finished', result, done });
        // A result held for a re-check reaches here only once confirmed (recheck.ts).
        if (options.failFast && result.verdict === 'failed' && !ctx.aborted) ctx.abort(`not started: ${result.checkId} failed first (--fail-fast)`);
      },
    },
  );
  const onAbort = (): void => ctx.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) ctx.abort();

  const meta: RunMeta = {
    kit: { name: 'petstore-kit', version: KIT_VERSION },
    document: { title: contract.title, version: contract.version, sha256: contract.sha256, file: contract.file },
    target: settings.displayUrl,
    startedAt: startedAt.toISOString(),
    seed: settings.seed,
    options: {
      readOnly: settings.readOnly,
      only: [...(options.only ?? [])],
      skip: [...(options.skip ?? [])],
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
      rate: settings.rate,
      ...(settings.origin ? { origin: settings.origin } : {}),
      // merge-reports reads these two: which shard this is, and the floor to hold the merged coverage against.
      ...(options.shard ? { shard: `${options.shard.index}/${options.shard.total}` } : {}),
      ...(options.minCoverage ? { minCoverage: options.minCoverage } : {}),
      // Names only: the values are secrets (issue 4, point 5).
      headers: Object.keys(options.headers ?? {}),
      specPath: contract.file,
    },
    checks: options.minCoverage ? [...checkInfos(), MIN_COVERAGE_CHECK] : checkInfos(),
    selectedChecks: [...CHECK_IDS.filter((id) => selection.checks.has(id)), ...(options.minCoverage ? [MIN_COVERAGE_CHECK.id] : [])],
  };
  let completed = 0;
  /** One selected check has reported everything it will: progress counts checks, whose total is known up front. */
  const complete = (checkId: string): void => {
    completed += 1;
    emit({ type: 'check-completed', checkId, completed, total: meta.selectedChecks.length });
  };

  let cleanup: CleanupReport = { deleted: 0, leftBehind: [] };
  try {
    await probe(ctx, contract, settings.displayUrl);
    await probePrefix(ctx, contract, settings.displayUrl);
    emit({ type: 'run-started', meta });
    const runnable: CheckDefinition[] = [];
    for (const check of CHECKS) {
      // A check --only/--skip leaves out is not reported at all (meta.options says what was asked); one that cannot run here is reported skipped, with why.
      if (!selection.checks.has(check.id)) continue;
      const reason = applicable(check, settings);
      if (reason !== undefined) {
        ctx.report({ checkId: check.id, title: check.description, verdict: 'skipped', reason, findings: [], evidence: [] });
        complete(check.id);
      } else if (check.run) runnable.push(check);
    }
    const runOne = async (check: CheckDefinition): Promise<void> => {
      if (ctx.aborted) {
        ctx.report({ checkId: check.id, title: check.description, verdict: 'skipped', reason: ctx.abortReason, findings: [], evidence: [] });
      } else {
        try {
          if (RECHECKED_FAMILIES.has(check.family)) await runRechecked(ctx, check.id, () => check.run!(ctx));
          else await check.run!(ctx);
        } catch (error) {
          // A bug of the kit: shown as such, and the run goes on.
          ctx.report({ checkId: check.id, title: check.description, verdict: 'failed', reason: `internal error in the check (a petstore-kit bug, please report it): ${(error as Error).stack ?? String(error)}`, findings: [], evidence: [] });
        }
      }
      // A check that also judges every exchange is complete only once the run's exchanges are all judged.
      if (!check.judge) complete(check.id);
    };
    // Checks own their records, so most run side by side; those that compare whole-collection counts run alone, after
    // them. --fail-fast starts the checks that probe every field last (schedule.ts).
    for (const phase of startOrder(runnable, options.failFast === true)) {
      await inParallel(phase.together, settings.concurrency, runOne);
      for (const check of phase.alone) await runOne(check);
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    try {
      if (ctx.exchangeCount > 0) cleanup = options.cleanup === false ? ctx.cleanup.keep(ctx) : await ctx.cleanup.run(ctx);
    } finally {
      await client.close();
    }
  }

  for (const check of passive) {
    for (const result of tallies.results(check, contract)) ctx.report(result);
    complete(check.id);
  }
  const runCoverage = ctx.coverage.report();
  if (options.minCoverage) {
    // One shard exercises a share of the operations by design: the floor holds for the merged run (merge.ts).
    if (options.shard) ctx.report({ checkId: MIN_COVERAGE_CHECK.id, title: MIN_COVERAGE_CHECK.description, verdict: 'skipped', reason: 'one shard of a run: merge-reports holds the coverage of all shards against --min-coverage', findings: [], evidence: [] });
    else ctx.report(coverageVerdict(runCoverage, options.minCoverage));
    complete(MIN_COVERAGE_CHECK.id);
  }

  const durationMs = Math.round(performance.now() - started);
  const order = new Map(CHECK_IDS.map((id, i) => [id, i]));
  // The runner's own min-coverage result comes last, after the registry's checks.
  // A case whose subject is another shard's is that shard's to report: here it would only say "not selected" (merge.ts).
  const own = inShard ? ctx.results.filter((r) => !(r.verdict === 'skipped' && r.judged === undefined && r.operationId !== undefined && !inShard.has(r.operationId))) : ctx.results;
  const results = [...own].sort((a, b) => (order.get(a.checkId) ?? CHECK_IDS.length) - (order.get(b.checkId) ?? CHECK_IDS.length));
  const exchanges = client.requestCount;
  const report: RunReport = {
    formatVersion: REPORT_FORMAT_VERSION,
    meta: { ...meta, finishedAt: new Date().toISOString(), durationMs },
    // Read at the end: validators compiled during the run add what they met (src/contract/warnings.ts).
    warnings: [...contract.warnings.map(({ pointer, message, skipped }) => ({ pointer, message, skipped })), ...credentialWarnings(ctx), ...silentOnErrorsWarnings(ctx), ...silentOnSuccessWarnings(ctx)],
    summary: summarize(results, exchanges, durationMs),
    coverage: runCoverage,
    results,
    cleanup,
  };
  emit({ type: 'run-finished', report });
  return report;
}

/**
 * The run had no credentials for some secured operations: say so once, with what to pass, so that the skipped
 * checks on them ("requires credentials") are not mistaken for a clean bill (credentials.ts).
 */
function credentialWarnings(ctx: RunContext): RunWarning[] {
  const without = ctx.credentials.operationsWithout(ctx.operations);
  if (without.length === 0) return [];
  const schemes = [...new Set(without.map((operation) => ctx.credentials.missingFor(operation)!))];
  return [
    {
      pointer: '/components/securitySchemes',
      message: `${without.length} of ${ctx.operations.length} operations require credentials the run does not send (${schemes.slice(0, 3).join('; ')}${schemes.length > 3 ? '; …' : ''}): pass them with --header 'Authorization: …' or the scheme's own header`,
      skipped: 'checks whose requests were refused with 401 or 403 on those operations (skipped, "requires credentials")',
    },
  ];
}

/** Operations that document no error answer, met with the run's invalid requests: the document's gap, said once (status-documented.ts). */
export function silentOnErrorsWarnings(ctx: Pick<RunContext, 'silentOnErrors'>): RunWarning[] {
  const silent = [...ctx.silentOnErrors];
  if (silent.length === 0) return [];
  return [
    {
      pointer: '/paths',
      message: `${silent.length} operation${silent.length === 1 ? '' : 's'} document${silent.length === 1 ? 's' : ''} no 4xx answer (no 4xx code, 4XX or default), yet must refuse invalid requests: ${silent.slice(0, 5).join(', ')}${silent.length > 5 ? ', …' : ''}`,
      skipped: "status-documented, on their 4xx answers to the run's invalid requests (every other rule still applies to them)",
    },
  ];
}

/** Operations that document no success answer, met with 2xx answers: the document's gap, said once (status-documented.ts). */
export function silentOnSuccessWarnings(ctx: Pick<RunContext, 'silentOnSuccess'>): RunWarning[] {
  const silent = [...ctx.silentOnSuccess];
  if (silent.length === 0) return [];
  return [
    {
      pointer: '/paths',
      message: `${silent.length} operation${silent.length === 1 ? '' : 's'} document${silent.length === 1 ? 's' : ''} no success answer (no 2xx code, 2XX or default), yet answered with one: ${silent.slice(0, 5).join(', ')}${silent.length > 5 ? ', …' : ''}`,
      skipped: 'status-documented, on their 2xx answers (every other rule still applies to them)',
    },
  ];
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}

interface Settings {
  readonly baseUrl: string;
  /** The base URL as reports show it: without user info. */
  readonly displayUrl: string;
  readonly readOnly: boolean;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly rate: number;
  readonly seed: number;
  readonly origin?: string;
}

function validateOptions(options: RunOptions): Settings {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new KitError('USAGE', `--base-url ${JSON.stringify(options.baseUrl)} is not a URL; give one such as http://127.0.0.1:4010 or https://staging.example.com/api/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KitError('USAGE', `--base-url must be an http or https URL; got ${url.protocol}`);
  if (url.search || url.hash) throw new KitError('USAGE', `--base-url must not carry a query or fragment; got ${url.origin}${url.pathname}…`);
  if (url.username || url.password) {
    // Credentials in a URL end up in every recorded request; a header can be redacted.
    throw new KitError('USAGE', "--base-url must not carry credentials (user:password@); pass them with --header 'Authorization: Basic …', whose value is never printed.");
  }
  const display = new URL(url.href);
  let origin: string | undefined;
  if (options.origin !== undefined) {
    try {
      origin = new URL(options.origin).origin;
    } catch {
      throw new KitError('USAGE', `--origin ${JSON.stringify(options.origin)} is not a URL; give the origin of the page, such as http://localhost:5173.`);
    }
    if (origin === 'null') throw new KitError('USAGE', `--origin must be an http or https origin; got ${options.origin}`);
  }
  const positive = (name: string, value: number | undefined, fallback: number, min: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v < min) throw new KitError('USAGE', `${name} must be a number >= ${min}; got ${v}`);
    return v;
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new KitError('USAGE', `--header name ${JSON.stringify(name)} is not a valid header name (RFC 9110 §5.1).`);
    if (/[\r\n\0]/.test(value)) throw new KitError('USAGE', `--header ${name}: the value holds a line break or NUL, which HTTP forbids.`);
  }
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    displayUrl: display.href.replace(/\/+$/, ''),
    readOnly: options.readOnly === true,
    timeoutMs: positive('timeout', options.timeoutMs, 10_000, 1),
    concurrency: Math.floor(positive('concurrency', options.concurrency, 4, 1)),
    rate: positive('rate', options.rate, 0, 0),
    seed: Math.floor(positive('seed', options.seed, 1, 0)),
    ...(origin ? { origin } : {}),
  };
}

/** Why a selected check cannot run with these settings, or undefined. */
function applicable(check: CheckDefinition, settings: Settings): string | undefined {
  if (check.needsOrigin && !settings.origin) return 'needs --origin URL (the page origin a browser would call from)';
  if (check.writes && settings.readOnly) return '--read-only: this check needs POST, PUT, PATCH or DELETE';
  if (check.unsafeUnderReadOnly !== undefined && settings.readOnly) return `--read-only: ${check.unsafeUnderReadOnly}`;
  return undefined;
}

/**
 * --only/--skip take check ids, check families, operationIds and tags. A
 * value that is none of them is a usage error rather than a silent no-op.
 */
function select(contract: Contract, only: readonly string[], skip: readonly string[]): { checks: Set<string>; operations: Set<string> } {
  const classify = (flag: string, value: string): { checks: string[]; operations: string[] } => {
    const checks = CHECK_IDS.includes(value) ? [value] : CHECK_FAMILIES.includes(value) ? CHECKS.filter((c) => c.family === value).map((c) => c.id) : [];
    const operations = contract.operations.filter((op) => op.operationId === value || op.tags.includes(value)).map((op) => op.operationId);
    if (checks.length === 0 && operations.length === 0) {
      throw new KitError('USAGE', `--${flag} ${value}: not a check id, check family, operationId or tag of the document. See petstore-kit conformance --list-checks.`);
    }
    return { checks, operations };
  };
  const onlyParts = only.map((v) => classify('only', v));
  const skipParts = skip.map((v) => classify('skip', v));
  const onlyChecks = new Set(onlyParts.flatMap((p) => p.checks));
  const onlyOps = new Set(onlyParts.flatMap((p) => p.operations));
  const checks = new Set(onlyChecks.size > 0 ? onlyChecks : CHECK_IDS);
  const operations = new Set(onlyOps.size > 0 ? onlyOps : contract.operations.map((op) => op.operationId));
  for (const part of skipParts) {
    for (const id of part.checks) checks.delete(id);
    for (const id of part.operations) operations.delete(id);
  }
  return { checks, operations };
}

/** One request before any check: a target that does not answer at all is a kit error, not a list of failed checks. */
async function probe(ctx: RunContext, contract: Contract, displayUrl: string): Promise<void> {
  const operation: Operation | undefined = contract.operations.find((op) => op.method === 'get' && !op.parameters.some((p) => p.in === 'path' || (p.required && p.in !== 'header')));
  const query = operation?.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: '1' } : undefined;
  // The probes are judged like any answer to their operation: with its required headers (Xero's xero-tenant-id).
  const headers = operation ? ctx.requests.requiredHeaders(operation, ctx.generatorFor('probe')) : {};
  const record = await ctx.send('probe', { method: 'GET', path: operation?.pathTemplate ?? '/', ...(query ? { query } : {}), headers }, operation ? { kind: 'operation', operation } : { kind: 'none' });
  const error = record.result.error;
  if (error && error.code !== 'REDIRECT') {
    await ctx.client.close();
    throw new KitError('TARGET_UNREACHABLE', `${displayUrl} did not answer ${record.method} ${record.path}: ${error.message}. Is the server running, and is --base-url right?`, { reason: error.code });
  }
}

/**
 * A wrong path prefix in --base-url (`https://host` for `https://host/api/v1`)
 * makes every documented path a 404 from whatever serves the host, and a run
 * would report a hundred failures that all mean "wrong URL". So the list
 * operations (GET, no required parameter) are tried first: when most answer
 * a 404 that is not the contract's Error for that operation (an HTML page, or
 * a 404 the operation does not document: a collection is never "not found"),
 * the run stops with a kit error that says so and lists what was tried.
 */
async function probePrefix(ctx: RunContext, contract: Contract, displayUrl: string): Promise<void> {
  const lists = contract.operations.filter((op) => op.method === 'get' && !op.parameters.some((p) => p.in === 'path' || (p.required && p.in !== 'header'))).slice(0, 6);
  if (lists.length < 2) return;
  const tried: string[] = [];
  let foreign404 = 0;
  for (const operation of lists) {
    const record = await ctx.send('probe', { method: 'GET', path: operation.pathTemplate, headers: ctx.requests.requiredHeaders(operation, ctx.generatorFor('probe')) }, { kind: 'operation', operation });
    const response = record.result.response;
    tried.push(`GET ${displayUrl}${operation.pathTemplate} → ${response ? response.status : (record.result.error?.code ?? 'no answer')}`);
    if (response?.status !== 404) continue;
    // A 404 the operation documents, in the contract's Error shape, is an answer about a record; any other 404 says the path itself is unknown there.
    const body = response.body.kind === 'json' ? response.body.value : undefined;
    const documented = responseFor(operation, 404)?.status === '404';
    const isContractError = body !== undefined && ctx.compiled.unmatchedResponse('unknownPath', response.headers, body).length === 0;
    if (!documented || !isContractError) foreign404 += 1;
  }
  if (foreign404 * 2 > lists.length) {
    await ctx.client.close();
    throw new KitError(
      'BASE_URL_MISMATCH',
      `${displayUrl} answered ${foreign404} of ${lists.length} documented collection paths with a 404 that is not the contract's Error, so --base-url most likely lacks the API's path prefix (e.g. /api/v1) or has a wrong one (or the target implements hardly any of the document). Tried:\n  ${tried.join('\n  ')}`,
      { reason: 'wrong path prefix' },
    );
  }
}
