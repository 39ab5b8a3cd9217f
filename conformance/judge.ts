/**
 * The document's verdict on one response, computed once per exchange and
 * shared by the response-family checks, each of which keeps only the part
 * it owns (one owner per kind of defect: a missing X-Total-Count is
 * `response-headers`' alone, a 5xx is `no-server-error`'s alone). The
 * validators come from src/schema; nothing here restates a schema.
 */
import type { Operation } from '../src/contract/index.js';
import type { CompiledContract, Diagnostic } from '../src/schema/index.js';
import type { RecordedExchange } from './recorded.js';
import type { ParsedBody } from './http.js';
import type { Finding } from './model.js';

export interface JudgedExchange {
  readonly record: RecordedExchange;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ParsedBody;
  /** The JSON body, when there is one. */
  readonly json: unknown;
  readonly operation?: Operation;
  readonly unmatched?: 'unknownPath' | 'wrongMethod' | 'unparsable';
  /** The documented response that applies ('200', '4XX', 'default'); undefined when the status is not documented. */
  readonly statusKey?: string;
  /** Everything the validators found, before the checks split it by owner. */
  readonly diagnostics: readonly Diagnostic[];
}

export type Judgement = { readonly verdict: 'n/a' } | { readonly verdict: 'pass' } | { readonly verdict: 'fail'; readonly reason: string; readonly findings: readonly Finding[] };

export const NOT_APPLICABLE: Judgement = { verdict: 'n/a' };
export const PASS: Judgement = { verdict: 'pass' };

export function verdictOf(findings: readonly Finding[], reason?: string): Judgement {
  return findings.length === 0 ? PASS : { verdict: 'fail', reason: reason ?? findings[0]!.message, findings };
}

/**
 * The headers a deprecated operation's checks own (RFC 9745 Deprecation,
 * RFC 8594 Sunset, RFC 8288 Link): `response-headers` leaves them to
 * `deprecation-headers` there, so a missing Sunset is reported once.
 */
export const DEPRECATION_HEADERS: ReadonlySet<string> = new Set(['deprecation', 'sunset', 'link']);

/**
 * The validators the judge uses. `fast` stops at the first problem (Ajv
 * without allErrors): a hostile 1 MiB `[{},…]` would otherwise build an error
 * object per element, gigabytes of them (issue 12, finding 2; fastify keeps
 * allErrors off for the same reason). `detailed` lists every problem, and is
 * asked only about a response that failed and whose body is small.
 */
export interface JudgeValidators {
  readonly fast: CompiledContract;
  detailed(): CompiledContract;
}

/**
 * A failing response whose body is at most this large is validated again for
 * the full list of problems (a page of 100 pets is under 10 KiB). Bounded
 * because allErrors work grows with the body: a hostile 1 MiB `[{},…]` would
 * build one error object per element (issue 12, finding 2). The validators
 * drop their errors once read (src/schema/validators.ts problemsOf), so no
 * failing body is kept alive either way.
 */
export const DETAILED_BODY_BYTES = 32 * 1024;

/** Builds the judged view of a recorded exchange; undefined when there is no response to judge (transport error, redirect, or a request the document does not describe). */
export function judgeExchange(validators: JudgeValidators, record: RecordedExchange): JudgedExchange | undefined {
  const response = record.result.response;
  if (!response || (record.result.error && !documentedRedirect(record)) || record.target.kind === 'none') return undefined;
  const first = diagnose(validators.fast, record);
  if (!first || first.diagnostics.length === 0 || (record.result.exchange.response?.bodyBytes ?? 0) > DETAILED_BODY_BYTES) return first;
  return diagnose(validators.detailed(), record);
}

function diagnose(compiled: CompiledContract, record: RecordedExchange): JudgedExchange | undefined {
  const response = record.result.response;
  if (!response || (record.result.error && !documentedRedirect(record)) || record.target.kind === 'none') return undefined;
  const json = response.body.kind === 'json' ? response.body.value : undefined;
  // Ajv needs plain numbers (json.ts): a bigint id is validated as the double JSON.parse would give.
  const bodyForValidator = response.body.kind === 'json' ? response.body.plain : undefined;
  let diagnostics: Diagnostic[];
  let statusKey: string | undefined;
  let operation: Operation | undefined;
  let unmatched: JudgedExchange['unmatched'];
  if (record.target.kind === 'operation') {
    operation = record.target.operation;
    const validators = compiled.operations.get(operation.operationId);
    if (!validators) return undefined;
    const verdict = validators.response(response.status, response.headers, bodyForValidator);
    diagnostics = verdict.diagnostics;
    statusKey = verdict.statusKey;
  } else {
    unmatched = record.target.which;
    // A request the server could not parse has no documented answer of its own (x-unmatched-requests names none): only its error's shape is judged, by error-shape.
    diagnostics = record.target.which === 'unparsable' ? [] : compiled.unmatchedResponse(record.target.which, response.headers, bodyForValidator);
    statusKey = String(response.status);
  }
  diagnostics = explainUnreadableBody(diagnostics, response.body);
  return {
    record,
    status: response.status,
    headers: response.headers,
    body: response.body,
    json,
    ...(operation ? { operation } : {}),
    ...(unmatched ? { unmatched } : {}),
    ...(statusKey !== undefined ? { statusKey } : {}),
    diagnostics,
  };
}

/**
 * A body that is not valid JSON or was cut at the size cap reached the
 * validator as "no body"; say what it really was instead. When the
 * Content-Type is already wrong, that is the one finding (content-type owns it).
 */
function explainUnreadableBody(diagnostics: Diagnostic[], body: ParsedBody): Diagnostic[] {
  if (body.kind !== 'invalid-json' && body.kind !== 'truncated') return diagnostics;
  if (diagnostics.some((d) => d.pointer === '/header/content-type')) return diagnostics;
  const rest = diagnostics.filter((d) => !d.pointer.startsWith('/body'));
  if (body.kind === 'invalid-json') {
    return [...rest, { pointer: '/body', keyword: 'json', message: `the body is not valid JSON (${body.message})`, expected: 'JSON', actual: 'unparsable text' }];
  }
  return [...rest, { pointer: '/body', keyword: 'size', message: `the body is larger than the runner's cap; it read ${body.bytesRead} bytes and stopped (a page of this API should be far smaller)`, expected: `<= ${body.bytesRead} bytes`, actual: 'more' }];
}

/** Diagnostics about the body (`/body`, `/body/0/status`). */
export function bodyDiagnostics(x: JudgedExchange): Diagnostic[] {
  return x.diagnostics.filter((d) => d.pointer === '/body' || d.pointer.startsWith('/body/'));
}

/** Short description of an exchange for titles: `GET /pets?limit=1 → 200`. */
export function describeExchange(record: RecordedExchange): string {
  const query = Object.entries(record.query)
    .flatMap(([name, values]) => values.map((v) => `${name}=${v}`))
    .join('&');
  const status = record.result.response ? ` → ${record.result.response.status}` : '';
  return `${record.method} ${record.path}${query ? `?${query}` : ''}${status}`;
}

/** A redirect the operation documents (a 302 to a download) is its answer: judged like any other, not a transport problem. */
function documentedRedirect(record: RecordedExchange): boolean {
  const status = record.result.response?.status;
  return record.result.error?.code === 'REDIRECT' && record.target.kind === 'operation' && status !== undefined && (record.target.operation.responses.has(String(status)) || record.target.operation.responses.has('3XX'));
}
