/**
 * The machine-readable report: the RunReport exactly as the runner built it
 * (documented by conformance/report.schema.json, versioned by formatVersion),
 * pretty-printed so a diff of two runs reads well. Only redaction touches it.
 */
import type { RunReport } from '../model.js';
import { redactorFor, type RedactOptions } from './redact.js';

export interface JsonReporterOptions {
  readonly redact?: RedactOptions;
}

export function createJsonReporter(options: JsonReporterOptions = {}) {
  return {
    render(report: RunReport): string {
      return `${JSON.stringify(redactorFor(report, options.redact).report(report), null, 2)}\n`;
    },
  };
}
