/**
 * Regression (issue 20, point 4): text from the document reached the terminal
 * and the Markdown raw. An `info.title` holding ESC and BEL sequences set the
 * terminal's title and cleared the screen; operationIds and format names passed
 * raw; the Markdown "Replay the first" line carried `<script>` unescaped. Now
 * every string of a report, whoever wrote it, is made safe for where it is
 * written: no control character or bidi override reaches a terminal, the
 * Markdown and HTML carry no raw tag, the JUnit parses as XML.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './model.js';
import { createReporter } from './reporters/index.js';
import { runConformance } from './runner.js';

const TITLE = '\u001b]0;pwned\u0007\u001b[2J<script>alert("title")</script>';
const OP_LIST = 'list\u001b[31mThings\u009b2J<script>alert(1)</script>';
const OP_CREATE = 'create\u0007Thing\u202e<script>alert(2)</script>';
const OP_READ = 'read\u001b]8;;http://x\u0007Thing<img src=x onerror=alert(3)>';
const FORMAT = 'x\u001b[2J\u0007<script>alert(4)</script>';

/** A small document whose every free text is hostile: title, operationIds, a format name. */
function hostileDocument(): unknown {
  const thing = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string', format: FORMAT } } };
  const error = { description: 'error', content: { 'application/json': { schema: { type: 'object' } } } };
  return {
    openapi: '3.0.3',
    info: { title: TITLE, version: '1.0.0\u001b[2J' },
    paths: {
      '/things': {
        get: { operationId: OP_LIST, responses: { '200': { description: 'list', content: { 'application/json': { schema: { type: 'array', items: thing } } } }, '400': error } },
        post: {
          operationId: OP_CREATE,
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: thing } } }, '400': error },
        },
      },
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: OP_READ, responses: { '200': { description: 'one', content: { 'application/json': { schema: thing } } }, '404': error } },
      },
    },
  };
}

/** Every control character a terminal acts on (C0 but tab and newline, DEL, C1) and the bidi controls (Unicode TR #9). */
// eslint-disable-next-line no-control-regex
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('a document whose title, operationIds and format names carry terminal escapes and markup (issue 20, point 4)', () => {
  let server: Server;
  let dir: string;
  let report: RunReport;
  let progress = '';
  const requests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-hostile-doc-'));
    writeFileSync(join(dir, 'hostile.json'), JSON.stringify(hostileDocument()));
    // A target that fails every request with a 500, so every report has defects, curl lines and a "Replay the first".
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"boom"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const console = createReporter('console', {
      progress: true,
      color: false,
      stream: new Writable({
        write(chunk: Buffer, _encoding, callback) {
          progress += chunk.toString('utf8');
          callback();
        },
      }),
    });
    report = await runConformance({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      specPath: join(dir, 'hostile.json'),
      seed: 7,
      timeoutMs: 5_000,
      onEvent: (event) => console.onEvent?.(event),
    });
  }, 120_000);

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the run judged the hostile operations (the report is not empty)', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(report.summary.failed).toBeGreaterThan(0);
    expect(report.meta.document.title).toBe(TITLE);
  });

  it('the console report and progress carry no ESC, BEL, C1 control or bidi override', () => {
    const text = createReporter('console', { color: false }).render(report);
    expect(text).toContain(']0;pwned');
    expect(TERMINAL_UNSAFE.exec(text)?.[0]).toBeUndefined();
    expect(progress).toContain('pwned');
    // The progress line's own "erase the line, back to its start" (ESC [2K CR) is the only sequence it may hold.
    expect(TERMINAL_UNSAFE.exec(progress.replace(/\u001b\[2K\r/g, ''))?.[0]).toBeUndefined();
  });

  it('the console report with colors has only its own SGR color sequences', () => {
    const text = createReporter('console', { color: true }).render(report);
    // What is left once our own color codes (ESC [ digits m) are taken out must hold no control character.
    expect(TERMINAL_UNSAFE.exec(text.replace(/\u001b\[\d+m/g, ''))?.[0]).toBeUndefined();
  });

  it('the Markdown has no raw tag (its "Replay the first" line included) and no control character', () => {
    const text = createReporter('markdown').render(report);
    expect(text).toContain('Replay the first');
    expect(text).not.toMatch(/<script|<img/i);
    expect(TERMINAL_UNSAFE.exec(text)?.[0]).toBeUndefined();
  });

  it('the HTML has no raw tag and no control character', () => {
    const text = createReporter('html').render(report);
    const body = text.slice(text.indexOf('<body>'));
    expect(body).not.toMatch(/<script|<img/i);
    expect(TERMINAL_UNSAFE.exec(text)?.[0]).toBeUndefined();
    expect(XMLValidator.validate(text.replace('<!DOCTYPE html>', ''))).toBe(true);
  });

  it('the JUnit parses as XML and keeps the names visible', () => {
    const text = createReporter('junit').render(report);
    expect(XMLValidator.validate(text)).toBe(true);
    expect(TERMINAL_UNSAFE.exec(text)?.[0]).toBeUndefined();
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(text) as { testsuites: { '@_name': string } };
    expect(parsed.testsuites['@_name']).toContain('pwned');
  });

  it('the JSON report keeps the exact text, with every unsafe character escaped', () => {
    const text = createReporter('json').render(report);
    expect(TERMINAL_UNSAFE.exec(text)?.[0]).toBeUndefined();
    const parsed = JSON.parse(text) as RunReport;
    expect(parsed.meta.document.title).toBe(TITLE);
  });
});
