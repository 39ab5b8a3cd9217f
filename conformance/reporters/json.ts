/**
 * The machine-readable report: the RunReport as the runner built it
 * (documented by conformance/report.schema.json, versioned by formatVersion),
 * pretty-printed so a diff of two runs reads well, plus what every reporter
 * derives the same way: the grouped `defects` (reporters/defects.ts) and,
 * on each failure, the `curl` that replays it. Redaction comes first; the
 * text is kept exact, with every character a terminal would act on written
 * as a JSON escape (safe-text.ts).
 */
import type { RunReport } from '../model.js';
import { curlLine } from './curl.js';
import { failingExchange, groupDefects } from './defects.js';
import type { RedactOptions } from './redact.js';
import { redactedReport, safeJson } from './safe-text.js';

export interface JsonReporterOptions {
  readonly redact?: RedactOptions;
}

export function createJsonReporter(options: JsonReporterOptions = {}) {
  return {
    render(input: RunReport): string {
      const report = redactedReport(input, options.redact);
      const results = report.results.map((r) => {
        const ex = r.verdict === 'failed' ? failingExchange(r) : undefined;
        return ex ? { ...r, curl: curlLine(ex) } : r;
      });
      return `${safeJson({ ...report, results, defects: groupDefects(report) }, 2)}\n`;
    },
  };
}
