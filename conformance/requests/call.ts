/**
 * A call of an operation: the typed inputs a check gives (CallInput), the
 * HTTP request they make, and the outcome with what the checks ask of it
 * most (Call).
 */
import type { Operation } from '../../src/contract/index.js';
import { isObject } from '../generate.js';
import type { HttpRequest, HttpResult } from '../http.js';
import { parseJson, stringifyJson } from '../json.js';
import type { ExpressionSource } from '../links.js';
import { expandPath } from './paths.js';
import { queryParts } from './query.js';
import type { ParamValue } from './values.js';

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
  /** How the body is framed on the wire (http.ts): its Content-Length (default) or chunked. */
  readonly framing?: HttpRequest['framing'];
  /** A content coding applied to the body before it is sent (http.ts). */
  readonly contentCoding?: HttpRequest['contentCoding'];
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

/** A request body in its wire form, with its Content-Type. */
export interface WireBody {
  readonly text: string;
  readonly contentType: string;
}

/** The request a call makes, with the pieces the outcome is described by. */
export interface BuiltRequest {
  readonly request: HttpRequest;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly body?: string;
}

/** What a call fills in beyond its typed inputs, asked for in this order (the values come from one seeded generator). */
export interface CallFill {
  /** The headers to send, the operation's header parameters among them. */
  readonly headers: Record<string, string>;
  /** A body when the call gives none (a form, multipart, text body). */
  readonly otherBody: () => WireBody | undefined;
  /** The query to send: the call's own, with what it leaves out filled in. */
  readonly query: () => CallInput['query'];
}

/**
 * The HTTP request of a call: the path expanded, the body (the given JSON or
 * text with its Content-Type, application/json unless said otherwise, null
 * sending none; else `otherBody`), and the query written by each parameter's
 * style.
 */
export function buildRequest(operation: Operation, input: CallInput, fill: CallFill): BuiltRequest {
  const { headers, otherBody } = fill;
  const path = expandPath(operation.pathTemplate, input.path ?? {}, operation.parameters);
  let body: string | undefined;
  if (input.bodyText !== undefined || input.body !== undefined) {
    body = input.bodyText ?? stringifyJson(input.body);
    const type = input.contentType === undefined ? 'application/json' : input.contentType;
    if (type !== null) headers['content-type'] = type;
  } else {
    const other = otherBody();
    if (other) {
      body = other.text;
      headers['content-type'] = other.contentType;
    }
  }
  const parts = queryParts(operation, fill.query());
  const request: HttpRequest = {
    method: operation.method.toUpperCase(),
    path,
    query: parts.query,
    ...(parts.rawQuery.length > 0 ? { rawQuery: parts.rawQuery } : {}),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(body !== undefined && input.framing !== undefined ? { framing: input.framing } : {}),
    ...(body !== undefined && input.contentCoding !== undefined ? { contentCoding: input.contentCoding } : {}),
  };
  return { request, path, query: parts.query, ...(body !== undefined ? { body } : {}) };
}

export function toCall(result: HttpResult, path: string, method: string, body: string | undefined, pathValues: Readonly<Record<string, ParamValue>>, query: Record<string, string | string[]>, documentedRedirect = false): Call {
  let parsedBody: unknown = NOT_PARSED;
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
      // Parsed when a link's `$request.body` asks for it: most calls never do, and some bodies are a padded megabyte.
      get requestBody() {
        if (parsedBody === NOT_PARSED) parsedBody = requestBodyOf(body);
        return parsedBody;
      },
      requestPath: pathValues,
      requestQuery: query,
      responseBody: json,
      responseHeaders: response?.headers ?? {},
    },
  };
}

const NOT_PARSED = Symbol('not parsed');

/** The JSON a request body holds, or undefined for none or text that is not JSON. */
function requestBodyOf(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return parseJson(body);
  } catch {
    return undefined;
  }
}

/** The outcome of a call that was not sent (`reason` says why), as a Call the check can read like any other. */
export function notSentCall(baseUrl: string, operation: Operation, reason: string): Call {
  const url = new URL(baseUrl);
  const method = operation.method.toUpperCase();
  const result: HttpResult = { exchange: { request: { method, url: `${url.href.replace(/\/$/, '')}${operation.pathTemplate}`, headers: {} }, durationMs: 0 }, error: { code: 'NOT_SENT', message: `not sent: ${reason}` }, url };
  return toCall(result, operation.pathTemplate, method, undefined, {}, {});
}

/** Whether a redirect is the operation's documented answer (a 302 to a download, a 303 after a create), not a transport problem. */
export function isDocumentedRedirect(operation: Operation, result: HttpResult): boolean {
  const status = result.response?.status;
  return result.error?.code === 'REDIRECT' && status !== undefined && (operation.responses.has(String(status)) || operation.responses.has('3XX'));
}

/** What a call got, in a few words for a failure reason: `answered 500 INTERNAL_ERROR`. */
export function answered(call: Call): string {
  if (call.problem) return call.problem;
  const code = isObject(call.json) && typeof call.json['code'] === 'string' ? ` ${call.json['code']}` : '';
  return `${call.result.exchange.request.method} ${call.path} answered ${call.status}${code}`;
}

export function describeProblem(result: HttpResult): string | undefined {
  if (!result.error) return undefined;
  return `${result.exchange.request.method} ${result.exchange.request.url}: ${result.error.message} (${result.error.code})`;
}
