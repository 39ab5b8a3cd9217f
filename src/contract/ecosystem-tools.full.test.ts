/**
 * Issue 10, point 8, last sentence: Dredd and Specmatic run against the real
 * mock with no failure that comes from openapi.yaml (Prism is the referee in
 * mock/e2e/prism-referee.test.ts). Each tool gets a fresh mock on 127.0.0.1, so
 * what one changes the other does not see. The tools are run through npx at
 * pinned versions (the registry or the npm cache provides them, as for
 * Redocly in ecosystem.test.ts); a tool that cannot be had is a skip that
 * says why, never a silent pass. `.ci/ecosystem-tools.sh` is the same run by hand.
 *
 * Limitations of the tools, worked around here and nowhere else (none of them
 * is a defect of the document or of the mock):
 * - Dredd 14.1.0 reads OpenAPI 3 through @apielements/openapi3-parser 0.16,
 *   which lists a Parameter Object's `examples` as unsupported and then
 *   refuses a path parameter without a lone `example` ("Required URI
 *   parameter 'petId' has no example or default value"). OpenAPI 3.0.3
 *   §4.7.12 makes `example` and `examples` mutually exclusive, and the named
 *   `examples` are what Specmatic and Prism pair requests and responses by,
 *   so Dredd is given a copy in which each named parameter example is its
 *   first value as a lone `example` (all of them are the same id per parameter).
 * - Dredd's OpenAPI 3 support makes one transaction per documented status and
 *   sends the success example's request for each, expecting a 400, 404, 500…
 *   it cannot provoke. A hook skips every non-2xx transaction (what Dredd does
 *   by default for Swagger 2); the error answers are covered by our own suites.
 * - The npm wrapper of Specmatic 2.55.1 exits 0 even when scenarios fail (the
 *   jar itself exits 1), so its summary and its scenario lines are read.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startTestMock } from '../../mock/test-support/harness.js';
import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { bundledContract } from '../test-support.js';

const DREDD = 'dredd@14.1.0';
const SPECMATIC = 'specmatic@2.55.1';
const TOOL_TIMEOUT_MS = 170_000;

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly failedToStart: boolean;
}

/** Runs a command; a non-zero exit is an answer (the tools exit 1 on findings), a missing command is not. */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: TOOL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      resolve({ stdout: stripAnsi(stdout), stderr: stripAnsi(stderr), failedToStart: code === 'ENOENT' });
    });
  });
}

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/** Skips with the reason npx gave when the registry and the npm cache could not provide the tool. */
function skipUnlessRan(ctx: TestContext, tool: string, result: Run, ranMarker: RegExp): void {
  const output = result.stdout + result.stderr;
  if (ranMarker.test(output)) return;
  // Skip only when the tool could not be had (npx, the registry, java); a tool that started and then died
  // before its summary (it rejected the document, say) is a failure, not a skip.
  const unavailable = output.split('\n').find((l) => /npm error|npm ERR|command not found|java: not found|Unable to locate a Java/i.test(l));
  if (result.failedToStart || unavailable !== undefined) {
    ctx.skip(`npx could not run ${tool}: ${(unavailable ?? 'it did not start').trim()}`);
    return;
  }
  expect.fail(`${tool} ran but printed no summary (${ranMarker}); its output ends:\n${output.slice(-2000)}`);
}

/** openapi.yaml as written: parsed, its `$ref`s kept. A fresh copy per call. */
async function documentAsWritten(): Promise<OpenAPIV3.Document> {
  return (await SwaggerParser.parse(DEFAULT_SPEC_PATH)) as OpenAPIV3.Document;
}

/** The document as Dredd can read it: each parameter's named examples become its first value as a lone `example`. */
async function documentForDredd(): Promise<OpenAPIV3.Document> {
  const document = await documentAsWritten();
  for (const parameter of Object.values(document.components?.parameters ?? {})) {
    if ('$ref' in parameter || !parameter.examples) continue;
    const first = Object.values(parameter.examples)[0];
    if (first && !('$ref' in first)) parameter.example = first.value;
    delete parameter.examples;
  }
  return document;
}

const DREDD_HOOKS = `// Dredd cannot provoke an error answer: it would send the success request again.
const hooks = require('hooks');
hooks.beforeEach((transaction, done) => {
  if (!/^2\\d\\d$/.test(String(transaction.expected.statusCode))) transaction.skip = true;
  done();
});
`;

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'petstore-kit-ecosystem-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('ecosystem tools against the mock', () => {
  it('Dredd refuses the document as written only for the parameter `examples` it does not read', { timeout: 180_000 }, async (ctx) => {
    const t = await startTestMock();
    try {
      const result = await run('npx', ['--yes', DREDD, DEFAULT_SPEC_PATH, t.mock.url, '--color=false'], scratch);
      skipUnlessRan(ctx, DREDD, result, /API description|complete:/);
      const errors = (result.stdout + result.stderr).split('\n').filter((l) => /^error:/.test(l));
      expect(errors.length).toBeGreaterThan(0);
      const named = new Set(
        Object.values((await documentAsWritten()).components?.parameters ?? {})
          .filter((p): p is OpenAPIV3.ParameterObject => !('$ref' in p) && p.in === 'path' && p.examples !== undefined)
          .map((p) => p.name),
      );
      for (const line of errors) {
        if (line === 'error: API description processing error') continue;
        const parameter = /Required URI parameter '(\w+)' has no example or default value/.exec(line)?.[1];
        expect(parameter, line).toBeDefined();
        expect(named, line).toContain(parameter);
      }
    } finally {
      await t.close();
    }
  });

  it('Dredd passes every operation’s success transaction, and nothing fails or errs', { timeout: 180_000 }, async (ctx) => {
    const documentPath = join(scratch, 'openapi-for-dredd.json');
    const hooksPath = join(scratch, 'dredd-hooks.cjs');
    await writeFile(documentPath, JSON.stringify(await documentForDredd()));
    await writeFile(hooksPath, DREDD_HOOKS);
    const t = await startTestMock();
    try {
      const result = await run('npx', ['--yes', DREDD, documentPath, t.mock.url, `--hookfiles=${hooksPath}`, '--color=false'], scratch);
      skipUnlessRan(ctx, DREDD, result, /complete:/);
      const output = result.stdout + result.stderr;
      const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(output);
      expect(summary, output.slice(-4000)).not.toBeNull();
      const [, passing, failing, errors] = summary!.map(Number);
      const failures = output.split('\n').filter((l) => /^(fail|error):/.test(l));
      expect(failures).toEqual([]);
      expect({ failing, errors }).toEqual({ failing: 0, errors: 0 });
      const { contract } = await bundledContract();
      expect(passing).toBe(contract.operations.length);
      const passed = output.split('\n').filter((l) => /^pass: [A-Z]+ \(2\d\d\) /.test(l));
      expect(passed).toHaveLength(contract.operations.length);
    } finally {
      await t.close();
    }
  });

  it('Specmatic replays every named example against the mock with no failure (regression: deletes with a lone `example`, both orders on pet 1)', { timeout: 180_000 }, async (ctx) => {
    const java = await run('java', ['-version'], scratch);
    if (java.failedToStart) ctx.skip('Specmatic runs on Java, and `java` is not on the PATH');
    const t = await startTestMock();
    try {
      const result = await run('npx', ['--yes', SPECMATIC, 'test', DEFAULT_SPEC_PATH, `--testBaseURL=${t.mock.url}`], scratch);
      skipUnlessRan(ctx, SPECMATIC, result, /Specmatic Version/);
      const output = result.stdout + result.stderr;
      const summary = /Tests run: (\d+), Successes: (\d+), Failures: (\d+), WIP: (\d+), Errors: (\d+)/.exec(output);
      expect(summary, output.slice(-4000)).not.toBeNull();
      const [, total, successes, failures, , errors] = summary!.map(Number);
      const failed = output.split('\n').filter((l) => /^Scenario: .* has FAILED/.test(l));
      expect(failed).toEqual([]);
      expect({ failures, errors }).toEqual({ failures: 0, errors: 0 });
      expect(successes).toBe(total);
      // Every operation ran from its examples, the deletes included.
      const { contract } = await bundledContract();
      const succeeded = output.split('\n').filter((l) => /^Scenario: .* has SUCCEEDED/.test(l));
      for (const operation of contract.operations) {
        const path = operation.pathTemplate.replace(/\{(\w+)\}/g, '($1:Id)');
        expect(succeeded.some((l) => l.startsWith(`Scenario: ${operation.method.toUpperCase()} ${path} -> 2`)), operation.operationId).toBe(true);
      }
    } finally {
      await t.close();
    }
  });
});
