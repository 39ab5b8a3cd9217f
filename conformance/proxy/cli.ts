/**
 * `petstore-kit proxy --target URL`: flags from the one options table (src/cli/options.ts) → startProxy. Prints
 * `listening on http://HOST:PORT` on stdout once it serves, as the mock does, so a script can wait for it; one line
 * per exchange and per violation go to stderr. SIGINT or SIGTERM stop it: the exchanges in flight finish, the
 * recording is written, and the report of the session is printed (and written to --output / --report files).
 * Exit 0: no exchange broke the document; 1: one did (or --min-coverage was not met); 2: it could not start.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { choiceOption, integerOption, parseCommand } from '../../src/cli/parse.js';
import { KitError } from '../../src/kit-error.js';
import { parseHeaders, splitList } from '../cli.js';
import { parseMinCoverage } from '../min-coverage.js';
import type { ReportFormat } from '../model.js';
import { parseReportFiles, writeReportFiles } from '../report-files.js';
import { createReporter, REPORT_FORMATS } from '../reporters/index.js';
import { startProxy, type ProxyOptions } from './server.js';

export async function runProxyCommand(argv: readonly string[]): Promise<number> {
  const raw = parseCommand('proxy', argv);
  if (!raw.target) throw new KitError('USAGE', 'petstore-kit proxy: --target URL is required (the backend, e.g. https://staging.example.com/api/v1). See petstore-kit proxy --help.');
  const format: ReportFormat = choiceOption('proxy', 'format', raw.format, REPORT_FORMATS) ?? 'console';
  const reportFiles = parseReportFiles(raw.report ?? []);
  if (raw.fallback && raw['fallback-url'] !== undefined) throw new KitError('USAGE', 'petstore-kit proxy: give --fallback (the mock in this process) or --fallback-url URL (a mock already running), not both.');
  if (raw.fixtures !== undefined && raw['fallback-url'] !== undefined) throw new KitError('USAGE', 'petstore-kit proxy: --fixtures sets the data of the in-process mock; the mock at --fallback-url has its own.');
  const headers = parseHeaders(raw.header ?? [], 'proxy');
  const port = integerOption('proxy', 'port', raw.port, 0, 65535);
  const timeoutMs = integerOption('proxy', 'timeout', raw.timeout, 1, 600_000);
  const maxBodyBytes = integerOption('proxy', 'max-body-bytes', raw['max-body-bytes'], 0, 1024 * 1024 * 1024);
  const host = raw.host;
  if (host !== undefined && host.trim() === '') throw new KitError('USAGE', 'petstore-kit proxy: --host takes an address such as 127.0.0.1.');
  const minCoverage = parseMinCoverage(raw['min-coverage'] ?? []);
  const options: ProxyOptions = {
    target: raw.target,
    ...(raw.spec !== undefined ? { specPath: raw.spec } : {}),
    ...(raw['allow-refs'] !== undefined ? { allowRefs: raw['allow-refs'] } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(host !== undefined ? { host } : {}),
    headers,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(raw.errors ? { errors: true } : {}),
    ...(raw.fallback ? { fallback: true } : {}),
    ...(raw['fallback-url'] !== undefined ? { fallbackUrl: raw['fallback-url'] } : {}),
    mock: splitList(raw.mock),
    ...(raw.fixtures !== undefined ? { fixtures: raw.fixtures } : {}),
    ...(raw.record !== undefined ? { record: raw.record } : {}),
    skip: splitList(raw.skip),
    ...(minCoverage ? { minCoverage } : {}),
    ...(raw.quiet ? { quiet: true } : {}),
  };

  const proxy = await startProxy(options);
  process.stdout.write(`listening on ${proxy.url}\n`);
  await new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`\n${signal}: finishing the exchanges in flight, then the report\n`);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const closed = await proxy.close();
  const report = proxy.report();
  const redact = proxy.redact;

  const text = createReporter(format, { redact, color: format === 'console' && raw.output === undefined ? undefined : false, quiet: true }).render(report);
  if (raw.output !== undefined) {
    const file = resolve(raw.output);
    try {
      await writeFile(file, text.endsWith('\n') ? text : `${text}\n`);
    } catch (error) {
      throw new KitError('REPORT_WRITE_FAILED', `cannot write the report to ${file}: ${(error as Error).message}`, { file });
    }
    process.stdout.write(`report written to ${file} (${format})\n`);
  } else {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  for (const line of await writeReportFiles(report, reportFiles, redact)) process.stdout.write(`${line}\n`);
  if (closed.recorded && options.record !== undefined) {
    const { records, files, dropped, droppedWhy } = closed.recorded;
    process.stderr.write(`recorded ${records} record${records === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'} under ${resolve(options.record)}; replay them with petstore-kit mock --fixtures ${options.record}${options.specPath ? ` --spec ${options.specPath}` : ''}\n`);
    if (dropped > 0) process.stderr.write(`note: ${dropped} more record${dropped === 1 ? ' was' : 's were'} not recorded, so that the mock reads the recording and the proxy's memory stays bounded: ${droppedWhy.join('; ')}\n`);
    if (closed.recorded.problem !== undefined) process.stderr.write(`note: the mock would refuse these fixtures as they are: ${closed.recorded.problem}\n`);
  }
  if (closed.har) process.stderr.write(`recorded the session in ${closed.har.file} (${closed.har.entries} entr${closed.har.entries === 1 ? 'y' : 'ies'})\n`);
  return report.summary.failed > 0 ? 1 : 0;
}
