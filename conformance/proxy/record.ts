/**
 * `--record DIR`: what the target answered, kept as the fixtures the mock starts from (`petstore-kit mock
 * --fixtures DIR`), one `<collection>.json` file per collection, so a front-end developer can go offline with
 * staging's data. Which operations read, create, change and delete which collection is the mock's own inference
 * (mock/generic/infer.ts, the same for the Pet Store and any other document), so the files are named and shaped as
 * the mock reads them: a top-level collection is an array of records; a nested one an object from its parents' ids
 * (`"1"`, `"1/7"`) to arrays (mock/generic/initial.ts).
 *
 * The latest answer wins: a list page or a read adds or refreshes a record, a create adds one, a replace or an
 * update refreshes it, a delete (or a read answered 404) removes it. Records are kept digit for digit (ids past
 * 2^53 included) and bounded in number; secrets the session met are scrubbed from them (redact.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Contract } from '../../src/contract/index.js';
import { isKitError, KitError } from '../../src/kit-error.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { servesPetStore } from '../../mock/generic/detect.js';
import { readFixtureFiles } from '../../mock/generic/files.js';
import { inferResources, type Resource, type ResourceMap } from '../../mock/generic/infer.js';
import { loadFixtures } from '../../mock/seed.js';
import { isObject } from '../generate.js';
import { mapLeaves, stringifyJson } from '../json.js';

/** Records kept at most over every collection; past it new records are counted, not kept. */
export const MAX_RECORDED = 100_000;

export interface RecordedAnswer {
  readonly operationId: string;
  readonly status: number;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The answer's JSON body, lossless (json.ts), when it had one. */
  readonly json: unknown;
}

export interface RecordSummary {
  readonly files: readonly string[];
  readonly records: number;
  /** Records met past MAX_RECORDED: not kept. */
  readonly dropped: number;
  /** Why `petstore-kit mock --fixtures DIR` would refuse the files as they are (a pet whose category the session never read), if it would. */
  readonly problem?: string;
}

export class FixtureRecorder {
  private readonly map: ResourceMap;
  /** Resource key → scope ('' or parent ids joined by '/') → id → record. */
  private readonly data = new Map<string, Map<string, Map<string, unknown>>>();
  private kept = 0;
  private dropped = 0;

  constructor(contract: Contract) {
    this.map = inferResources(contract);
  }

  /** Takes what one answer says about the records of its collection. */
  observe(answer: RecordedAnswer): void {
    const role = this.map.roles.get(answer.operationId);
    if (!role) return;
    const { resource } = role;
    const scope = resource.scopeParams.map((name) => answer.pathParams[name] ?? '').join('/');
    const pathId = answer.pathParams[resource.idParam];
    const ok = answer.status >= 200 && answer.status < 300;
    switch (role.role) {
      case 'list':
        if (ok) for (const record of listItems(resource, answer.json)) this.put(resource, scope, record, undefined);
        return;
      case 'read':
        if (ok) for (const record of itemRecords(resource, answer.json)) this.put(resource, scope, record, pathId);
        else if (answer.status === 404 && pathId !== undefined) this.remove(resource, scope, pathId);
        return;
      case 'create':
      case 'createOrUpdate':
      case 'replace':
      case 'update':
        if (ok) for (const record of itemRecords(resource, answer.json)) this.put(resource, scope, record, role.role === 'replace' || role.role === 'update' ? pathId : undefined);
        return;
      case 'delete':
        if (ok && pathId !== undefined) this.remove(resource, scope, pathId);
        return;
    }
  }

  get size(): number {
    return this.kept;
  }

  /**
   * Writes one `<collection>.json` per collection met (an empty array for one whose records were all deleted), with
   * every string passed through `scrub` (secrets out).
   */
  async write(dir: string, scrub: (text: string) => string): Promise<RecordSummary> {
    const folder = resolve(dir);
    try {
      await mkdir(folder, { recursive: true });
    } catch (error) {
      throw new KitError('REPORT_WRITE_FAILED', `cannot create the --record folder ${folder}: ${(error as Error).message}`, { file: folder });
    }
    const files: string[] = [];
    for (const resource of this.map.resources) {
      const scopes = this.data.get(resource.key);
      if (!scopes) continue;
      // One record a line, as fixtures/seed/ has them: a diff of two recordings shows which records changed.
      const array = (byId: Map<string, unknown> | undefined, indent: string): string => {
        const lines = [...(byId?.values() ?? [])].map((record) => `${indent}  ${stringifyJson(mapLeaves(record, (leaf) => (typeof leaf === 'string' ? scrub(leaf) : leaf)))}`);
        return lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n${indent}]`;
      };
      const text = resource.scopeParams.length === 0 ? array(scopes.get(''), '') : `{\n${[...scopes].map(([scope, byId]) => `  ${JSON.stringify(scope)}: ${array(byId, '  ')}`).join(',\n')}\n}`;
      const file = join(folder, `${resource.name}.json`);
      try {
        await writeFile(file, `${text}\n`);
      } catch (error) {
        throw new KitError('REPORT_WRITE_FAILED', `cannot write ${file}: ${(error as Error).message}`, { file });
      }
      files.push(file);
    }
    return { files, records: this.kept, dropped: this.dropped };
  }

  private put(resource: Resource, scope: string, record: Readonly<Record<string, unknown>>, pathId: string | undefined): void {
    const field = resource.idField !== undefined ? record[resource.idField] : undefined;
    const id = typeof field === 'string' || typeof field === 'number' || typeof field === 'bigint' ? String(field) : pathId;
    if (id === undefined) return;
    let scopes = this.data.get(resource.key);
    if (!scopes) this.data.set(resource.key, (scopes = new Map()));
    let byId = scopes.get(scope);
    if (!byId) scopes.set(scope, (byId = new Map()));
    if (!byId.has(id)) {
      if (this.kept >= MAX_RECORDED) {
        this.dropped += 1;
        return;
      }
      this.kept += 1;
    }
    byId.set(id, record);
  }

  private remove(resource: Resource, scope: string, id: string): void {
    const byId = this.data.get(resource.key)?.get(scope);
    if (byId?.delete(id)) this.kept -= 1;
  }
}

/**
 * Whether the mock would start from these fixtures, asked of the mock's own loaders: the Pet Store's (schemas, ids,
 * references, the state rules) or the generic engine's. A recording holds what the session happened to read, so a
 * pet may name a category it never read; the message says which, so a person can read it once more, or add it.
 */
export async function fixturesProblem(dir: string, compiled: CompiledContract): Promise<string | undefined> {
  try {
    if (servesPetStore(compiled.contract)) await loadFixtures(dir, compiled);
    else {
      const { createGenericEngine } = await import('../../mock/generic/engine.js');
      createGenericEngine(compiled, { fixtures: await readFixtureFiles(dir), basePath: '' });
    }
    return undefined;
  } catch (error) {
    if (isKitError(error)) return error.message;
    throw error;
  }
}

/** The records of a list answer: the array, or the array in its envelope (infer.ts ListShape). */
function listItems(resource: Resource, json: unknown): Readonly<Record<string, unknown>>[] {
  const shape = resource.list?.shape;
  const items = shape?.kind === 'envelope' && isObject(json) ? json[shape.itemsKey] : json;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

/** The record(s) of an item answer: the object, or what its envelope or batch member holds. */
function itemRecords(resource: Resource, json: unknown): Readonly<Record<string, unknown>>[] {
  if (!isObject(json)) return [];
  if (resource.batchKey !== undefined) {
    const batch = json[resource.batchKey];
    return Array.isArray(batch) ? batch.filter(isObject) : [];
  }
  if (resource.itemEnvelope !== undefined) {
    const inner = json[resource.itemEnvelope];
    return isObject(inner) ? [inner] : [];
  }
  return [json];
}
