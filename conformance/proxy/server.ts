/**
 * The validating proxy: node:http in, undici out (forward.ts), and between them the runner's judge on every
 * exchange (validate-exchange.ts), tallied into the runner's report model (session.ts) for its reporters. With
 * `--fallback`, the operations the target lacks are answered by the kit's mock (fallback.ts); with `--record`,
 * what the target answered becomes the mock's fixtures and a HAR file (record.ts, har.ts).
 *
 * Without `--errors` the traffic is never altered: the target's status, headers (but the hop-by-hop ones, RFC 9110
 * §7.6.1, and a Via added, §7.6.3) and body reach the client as they came, streamed as they come; the judging
 * happens once the answer is on its way. With it, a request that breaks the document is refused before it is sent
 * and an answer that breaks it is replaced (errors.ts): the answer is then held until judged.
 */
import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Agent } from 'undici';
import { loadContract, type Contract } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { DEFAULT_SPEC_PATH } from '../../src/package-info.js';
import { sharedCompiledContract, type CompiledContract } from '../../src/schema/index.js';
import { isLoopbackHost } from '../../mock/admin/access.js';
import { bodyLimitOf } from '../../mock/transport/body.js';
import { formatRequestLine } from '../../mock/transport/log.js';
import { listenOn, parseQuery } from '../../mock/transport/server.js';
import { CHECKS, checkInfos } from '../checks/index.js';
import type { MinCoverage } from '../min-coverage.js';
import type { CheckInfo, RunReport, RunWarning } from '../model.js';
import type { RedactOptions, Redactor } from '../reporters/index.js';
import { neutralise } from '../reporters/safe-text.js';
import { formatValue } from '../reporters/view.js';
import { proxyError, sendAnswer as send, type RuledDiagnostic } from './errors.js';
import { fallbackAt, FALLBACK_HEADER, mockedOperations, startFallback, targetLacks, type RunningFallback } from './fallback.js';
import { forward, type ForwardSettings, type Outcome } from './forward.js';
import { HarWriter } from './har.js';
import { forwardedRequestHeaders } from './hop-by-hop.js';
import { FixtureRecorder, fixturesProblem, type RecordSummary } from './record.js';
import { answerControl } from './report.js';
import { readBody, type Body } from './request-body.js';
import { SecretBook } from './secrets.js';
import { ProxySession, type FailedRule } from './session.js';
import { requestTarget } from './request-target.js';
import { targetOf } from './target.js';
import { createLiveJudge, REQUEST_RULES, type LiveExchange, type LiveJudge, type LiveVerdict, type Routed, type RuleVerdict } from './validate-exchange.js';

export interface ProxyOptions {
  /** The backend: `https://staging.example.com/api/v1`; a request for `/pets` goes to its path prefix + `/pets`. */
  readonly target: string;
  readonly specPath?: string;
  readonly allowRefs?: readonly string[];
  /** Default 4010; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Sent to the target with every request (a staging token); values never printed nor written. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long the target may take to connect, to send its answer's head, and between two pieces of its body; default 30 s. */
  readonly timeoutMs?: number;
  /** Bodies larger than this pass through unvalidated; default the document's x-max-body-bytes, else 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Refuse invalid requests (400) and replace invalid answers (502) in the kit's Error shape. */
  readonly errors?: boolean;
  /** Answer the operations the target lacks with the kit's mock, in this process. */
  readonly fallback?: boolean;
  /** Answer them with the mock at this URL instead (implies the fallback). */
  readonly fallbackUrl?: string;
  /** operationIds or tags always answered by the mock. */
  readonly mock?: readonly string[];
  /** The in-process mock's data folder. */
  readonly fixtures?: string;
  /** Write the target's answers as fixtures, and the session as a HAR file, into this folder. */
  readonly record?: string;
  /** Rule ids (request-*, the runner's check ids) or families to leave out. */
  readonly skip?: readonly string[];
  readonly minCoverage?: MinCoverage;
  /** No log line per exchange (violations and the mocked ones still print). */
  readonly quiet?: boolean;
  /** Where lines go; stderr by default. */
  readonly log?: (line: string) => void;
}

export interface RunningProxy {
  /** `http://HOST:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The session so far, as the runner's report model. */
  report(): RunReport;
  /** Exchanges that broke at least one rule so far. */
  readonly violations: number;
  /** What the reporters must redact (the `--header` values and every credential the traffic carried). */
  readonly redact: RedactOptions;
  /** Which mock answers mocked operations, when there is a fallback. */
  readonly fallback?: string;
  /** Stops accepting, lets exchanges in flight finish (bounded), writes the recording; resolves with what it wrote. */
  close(): Promise<{ readonly recorded?: RecordSummary; readonly har?: { file: string; entries: number } }>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** How long close() waits for exchanges in flight. */
const CLOSE_GRACE_MS = 10_000;
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = targetOf(options.target);
  const contract = await loadContract(options.specPath ?? DEFAULT_SPEC_PATH, options.allowRefs ? { allowRefs: options.allowRefs } : {});
  const compiled = sharedCompiledContract(contract, { allErrors: false, verbose: false });
  let detailed: CompiledContract | undefined;
  const validators = { fast: compiled, detailed: (): CompiledContract => (detailed ??= sharedCompiledContract(contract)) };
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? bodyLimitOf(contract.document);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const extraHeaders = Object.entries(options.headers ?? {});
  const extraNames = new Set(extraHeaders.map(([name]) => name.toLowerCase()));

  const checks: CheckInfo[] = [...REQUEST_RULES, ...checkInfos().filter((info) => CHECKS.find((c) => c.id === info.id)?.judge)];
  const selected = selection(checks, options.skip ?? []);
  const judge: LiveJudge = createLiveJudge({ validators, selected, passive: CHECKS });
  const secrets = new SecretBook(contract, [...extraNames], extraHeaders.map(([, value]) => value));
  const recorder = options.record !== undefined ? new FixtureRecorder(contract) : undefined;
  const mocked = mockedOperations(contract, options.mock ?? []);
  const wantsFallback = options.fallback === true || options.fallbackUrl !== undefined || mocked.size > 0;
  const fallback: RunningFallback | undefined = !wantsFallback
    ? undefined
    : options.fallbackUrl !== undefined
      ? fallbackAt(options.fallbackUrl)
      : await startFallback({ compiled: sharedCompiledContract(contract), ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}), log });
  const fallbackTarget = fallback?.target;
  // --mock alone names operations for the mock; --fallback also sends it what the target turns out to lack.
  const fallbackOnMissing = options.fallback === true || options.fallbackUrl !== undefined;

  const session = new ProxySession({
    compiled,
    target: target.display,
    checks: checks.filter((check) => selected.has(check.id)),
    options: {
      mode: 'proxy',
      headers: [...extraNames],
      errors: options.errors === true,
      fallback: fallback?.describe ?? false,
      mock: [...mocked],
      skip: [...(options.skip ?? [])],
      maxBodyBytes,
      timeoutMs,
      specPath: contract.file,
      ...(options.record !== undefined ? { record: resolve(options.record) } : {}),
    },
    silences: judge.silences,
    ...(options.minCoverage ? { minCoverage: options.minCoverage } : {}),
    notes: () => [...[secrets.warning()].filter((note) => note !== undefined), ...recordingNotes(recorder)],
  });
  const har = options.record !== undefined ? await openHar(options.record) : undefined;

  const dispatcher = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: timeoutMs } });
  const toTarget: ForwardSettings = { dispatcher, timeoutMs, captureBytes: maxBodyBytes };

  /** One line per violated rule: method, path, status, rule, pointer and value; secrets scrubbed, control characters shown. */
  const violationLines = (exchange: LiveExchange, failed: readonly FailedRule[], redactor: Redactor): void => {
    for (const rule of failed) {
      const at = rule.finding ? ` at ${rule.finding.pointer}` : '';
      const value = rule.finding && 'actual' in rule.finding ? ` (value: ${formatValue(rule.finding.actual, 80)})` : '';
      const message = rule.finding?.message ?? rule.reason;
      log(neutralise(redactor.text(`violation: ${exchange.method} ${clip(exchange.path)} → ${exchange.status} ${rule.checkId}${at}: ${clip(message)}${value}`)));
    }
  };

  /** The mock's request line (no query, no header value: they carry tokens; mock/transport/log.ts), and what happened to the exchange. */
  const exchangeLine = (method: string, path: string, status: number, started: number, notes: readonly string[], always = false): void => {
    if (options.quiet && !always && notes.length === 0) return;
    log(`${formatRequestLine(method, path, status, performance.now() - started, undefined)}${notes.map((note) => ` | ${note}`).join('')}`);
  };

  /** Everything after the answer: the judge, the tally, the lines, the recording. Runs once the client has its answer. */
  const settle = (routed: Routed, exchange: LiveExchange, requestVerdicts: readonly RuleVerdict[] | undefined, started: number, given?: LiveVerdict, comment?: string): void => {
    // Learnt first: everything kept of this exchange below is scrubbed as it is kept, by a redactor that knows its credentials.
    const redactor = learn(exchange);
    const verdict = given ?? judge.judge(routed, exchange, requestVerdicts);
    const failed = verdict ? session.observe(verdict, redactor) : (session.observeUnjudged(), []);
    exchangeLine(exchange.method, exchange.path, exchange.status, started, failed.length > 0 ? [`${failed.length} rule${failed.length === 1 ? '' : 's'} broken`] : []);
    if (failed.length > 0) violationLines(exchange, failed, redactor);
    if (recorder && routed.kind === 'operation' && !exchange.responseTruncated && verdict) {
      const json = verdict.record.result.response?.body;
      recorder.observe({ operationId: routed.operation.operationId, status: exchange.status, pathParams: routed.pathParams, json: json?.kind === 'json' ? json.value : undefined }, { text: redactor.text, generation: secrets.generation });
    }
    har?.add(harEntry(exchange, started, comment), { redactor, generation: secrets.generation });
  };

  /** The credentials an exchange carried, noted; the redactor for what is kept of it (secrets.ts). */
  const learn = (exchange: Pick<LiveExchange, 'requestHeaders' | 'responseHeaders' | 'query'>): Redactor =>
    secrets.learn(exchange.requestHeaders, exchange.responseHeaders, exchange.query !== '' && secrets.watchesQuery ? parseQuery(exchange.query) : undefined);

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    // Origin-form only, dot-segments removed: what goes after the target's prefix can never leave it (request-target.ts).
    const form = requestTarget(method, req.url ?? '/');
    if (form.kind !== 'origin') {
      req.resume();
      if (form.kind === 'asterisk') answerAsterisk(res, started);
      else refuseTarget(res, method, form.form, form.reason, started);
      return;
    }
    const { url, path, query } = form;
    if (path === '/__proxy' || path.startsWith('/__proxy/')) {
      answerControl(req, res, path, query, host, () => session.report(), () => secrets.options);
      return;
    }
    const routed = judge.route(method, path, req.headers);
    readBody(req, maxBodyBytes, (body) => {
      void exchange(req, res, routed, { method, url, path, query, body, started }).catch((error: unknown) => {
        // The error's name and message only: a stack trace in the log helps no user, and a message may quote what crossed.
        log(neutralise(secrets.redactor.text(`internal error on ${method} ${clip(path)}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)));
        if (!res.headersSent && !res.destroyed) send(res, proxyError('TARGET_INVALID_ANSWER', 'The proxy failed while relaying this exchange; please report it with the request.'));
        else res.destroy();
      });
    });
  };

  /** A request-target the proxy does not send on (request-target.ts): its own 400, a line that names the form (never the target's text: a URL may hold credentials). */
  const refuseTarget = (res: ServerResponse, method: string, form: string, reason: string, started: number): void => {
    const answer = proxyError('PROXY_BAD_REQUEST', reason);
    send(res, answer);
    session.observeUnjudged('PROXY_BAD_REQUEST');
    exchangeLine(method, `(${form} request-target)`, answer.status, started, [`PROXY_BAD_REQUEST: not sent on`], true);
  };

  /** `OPTIONS *` (RFC 9110 §9.3.7) asks about the server as a whole: the methods the document takes, answered here. */
  const answerAsterisk = (res: ServerResponse, started: number): void => {
    res.writeHead(204, { allow: serverMethods, 'content-length': '0' });
    res.end();
    session.observeUnjudged();
    exchangeLine('OPTIONS', '*', 204, started, ['answered by the proxy'], true);
  };
  const serverMethods = documentedMethods(contract);

  interface Arrival {
    readonly method: string;
    readonly url: string;
    readonly path: string;
    readonly query: string;
    readonly body: Body;
    readonly started: number;
  }

  const exchange = async (req: IncomingMessage, res: ServerResponse, routed: Routed, arrival: Arrival): Promise<void> => {
    const { method, url, path, query, body, started } = arrival;
    const operationId = routed.kind === 'operation' ? routed.operation.operationId : undefined;
    const requestBody = body.kind === 'bytes' ? body.bytes : undefined;
    // Judged as sent: the target gets the --header values in place of the client's (requestHeaders below).
    const requestPart = { method, path, query, requestHeaders: sentHeaders(req.headers), ...(requestBody ? { requestBody } : {}), ...(body.kind === 'stream' ? { requestBodyTooLarge: true } : {}) };

    if (operationId !== undefined && mocked.has(operationId) && fallback && fallbackTarget) {
      await answerFromMock(req, res, routed, arrival, `--mock ${operationId}`);
      return;
    }

    let requestVerdicts: RuleVerdict[] | undefined;
    if (options.errors && body.kind !== 'stream') {
      requestVerdicts = judge.requestVerdicts(routed, requestPart);
      const broken = ruled(requestVerdicts);
      if (broken.length > 0) {
        const answer = contractError('REQUEST_VIOLATES_CONTRACT', (first) => `The request breaks ${contract.title} ${contract.version}: ${first}; it was not sent to the target (--errors).`, broken);
        send(res, answer);
        const live = liveExchange(requestPart, target.href(url), answer.status, { 'content-type': 'application/json' }, Buffer.from(answer.text), false, performance.now() - started);
        settle(routed, live, requestVerdicts, started, judge.judge(routed, live, requestVerdicts, { answeredBy: 'proxy' }), 'refused by the proxy (--errors): not sent to the target');
        return;
      }
    }

    res.sendDate = false;
    // Only a request the proxy holds whole can be sent again, to the mock.
    const mayLack = (status: number): boolean => fallbackOnMissing && operationId !== undefined && body.kind !== 'stream' && (status === 404 || status === 501);
    const outcome: Outcome = await forward(
      toTarget,
      { origin: target.origin, path: `${target.prefix}${url}`, method, headers: requestHeaders(req.rawHeaders), body: body.kind === 'bytes' ? body.bytes : body.kind === 'stream' ? body.stream : null },
      res,
      (status) => options.errors === true || mayLack(status),
    );
    if (outcome.kind === 'failed') {
      failed(res, outcome, method, path, started);
      return;
    }
    const live = liveExchange(requestPart, target.href(url), outcome.status, outcome.headers, outcome.body, outcome.truncated, outcome.durationMs, outcome.bytes);
    if (!outcome.sent && routed.kind === 'operation' && mayLack(outcome.status) && targetLacks(routed.operation, outcome.status, () => judge.answersAsDocumented(routed.operation, live))) {
      await answerFromMock(req, res, routed, arrival, `the target answered ${outcome.status}`);
      return;
    }
    if (!outcome.sent) {
      const verdict = judge.judge(routed, live, requestVerdicts);
      const broken = verdict ? ruled(verdict.verdicts) : [];
      if (options.errors && broken.length > 0) {
        send(res, contractError('RESPONSE_VIOLATES_CONTRACT', (first) => `The target's answer (${outcome.status}) breaks ${contract.title} ${contract.version}: ${first} (--errors replaced it).`, broken));
        settle(routed, live, requestVerdicts, started, verdict, 'the target answered this; the proxy replaced it with a 502 (--errors)');
        return;
      }
      outcome.release();
      settle(routed, live, requestVerdicts, started, verdict);
      return;
    }
    settle(routed, live, requestVerdicts, started);
  };

  /** The fallback mock answers: the same request, sent to it; its answer streamed back, marked. */
  const answerFromMock = async (req: IncomingMessage, res: ServerResponse, routed: Routed, arrival: Arrival, why: string): Promise<void> => {
    const { method, url, path, started, body } = arrival;
    const requestBody = body.kind === 'bytes' ? body.bytes : undefined;
    const mock = fallbackTarget!;
    res.sendDate = false;
    res.setHeader(FALLBACK_HEADER, `mock (${why})`);
    const outcome = await forward(
      { ...toTarget, captureBytes: har ? maxBodyBytes : 0 },
      { origin: mock.origin, path: `${mock.prefix}${url}`, method, headers: forwardedRequestHeaders(req.rawHeaders), body: body.kind === 'bytes' ? body.bytes : body.kind === 'stream' ? body.stream : null },
      res,
      () => false,
    );
    if (outcome.kind === 'failed') {
      failed(res, outcome, method, path, started, 'the fallback mock');
      return;
    }
    const operationId = routed.kind === 'operation' ? routed.operation.operationId : undefined;
    session.observeMocked(operationId);
    exchangeLine(method, path, outcome.status, started, [`mocked (${why}): answered by ${fallback!.describe}`], true);
    if (har) {
      const live = liveExchange({ method, path, query: arrival.query, requestHeaders: req.headers, ...(requestBody ? { requestBody } : {}) }, mock.href(url), outcome.status, outcome.headers, outcome.body, outcome.truncated, outcome.durationMs, outcome.bytes);
      har.add(harEntry(live, started, `answered by ${fallback!.describe} (${why})`), { redactor: learn(live), generation: secrets.generation });
    }
  };

  const failed = (res: ServerResponse, outcome: Extract<Outcome, { kind: 'failed' }>, method: string, path: string, started: number, who = 'the target'): void => {
    if (res.destroyed && !outcome.midAnswer) {
      // The client left first: nothing to answer, nothing to judge.
      session.observeUnjudged();
      return;
    }
    session.observeUnjudged(outcome.code);
    if (!outcome.midAnswer && !res.headersSent) {
      const answer = proxyError(outcome.code, `${who === 'the target' ? `The target ${target.display}` : 'The fallback mock'} did not answer ${method} ${clip(path)}: ${outcome.message}.`);
      res.sendDate = true;
      send(res, answer);
      exchangeLine(method, path, answer.status, started, [`${outcome.code}: ${who} ${outcome.message}`], true);
    } else {
      exchangeLine(method, path, 0, started, [`${outcome.code}: ${who} broke off its answer (${outcome.message}); the connection to the client was cut`], true);
    }
  };

  /** The request's header fields as the target gets them, for the judge, the evidence and the HAR file: the `--header` ones in place of the client's. */
  const sentHeaders = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    if (extraHeaders.length === 0) return headers;
    const out: IncomingHttpHeaders = { ...headers };
    for (const [name, value] of extraHeaders) out[name.toLowerCase()] = value;
    return out;
  };

  /**
   * An --errors answer: the first break in its message, each in its details, scrubbed of every secret the session
   * knows (a `--header` value the proxy added is the proxy's, not the client's, to see).
   */
  const contractError = (code: 'REQUEST_VIOLATES_CONTRACT' | 'RESPONSE_VIOLATES_CONTRACT', message: (first: string) => string, broken: readonly RuledDiagnostic[]): ReturnType<typeof proxyError> => {
    const scrub = secrets.redactor.text;
    const scrubbed = broken.map(({ rule, diagnostic }) => ({ rule, diagnostic: { ...diagnostic, pointer: scrub(diagnostic.pointer), message: scrub(diagnostic.message) } }));
    const first = scrubbed[0]!;
    return proxyError(code, message(`${first.rule} at ${first.diagnostic.pointer}: ${first.diagnostic.message}`), scrubbed);
  };

  /** The request's headers for the target: hop-by-hop ones out, Via in, and the `--header` ones in place of the client's. */
  const requestHeaders = (raw: readonly string[]): string[] => {
    const out = forwardedRequestHeaders(raw);
    if (extraHeaders.length === 0) return out;
    const kept: string[] = [];
    for (let i = 0; i < out.length; i += 2) if (!extraNames.has(out[i]!.toLowerCase())) kept.push(out[i]!, out[i + 1]!);
    for (const [name, value] of extraHeaders) kept.push(name, value);
    return kept;
  };

  const server: Server = createServer({ keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 60_000, maxHeaderSize: 64 * 1024 }, onRequest);
  // CONNECT asks for a tunnel (authority-form, RFC 9112 §3.2.3): a gateway opens none; answered here and the connection closed.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const answer = proxyError('PROXY_BAD_REQUEST', `The request-target is not a path (origin-form, RFC 9112 §3.2.1, such as /pets): this proxy takes no other form, and opens no tunnel (CONNECT). It was not sent on.`);
    socket.end(closingAnswer(answer));
    session.observeUnjudged('PROXY_BAD_REQUEST');
    exchangeLine(req.method ?? 'CONNECT', '(authority-form request-target)', answer.status, performance.now(), ['PROXY_BAD_REQUEST: not sent on'], true);
  });
  // A request node:http cannot parse, or that did not arrive in time, never reaches the target: it is answered here,
  // in the Error shape, and its connection closed (RFC 9112 §9.6), as the mock answers it (mock/transport/server.ts).
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const answer = timedOut
      ? proxyError('PROXY_REQUEST_TIMEOUT', 'The request did not arrive in time: its line and headers must arrive within 10 s and the whole request within 60 s. It was not sent on.')
      : proxyError('PROXY_BAD_REQUEST', `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'}); it was not sent on. Check the request line and headers (at most 64 KiB).`);
    socket.end(closingAnswer(answer));
    log(`(${timedOut ? 'request timed out' : 'unparsable request'}) ${answer.status} ${error.code ?? ''}`.trim());
  });
  const port = await listenOn(server, options.port ?? 4010, host);
  if (!isLoopbackHost(host)) log(`warning: the proxy listens on ${host}, reachable from other machines: anyone who reaches it reaches the target through it.`);
  if (fallback) log(`fallback: ${fallback.describe} answers ${mocked.size > 0 ? `${[...mocked].join(', ')}${fallbackOnMissing ? ', and ' : ''}` : ''}${fallbackOnMissing ? 'the operations the target lacks (501, or a 404 that is not the operation\'s own)' : ''}`);

  let closing: Promise<{ recorded?: RecordSummary; har?: { file: string; entries: number } }> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    report: () => session.report(),
    get violations() {
      return session.violations;
    },
    get redact() {
      return secrets.options;
    },
    ...(fallback ? { fallback: fallback.describe } : {}),
    close: () =>
      (closing ??= (async () => {
        await stop(server);
        await dispatcher.destroy().catch(() => undefined);
        await fallback?.close();
        const written = recorder && options.record !== undefined ? await recorder.write(options.record, { text: secrets.redactor.text, generation: secrets.generation }) : undefined;
        const problem = written && options.record !== undefined ? await fixturesProblem(options.record, sharedCompiledContract(contract)) : undefined;
        const recorded = written ? { ...written, ...(problem !== undefined ? { problem } : {}) } : undefined;
        const archive = har ? { file: har.file, entries: (await har.close({ redactor: secrets.redactor, generation: secrets.generation })).entries } : undefined;
        return { ...(recorded ? { recorded } : {}), ...(archive ? { har: archive } : {}) };
      })()),
  };

  /** Also keeps what crossed, for the HAR file. */
  function harEntry(exchange: LiveExchange, started: number, comment?: string): Parameters<HarWriter['add']>[0] {
    return {
      startedAt: new Date(Date.now() - (performance.now() - started)),
      method: exchange.method,
      url: exchange.targetUrl,
      requestHeaders: exchange.requestHeaders,
      ...(exchange.requestBody ? { requestBody: exchange.requestBody } : {}),
      status: exchange.status,
      responseHeaders: exchange.responseHeaders,
      responseBody: exchange.responseBody,
      responseBytes: exchange.responseBytes,
      responseTruncated: exchange.responseTruncated,
      durationMs: exchange.durationMs,
      ...(comment ? { comment } : {}),
    };
  }
}

/** The rule and first problem of each failing verdict, for an Error body's details. */
function ruled(verdicts: readonly RuleVerdict[]): RuledDiagnostic[] {
  return verdicts.flatMap(({ checkId, verdict }) => (verdict.verdict === 'fail' ? verdict.findings.map((diagnostic) => ({ rule: checkId, diagnostic })) : []));
}

function liveExchange(
  request: Pick<LiveExchange, 'method' | 'path' | 'query' | 'requestHeaders' | 'requestBody' | 'requestBodyTooLarge'>,
  targetUrl: string,
  status: number,
  headers: LiveExchange['responseHeaders'],
  body: Buffer,
  truncated: boolean,
  durationMs: number,
  bytes = body.length,
): LiveExchange {
  // Named fields rather than a spread: this runs for every exchange.
  const out: { -readonly [K in keyof LiveExchange]: LiveExchange[K] } = { method: request.method, path: request.path, query: request.query, requestHeaders: request.requestHeaders, targetUrl, status, responseHeaders: headers, responseBody: body, responseTruncated: truncated, responseBytes: bytes, durationMs };
  if (request.requestBody !== undefined) out.requestBody = request.requestBody;
  if (request.requestBodyTooLarge) out.requestBodyTooLarge = true;
  return out;
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The rules left after --skip (rule ids or families); an unknown value is a USAGE error. */
function selection(checks: readonly CheckInfo[], skip: readonly string[]): Set<string> {
  const out = new Set(checks.map((check) => check.id));
  for (const value of skip) {
    const matched = checks.filter((check) => check.id === value || check.family === value);
    if (matched.length === 0) throw new KitError('USAGE', `petstore-kit proxy: --skip ${value}: not a rule id or family the proxy applies (${[...new Set(checks.map((c) => c.family))].join(', ')}; ids: ${checks.map((c) => c.id).join(', ')}).`);
    for (const check of matched) out.delete(check.id);
  }
  return out;
}

async function openHar(dir: string): Promise<HarWriter> {
  const folder = resolve(dir);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw new KitError('REPORT_WRITE_FAILED', `cannot create the --record folder ${folder}: ${(error as Error).message}`, { file: folder });
  }
  return new HarWriter(join(folder, 'session.har'));
}

/** One of the proxy's answers written straight onto a socket node:http gave up on (or never made a request of), closing it (RFC 9112 §9.6). */
function closingAnswer(answer: { readonly status: number; readonly text: string }): string {
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer.text)}\r\nconnection: close\r\n\r\n${answer.text}`;
}

/** The methods the document's operations take, with HEAD for GET (RFC 9110 §9.3.2) and OPTIONS (preflights pass), as an Allow value. */
function documentedMethods(contract: Contract): string {
  const methods = new Set(['OPTIONS', ...contract.operations.map((op) => op.method.toUpperCase())]);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort().join(', ');
}

/** What the report says of the recording: the records it could not keep, and why. */
function recordingNotes(recorder: FixtureRecorder | undefined): RunWarning[] {
  const { dropped, why } = recorder?.droppedWhy() ?? { dropped: 0, why: [] };
  if (dropped === 0) return [];
  return [{ pointer: '', message: `--record kept no more of ${dropped} record${dropped === 1 ? '' : 's'}, so that the recording replays and its memory stays bounded: ${why.join('; ')}`, skipped: 'recording those records' }];
}

/** Stops accepting, lets exchanges in flight finish within CLOSE_GRACE_MS, then cuts what is left. */
function stop(server: Server): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      done();
    });
    server.closeIdleConnections();
  });
}
