/**
 * Records created in a nested collection (`POST /lists/{tasklist}/tasks`, Google Tasks' shape; unseen before, found
 * by a helper's sweep of APIs-guru's directory) in a document without links. The runner inferred links only for a
 * create with no path parameter: every operation on `/lists/{tasklist}/tasks/{task}` was sent a made-up task, answered
 * 404 by a correct server, and skipped (180 requests on Google Tasks). Now the create is linked to its item path, the
 * links name the parent as the create's request did (`$request.path.tasklist`), the run makes the parent first, and an
 * operation's path names the deepest record first and then the parents that record was made in, never a parent made
 * apart from it.
 *
 * The documents are built from a chain of collection names, a parameter style and an id field (by construction, not
 * a hand-picked API): two and three levels, `{list}` or `{listId}`, `id` or `listId` in the record, the top collection
 * under its children's prefix or elsewhere. For each, against the generic mock: no check fails (a parent served under
 * another prefix, as Google Tasks' lists are, included: the mock now ties the children to it, mock/engine/infer.ts
 * parentOf); the record checks judge the deepest kind's records (read back, patched, deleted, listed in their parent: each
 * was skipped on a made-up id before); and every request to a created record's item path names the parents it was created under.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { Exchange, RunReport } from './model.js';
import { runConformance } from './runner.js';

interface Shape {
  readonly chain: readonly string[];
  readonly parameter: 'bare' | 'id-suffix';
  readonly idField: 'id' | 'named';
  /** The top collection served elsewhere than its children's prefix (Google Tasks: `/users/@me/lists/{tasklist}` beside `/lists/{tasklist}/tasks`). */
  readonly topElsewhere?: boolean;
}

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
const singular = (name: string): string => name.replace(/s$/, '');

/** A document of nested collections `/a`, `/a/{a}/b`, `/a/{a}/b/{b}/c`: list, create, read, update, delete at each level. */
function nestedDocument(shape: Shape): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { Error: ERROR };
  let prefix = '';
  let parents: unknown[] = [];
  for (const name of shape.chain) {
    const one = singular(name);
    const parameter = shape.parameter === 'bare' ? one : `${one}Id`;
    const idField = shape.idField === 'id' ? 'id' : `${one}Id`;
    const input = { type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string', minLength: 1, maxLength: 40 }, done: { type: 'boolean' } } };
    const record = { type: 'object', required: [idField, 'title'], properties: { [idField]: { type: 'string', readOnly: true }, title: { type: 'string' }, done: { type: 'boolean' } } };
    const Name = one[0]!.toUpperCase() + one.slice(1);
    schemas[`New${Name}`] = input;
    schemas[Name] = record;
    const ref = (schemaName: string): unknown => ({ $ref: `#/components/schemas/${schemaName}` });
    const error = (description: string): unknown => ({ description, content: json(ref('Error')) });
    const top = parents.length === 0 && shape.topElsewhere === true;
    const collection = `${top ? '/users/me' : prefix}/${name}`;
    const item = `${collection}/{${parameter}}`;
    const own = { name: parameter, in: 'path', required: true, schema: { type: 'string' } };
    paths[collection] = {
      ...(parents.length > 0 ? { parameters: parents } : {}),
      get: { operationId: `list${Name}s`, responses: { '200': { description: 'the records', content: json({ type: 'array', items: ref(Name) }) }, ...(parents.length > 0 ? { '404': error('no such parent') } : {}) } },
      post: { operationId: `create${Name}`, requestBody: { required: true, content: json(ref(`New${Name}`)) }, responses: { '201': { description: 'made', content: json(ref(Name)) }, '400': error('bad input'), ...(parents.length > 0 ? { '404': error('no such parent') } : {}) } },
    };
    paths[item] = {
      parameters: [...parents, own],
      get: { operationId: `get${Name}`, responses: { '200': { description: 'the record', content: json(ref(Name)) }, '404': error('no such record') } },
      patch: { operationId: `update${Name}`, requestBody: { required: true, content: json({ ...input, required: [] }) }, responses: { '200': { description: 'updated', content: json(ref(Name)) }, '400': error('bad input'), '404': error('no such record') } },
      delete: { operationId: `delete${Name}`, responses: { '204': { description: 'gone' }, '404': error('no such record') } },
    };
    prefix = top ? `/${name}/{${parameter}}` : item;
    parents = [...parents, own];
  }
  return { openapi: '3.0.3', info: { title: `Nested ${shape.chain.join('/')}`, version: '1' }, paths, components: { schemas } };
}

const SHAPES: readonly Shape[] = [
  { chain: ['lists', 'tasks'], parameter: 'bare', idField: 'id' },
  { chain: ['lists', 'tasks'], parameter: 'id-suffix', idField: 'named' },
  { chain: ['orgs', 'projects', 'issues'], parameter: 'id-suffix', idField: 'id' },
  { chain: ['boards', 'columns', 'cards'], parameter: 'bare', idField: 'named' },
  { chain: ['lists', 'tasks'], parameter: 'bare', idField: 'id', topElsewhere: true },
];

/** Every exchange of the run, once (a check's evidence may repeat another's). */
function exchangesOf(report: RunReport): Exchange[] {
  const seen = new Set<Exchange>();
  for (const result of report.results) for (const exchange of result.evidence) seen.add(exchange);
  return [...seen];
}

describe.each(SHAPES.map((shape) => [`${shape.topElsewhere ? '(top elsewhere) ' : ''}${shape.chain.join('/')}`, shape] as const))('nested collections %s, in a document without links', (_name, shape) => {
  let served: DocumentMock;
  let report: RunReport;
  const document = nestedDocument(shape);
  const deepest = singular(shape.chain.at(-1)!);
  const Deepest = deepest[0]!.toUpperCase() + deepest.slice(1);
  beforeAll(async () => {
    served = await startDocumentMock(document);
    report = await runConformance({ baseUrl: `${served.mock.url}${served.mock.app.basePath}`, specPath: served.file, seed: 3 });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('no check fails, and the run leaves nothing behind', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    expect(report.cleanup.leftBehind).toEqual([]);
  });

  it('the record checks judge the deepest records: read back, patched, deleted (each skipped on a made-up id before)', () => {
    const itemPath = new RegExp(`/${shape.chain.at(-1)}/[^/?]+$`);
    const read = exchangesOf(report).some((e) => e.request.method === 'GET' && itemPath.test(new URL(e.request.url).pathname) && e.response?.status === 200);
    expect(read, `a GET of a ${Deepest} answered 200`).toBe(true);
    const verdicts = (checkId: string, operationId: string): string[] => report.results.filter((r) => r.checkId === checkId && r.operationId === operationId).map((r) => r.verdict);
    expect(verdicts('create-read-back', `create${Deepest}`)).toContain('passed');
    expect(verdicts('patch-keeps-fields', `update${Deepest}`)).toContain('passed');
    expect(verdicts('delete-removes', `delete${Deepest}`)).toContain('passed');
    // The collection lists what was created in it, read in the parent the records were created in.
    expect(verdicts('list-contains-created', `list${Deepest}s`)).toContain('passed');
  });

  it.runIf(shape.topElsewhere === true)('the mock ties the children to a parent served under another prefix: an absent list has no tasks (404)', async () => {
    const list = await served.client.send('POST', '/users/me/lists', { json: { title: 'groceries' } });
    expect(list.status).toBe(201);
    const id = (list.body as { id: string }).id;
    expect((await served.client.send('POST', `/lists/${id}/tasks`, { json: { title: 'milk' } })).status).toBe(201);
    expect((await served.client.send('GET', `/lists/${id}/tasks`)).status).toBe(200);
    expect((await served.client.send('GET', '/lists/no-such-list/tasks', { plainNotFound: true })).status).toBe(404);
  });

  it('a created record is always named under the parents it was created in', () => {
    const collection = new RegExp(`^(.*)/${shape.chain.at(-1)}$`);
    const createdUnder = new Map<string, string>();
    const exchanges = exchangesOf(report);
    for (const e of exchanges) {
      const path = new URL(e.request.url).pathname;
      const match = collection.exec(path);
      if (e.request.method !== 'POST' || !match || e.response?.status !== 201) continue;
      const body = JSON.parse(e.response.bodyExcerpt) as Record<string, unknown>;
      const id = body['id'] ?? body[`${deepest}Id`];
      if (typeof id === 'string') createdUnder.set(id, match[1]!);
    }
    expect(createdUnder.size).toBeGreaterThan(0);
    const item = new RegExp(`^(.*)/${shape.chain.at(-1)}/([^/]+)$`);
    const misplaced: string[] = [];
    for (const e of exchanges) {
      const path = new URL(e.request.url).pathname;
      const match = item.exec(path);
      const parent = match ? createdUnder.get(decodeURIComponent(match[2]!)) : undefined;
      if (match && parent !== undefined && parent !== match[1]) misplaced.push(`${e.request.method} ${path} (created under ${parent})`);
    }
    expect(misplaced).toEqual([]);
  });
});
