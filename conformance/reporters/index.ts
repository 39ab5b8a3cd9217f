/**
 * The reporters of a conformance run (architecture principle 8: the runner
 * emits events and builds a RunReport; these consume them). Every reporter
 * redacts before it renders (redact.ts), whatever the runner did already.
 */
import type { ReportFormat, Reporter } from '../model.js';
import { createConsoleReporter } from './console.js';
import { createHtmlReporter } from './html.js';
import { createJsonReporter } from './json.js';
import { createJunitReporter } from './junit.js';
import { createMarkdownReporter } from './markdown.js';
import type { RedactOptions } from './redact.js';

export interface ReporterOptions {
  /** Where the console reporter writes its progress line; default process.stderr. Other formats print nothing while running. */
  readonly stream?: NodeJS.WritableStream;
  /** Console colors; default: progress colored when `stream` is a TTY, the report when stdout is; never with NO_COLOR. Pass false for a file. */
  readonly color?: boolean;
  /** No progress output. */
  readonly quiet?: boolean;
  /** A progress line; default only when both the stream and stdout are TTYs. */
  readonly progress?: boolean;
  /** Header names and values (e.g. from --header) that must never appear in the report, on top of the usual credentials. */
  readonly redact?: RedactOptions;
}

export const REPORT_FORMATS: readonly ReportFormat[] = ['console', 'json', 'junit', 'html', 'markdown'];

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

export function createReporter(format: ReportFormat, options: ReporterOptions = {}): Reporter {
  const redact = options.redact ? { redact: options.redact } : {};
  switch (format) {
    case 'console':
      return createConsoleReporter({
        ...redact,
        ...(options.stream ? { stream: options.stream } : {}),
        ...(options.color !== undefined ? { color: options.color } : {}),
        ...(options.quiet !== undefined ? { quiet: options.quiet } : {}),
        ...(options.progress !== undefined ? { progress: options.progress } : {}),
      });
    case 'json':
      return createJsonReporter(redact);
    case 'junit':
      return createJunitReporter(redact);
    case 'html':
      return createHtmlReporter(redact);
    case 'markdown':
      return createMarkdownReporter(redact);
  }
}

export { REDACTED, createRedactor, redactorFor, type RedactOptions, type Redactor } from './redact.js';
export { createConsoleReporter, colorWanted, type ConsoleReporterOptions } from './console.js';
export { createJsonReporter } from './json.js';
export { createJunitReporter } from './junit.js';
export { createHtmlReporter } from './html.js';
export { createMarkdownReporter } from './markdown.js';
export { groupDefects, normalizeReason, type Defect, type Severity } from './defects.js';
export { curlCommand, curlLine } from './curl.js';
