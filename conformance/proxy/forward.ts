/**
 * One request sent on to an inbound server (the target, or the fallback mock) with undici, and its answer streamed
 * back into node:http's ServerResponse as it arrives: status, reason phrase and headers first, then each chunk,
 * with the client's backpressure passed back to the inbound connection (RFC 9110 §7.6: a proxy relays; it need
 * not hold a message). A copy of the first `captureBytes` bytes is kept for the judge; past that the answer still
 * streams, and is marked truncated.
 *
 * An answer can be held instead (`hold(status)` says so when its head arrives): read whole, up to `captureBytes`,
 * and handed to the caller to send as it is (`release`) or to replace (--errors, a fallback); an answer larger than
 * that starts streaming anyway, unjudged in its body. A target that refuses, resets, times out or speaks no HTTP
 * ends in a `failed` outcome, never a hang: undici's connect, headers and body timeouts are all --timeout.
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { classify } from '../http.js';
import { forwardedResponseHeaders, type HeaderObject } from './hop-by-hop.js';
import type { ProxyErrorCode } from './errors.js';

export interface ForwardRequest {
  /** `http://host:port` of the inbound server. */
  readonly origin: string;
  /** Path and query as sent to it (its path prefix included). */
  readonly path: string;
  readonly method: string;
  /** Flat `[name, value, …]` (hop-by-hop.ts). */
  readonly headers: readonly string[];
  /** The whole body, or a stream of one too large to hold (passed on as it arrives). */
  readonly body: Buffer | Readable | null;
}

export interface ForwardSettings {
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  /** Bytes of the answer kept for the judge (and the most a held answer may take before it streams anyway). */
  readonly captureBytes: number;
}

export interface Answer {
  readonly kind: 'answered';
  readonly status: number;
  readonly statusMessage: string | undefined;
  readonly headers: HeaderObject;
  /** The first `captureBytes` bytes of the body, as they crossed. */
  readonly body: Buffer;
  /** Every byte of the body that crossed. */
  readonly bytes: number;
  readonly truncated: boolean;
  readonly durationMs: number;
  /** Whether the answer is already on its way to the client; false for a held answer, which `release` sends. */
  readonly sent: boolean;
  /** Sends a held answer as it came; a no-op once sent. */
  release(): void;
}

export interface Failure {
  readonly kind: 'failed';
  readonly code: Extract<ProxyErrorCode, 'TARGET_UNREACHABLE' | 'TARGET_TIMEOUT' | 'TARGET_INVALID_ANSWER'>;
  readonly message: string;
  /** The answer had begun when it failed: its status is with the client already, so the connection is cut instead. */
  readonly midAnswer: boolean;
  readonly durationMs: number;
}

export type Outcome = Answer | Failure;

/** Dispatches `request` and relays the answer into `res`, unless `hold` asks for the answer to be held first. */
export function forward(settings: ForwardSettings, request: ForwardRequest, res: ServerResponse, hold: (status: number) => boolean): Promise<Outcome> {
  const started = performance.now();
  const { captureBytes } = settings;
  return new Promise<Outcome>((resolve) => {
    let status = 0;
    let statusMessage: string | undefined;
    let headers: HeaderObject = {};
    let held = false;
    let streaming = false;
    let finished = false;
    const chunks: Buffer[] = [];
    let captured = 0;
    let bytes = 0;
    let truncated = false;
    let controller: Dispatcher.DispatchController | undefined;

    const onClientGone = (): void => {
      if (!finished) controller?.abort(new Error('the client closed the connection'));
    };
    res.once('close', onClientGone);

    const startStreaming = (): void => {
      streaming = true;
      if (res.destroyed) return;
      res.writeHead(status, statusMessage, forwardedResponseHeaders(headers));
    };
    const write = (chunk: Buffer): void => {
      if (res.destroyed) return;
      if (!res.write(chunk) && controller) {
        const paused = controller;
        paused.pause();
        res.once('drain', () => paused.resume());
      }
    };
    const release = (): void => {
      if (streaming || res.destroyed) return;
      startStreaming();
      res.end(captured === 0 ? undefined : Buffer.concat(chunks, captured));
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (res.destroyed) c.abort(new Error('the client closed the connection'));
      },
      onResponseStart(c, statusCode, responseHeaders, message) {
        controller = c;
        status = statusCode;
        statusMessage = message;
        headers = responseHeaders;
        held = hold(statusCode);
        if (!held) startStreaming();
      },
      onResponseData(_c, chunk) {
        bytes += chunk.length;
        if (!truncated && captured + chunk.length <= captureBytes) {
          chunks.push(chunk);
          captured += chunk.length;
        } else if (!truncated) {
          truncated = true;
          if (held && !streaming) {
            // Too large to hold: what was held goes first, then the rest streams; the body is not judged.
            startStreaming();
            for (const piece of chunks) write(piece);
          }
        }
        if (streaming) write(chunk);
      },
      onResponseEnd() {
        finished = true;
        res.off('close', onClientGone);
        if (streaming && !res.destroyed) res.end();
        resolve({
          kind: 'answered',
          status,
          statusMessage,
          headers,
          body: captured === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, captured),
          bytes,
          truncated,
          durationMs: performance.now() - started,
          sent: streaming,
          release,
        });
      },
      onResponseError(_c, error) {
        finished = true;
        res.off('close', onClientGone);
        const durationMs = performance.now() - started;
        const midAnswer = streaming;
        // The status line is with the client already: the only honest signal left is a cut connection (RFC 9112 §8).
        if (midAnswer && !res.destroyed) res.destroy();
        const failure = classify(error, false, settings.timeoutMs, false);
        resolve({ kind: 'failed', code: failureCode(failure.code), message: failure.message, midAnswer, durationMs });
      },
    };

    try {
      settings.dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: request.method as Dispatcher.HttpMethod,
          headers: [...request.headers],
          body: request.body,
          headersTimeout: settings.timeoutMs,
          bodyTimeout: settings.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      // undici refuses some requests before sending anything (a header value it cannot send): the target never saw it.
      finished = true;
      res.off('close', onClientGone);
      resolve({ kind: 'failed', code: 'TARGET_INVALID_ANSWER', message: `the request could not be sent on: ${(error as Error).message}`, midAnswer: false, durationMs: performance.now() - started });
    }
  });
}

const EMPTY = Buffer.alloc(0);

/** undici's failure (classified by the runner's http.ts) as one of the proxy's codes. */
function failureCode(code: string): Failure['code'] {
  if (code === 'TIMEOUT') return 'TARGET_TIMEOUT';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ECONNABORTED') return 'TARGET_UNREACHABLE';
  // An HTTPS target whose certificate is not trusted (self-signed, expired, another name): no connection was made.
  if (/CERT|SELF_SIGNED|TLS|SSL|UNABLE_TO_VERIFY/.test(code)) return 'TARGET_UNREACHABLE';
  return 'TARGET_INVALID_ANSWER';
}
