/**
 * One live exchange judged by the document, with the validators and checks the runner uses (architecture: "the
 * validating proxy is the runner's judge on someone else's traffic"):
 *
 * - the request as it was sent to the target (its headers with the `--header` ones in place of the client's, its
 *   body decoded when a Content-Encoding says so), by the compiled validators the mock refuses requests with
 *   (src/schema: the route, then path, query and header parameters, then the body against its documented media
 *   types and schema), under three rule ids of the proxy's own (`request-route`, `request-parameters`,
 *   `request-body`): the runner never judges a request, since it only sends valid ones;
 * - the response, as a RecordedExchange handed to the runner's judge (judge.ts) and every passive check of the
 *   registry (status documented, content type, schema, headers, error shape and codes, 5xx, deprecation and
 *   sunset headers): the same functions, so a defect the runner finds is the defect the proxy finds.
 *
 * Nothing here touches a socket: the proxy's server hands in what crossed it (LiveExchange), and gets verdicts back.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Operation } from '../../src/contract/index.js';
import type { Diagnostic, OperationValidators } from '../../src/schema/index.js';
import { mediaTypeMatches } from '../../src/schema/index.js';
import { createRouter, type RouteMatch } from '../../src/router.js';
import { rememberMatches } from '../../mock/engine/match-memo.js';
import { isPreflight } from '../../mock/transport/cors.js';
import { parseQuery } from '../../mock/transport/server.js';
import type { CheckDefinition, JudgeContext } from '../checks/index.js';
import { decodeBody } from './body-coding.js';
import type { RunSettings } from '../context.js';
import type { ExchangeTarget, RecordedExchange } from '../recorded.js';
import { Credentials } from '../credentials.js';
import { flattenHeaders, parseBody, type ParsedBody } from '../http.js';
import { judgeExchange, type JudgedExchange, type JudgeValidators, type Judgement } from '../judge.js';
import type { CheckInfo, Exchange } from '../model.js';

/** The proxy's own rules about requests: the client's side of the contract. Family `request`. */
export const REQUEST_RULES: readonly CheckInfo[] = [
  { id: 'request-route', family: 'request', description: 'Every request goes to a path and method the document describes.', writes: false },
  { id: 'request-parameters', family: 'request', description: "Every request's path, query and header parameters are valid for their schemas, and the required ones are there.", writes: false },
  { id: 'request-body', family: 'request', description: 'Every request body has a media type the operation documents and validates against its schema; a required body is there.', writes: false },
];

/** What a record's `checkId` says when the request itself broke the document: the target's refusal of it is expected (status-documented). */
const INVALID_REQUEST = 'proxy-invalid-request';
const VALID_REQUEST = 'proxy';

/** Evidence keeps the first 2 KiB of each body, as the runner's does (http.ts). */
const EXCERPT_BYTES = 2048;

/** What crossed the proxy for one exchange, as its server captured it. */
export interface LiveExchange {
  readonly method: string;
  /** The path as received, percent-encoded, without the query; with the base path, if any. */
  readonly path: string;
  /** The query text after `?`, '' when none. */
  readonly query: string;
  /** The request's headers as sent to the target: the client's, with the `--header` ones in their place. */
  readonly requestHeaders: IncomingHttpHeaders;
  /** The request body as received (still encoded when Content-Encoding says so); undefined when there was none or it was over the limit. */
  readonly requestBody?: Buffer;
  /** The request body was over --max-body-bytes: passed on, not validated. */
  readonly requestBodyTooLarge?: boolean;
  /** Where it was sent: the report's `curl` replays it there. */
  readonly targetUrl: string;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string | string[] | undefined>>;
  /** The answer's bytes as they crossed (still encoded when Content-Encoding says so), up to the limit. */
  readonly responseBody: Buffer;
  /** More bytes crossed than the limit: only the status and headers are judged. */
  readonly responseTruncated: boolean;
  readonly responseBytes: number;
  readonly durationMs: number;
}

/** The route of a request, known as soon as its head arrives. */
export type Routed =
  | { readonly kind: 'operation'; readonly operation: Operation; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly kind: 'unmatched'; readonly which: 'unknownPath' | 'wrongMethod'; readonly allow?: readonly string[] }
  /** A CORS preflight (Fetch §3.2.2): the browser's, not the API's; passed on, never judged. */
  | { readonly kind: 'preflight' };

export interface RuleVerdict {
  readonly checkId: string;
  readonly verdict: Exclude<Judgement, { verdict: 'n/a' }>;
}

export interface LiveVerdict {
  /** The operationId, or '' for a request no operation matches. */
  readonly operationKey: string;
  readonly record: RecordedExchange;
  readonly verdicts: readonly RuleVerdict[];
  /** What was left unjudged and why (a body over the limit), for the report's notes. */
  readonly unvalidated?: 'request-body' | 'response-body' | 'both';
  /** `proxy`: the proxy refused the request itself (--errors), so only the request was judged and nothing reached the target. */
  readonly answeredBy: 'target' | 'proxy';
}

export interface LiveJudgeSettings {
  /** First-problem validators for every exchange, and a detailed set asked only about a small failing answer (judge.ts). */
  readonly validators: JudgeValidators;
  /** The passive checks and request rules to apply (their ids); others are left out. */
  readonly selected: ReadonlySet<string>;
  /** Passive checks of the registry (those with `judge`). */
  readonly passive: readonly CheckDefinition[];
}

export interface LiveJudge {
  route(method: string, path: string, headers: IncomingHttpHeaders): Routed;
  /** The request's breaks of the document (the request rules), from what arrived. */
  requestVerdicts(routed: Routed, exchange: Pick<LiveExchange, 'method' | 'path' | 'query' | 'requestHeaders' | 'requestBody' | 'requestBodyTooLarge'>): RuleVerdict[];
  /** Every verdict on an exchange: its request's (given, or computed) and its response's. Undefined for a preflight. */
  judge(routed: Routed, exchange: LiveExchange, requestVerdicts?: readonly RuleVerdict[], options?: { readonly answeredBy?: 'target' | 'proxy' }): LiveVerdict | undefined;
  /** Whether an answer is the operation's own documented one for its status, in its documented shape (fallback.ts asks it of a 404). */
  answersAsDocumented(operation: Operation, exchange: LiveExchange): boolean;
  /** The operations met that document no 4xx, or no success, answer (status-documented notes them): the report's warnings. */
  readonly silences: Pick<JudgeContext, 'silentOnErrors' | 'silentOnSuccess'>;
}

export function createLiveJudge(settings: LiveJudgeSettings): LiveJudge {
  const { validators } = settings;
  const compiled = validators.fast;
  const contract = compiled.contract;
  // The proxy serves the document's paths at its root: a target's path prefix is part of --target.
  const match = rememberMatches(createRouter(contract));
  const passive = settings.passive.filter((check) => check.judge && settings.selected.has(check.id));
  const rules = new Set(REQUEST_RULES.map((rule) => rule.id).filter((id) => settings.selected.has(id)));
  const runSettings: RunSettings = { readOnly: false, headerNames: [], provokingChecks: new Set([INVALID_REQUEST]) };
  const silentOnErrors = new Set<string>();
  const silentOnSuccess = new Set<string>();
  const credentialsBySent = new Map<string, Credentials>();
  let seq = 0;

  /**
   * Which credentials a request carried, by header names only (credentials.ts): a 401 to a request without the
   * ones the operation requires is the right answer, whatever the document lists. Kept per set of names, bounded.
   */
  const credentialsFor = (headers: IncomingHttpHeaders): Credentials => {
    const names = Object.keys(headers).sort();
    const key = names.join(',');
    let known = credentialsBySent.get(key);
    if (!known) {
      if (credentialsBySent.size >= 64) credentialsBySent.clear();
      credentialsBySent.set(key, (known = new Credentials(contract, names)));
    }
    return known;
  };

  const route = (method: string, path: string, headers: IncomingHttpHeaders): Routed => {
    if (isPreflight(method, headers)) return { kind: 'preflight' };
    // The router takes HEAD for GET (RFC 9110 §9.3.2).
    const found: RouteMatch = match(method, path);
    if (found.kind === 'match') return { kind: 'operation', operation: found.operation, pathParams: found.pathParams };
    if (found.kind === 'no-method') return { kind: 'unmatched', which: 'wrongMethod', allow: found.allow };
    return { kind: 'unmatched', which: 'unknownPath' };
  };

  const requestVerdicts: LiveJudge['requestVerdicts'] = (routed, exchange) => {
    if (routed.kind === 'preflight') return [];
    const out: RuleVerdict[] = [];
    const add = (checkId: string, problems: readonly Diagnostic[]): void => {
      if (rules.has(checkId)) out.push({ checkId, verdict: ruleVerdict(problems) });
    };
    if (routed.kind === 'unmatched') {
      const message =
        routed.which === 'wrongMethod'
          ? `${exchange.method} is not documented on this path; it takes ${(routed.allow ?? []).join(', ')}`
          : `no path of ${contract.title} matches ${exchange.path}`;
      add('request-route', [{ pointer: routed.which === 'wrongMethod' ? '/method' : '/path', keyword: 'route', message, actual: routed.which === 'wrongMethod' ? exchange.method : exchange.path }]);
      return out;
    }
    add('request-route', []);
    const operation = routed.operation;
    const operationValidators = compiled.operations.get(operation.operationId);
    if (!operationValidators) return out;
    // First-problem validators for every request; a failing one is asked again of the detailed set, so the report
    // (and --errors' 400) lists every problem, as the mock's VALIDATION_FAILED does.
    const detailedOf = (): OperationValidators | undefined => validators.detailed().operations.get(operation.operationId);
    if (rules.has('request-parameters')) {
      const raw = { path: routed.pathParams, query: queryOf(exchange), headers: exchange.requestHeaders };
      const checked = operationValidators.parameters(raw);
      const all = checked.ok ? checked : (detailedOf()?.parameters(raw) ?? checked);
      add('request-parameters', all.ok ? [] : all.diagnostics);
    }
    if (rules.has('request-body') && !exchange.requestBodyTooLarge) {
      const body = requestBodyOf(exchange);
      const problems = bodyProblems(operation, exchange.requestHeaders, body, (value) => operationValidators.body(value));
      const all = problems.length === 0 ? problems : bodyProblems(operation, exchange.requestHeaders, body, (value) => (detailedOf() ?? operationValidators).body(value));
      add('request-body', all);
    }
    return out;
  };

  const judge: LiveJudge['judge'] = (routed, exchange, given, options = {}) => {
    if (routed.kind === 'preflight') return undefined;
    const verdicts: RuleVerdict[] = [...(given ?? requestVerdicts(routed, exchange))];
    const invalidRequest = verdicts.some((v) => v.verdict.verdict === 'fail');
    const target: ExchangeTarget = routed.kind === 'operation' ? { kind: 'operation', operation: routed.operation } : { kind: 'unmatched', which: routed.which };
    const record = recordOf(exchange, target, invalidRequest ? INVALID_REQUEST : VALID_REQUEST, (seq += 1));
    const operationKey = routed.kind === 'operation' ? routed.operation.operationId : '';
    const unvalidated = exchange.requestBodyTooLarge && exchange.responseTruncated ? 'both' : exchange.requestBodyTooLarge ? 'request-body' : exchange.responseTruncated ? 'response-body' : undefined;
    // RFC 9110 §15.4.5: a 304 answers a conditional request (a browser revalidating its cache); documents rarely list it, and it says nothing of the representation.
    const revalidated = exchange.status === 304 && (exchange.requestHeaders['if-none-match'] !== undefined || exchange.requestHeaders['if-modified-since'] !== undefined);
    const answeredBy = options.answeredBy ?? 'target';
    const judged = revalidated || answeredBy === 'proxy' ? undefined : judgeExchange(validators, record);
    if (judged) {
      // A HEAD answer has no body by definition (RFC 9110 §9.3.2), and one over the limit was not read: their bodies say nothing.
      const seen = exchange.responseTruncated || exchange.method === 'HEAD' ? withoutBody(judged) : judged;
      const ctx: JudgeContext = {
        contract,
        compiled,
        settings: runSettings,
        silentOnErrors,
        silentOnSuccess,
        get credentials() {
          return credentialsFor(exchange.requestHeaders);
        },
      };
      for (const check of passive) {
        const verdict = check.judge!(seen, ctx);
        if (verdict.verdict !== 'n/a') verdicts.push({ checkId: check.id, verdict });
      }
    }
    return { operationKey, record, verdicts, answeredBy, ...(unvalidated ? { unvalidated } : {}) };
  };

  const answersAsDocumented: LiveJudge['answersAsDocumented'] = (operation, exchange) => {
    const operationValidators = compiled.operations.get(operation.operationId);
    if (!operationValidators || exchange.responseTruncated) return false;
    const headers = flattenHeaders({ ...exchange.responseHeaders });
    const body = responseBodyOf(exchange, headers);
    const verdict = operationValidators.response(exchange.status, headers, body.kind === 'json' ? body.plain : undefined);
    return verdict.statusKey !== undefined && verdict.diagnostics.length === 0;
  };

  return { route, requestVerdicts, judge, answersAsDocumented, silences: { silentOnErrors, silentOnSuccess } };
}

/** A rule's verdict from its problems: none is a pass. */
function ruleVerdict(problems: readonly Diagnostic[]): RuleVerdict['verdict'] {
  return problems.length === 0 ? { verdict: 'pass' } : { verdict: 'fail', reason: problems[0]!.message, findings: problems };
}

/**
 * The body's media type among those the operation documents (RFC 9110 §8.3; OpenAPI 3.0.3 §4.7.13: a request body's
 * `content` lists what it takes), then a JSON body against its schema; a required body that is missing.
 */
function bodyProblems(operation: Operation, headers: IncomingHttpHeaders, decoded: RequestBody, validate: (value: unknown) => Diagnostic[]): Diagnostic[] {
  const declared = operation.requestBody?.content ?? [];
  if (decoded.kind === 'none') return validate(undefined);
  if (declared.length === 0) return [];
  const rawType = headers['content-type'];
  const contentType = rawType?.split(';')[0]?.trim().toLowerCase();
  if (!declared.some((media) => mediaTypeMatches(media.mediaType, contentType))) {
    return [{ pointer: '/header/content-type', keyword: 'content', message: `Content-Type ${contentType ?? '(none)'} is not one the operation takes (documented: ${declared.map((m) => m.mediaType).join(', ')})`, expected: declared.map((m) => m.mediaType), actual: contentType ?? null }];
  }
  if (decoded.kind === 'undecodable') return [{ pointer: '/body', keyword: 'content-encoding', message: `the body does not decode as its Content-Encoding (${decoded.coding}) says` }];
  const parsed = parseBody(decoded.bytes, false, rawType);
  if (parsed.kind === 'invalid-json') return [{ pointer: '/body', keyword: 'json', message: `the body is not valid JSON (${parsed.message})`, actual: 'unparsable text' }];
  if (parsed.kind !== 'json') return [];
  return validate(parsed.plain);
}

/** The judged view with nothing said about the body: the answer was larger than the proxy reads, so only its status and headers count. */
function withoutBody(judged: JudgedExchange): JudgedExchange {
  return { ...judged, json: undefined, body: { kind: 'empty' }, diagnostics: judged.diagnostics.filter((d) => d.pointer !== '/body' && !d.pointer.startsWith('/body/')) };
}

/** The exchange as the runner's recorder keeps one (context.ts), so judge.ts, the checks and coverage read it as they read a run's. */
function recordOf(exchange: LiveExchange, target: ExchangeTarget, checkId: string, seq: number): RecordedExchange {
  const query: Record<string, string[]> = {};
  const parsed = queryOf(exchange);
  for (const name in parsed) {
    const value = parsed[name]!;
    query[name] = typeof value === 'string' ? [value] : value;
  }
  const responseHeaders = flattenHeaders({ ...exchange.responseHeaders });
  const body = responseBodyOf(exchange, responseHeaders);
  const requestBody = requestBodyOf(exchange);
  const requestJson = requestBody.kind === 'bytes' ? jsonOf(parseBody(requestBody.bytes, false, exchange.requestHeaders['content-type'])) : undefined;
  let evidence: Exchange | undefined;
  let url: URL | undefined;
  return {
    seq,
    checkId,
    target,
    method: exchange.method,
    path: exchange.path,
    query,
    ...(requestJson !== undefined ? { requestJson } : {}),
    result: {
      // Parsed only when read (a report's curl line): a URL costs microseconds per exchange for nothing otherwise.
      get url(): URL {
        return (url ??= new URL(exchange.targetUrl));
      },
      response: { status: exchange.status, headers: responseHeaders, body },
      // Built only when a failure lists this exchange as evidence (passive-tally.ts): most exchanges never need it.
      get exchange(): Exchange {
        return (evidence ??= evidenceOf(exchange, responseHeaders));
      },
    },
  };
}

/** A request body as the judge reads it: none, its bytes decoded (RFC 9110 §8.4), or bytes that do not decode as their Content-Encoding says. */
type RequestBody = { readonly kind: 'none' } | { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'undecodable'; readonly coding: string };

const NO_BODY: RequestBody = { kind: 'none' };
const requestBodies = new WeakMap<object, RequestBody>();

/** The exchange's request body decoded as its Content-Encoding says (gzip, deflate, br), as answers are: decoded once. */
function requestBodyOf(exchange: Pick<LiveExchange, 'requestBody' | 'requestHeaders'>): RequestBody {
  const raw = exchange.requestBody;
  if (raw === undefined || raw.length === 0) return NO_BODY;
  let known = requestBodies.get(exchange);
  if (!known) {
    const coding = single(exchange.requestHeaders['content-encoding']);
    const bytes = decodeBody(raw, coding);
    requestBodies.set(exchange, (known = bytes === undefined ? { kind: 'undecodable', coding: coding ?? '' } : { kind: 'bytes', bytes }));
  }
  return known;
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});
const queries = new WeakMap<object, Readonly<Record<string, string | string[]>>>();

/** The exchange's query, decoded (mock/transport/server.ts parseQuery: no prototype, repeated names as arrays), parsed once. */
function queryOf(exchange: Pick<LiveExchange, 'query'>): Readonly<Record<string, string | string[]>> {
  if (exchange.query === '') return NO_QUERY;
  let parsed = queries.get(exchange);
  if (!parsed) queries.set(exchange, (parsed = parseQuery(exchange.query)));
  return parsed;
}

function jsonOf(body: ParsedBody): unknown {
  return body.kind === 'json' ? body.value : undefined;
}

/**
 * The answer's body as the checks read it: decoded when the target compressed it (RFC 9110 §8.4: the proxy passes
 * the encoded bytes on unchanged, and judges what they encode), bounded by what was captured.
 */
function responseBodyOf(exchange: LiveExchange, headers: Readonly<Record<string, string>>): ParsedBody {
  if (exchange.responseTruncated) return { kind: 'truncated', bytesRead: exchange.responseBody.length };
  const decoded = decodeBody(exchange.responseBody, headers['content-encoding']);
  if (decoded === undefined) return { kind: 'invalid-json', message: `the body does not decode as its Content-Encoding (${headers['content-encoding'] ?? ''}) says` };
  return parseBody(decoded, false, headers['content-type']);
}

/** The exchange as report evidence: excerpts, as the runner records them (model.ts); secrets are the reporters' to redact (redact.ts). */
function evidenceOf(exchange: LiveExchange, responseHeaders: Readonly<Record<string, string>>): Exchange {
  const requestHeaders = flattenHeaders({ ...exchange.requestHeaders });
  const body = requestBodyOf(exchange);
  // Excerpts of what the bodies decode to (RFC 9110 §8.4), so a report shows JSON rather than compressed bytes.
  const answer = exchange.responseTruncated ? undefined : decodeBody(exchange.responseBody, responseHeaders['content-encoding']);
  return {
    request: {
      method: exchange.method,
      url: exchange.targetUrl,
      headers: requestHeaders,
      ...(body.kind !== 'none' ? { body: excerpt(body.kind === 'bytes' ? body.bytes : exchange.requestBody!) } : {}),
    },
    response: {
      status: exchange.status,
      headers: responseHeaders,
      bodyExcerpt: excerpt(answer ?? exchange.responseBody),
      bodyBytes: exchange.responseBytes,
      truncated: exchange.responseTruncated,
    },
    durationMs: Math.round(exchange.durationMs),
  };
}

function excerpt(bytes: Buffer): string {
  const text = bytes.subarray(0, EXCERPT_BYTES).toString('utf8');
  return bytes.length > EXCERPT_BYTES ? `${text}…` : text;
}
