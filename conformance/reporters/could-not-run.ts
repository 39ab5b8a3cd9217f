/**
 * The report of a run that could not happen (exit 2: unreachable target,
 * unreadable document, bad option), so a CI job that collects `--output`
 * finds a file saying why instead of nothing (issue 12, finding 8). It has
 * no checks to list: JUnit calls this an <error> (the tests could not run),
 * not a <failure>; the JSON form is `outcome: "could-not-run"` with the kit
 * error code (README, "Kit error codes"). The message may quote the document
 * or the target: each format makes it safe (safe-text.ts).
 */
import { KIT_VERSION } from '../../src/package-info.js';
import type { KitErrorCode } from '../../src/kit-error.js';
import { REPORT_FORMAT_VERSION, type ReportFormat } from '../model.js';
import { createRedactor, type RedactOptions } from './redact.js';
import { attrs, escapeText, markdownCode, markdownText, neutralise, safeJson } from './safe-text.js';

export interface CouldNotRun {
  readonly code: KitErrorCode;
  readonly message: string;
  /** The --base-url, when it was given. */
  readonly target?: string;
  readonly at: Date;
}

export function renderCouldNotRun(format: ReportFormat, failure: CouldNotRun, redact: RedactOptions = {}): string {
  const redactor = createRedactor(redact);
  const message = redactor.text(failure.message);
  const target = failure.target === undefined ? undefined : redactor.text(failure.target);
  const at = failure.at.toISOString();
  const headline = `petstore-kit conformance could not run: ${failure.code}: ${message}`;
  switch (format) {
    case 'json':
      return `${safeJson(
        {
          formatVersion: REPORT_FORMAT_VERSION,
          outcome: 'could-not-run',
          error: { code: failure.code, message },
          kit: { name: 'petstore-kit', version: KIT_VERSION },
          ...(target !== undefined ? { target } : {}),
          at,
        },
        2,
      )}\n`;
    case 'junit':
      return (
        `<?xml version="1.0" encoding="UTF-8"?>\n` +
        `<testsuites${attrs({ name: 'petstore-kit conformance', tests: 1, failures: 0, errors: 1, skipped: 0, timestamp: at })}>\n` +
        `  <testsuite${attrs({ name: 'run', tests: 1, failures: 0, errors: 1, skipped: 0, timestamp: at })}>\n` +
        `    <testcase${attrs({ name: 'the run could not happen', classname: 'petstore-kit' })}>\n` +
        `      <error${attrs({ type: failure.code, message })}>${escapeText(headline)}</error>\n` +
        `    </testcase>\n  </testsuite>\n</testsuites>\n`
      );
    case 'html':
      return (
        `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8" /><title>petstore-kit conformance: could not run</title></head>\n` +
        `<body><h1>The conformance run could not happen</h1>\n<p><strong>${escapeText(failure.code)}</strong>: ${escapeText(message)}</p>\n` +
        `${target !== undefined ? `<p>Target: ${escapeText(target)}</p>\n` : ''}<p>At ${escapeText(at)}; petstore-kit ${escapeText(KIT_VERSION)}.</p></body></html>\n`
      );
    case 'markdown':
      return `### petstore-kit conformance: could not run\n\n**${failure.code}**: ${markdownText(message)}\n${target !== undefined ? `\nTarget: ${markdownCode(target)}\n` : ''}`;
    case 'console':
      return `${neutralise(headline)}\n`;
  }
}
