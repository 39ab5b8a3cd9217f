/**
 * `GET /__proxy/report[?format=json|console|junit|html|markdown]`: the session so far, rendered by the runner's
 * reporters (JSON by default), redacted as every report is. Under /__proxy/, which the proxy never forwards. On a
 * proxy bound to loopback it answers only requests addressed to a loopback name: a page on another site cannot read
 * the session through a rebound DNS name (as the mock's admin surface: mock/admin/access.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackHost } from '../../mock/admin/access.js';
import type { ReportFormat, RunReport } from '../model.js';
import { createReporter, isReportFormat, type RedactOptions } from '../reporters/index.js';
import { proxyError, sendAnswer } from './errors.js';

export const REPORT_PATH = '/__proxy/report';
const CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  json: 'application/json',
  junit: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  console: 'text/plain; charset=utf-8',
};

/** Answers a request under /__proxy/ (`path` without its query, `query` the text after `?`). */
export function answerControl(req: IncomingMessage, res: ServerResponse, path: string, query: string, host: string, report: () => RunReport, redact: () => RedactOptions): void {
  const send = (answer: { readonly status: number; readonly text: string }): void => sendAnswer(res, answer);
  const hostHeader = req.headers.host ?? '';
  if (isLoopbackHost(host) && !isLoopbackHost(hostHeader.replace(/:[0-9]*$/, ''))) {
    send(proxyError('PROXY_ROUTE_NOT_FOUND', 'The proxy serves /__proxy/ on its loopback address only.'));
    return;
  }
  if (path !== REPORT_PATH) {
    send(proxyError('PROXY_ROUTE_NOT_FOUND', `The proxy serves ${REPORT_PATH} (?format=json|console|junit|html|markdown) under /__proxy/; everything else is forwarded to the target.`));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(proxyError('PROXY_METHOD_NOT_ALLOWED', `${REPORT_PATH} takes GET only.`));
    return;
  }
  const format = new URLSearchParams(query).get('format') ?? 'json';
  if (!isReportFormat(format)) {
    send(proxyError('PROXY_BAD_REQUEST', `format must be one of json, console, junit, html, markdown; got ${JSON.stringify(format.slice(0, 40))}.`));
    return;
  }
  const text = createReporter(format, { redact: redact(), color: false, quiet: true }).render(report());
  res.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
  res.end(req.method === 'HEAD' ? undefined : text);
}
