/**
 * JUnit XML for CI systems (Jenkins, GitLab, GitHub test reporters): one
 * <testsuite> per operation, results of no operation in one suite per check
 * family, one <testcase> per (check, operation) pair with a stable, unique
 * name; a failed testcase holds each of its grouped defects once, with the
 * curl line that replays it. There is no formal JUnit schema;
 * this follows the shape those systems read (the Ant/Maven surefire form):
 * counts as attributes, <failure message type>text</failure>, <skipped message/>.
 */
import type { RunReport } from '../model.js';
import { byCheckAndOperation, groupDefects, type CheckOnOperation } from './defects.js';
import type { RedactOptions } from './redact.js';
import { defectText, familyLookup, groupByOperation, RUN_WIDE, summaryLine } from './view.js';
import { attrs, escapeText, reportToRender } from './safe-text.js';

export interface JunitReporterOptions {
  readonly redact?: RedactOptions;
}

interface Suite {
  readonly name: string;
  readonly cases: readonly CheckOnOperation[];
}

export function createJunitReporter(options: JunitReporterOptions = {}) {
  return {
    render(input: RunReport): string {
      return renderJunit(reportToRender(input, options.redact));
    },
  };
}

/** One suite per operation in document order; pairs of no operation in one suite per check family. */
function suitesOf(report: RunReport, pairs: readonly CheckOnOperation[]): Suite[] {
  const family = familyLookup(report);
  const byName = new Map<string, CheckOnOperation[]>();
  const order = [...groupByOperation(report).map((g) => g.operationId).filter((id): id is string => id !== undefined)];
  for (const pair of pairs) {
    // Run-wide results (unknown paths, workflows) read better by family than as one "(no operation)" bucket.
    const name = pair.operationId ?? `${family(pair.checkId)} (no operation)`;
    const list = byName.get(name);
    if (list) list.push(pair);
    else byName.set(name, [pair]);
  }
  const names = [...order.filter((n) => byName.has(n)), ...[...byName.keys()].filter((n) => !order.includes(n))];
  return names.map((name) => ({ name, cases: byName.get(name)! }));
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function pairMs(pair: CheckOnOperation): number {
  return pair.results.reduce((sum, r) => sum + r.evidence.reduce((n, ex) => n + ex.durationMs, 0), 0);
}

function tally(cases: readonly CheckOnOperation[]): { tests: number; failures: number; skipped: number } {
  return { tests: cases.length, failures: cases.filter((c) => c.verdict === 'failed').length, skipped: cases.filter((c) => c.verdict === 'skipped').length };
}

/**
 * The name of a testcase: the check id and the operationId, both stable
 * public names, never a title (titles carry server-assigned ids and
 * generated values), so two runs give the same names and CI can track a
 * test's history. A (check, operation) pair occurs once, so names are unique.
 */
export function testcaseName(pair: Pick<CheckOnOperation, 'checkId' | 'operationId'>): string {
  return `${pair.checkId} on ${pair.operationId ?? RUN_WIDE}`;
}

function renderJunit(report: RunReport): string {
  const { meta } = report;
  const defects = groupDefects(report);
  const pairs = byCheckAndOperation(report, defects);
  const all = tally(pairs);
  const properties: Record<string, string> = {
    'document.title': meta.document.title,
    'document.version': meta.document.version,
    'document.sha256': meta.document.sha256,
    'document.file': meta.document.file,
    kit: `${meta.kit.name} ${meta.kit.version}`,
    target: meta.target,
    seed: String(meta.seed),
    options: JSON.stringify(meta.options),
    summary: summaryLine(report, defects.length),
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
      tests: all.tests,
      failures: all.failures,
      errors: 0,
      skipped: all.skipped,
      time: seconds(meta.durationMs ?? 0),
      timestamp: meta.startedAt,
    })}>`,
  ];
  for (const suite of suitesOf(report, pairs)) {
    const counts = tally(suite.cases);
    lines.push(
      `  <testsuite${attrs({
        name: suite.name,
        tests: counts.tests,
        failures: counts.failures,
        errors: 0,
        skipped: counts.skipped,
        time: seconds(suite.cases.reduce((sum, c) => sum + pairMs(c), 0)),
        timestamp: meta.startedAt,
      })}>`,
      ...propertiesXml,
    );
    for (const pair of suite.cases) lines.push(...testcase(pair, report));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function testcase(pair: CheckOnOperation, report: RunReport): string[] {
  const open = `    <testcase${attrs({ name: testcaseName(pair), classname: `petstore-kit.${pair.operationId ?? pair.checkId}`, time: seconds(pairMs(pair)) })}`;
  switch (pair.verdict) {
    case 'passed':
      return [`${open}/>`];
    case 'skipped': {
      const reasons = [...new Set(pair.results.map((r) => r.reason ?? 'skipped'))];
      return [`${open}>`, `      <skipped${attrs({ message: reasons.join('; ') })}/>`, '    </testcase>'];
    }
    case 'failed': {
      const message = pair.defects.map((d) => `${d.reason} (${d.exchanges}×)`).join('; ');
      const text = pair.defects.map((d) => defectText(d, report)).join('\n\n');
      return [`${open}>`, `      <failure${attrs({ message, type: pair.checkId })}>${escapeText(text)}</failure>`, '    </testcase>'];
    }
  }
}
