/**
 * JUnit XML for CI systems (Jenkins, GitLab, GitHub test reporters): one
 * <testsuite> per operation, results of no operation in one suite per check
 * family, one <testcase> per check result. There is no formal JUnit schema;
 * this follows the shape those systems read (the Ant/Maven surefire form):
 * counts as attributes, <failure message type>text</failure>, <skipped message/>.
 */
import type { CheckResult, RunReport } from '../model.js';
import { redactorFor, type RedactOptions } from './redact.js';
import { countVerdicts, failureText, familyLookup, groupByOperation } from './view.js';
import { attrs, escapeText } from './xml.js';

export interface JunitReporterOptions {
  readonly redact?: RedactOptions;
}

interface Suite {
  readonly name: string;
  readonly results: readonly CheckResult[];
}

export function createJunitReporter(options: JunitReporterOptions = {}) {
  return {
    render(input: RunReport): string {
      return renderJunit(redactorFor(input, options.redact).report(input));
    },
  };
}

function suitesOf(report: RunReport): Suite[] {
  const family = familyLookup(report);
  const suites: Suite[] = [];
  for (const group of groupByOperation(report)) {
    if (group.operationId !== undefined) {
      suites.push({ name: group.operationId, results: group.results });
      continue;
    }
    // Run-wide results (unknown paths, workflows) read better by family than as one "(no operation)" bucket.
    const byFamily = new Map<string, CheckResult[]>();
    for (const r of group.results) {
      const key = family(r.checkId);
      const list = byFamily.get(key);
      if (list) list.push(r);
      else byFamily.set(key, [r]);
    }
    for (const [name, results] of byFamily) suites.push({ name: `${name} (no operation)`, results });
  }
  return suites;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function resultMs(r: CheckResult): number {
  return r.evidence.reduce((sum, ex) => sum + ex.durationMs, 0);
}

function renderJunit(report: RunReport): string {
  const { meta } = report;
  const all = countVerdicts(report.results);
  const properties: Record<string, string> = {
    'document.title': meta.document.title,
    'document.version': meta.document.version,
    'document.sha256': meta.document.sha256,
    'document.file': meta.document.file,
    kit: `${meta.kit.name} ${meta.kit.version}`,
    target: meta.target,
    seed: String(meta.seed),
    options: JSON.stringify(meta.options),
    'cleanup.deleted': String(report.cleanup.deleted),
    'cleanup.leftBehind': report.cleanup.leftBehind.map((l) => `${l.resource} ${l.url}`).join(', '),
  };
  const propertiesXml = [
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    '    </properties>',
  ];

  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({
      name: `${meta.kit.name} conformance: ${meta.document.title} ${meta.document.version} against ${meta.target}`,
      tests: all.total,
      failures: all.failed,
      errors: 0,
      skipped: all.skipped,
      time: seconds(meta.durationMs ?? 0),
      timestamp: meta.startedAt,
    })}>`,
  ];
  for (const suite of suitesOf(report)) {
    const counts = countVerdicts(suite.results);
    lines.push(
      `  <testsuite${attrs({
        name: suite.name,
        tests: counts.total,
        failures: counts.failed,
        errors: 0,
        skipped: counts.skipped,
        time: seconds(suite.results.reduce((sum, r) => sum + resultMs(r), 0)),
        timestamp: meta.startedAt,
      })}>`,
      ...propertiesXml,
    );
    for (const r of suite.results) lines.push(...testcase(r, suite.name));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function testcase(r: CheckResult, suite: string): string[] {
  const open = `    <testcase${attrs({ name: `${r.checkId}: ${r.title}`, classname: `petstore-kit.${suite}`, time: seconds(resultMs(r)) })}`;
  switch (r.verdict) {
    case 'passed':
      return [`${open}/>`];
    case 'skipped':
      return [`${open}>`, `      <skipped${attrs({ message: r.reason ?? 'skipped' })}/>`, '    </testcase>'];
    case 'failed':
      return [
        `${open}>`,
        `      <failure${attrs({ message: r.reason ?? r.findings[0]?.message ?? 'failed', type: r.checkId })}>${escapeText(failureText(r))}</failure>`,
        '    </testcase>',
      ];
  }
}
