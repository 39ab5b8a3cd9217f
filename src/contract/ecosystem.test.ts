/**
 * Issue 10, point 8: openapi.yaml read by example-driven tools (Prism,
 * Specmatic, Dredd) and linters (Redocly) the way we mean it:
 * - security is declared, as none (`security: []`);
 * - every int32 has its maximum, so a generator never sends what int32 cannot hold;
 * - request and response examples pair by name (Specmatic matches them so),
 *   bodies and path parameters alike;
 * - each create has its own Location example, the path of its own 201 example;
 * - destructive operations' examples name other ids than the reads', so a
 *   tool replaying the examples in order does not delete what it reads next;
 * - Redocly's recommended ruleset reports no error (run through npx when
 *   the registry or the npm cache can provide it; its engines allow Node 20.19).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from '../package-info.js';
import { bundledContract } from '../test-support.js';
import { loadDocument } from './load.js';

const exec = promisify(execFile);
const { document } = await loadDocument(DEFAULT_SPEC_PATH);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Op {
  readonly id: string;
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly op: OpenAPIV3.OperationObject;
  readonly parameters: OpenAPIV3.ParameterObject[];
}

/** The operations, with path-level and operation-level parameters merged (operation wins, OpenAPI 3.0.3 §4.7.10). The document is dereferenced. */
const operations: Op[] = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item?.[m]).map((method) => {
    const op = item![method]!;
    const merged = new Map<string, OpenAPIV3.ParameterObject>();
    for (const p of [...(item!.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3.ParameterObject[]) merged.set(`${p.in} ${p.name}`, p);
    return { id: op.operationId!, method, path, op, parameters: [...merged.values()] };
  }),
);

function jsonMedia(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined): OpenAPIV3.MediaTypeObject | undefined {
  return content?.['application/json'];
}

/** Every schema object reachable from a value, each once. */
function schemasIn(value: unknown, seen = new Set<unknown>()): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  const own = 'type' in value ? [value as Record<string, unknown>] : [];
  return [...own, ...Object.values(value).flatMap((v) => schemasIn(v, seen))];
}

describe('openapi.yaml for the ecosystem', () => {
  it('declares that the API has no security', () => {
    expect(document.security).toEqual([]);
  });

  it('every int32 has a maximum within int32', () => {
    const int32 = schemasIn(document).filter((s) => s['format'] === 'int32');
    expect(int32.length).toBeGreaterThan(3);
    for (const s of int32) {
      expect(s, JSON.stringify(s)).toHaveProperty('maximum');
      expect(Number(s['maximum'])).toBeLessThanOrEqual(2147483647);
    }
  });

  it('the request-body examples and the success response examples of each operation have the same names', () => {
    const checked: string[] = [];
    for (const { id, op } of operations) {
      const body = op.requestBody as OpenAPIV3.RequestBodyObject | undefined;
      const requestNames = Object.keys(jsonMedia(body?.content)?.examples ?? {});
      if (requestNames.length === 0) continue;
      const success = Object.entries(op.responses).find(([status]) => /^2\d\d$/.test(status))?.[1] as OpenAPIV3.ResponseObject | undefined;
      const responseExamples = jsonMedia(success?.content)?.examples;
      if (!responseExamples) continue; // a 204 has no body to pair
      expect(Object.keys(responseExamples).sort(), id).toEqual([...requestNames].sort());
      checked.push(id);
    }
    expect(checked).toEqual(expect.arrayContaining(['createPet', 'replacePet', 'createCategory', 'replaceCategory', 'placeOrder', 'updateOrder', 'updateInventory']));
  });

  it("the success response examples of an operation with a path parameter are named as that parameter's examples", () => {
    const checked: string[] = [];
    for (const { id, op, parameters } of operations) {
      const pathParameter = parameters.find((p) => p.in === 'path');
      if (!pathParameter?.examples) continue;
      const success = Object.entries(op.responses).find(([status]) => /^2\d\d$/.test(status))?.[1] as OpenAPIV3.ResponseObject | undefined;
      const names = Object.keys(jsonMedia(success?.content)?.examples ?? {});
      for (const name of names) expect(Object.keys(pathParameter.examples), `${id}: response example ${name}`).toContain(name);
      if (names.length > 0) checked.push(id);
    }
    expect(checked).toEqual(expect.arrayContaining(['getPet', 'replacePet', 'getCategory', 'getOrder', 'updateOrder', 'getInventoryItem', 'updateInventory']));
  });

  it('every named example of a parameter validates against its schema (src/schema/examples.test.ts covers the lone `example`s)', async () => {
    const { compiled } = await bundledContract();
    let seen = 0;
    for (const { id, parameters } of operations) {
      for (const p of parameters) {
        for (const [name, example] of Object.entries(p.examples ?? {})) {
          seen += 1;
          expect(compiled.validate(p.schema as OpenAPIV3.SchemaObject, (example as OpenAPIV3.ExampleObject).value, 'request'), `${id} ${p.name} ${name}`).toEqual([]);
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(11);
  });

  it('each create has its own Location example: the path of its own 201 example', () => {
    const creates = operations.filter((o) => o.method === 'post' && o.op.responses['201']);
    expect(creates.length).toBeGreaterThanOrEqual(3);
    const locations = creates.map(({ id, path, op }) => {
      const created = op.responses['201'] as OpenAPIV3.ResponseObject;
      const header = created.headers?.['Location'] as OpenAPIV3.HeaderObject | undefined;
      const example = header?.example ?? (header?.schema as OpenAPIV3.SchemaObject | undefined)?.example;
      const bodies = Object.values(jsonMedia(created.content)?.examples ?? {}).map((e) => (e as OpenAPIV3.ExampleObject).value as { id?: number });
      expect(example, id).toBe(`${path}/${bodies[0]?.id}`);
      return example as string;
    });
    expect(new Set(locations).size).toBe(locations.length);
  });

  it("destructive operations' examples do not use the ids the reads use", () => {
    /** Every id an operation's examples name for its path parameter. */
    const idExamples = (o: Op): unknown[] => {
      const p = o.parameters.find((q) => q.in === 'path');
      if (!p) return [];
      if (p.examples) return Object.values(p.examples).map((e) => (e as OpenAPIV3.ExampleObject).value);
      return [p.example ?? (p.schema as OpenAPIV3.SchemaObject | undefined)?.example];
    };
    const deletes = operations.filter((o) => o.method === 'delete');
    expect(deletes.length).toBeGreaterThanOrEqual(3);
    for (const destructive of deletes) {
      const reads = operations.filter((o) => o.method === 'get' && o.path === destructive.path);
      expect(reads.length, destructive.id).toBeGreaterThan(0);
      for (const read of reads) for (const id of idExamples(destructive)) expect(idExamples(read), `${destructive.id} vs ${read.id}`).not.toContain(id);
    }
  });

  it("Redocly's recommended ruleset reports no error", { timeout: 180_000 }, async (ctx) => {
    let stdout = '';
    try {
      ({ stdout } = await exec('npx', ['--yes', '@redocly/cli@2.77.0', 'lint', '--extends', 'recommended', '--format', 'json', 'openapi.yaml'], { cwd: PACKAGE_ROOT, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }));
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      stdout = failed.stdout ?? '';
      if (!stdout.trim().startsWith('{')) {
        // Neither the registry nor the npm cache could provide Redocly: say so rather than pass silently.
        ctx.skip(`npx could not run @redocly/cli: ${(failed.stderr ?? String(error)).split('\n').find((l) => /npm error|ERR/.test(l)) ?? 'no output'}`);
      }
    }
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string; severity: string; message: string }[] };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });
});
