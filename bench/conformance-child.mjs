#!/usr/bin/env node
// The conformance runner through its API, in a process of its own (so the
// bench times the same things the CLI pays for: Node start-up, loading and
// compiling the document, the run). Used by run.mjs when the CLI's
// `conformance` command is not available.
//
//   node bench/conformance-child.mjs --base-url URL --output FILE
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'base-url': { type: 'string' }, output: { type: 'string' } } });
if (!values['base-url'] || !values.output) {
  process.stderr.write('usage: node bench/conformance-child.mjs --base-url URL --output FILE\n');
  process.exit(2);
}
const { runConformance } = await import(new URL('../dist/conformance/runner.js', import.meta.url).href);
const report = await runConformance({ baseUrl: values['base-url'] });
writeFileSync(values.output, JSON.stringify(report));
process.exitCode = report.summary.failed > 0 ? 1 : 0;
