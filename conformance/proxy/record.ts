/**
 * `--record DIR`: what the target answered, kept as the fixtures the mock starts from (`petstore-kit mock
 * --fixtures DIR`), one `<collection>.json` file per collection, so a front-end developer can go offline with
 * staging's data. Which operations read, create, change and delete which collection is the mock's own inference
 * (mock/engine/infer.ts, the same for the Pet Store and any other document), so the files are named and shaped as
 * the mock reads them: a top-level collection is an array of records; a nested one an object from its parents' ids
 * (`"1"`, `"1/7"`) to arrays (mock/engine/initial.ts).
 *
 * The latest answer wins: a list page or a read adds or refreshes a record, a create adds one, a replace or an
 * update refreshes it, a delete (or a read answered 404) removes it. Records are kept digit for digit (ids past
 * 2^53 included), as their JSON text, scrubbed of the secrets the session met (redact.ts) when kept and once more
 * when written (a value learnt as a secret after its record was kept: secrets.ts).
 *
 * Bounded in bytes, so that a recording always replays and a long session's memory stays bounded (review 1,
 * finding 7): a collection's file never passes what the mock reads as one fixtures file (FILE_CAPS.fixturesBytes,
 * src/contract/bounded-files.ts), nor a record the depth the mock reads (DOCUMENT_CAPS.maxDepth), all collections
 * together hold at most MAX_RECORDED_BYTES, and the records at most MAX_RECORDED. Past a bound a new record (or a
 * larger version of a kept one) is counted as dropped, by collection and bound, and the summary says so.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FILE_CAPS } from '../../src/contract/bounded-files.js';
import { DOCUMENT_CAPS } from '../../src/contract/caps.js';
import type { Contract } from '../../src/contract/index.js';
import { isKitError, KitError } from '../../src/kit-error.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { servesPetStore } from '../../mock/engine/detect.js';
import { inferResources, type Resource, type ResourceMap } from '../../mock/engine/infer.js';
import { withPetStoreRules } from '../../mock/behaviour/petstore/options.js';
import { genericStartup } from '../../mock/engine/startup.js';
import { isObject } from '../generate.js';
import { mapLeaves, nestedDeeperThan, parseJson, stringifyJson } from '../json.js';

/** Records kept at most over every collection (each costs a map entry besides its text). */
export const MAX_RECORDED = 100_000;
/** Bytes one collection's file may take: what the mock reads as one `--fixtures` file. */
export const MAX_COLLECTION_BYTES = FILE_CAPS.fixturesBytes;
/** Bytes all collections together may hold in memory until they are written. */
export const MAX_RECORDED_BYTES = 4 * FILE_CAPS.fixturesBytes;
/** Levels a record may nest, so that its file (an array of records, in an object for a nested collection) stays within the mock's depth cap. */
const MAX_RECORD_DEPTH = DOCUMENT_CAPS.maxDepth - 2;
/** The bytes a file adds around its records: brackets and newlines. */
const FILE_FRAME_BYTES = 8;
/** The bytes a record's line adds to its text: indent (4 in a nested collection), comma and newline. */
const LINE_FRAME_BYTES = 6;
/** The bytes a nested collection's scope adds besides its JSON key: indent, colon, brackets, comma and newlines. */
const SCOPE_FRAME_BYTES = 12;

export interface RecordedAnswer {
  readonly operationId: string;
  readonly status: number;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The answer's JSON body, lossless (json.ts), when it had one. */
  readonly json: unknown;
}

/** How what is kept is scrubbed: the redactor's text scrubbing, and how many secrets it knew (SecretBook.generation). */
export interface Scrubbing {
  readonly text: (value: string) => string;
  readonly generation: number;
}

export interface RecordSummary {
  readonly files: readonly string[];
  readonly records: number;
  /** Bytes written, over every file. */
  readonly bytes: number;
  /** Records met past a bound: not kept. */
  readonly dropped: number;
  /** Which records were dropped and why, one line per collection and bound. */
  readonly droppedWhy: readonly string[];
  /** Why `petstore-kit mock --fixtures DIR` would refuse the files as they are (a pet whose category the session never read), if it would. */
  readonly problem?: string;
}

/** A record as kept: its scrubbed JSON text, what it costs its file, and how many secrets it was scrubbed of. */
interface KeptRecord {
  readonly line: string;
  readonly bytes: number;
  readonly generation: number;
}

type Bound = 'file' | 'memory' | 'count' | 'depth';
const BOUND_WORDS: Readonly<Record<Bound, string>> = {
  file: `its file would pass ${mib(MAX_COLLECTION_BYTES)}, what the mock reads as one fixtures file`,
  memory: `the recording would pass ${mib(MAX_RECORDED_BYTES)} over every collection`,
  count: `the recording would pass ${MAX_RECORDED.toLocaleString('en')} records`,
  depth: `the record nests deeper than the ${MAX_RECORD_DEPTH} levels the mock reads`,
};

export class FixtureRecorder {
  private readonly map: ResourceMap;
  /** Resource key → scope ('' or parent ids joined by '/') → id → record. */
  private readonly data = new Map<string, Map<string, Map<string, KeptRecord>>>();
  /** Resource key → the bytes its file would take. */
  private readonly fileBytes = new Map<string, number>();
  private kept = 0;
  private keptBytes = 0;
  /** Collection name → bound → records dropped. */
  private readonly drops = new Map<string, Map<Bound, number>>();

  constructor(contract: Contract) {
    this.map = inferResources(contract);
  }

  /** Takes what one answer says about the records of its collection, scrubbed by `scrub` (the exchange's redactor). */
  observe(answer: RecordedAnswer, scrub: Scrubbing): void {
    const role = this.map.roles.get(answer.operationId);
    if (!role) return;
    const { resource } = role;
    const scope = resource.scopeParams.map((name) => answer.pathParams[name] ?? '').join('/');
    const pathId = answer.pathParams[resource.idParam];
    const ok = answer.status >= 200 && answer.status < 300;
    switch (role.role) {
      case 'list':
        if (ok) for (const record of listItems(resource, answer.json)) this.put(resource, scope, record, undefined, scrub);
        return;
      case 'read':
        if (ok) for (const record of itemRecords(resource, answer.json)) this.put(resource, scope, record, pathId, scrub);
        else if (answer.status === 404 && pathId !== undefined) this.remove(resource, scope, pathId);
        return;
      case 'create':
      case 'createOrUpdate':
      case 'replace':
      case 'update':
        if (ok) for (const record of itemRecords(resource, answer.json)) this.put(resource, scope, record, role.role === 'replace' || role.role === 'update' ? pathId : undefined, scrub);
        return;
      case 'delete':
        if (ok && pathId !== undefined) this.remove(resource, scope, pathId);
        return;
    }
  }

  get size(): number {
    return this.kept;
  }

  /** The bytes the kept records' text takes: what the recording holds in memory, besides a map entry per record. */
  get bytes(): number {
    return this.keptBytes;
  }

  /** Records dropped so far, and why (one line per collection and bound), for the summary and the report. */
  droppedWhy(): { dropped: number; why: string[] } {
    let dropped = 0;
    const why: string[] = [];
    for (const [name, bounds] of this.drops) {
      for (const [bound, count] of bounds) {
        dropped += count;
        why.push(`${count} record${count === 1 ? '' : 's'} of ${name}: ${BOUND_WORDS[bound]}`);
      }
    }
    return { dropped, why };
  }

  /**
   * Writes one `<collection>.json` per collection met (an empty array for one whose records were all deleted). A
   * record kept before the secrets `scrub` knows were all learnt is scrubbed again; a file stays within the mock's
   * cap whatever that does to its length (a record that would pass it is dropped, and counted).
   */
  async write(dir: string, scrub: Scrubbing): Promise<RecordSummary> {
    const folder = resolve(dir);
    try {
      await mkdir(folder, { recursive: true });
    } catch (error) {
      throw new KitError('REPORT_WRITE_FAILED', `cannot create the --record folder ${folder}: ${(error as Error).message}`, { file: folder });
    }
    const files: string[] = [];
    let records = 0;
    let written = 0;
    for (const resource of this.map.resources) {
      const scopes = this.data.get(resource.key);
      if (!scopes) continue;
      const nested = resource.scopeParams.length > 0;
      let bytes = FILE_FRAME_BYTES;
      // One record a line, as fixtures/seed/ has them: a diff of two recordings shows which records changed.
      const array = (byId: Map<string, KeptRecord>, indent: string): string => {
        const lines: string[] = [];
        for (const record of byId.values()) {
          const line = record.generation < scrub.generation ? scrubbed(record.line, scrub.text) : record.line;
          const cost = Buffer.byteLength(line) + LINE_FRAME_BYTES;
          if (bytes + cost > MAX_COLLECTION_BYTES) {
            this.drop(resource, 'file');
            continue;
          }
          bytes += cost;
          lines.push(`${indent}  ${line}`);
        }
        records += lines.length;
        return lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n${indent}]`;
      };
      const inScope = (scope: string, byId: Map<string, KeptRecord>): string => {
        const key = JSON.stringify(scope);
        bytes += Buffer.byteLength(key) + SCOPE_FRAME_BYTES;
        return `  ${key}: ${array(byId, '  ')}`;
      };
      const text = !nested ? array(scopes.get('') ?? new Map(), '') : `{\n${[...scopes].map(([scope, byId]) => inScope(scope, byId)).join(',\n')}\n}`;
      const file = join(folder, `${resource.name}.json`);
      try {
        await writeFile(file, `${text}\n`);
      } catch (error) {
        throw new KitError('REPORT_WRITE_FAILED', `cannot write ${file}: ${(error as Error).message}`, { file });
      }
      written += Buffer.byteLength(text) + 1;
      files.push(file);
    }
    const { dropped, why } = this.droppedWhy();
    return { files, records, bytes: written, dropped, droppedWhy: why };
  }

  private put(resource: Resource, scope: string, record: Readonly<Record<string, unknown>>, pathId: string | undefined, scrub: Scrubbing): void {
    const field = resource.idField !== undefined ? record[resource.idField] : undefined;
    const id = typeof field === 'string' || typeof field === 'number' || typeof field === 'bigint' ? String(field) : pathId;
    if (id === undefined) return;
    let scopes = this.data.get(resource.key);
    if (!scopes) this.data.set(resource.key, (scopes = new Map()));
    let byId = scopes.get(scope);
    const line = stringifyJson(scrubLeaves(record, scrub.text));
    if (nestedDeeperThan(line, MAX_RECORD_DEPTH)) {
      this.drop(resource, 'depth');
      return;
    }
    const bytes = Buffer.byteLength(line) + LINE_FRAME_BYTES;
    const before = byId?.get(id);
    // A new scope costs its key and brackets in a nested collection's file.
    const scopeBytes = byId === undefined && resource.scopeParams.length > 0 ? Buffer.byteLength(JSON.stringify(scope)) + SCOPE_FRAME_BYTES : 0;
    const fileBytes = this.fileBytes.get(resource.key) ?? FILE_FRAME_BYTES;
    const growth = bytes - (before?.bytes ?? 0) + scopeBytes;
    const bound: Bound | undefined =
      before === undefined && this.kept >= MAX_RECORDED ? 'count' : fileBytes + growth > MAX_COLLECTION_BYTES ? 'file' : this.keptBytes + growth > MAX_RECORDED_BYTES ? 'memory' : undefined;
    if (bound !== undefined) {
      // A refresh that does not fit keeps the version kept before.
      this.drop(resource, bound);
      return;
    }
    if (!byId) scopes.set(scope, (byId = new Map()));
    if (before === undefined) this.kept += 1;
    byId.set(id, { line, bytes, generation: scrub.generation });
    this.fileBytes.set(resource.key, fileBytes + growth);
    this.keptBytes += growth;
  }

  private remove(resource: Resource, scope: string, id: string): void {
    const byId = this.data.get(resource.key)?.get(scope);
    const before = byId?.get(id);
    if (!byId || !before) return;
    byId.delete(id);
    this.kept -= 1;
    this.keptBytes -= before.bytes;
    this.fileBytes.set(resource.key, (this.fileBytes.get(resource.key) ?? FILE_FRAME_BYTES) - before.bytes);
  }

  private drop(resource: Resource, bound: Bound): void {
    let bounds = this.drops.get(resource.name);
    if (!bounds) this.drops.set(resource.name, (bounds = new Map()));
    bounds.set(bound, (bounds.get(bound) ?? 0) + 1);
  }
}

/** Every string of a JSON value scrubbed, object keys included (a target may key a map by a token). */
function scrubLeaves(value: unknown, scrub: (text: string) => string): unknown {
  return mapLeaves(value, (leaf) => (typeof leaf === 'string' ? scrub(leaf) : leaf), scrub);
}

/** A kept record's text scrubbed again, by its values (never as text: a secret of digits would cut into a number). */
function scrubbed(line: string, scrub: (text: string) => string): string {
  return stringifyJson(scrubLeaves(parseJson(line), scrub));
}

function mib(bytes: number): string {
  return `${bytes / 2 ** 20} MiB`;
}

/**
 * Whether the mock would start from these fixtures, asked of the mock's own engine as `petstore-kit mock --fixtures DIR`
 * starts it (for the Pet Store, with its rule file: schemas, ids, references, the state rules). A recording holds what
 * the session happened to read, so a pet may name a category it never read; the message says which, so a person can
 * read it once more, or add it.
 */
export async function fixturesProblem(dir: string, compiled: CompiledContract): Promise<string | undefined> {
  try {
    const { createGenericEngine } = await import('../../mock/engine/engine.js');
    const options = withPetStoreRules({ fixtures: dir }, servesPetStore(compiled.contract));
    createGenericEngine(compiled, { ...(await genericStartup(compiled.contract, { ...options, basePath: '' })), basePath: '' });
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
