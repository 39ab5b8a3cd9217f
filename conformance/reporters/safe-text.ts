/**
 * The one place where text is made safe for where a report writes it (issue 20,
 * point 4). Every string of a report may come from a document or a target we do
 * not control: a title, an operationId, a format name, a reason quoting them, a
 * response body. Two steps, both here:
 *
 * 1. `safeReport` neutralises every string of the report, whoever wrote it: a
 *    character a terminal or a viewer acts on becomes a visible `\uXXXX`. Those
 *    are the C0 controls but tab and newline (ESC starts a terminal sequence,
 *    BEL ends an OSC one that sets the window title; CR rewrites a line), DEL
 *    and the C1 controls (U+009B is CSI by itself in some terminals), the bidi
 *    controls that reorder what is shown (Unicode TR #9; CVE-2021-42574, "Trojan
 *    Source"), the line and paragraph separators, and what XML 1.0 §2.2 cannot
 *    carry at all (lone surrogates, U+FFFE, U+FFFF). A report then shows that
 *    they were there without acting on them, in every format.
 * 2. Each format escapes its own syntax with the functions below: XML text and
 *    attributes (JUnit, and HTML written as XHTML), Markdown inline text, code
 *    spans and fenced blocks, and JSON text whose unsafe characters are written
 *    as JSON escapes (so the JSON report keeps the exact text and is still safe
 *    to `cat`).
 */
import { mapLeaves } from '../json.js';
import type { RunReport } from '../model.js';
import { redactorFor, type RedactOptions } from './redact.js';

/** Characters no report writes as they are (see the module comment). Needs the `u` flag: a surrogate pair is one character then, a lone surrogate matches. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udfff]/gu;

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text with every unsafe character made a visible `\uXXXX`; tab and newline stay, and CRLF is a newline (a line end in a body). Idempotent. */
export function neutralise(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, escaped);
}

/**
 * A copy of any JSON-like value with every string in it (keys too) neutralised.
 * Iterative (mapLeaves), so a hostile target's deeply nested value cannot overflow the stack.
 */
export function neutraliseDeep<T>(value: T): T {
  return mapLeaves(value, (leaf) => (typeof leaf === 'string' ? neutralise(leaf) : leaf), neutralise) as T;
}

/** Every string of the report neutralised: what the console, Markdown, HTML and JUnit reporters render. */
export function safeReport(report: RunReport): RunReport {
  return neutraliseDeep(report);
}

/**
 * The report a reporter for people renders: secrets redacted first (they must go whatever the form), then neutralised.
 * Kept per report and redaction: a run that writes its report in four formats walks it once, not four times (issue
 * 33, point 2). A report is not changed once built, so the same input gives the same output.
 */
export function reportToRender(input: RunReport, redact?: RedactOptions): RunReport {
  let byRedaction = rendered.get(input);
  if (!byRedaction) rendered.set(input, (byRedaction = new Map()));
  let report = byRedaction.get(redact);
  if (!report) byRedaction.set(redact, (report = safeReport(redactedReport(input, redact))));
  return report;
}

/** The report with its secrets redacted (what the JSON report writes, escaped), kept per report and redaction as above. */
export function redactedReport(input: RunReport, redact?: RedactOptions): RunReport {
  let byRedaction = redacted.get(input);
  if (!byRedaction) redacted.set(input, (byRedaction = new Map()));
  let report = byRedaction.get(redact);
  if (!report) byRedaction.set(redact, (report = redactorFor(input, redact).report(input)));
  return report;
}

const rendered = new WeakMap<RunReport, Map<RedactOptions | undefined, RunReport>>();
const redacted = new WeakMap<RunReport, Map<RedactOptions | undefined, RunReport>>();

// ---- JSON ----

/**
 * JSON text of a value, each unsafe character written as a JSON `\uXXXX` escape
 * (RFC 8259 §7): the same data for a parser, nothing a terminal acts on for a
 * person who prints the file. They can only occur inside strings, where the
 * escape means the character itself.
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE, escaped);
}

// ---- XML (JUnit, and the HTML report written as XHTML) ----

/** Character data: safe between tags. */
export function escapeText(value: string): string {
  return neutralise(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value, for use inside double quotes; newlines and tabs are kept as character references (XML 1.0 section 3.3.3 would otherwise fold them to spaces). */
export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** `name="value"` pairs; undefined values are left out. */
export function attrs(values: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttr(String(value))}"`)
    .join('');
}

// ---- Markdown (GitHub-flavoured, as a pull-request comment or a job summary renders it) ----

/**
 * Inline text, also inside a table cell: one line, no raw HTML (GitHub renders
 * inline HTML in comments; `<` and `&` as entities), no emphasis, link, image
 * or strikethrough from the text (CommonMark §2.4: any ASCII punctuation may be
 * backslash-escaped), and no `|` that would split a table cell (GFM §4.10).
 */
export function markdownText(text: string): string {
  return neutralise(text)
    .replace(/\r?\n/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
}

/** The longest run of backticks in the text: a code span or fence must use a longer one (CommonMark §6.1, §4.5). */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** A code span: literal text (no escape works inside one), delimited by more backticks than it holds, on one line. */
export function markdownCode(text: string): string {
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  return `${fence} ${neutralise(text).replace(/\n/g, ' ')} ${fence}`;
}

/** A fenced code block: literal text that no line of it can close early (CommonMark §4.5: the closing fence is at least as long). */
export function markdownFence(text: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${neutralise(text)}\n${fence}`;
}
