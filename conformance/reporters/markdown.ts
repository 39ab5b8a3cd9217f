/**
 * A short summary for a pull-request comment or a CI job summary
 * (GitHub's $GITHUB_STEP_SUMMARY, GitLab's MR notes): the verdict, the
 * counts, the grouped defects most severe first with the curl that replays
 * the first, and the coverage gaps in one line. The details stay in the
 * HTML and JSON reports the job keeps.
 */
import type { RunReport } from '../model.js';
import { groupDefects } from './defects.js';
import type { RedactOptions } from './redact.js';
import { markdownCode, markdownFence, markdownText as md, reportToRender } from './safe-text.js';
import { coverageGaps, countsLine, formatDuration, RUN_WIDE, warningLine, WARNINGS_LISTED, warningsHeading } from './view.js';

export interface MarkdownReporterOptions {
  readonly redact?: RedactOptions;
}

/** Defects listed in full; more are counted. A PR comment is read, not searched. */
const MAX_LISTED = 15;

export function createMarkdownReporter(options: MarkdownReporterOptions = {}) {
  return {
    render(input: RunReport): string {
      const report = reportToRender(input, options.redact);
      const defects = groupDefects(report);
      const { meta } = report;
      const failed = report.summary.failed > 0;
      const out = [
        `### ${failed ? '❌' : '✅'} ${md(`${meta.document.title} ${meta.document.version}`)} conformance: ${failed ? 'FAILED' : 'PASSED'}`,
        '',
        `Target ${markdownCode(meta.target)} · ${md(countsLine(report, defects.length))} · ${formatDuration(meta.durationMs)} · seed ${meta.seed}`,
      ];
      if (defects.length > 0) {
        out.push('', '| # | severity | check | operation | defect | exchanges |', '|---|---|---|---|---|---|');
        defects.slice(0, MAX_LISTED).forEach((d, i) => {
          out.push(`| ${i + 1} | ${d.severity} | ${markdownCode(d.checkId)} | ${md(d.operationId ?? RUN_WIDE)} | ${md(d.reason)} | ${d.exchanges} |`);
        });
        if (defects.length > MAX_LISTED) out.push('', `… and ${defects.length - MAX_LISTED} more defects in the HTML and JSON reports.`);
        const first = defects[0]!;
        if (first.curl) out.push('', `Replay the first: ${markdownCode(first.checkId)} on ${md(first.operationId ?? RUN_WIDE)}`, '', markdownFence(first.curl, 'sh'));
      }
      const warnings = report.warnings ?? [];
      if (warnings.length > 0) {
        out.push('', `${warningsHeading(warnings.length)}:`, '');
        for (const w of warnings.slice(0, WARNINGS_LISTED)) out.push(`- ${md(warningLine(w))}`);
        if (warnings.length > WARNINGS_LISTED) out.push(`- … and ${warnings.length - WARNINGS_LISTED} more in the HTML and JSON reports.`);
      }
      const gaps = coverageGaps(report);
      const ops = report.coverage.operations;
      const statuses = report.coverage.statuses;
      out.push(
        '',
        `Coverage: ${ops.length - gaps.operations.length} of ${ops.length} operations exercised, ${statuses.length - gaps.statuses.length} of ${statuses.length} documented statuses observed.` +
          (report.cleanup.leftBehind.length ? ` Cleanup left ${report.cleanup.leftBehind.length} record${report.cleanup.leftBehind.length === 1 ? '' : 's'} behind (see the HTML report).` : ''),
      );
      return `${out.join('\n')}\n`;
    },
  };
}
