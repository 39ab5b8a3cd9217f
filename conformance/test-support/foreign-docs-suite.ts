/**
 * The body of conformance/foreign-docs.test.ts (the fast tier's slice) and foreign-docs.full.test.ts (the rest): see the
 * former for what it proves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, responseFor, type Contract, type Operation } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { coerceText, compileContract, type CompiledContract } from '../../src/schema/index.js';
import type { CheckResult, RunReport } from '../model.js';
import { runConformance } from '../runner.js';
import { pool } from './pool.js';
import { startPrism, stopPrism, type RunningPrism } from './prism.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const CORPUS = join(dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json')), '3.0', 'json');

function corpusFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? corpusFiles(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : [],
  );
}

export const files = corpusFiles(CORPUS).filter((file) => /^3\.0\.\d+$/.test(String((JSON.parse(readFileSync(file, 'utf8')) as { openapi?: unknown }).openapi)));

/** Each document of `loaded` loads as swagger-parser judges it, and compiles. */
export function describeLoading(loaded: readonly string[]): void {
  describe('the corpus of third-party OpenAPI 3.0 documents (@readme/oas-examples)', () => {
    it.each(loaded.map((file) => [relative(CORPUS, file), file]))('%s: loads as swagger-parser judges it, and compiles', async (_name, file) => {
      const verdict = await SwaggerParser.validate(file).then(
        () => 'valid',
        () => 'invalid',
      );
      const loaded: Contract | KitError = await loadContract(file).catch((error: unknown) => {
        if (error instanceof KitError) return error;
        throw error;
      });
      if (verdict === 'invalid') {
        // Issue 32, point 3: a document that breaks the schema's letter loads with a warning naming the spot, or is
        // refused for what the lenient load cannot take; --strict refuses it as swagger-parser does.
        const strict = await loadContract(file, { strictSchema: true }).catch((error: unknown) => error);
        expect(strict).toBeInstanceOf(KitError);
        expect((strict as KitError).code).toBe('SPEC_INVALID');
        if (loaded instanceof KitError) expect(loaded.code).toBe('SPEC_INVALID');
        else expect(loaded.warnings.some((warning) => /breaks the OpenAPI schema/.test(warning.message))).toBe(true);
        return;
      }
      if (loaded instanceof KitError) throw loaded;
      expect(loaded.strict).toBe(false);
      // Every operation is indexed, those without an operationId included.
      const paths = ((await SwaggerParser.dereference(file)) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
      const declared = Object.values(paths).flatMap((item) => Object.keys(item).filter((key) => HTTP_METHODS.includes(key)));
      expect(loaded.operations).toHaveLength(declared.length);
      expect(new Set(loaded.operations.map((op) => op.operationId)).size).toBe(declared.length);
      compileContract(loaded).compileAll();
      for (const warning of loaded.warnings) {
        expect(warning.pointer).toMatch(/^\//);
        expect(warning.skipped.length).toBeGreaterThan(0);
      }
    });
  });
}

/**
 * The findings issue 11 point 4 names: our contract's conventions applied
 * to a document that does not declare them. Each takes a result of a run on
 * a document and says whether it is one.
 */
interface Judged {
  readonly contract: Contract;
  readonly compiled: CompiledContract;
  readonly report: RunReport;
}
type Kind = 'status-equality' | 'bare-deprecation' | 'absent-id-value' | 'accept';
const KINDS: Record<Kind, { title: string; is: (result: CheckResult, doc: Judged) => boolean }> = {
  'status-equality': {
    title: "the Error status-equality rule on an error schema whose status is not an integer",
    is: (result, { contract }) =>
      result.findings.some((f) => f.pointer === '/body/status' && f.keyword === 'const') &&
      result.evidence.some((exchange) => {
        const operation = operationOf(contract, result);
        const spec = operation && exchange.response ? responseFor(operation, exchange.response.status) : undefined;
        const status = spec?.content.find((m) => /json/i.test(m.mediaType))?.schema?.properties?.['status'];
        return !(status && 'type' in status && status.type === 'integer');
      }),
  },
  'bare-deprecation': {
    title: 'RFC 9745/8594 headers required of a bare `deprecated: true`',
    is: (result, { contract }) => {
      if (result.checkId !== 'deprecation-headers' && result.checkId !== 'deprecation-links') return false;
      const operation = operationOf(contract, result);
      if (!operation?.deprecated) return false;
      const declared = [...operation.responses.values()].some((r) => r.headers.some((h) => /^(deprecation|sunset)$/i.test(h.name)));
      return !declared && operation.deprecation?.deprecatedAt === undefined && operation.deprecation?.sunset === undefined;
    },
  },
  'absent-id-value': {
    title: "an absent-id probe with a value the parameter's schema refuses",
    is: (result, { contract, compiled }) => {
      if (result.checkId !== 'unknown-id-404') return false;
      const operation = operationOf(contract, result);
      return operation !== undefined && result.evidence.some((exchange) => !pathValuesValid(operation, compiled, new URL(exchange.request.url).pathname));
    },
  },
  accept: {
    title: 'an Accept that excludes every media type the operation documents',
    // Each exchange against the operation it went to (a stateful check's evidence holds other operations' requests).
    is: (result, { contract }) =>
      result.evidence.some((exchange) => {
        const operation = operationAt(contract, exchange.request.method, new URL(exchange.request.url).pathname) ?? operationOf(contract, result);
        const documented = operation ? [...operation.responses.values()].flatMap((r) => r.content.map((m) => m.mediaType.toLowerCase())) : [];
        return documented.length > 0 && !acceptsAny(exchange.request.headers['accept'] ?? '*/*', documented);
      }),
  },
};

function operationOf(contract: Contract, result: CheckResult): Operation | undefined {
  return result.operationId === undefined ? undefined : contract.operationsById.get(result.operationId);
}

/** The operation a request went to: method and path template matched from the end (a base path may precede it), literal paths first. */
function operationAt(contract: Contract, method: string, pathname: string): Operation | undefined {
  const candidates = contract.operations.filter((op) => op.method === method.toLowerCase() && new RegExp(`${templatePattern(op.pathTemplate)}$`).test(pathname));
  return candidates.sort((a, b) => a.pathTemplate.split('{').length - b.pathTemplate.split('{').length)[0];
}

function templatePattern(template: string): string {
  return template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
}

/** Whether every path parameter in `pathname` is valid for its schema (the template matched from the end: a base path may precede it). */
function pathValuesValid(operation: Operation, compiled: CompiledContract, pathname: string): boolean {
  const names: string[] = [];
  const pattern = operation.pathTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`${pattern}$`).exec(pathname);
  if (!match) return true;
  return names.every((name, i) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    if (!parameter) return true;
    const coerced = coerceText(decodeURIComponent(match[i + 1]!), parameter.schema);
    return coerced.ok && compiled.validate(parameter.schema, coerced.value, 'request').length === 0;
  });
}

/** RFC 9110 §12.5.1, without weights: whether some documented media type falls in a range of the Accept header. */
function acceptsAny(accept: string, documented: readonly string[]): boolean {
  const ranges = accept.split(',').map((range) => range.split(';')[0]!.trim().toLowerCase());
  return documented.some((type) => ranges.some((range) => range === '*/*' || range === type || (range.endsWith('/*') && type.startsWith(range.slice(0, -1))) || type === '*/*'));
}

/**
 * The documents run against Prism: five of the corpus (an API without
 * security, so that Prism does not answer 401 to everything) and every one of
 * our construct documents (fixtures/documents/*.yaml). `foreign-conventions.yaml`
 * holds one operation for each kind of point 4.
 */
const FIXTURE_DOCUMENTS = join(PACKAGE_ROOT, 'fixtures', 'documents');
export const PRISM_RUNS: readonly [name: string, file: string][] = [
  ['petstore-expanded.json', join(CORPUS, 'petstore-expanded.json')],
  ['uspto.json', join(CORPUS, 'uspto.json')],
  ['link-example.json', join(CORPUS, 'link-example.json')],
  ['response-multiple-mediatypes.json', join(CORPUS, 'response-multiple-mediatypes.json')],
  ['schema-circular.json', join(CORPUS, 'schema-circular.json')],
  ...readdirSync(FIXTURE_DOCUMENTS)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name): [string, string] => [name, join(FIXTURE_DOCUMENTS, name)]),
];


/**
 * Documents run against Prism at once. A run mostly waits on Prism (a child
 * process that answers slowly), so a few side by side use the second core;
 * one after the other, the 17 runs took minutes on a busy 2-core machine
 * (issue 23, point 2). Each run has a Prism of its own, as before.
 */
const PARALLEL_PRISM_RUNS = 3;

/**
 * The runner against Prism's mock of each of `selected` (names of PRISM_RUNS), judged for the findings issue 11 point 4
 * names; `regressions` adds the tests that read foreign-conventions.yaml and unknown-formats.yaml.
 */
export function describePrismRuns(selected: readonly string[], regressions: boolean): void {
  const chosen = PRISM_RUNS.filter(([name]) => selected.includes(name));
  describe('the runner against Prism\'s mock of documents from elsewhere', () => {
    const runs = new Map<string, Judged>();
    const running = new Set<RunningPrism>();

    beforeAll(async () => {
      const limit = pool(PARALLEL_PRISM_RUNS);
      const outcomes = await Promise.allSettled(
        chosen.map(([name, file]) =>
          limit(async () => {
            const prism = await startPrism(file);
            running.add(prism);
            try {
              const contract = await loadContract(file);
              // Prism answers slowly: more requests in flight keep the run short.
              const report = await runConformance({ baseUrl: prism.url, specPath: file, seed: 11, concurrency: 8 });
              runs.set(name, { contract, compiled: compileContract(contract), report });
            } finally {
              running.delete(prism);
              await stopPrism(prism);
            }
          }),
        ),
      );
      // Every run finished (each Prism stopped) before the first failure is thrown.
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    }, 420_000);

    afterAll(async () => {
      await Promise.all([...running].map((prism) => stopPrism(prism)));
    });

    it.each(chosen.map(([name]) => [name]))('%s: the run finishes, judges what it sent, and no check crashes', (name) => {
      const run = runs.get(name)!;
      expect(run.report.summary.exchanges).toBeGreaterThan(0);
      expect(run.report.summary.passed).toBeGreaterThan(0);
      expect(run.report.coverage.operations.some((o) => o.exercised)).toBe(true);
      const crashed = run.report.results.filter((r) => r.reason?.startsWith('internal error in the check'));
      expect(crashed.map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
    });

    for (const [name] of chosen) {
      for (const [kind, { title, is }] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
        it(`${name}: no finding of ${title}`, () => {
          const run = runs.get(name)!;
          const found = run.report.results.filter((r) => r.verdict === 'failed' && is(r, run));
          expect(found.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
        });
      }
    }

    if (regressions) {
      it('the report lists the document\'s warnings, each with what it skipped (issue 11, point 1)', () => {
        const { report } = runs.get('unknown-formats.yaml')!;
        expect(report.warnings?.length).toBeGreaterThan(0);
        for (const warning of report.warnings ?? []) expect(warning.skipped.length).toBeGreaterThan(0);
        expect(report.warnings?.map((w) => w.message).join('\n')).toMatch(/uriref|blob|decimal/);
      });

      // Regressions for issue 11 point 4: the runner met each foreign convention and judged it by the document, not by ours.
      it('unknown-id-404 sends a uuid for the uuid reportId, which Prism takes as valid (no 400)', () => {
        const { report } = runs.get('foreign-conventions.yaml')!;
        const probes = report.results.filter((r) => r.checkId === 'unknown-id-404' && r.operationId === 'getReport');
        expect(probes).toHaveLength(1);
        const sent = probes[0]!.evidence.at(-1)!;
        expect(sent.request.url).toMatch(/\/reports\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        // Prism, stateless, answers 200 to any valid id (its fault, reported); an integer id got 400 before.
        expect(sent.response?.status).not.toBe(400);
      });

      it('a bare deprecated: true is noted (skipped with the reason), not failed', () => {
        const { report } = runs.get('foreign-conventions.yaml')!;
        const noted = report.results.filter((r) => r.checkId === 'deprecation-links' && r.operationId === 'getReport');
        expect(noted.map((r) => [r.verdict, r.reason])).toEqual([['skipped', expect.stringContaining('bare `deprecated: true`')]]);
      });

      it('exportReport, which produces only text/csv, is asked for text/csv and answers 200', () => {
        const { report } = runs.get('foreign-conventions.yaml')!;
        const exchanges = report.results.filter((r) => r.operationId === 'exportReport').flatMap((r) => r.evidence);
        const plain = exchanges.filter((x) => x.request.method === 'GET' && !/unknown|absent/.test(x.request.url) && x.request.headers['accept'] === 'text/csv');
        expect(plain.length).toBeGreaterThan(0);
        expect(exchanges.some((x) => x.response?.status === 406 && x.request.headers['accept'] === 'text/csv')).toBe(false);
      });
    }
  });
}

/** The fast tier's share: the five smallest documents of the corpus, and the construct documents its regressions read. */
export const FAST_LOADS: readonly string[] = [...files].sort((a, b) => statSync(a).size - statSync(b).size).slice(0, 5);
export const FAST_PRISM_RUNS: readonly string[] = ['foreign-conventions.yaml', 'unknown-formats.yaml'];
