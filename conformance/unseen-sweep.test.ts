/**
 * What a sweep over published documents no test was written for showed of the runner (2026-11-27: Mastodon, Ory
 * Hydra, Typesense, Discord, OpenAI), each as a class on a small correct server of a constructed document:
 *
 * - a record schema that holds itself (Mastodon's `Account.moved: oneOf [Account, null]`, dereferenced into a cycle):
 *   comparing two such schemas by their JSON text threw "Converting circular structure to JSON" inside every check
 *   that created a record (links.ts sameSchema);
 * - a required query parameter that is an object of optional members, `form` and exploded (Typesense's
 *   `searchParameters`): the runner sent it empty, which goes on the wire as nothing, and the server read it as
 *   missing (requests/parameters.ts);
 * - a creation time in the create body that the document does not mark readOnly (Ory Hydra's `created_at`): the
 *   server answers the time it stored the record (compare.ts serverOwned);
 * - a read that wraps the record in one member while the PUT sends it bare (Typesense's stopwords: `{stopwords: [...]}`
 *   put, `{stopwords: {id, stopwords}}` read): replace-visible compared the list with the wrapper;
 * - a record the run replaced with values that cannot carry its tag (a pattern): the clean-up disowned it and left it
 *   behind (cleanup.ts `rewritten`);
 * - a GET on the collection path that answers one record (Mastodon's `GET /filters`, "List of V1::Filter" with a
 *   V1Filter schema): its one array, of strings, was searched for the created records (links.ts mayListRecords).
 *
 * Against the correct server the runner reports no failure; against one that loses what it was sent, it does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { buildLinkModel } from './links.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Accounts, version: 1.0.0 }
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewAccount' } } } }
      responses:
        # The create answers a little more than its read (a receipt): the runner compares the two schemas.
        '201': { description: created, content: { application/json: { schema: { allOf: [ { $ref: '#/components/schemas/Account' }, { type: object, properties: { receipt: { type: string } } } ] } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /accounts/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string, pattern: '^[0-9]+$' } } ]
    get:
      operationId: getAccount
      responses:
        '200': { description: the account, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /search:
    get:
      operationId: search
      parameters:
        - name: searchParameters
          in: query
          required: true
          style: form
          explode: true
          schema: { $ref: '#/components/schemas/SearchParameters' }
      responses:
        '200': { description: hits, content: { application/json: { schema: { type: object, required: [hits], properties: { hits: { type: integer } } } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /stopwords/{setId}:
    parameters: [ { name: setId, in: path, required: true, example: english, schema: { type: string, pattern: '^[a-z0-9-]{1,40}$' } } ]
    put:
      operationId: upsertStopwords
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StopwordsUpsert' } } } }
      responses:
        '200': { description: stored, content: { application/json: { schema: { $ref: '#/components/schemas/Stopwords' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    get:
      operationId: getStopwords
      responses:
        # The read wraps the set in one member, under the same name as the list it holds.
        '200': { description: the set, content: { application/json: { schema: { type: object, required: [stopwords], properties: { stopwords: { $ref: '#/components/schemas/Stopwords' } } } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /models:
    post:
      operationId: createModel
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewModel' } } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Model' } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /models/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string, pattern: '^[0-9]+$' } } ]
    get:
      operationId: getModel
      responses:
        '200': { description: the model, content: { application/json: { schema: { $ref: '#/components/schemas/Model' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    put:
      operationId: replaceModel
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/ModelReplacement' } } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Model' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    delete:
      operationId: deleteModel
      responses:
        '204': { description: deleted }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    StopwordsUpsert:
      type: object
      required: [stopwords]
      additionalProperties: false
      properties:
        stopwords: { type: array, minItems: 1, maxItems: 5, items: { type: string, pattern: '^[a-z]{1,12}$' } }
    Stopwords:
      type: object
      required: [id, stopwords]
      properties:
        id: { type: string }
        stopwords: { type: array, items: { type: string } }
    NewModel:
      type: object
      required: [name]
      additionalProperties: false
      properties: { name: { type: string, minLength: 1, maxLength: 60 } }
    # A replacement holds no free text: nothing in it can carry the run's tag.
    ModelReplacement:
      type: object
      required: [name]
      additionalProperties: false
      properties: { name: { type: string, pattern: '^[a-z]{3,8}$' } }
    Model:
      type: object
      required: [id, name]
      properties: { id: { type: string }, name: { type: string } }
    NewAccount:
      type: object
      required: [username]
      properties:
        username: { type: string, minLength: 1, maxLength: 60 }
        created_at: { type: string, format: date-time }
    Account:
      type: object
      required: [id, username, created_at]
      properties:
        id: { type: string }
        username: { type: string }
        created_at: { type: string, format: date-time }
        moved:
          oneOf:
            - $ref: '#/components/schemas/Account'
            - { type: string, enum: [none] }
    SearchParameters:
      type: object
      properties:
        q: { type: string, minLength: 1, maxLength: 20 }
        page: { type: integer, minimum: 1, maximum: 10 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;

/** `keeps`: the server stores what it was sent; `loses`: it answers the create, then reads a name it was not sent. */
function accountServer(mode: 'keeps' | 'loses'): (req: IncomingMessage, res: ServerResponse) => void {
  const accounts = new Map<string, Record<string, unknown>>();
  // A set the server holds before the run (a PUT that only replaces needs something at its path).
  const sets = new Map<string, { id: string; stopwords: unknown[] }>([['english', { id: 'english', stopwords: ['the', 'a'] }]]);
  const models = new Map<string, { id: string; name: string }>();
  let next = 1;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/accounts' && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const username = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['username'] : undefined;
        const createdAt = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['created_at'] : undefined;
        const validTime = createdAt === undefined || (typeof createdAt === 'string' && isDateTime(createdAt));
        if (typeof body !== 'object' || body === null || Array.isArray(body) || typeof username !== 'string' || username.length === 0 || username.length > 60 || !validTime) return sendJson(res, 400, { message: 'invalid' });
        const id = String(next++);
        // The server's own time, whatever the client said.
        const account = { id, username, created_at: new Date(Date.UTC(2026, 10, 27, 19, 0, next)).toISOString(), moved: 'none' };
        accounts.set(id, mode === 'keeps' ? account : { ...account, username: 'someone else' });
        return sendJson(res, 201, account);
      }
      const item = /^\/accounts\/([^/]+)$/.exec(url.pathname);
      if (item && req.method === 'GET') {
        const account = accounts.get(decodeURIComponent(item[1]!));
        return account ? sendJson(res, 200, account) : sendJson(res, 404, { message: 'none' });
      }
      if (url.pathname === '/search' && req.method === 'GET') {
        // Exploded form: the object's members are the query's pairs; none of them means the parameter is missing.
        const q = url.searchParams.get('q');
        const page = url.searchParams.get('page');
        if (q === null && page === null) return sendJson(res, 400, { message: 'searchParameters is required' });
        if (q !== null && (q.length < 1 || q.length > 20)) return sendJson(res, 400, { message: 'q is invalid' });
        if (page !== null && !/^([1-9]|10)$/.test(page)) return sendJson(res, 400, { message: 'page is invalid' });
        return sendJson(res, 200, { hits: 0 });
      }
      const allowed = url.pathname === '/accounts' ? 'POST' : item ? 'GET' : url.pathname === '/search' ? 'GET' : undefined;
      if (allowed) return sendJson(res, 405, { message: 'method not allowed' }, { allow: allowed });
      const stopwords = /^\/stopwords\/([a-z0-9-]{1,40})$/.exec(url.pathname);
      if (stopwords && req.method === 'PUT') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const words = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['stopwords'] : undefined;
        const valid = Array.isArray(words) && words.length >= 1 && words.length <= 5 && words.every((w) => typeof w === 'string' && /^[a-z]{1,12}$/.test(w)) && Object.keys(body as object).length === 1;
        if (!valid) return sendJson(res, 400, { message: 'invalid' });
        const set = { id: stopwords[1]!, stopwords: words };
        sets.set(set.id, set);
        return sendJson(res, 200, set);
      }
      if (stopwords && req.method === 'GET') {
        const set = sets.get(stopwords[1]!);
        return set ? sendJson(res, 200, { stopwords: set }) : sendJson(res, 404, { message: 'none' });
      }
      if (url.pathname === '/models' && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['name'] : undefined;
        if (typeof name !== 'string' || [...name].length === 0 || [...name].length > 60 || Object.keys(body as object).length !== 1) return sendJson(res, 400, { message: 'invalid' });
        const model = { id: String(next++), name };
        models.set(model.id, model);
        return sendJson(res, 201, model);
      }
      const model = /^\/models\/([^/]+)$/.exec(url.pathname);
      if (model) {
        const found = models.get(decodeURIComponent(model[1]!));
        if (req.method === 'GET') return found ? sendJson(res, 200, found) : sendJson(res, 404, { message: 'none' });
        if (req.method === 'DELETE') {
          if (!found) return sendJson(res, 404, { message: 'none' });
          models.delete(found.id);
          res.writeHead(204).end();
          return;
        }
        if (req.method === 'PUT') {
          const body = sentJson(req) ? await readJsonBody(req) : undefined;
          const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['name'] : undefined;
          if (typeof name !== 'string' || !/^[a-z]{3,8}$/.test(name) || Object.keys(body as object).length !== 1) return sendJson(res, 400, { message: 'invalid' });
          if (!found) return sendJson(res, 404, { message: 'none' });
          found.name = name;
          return sendJson(res, 200, found);
        }
      }
      const others = stopwords ? 'GET, PUT' : url.pathname === '/models' ? 'POST' : model ? 'GET, PUT, DELETE' : undefined;
      if (others) return sendJson(res, 405, { message: 'method not allowed' }, { allow: others });
      return sendJson(res, 404, { message: 'no such path' });
    })();
  };
}

/** RFC 3339 §5.6, its calendar included (a 13th month or a 30 February is refused). */
function isDateTime(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i.exec(text);
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetOk = parts[9] === undefined || (Number(parts[9]) < 24 && Number(parts[10]) < 60);
  return month >= 1 && month <= 12 && day >= 1 && day <= days && hour < 24 && minute < 60 && second < 61 && offsetOk;
}

/** What a keyed collection server takes: its path, its statuses, the records it holds before the run, its rule for a valid create. */
interface Keyed {
  readonly collection: string;
  readonly created: number;
  /** The status of an invalid create, and of a taken key unless `taken` says another. */
  readonly refused: number;
  readonly taken?: number;
  readonly seeded?: readonly (readonly [string, Record<string, unknown>])[];
  /** The key and the record to keep for a valid body (`next` draws the server's own key), or undefined for an invalid one. */
  readonly accept: (record: Record<string, unknown>, next: () => string) => { readonly key: string; readonly record: Record<string, unknown> } | undefined;
  /** The key an item path's segment names (default: the segment decoded). */
  readonly itemKey?: (segment: string) => string;
  /** A GET on the collection answers its first `page` records, in the order they came (none past it: no paging is documented); `seededOnly` lists none the run created. */
  readonly list?: { readonly page: number; readonly seededOnly?: boolean };
}

/**
 * A correct server of one collection whose records the client names: POST creates (refusing an invalid body and a taken
 * key), GET `{collection}/{key}` reads, any other method there is a 405 with Allow, anything else a 404.
 */
function keyedServer(keyed: Keyed): (req: IncomingMessage, res: ServerResponse) => void {
  const records = new Map<string, Record<string, unknown>>(keyed.seeded ?? []);
  let next = 1;
  const item = new RegExp(`^${keyed.collection.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([^/]+)$`);
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === keyed.collection && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const accepted = typeof body === 'object' && body !== null && !Array.isArray(body) ? keyed.accept(body as Record<string, unknown>, () => String(next++)) : undefined;
        if (!accepted) return sendJson(res, keyed.refused, { message: 'invalid' });
        if (records.has(accepted.key)) return sendJson(res, keyed.taken ?? keyed.refused, { message: `${accepted.key} is taken` });
        records.set(accepted.key, accepted.record);
        return sendJson(res, keyed.created, accepted.record);
      }
      if (url.pathname === keyed.collection && req.method === 'GET' && keyed.list) {
        const listed = [...records.values()].slice(0, keyed.list.seededOnly ? (keyed.seeded?.length ?? 0) : undefined);
        return sendJson(res, 200, listed.slice(0, keyed.list.page));
      }
      const named = item.exec(url.pathname);
      if (named && req.method === 'GET') {
        const segment = decodeURIComponent(named[1]!);
        const record = records.get(keyed.itemKey ? keyed.itemKey(segment) : segment);
        return record ? sendJson(res, 200, record) : sendJson(res, 404, { message: 'none' });
      }
      if (url.pathname === keyed.collection || named) return sendJson(res, 405, { message: 'method not allowed' }, { allow: named ? 'GET' : keyed.list ? 'GET, POST' : 'POST' });
      return sendJson(res, 404, { message: 'no such path' });
    })();
  };
}

function onlyMembers(record: Readonly<Record<string, unknown>>, names: readonly string[]): boolean {
  return Object.keys(record).every((name) => names.includes(name));
}

function failures(report: RunReport): string[] {
  return report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
}

describe('the runner on the classes an unseen-document sweep showed', () => {
  const servers: Partial<Record<'keeps' | 'loses', DocumentedServer>> = {};
  beforeAll(async () => {
    servers.keeps = await serveDocumented('accounts.yaml', DOCUMENT, accountServer('keeps'));
    servers.loses = await serveDocumented('accounts.yaml', DOCUMENT, accountServer('loses'));
  });
  afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

  it('a correct server gets no failure: a self-holding schema, a required object query, a creation time of its own', async () => {
    const server = servers.keeps!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5 });
    expect(failures(report)).toEqual([]);
    // The checks ran: a created record was read back, and the search was sent with a member in it.
    expect(report.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'passed')).toBe(true);
    const searches = report.results.flatMap((r) => r.evidence ?? []).filter((e) => e.request.url.includes('/search'));
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.some((e) => e.response?.status === 200)).toBe(true);
    // The set read back inside its envelope was compared (replace-visible passed on it), and the model the run
    // replaced with values that cannot carry its tag was still deleted as its own.
    expect(report.results.some((r) => r.checkId === 'replace-visible' && r.operationId === 'upsertStopwords' && r.verdict === 'passed')).toBe(true);
    expect(report.results.some((r) => r.checkId === 'replace-visible' && r.operationId === 'replaceModel' && r.verdict === 'passed')).toBe(true);
    expect(report.cleanup?.leftBehind.filter((left) => left.resource.startsWith('createModel'))).toEqual([]);
  }, 120_000);

  it('a server that does not keep what it was sent still fails create-read-back', async () => {
    const server = servers.loses!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5, only: ['create-read-back'] });
    expect(report.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'failed')).toBe(true);
  }, 120_000);
});

describe('a GET on a create\'s path is its list only where its answer can hold records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-unseen-list-'));
  const documentAnswering = (answer: unknown): string =>
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Filters', version: '1' },
      paths: {
        '/filters': {
          post: { operationId: 'createFilter', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Filter' } } } }, responses: { '200': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Filter' } } } } } },
          get: { operationId: 'getFilters', responses: { '200': { description: 'the filters', content: { 'application/json': { schema: answer } } } } },
        },
        '/filters/{id}': { get: { operationId: 'getFilter', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Filter' } } } } } } },
      },
      components: { schemas: { Filter: { type: 'object', properties: { id: { type: 'string', readOnly: true }, phrase: { type: 'string' }, context: { type: 'array', items: { type: 'string' } } } } } },
    });
  const listOf = async (answer: unknown, n: number): Promise<string | undefined> => {
    const file = join(dir, `filters-${n}.json`);
    writeFileSync(file, documentAnswering(answer));
    return buildLinkModel(await loadContract(file)).kinds.get('createFilter')?.list?.operationId;
  };
  const record = { $ref: '#/components/schemas/Filter' };
  // Answers that hold records: an array of them, or an envelope (any member name) around one.
  const holding = fc.oneof(
    fc.constant<unknown>({ type: 'array', items: record }),
    fc.stringMatching(/^[a-z][a-zA-Z]{0,9}$/).map((member): unknown => ({ type: 'object', properties: { [member]: { type: 'array', items: record }, total: { type: 'integer' } } })),
  );
  // Answers that hold one record, or an object whose arrays hold only scalars.
  const single = fc.oneof(
    fc.constant<unknown>(record),
    fc.constantFrom('string', 'integer').map((type): unknown => ({ type: 'object', properties: { tags: { type: 'array', items: { type } }, name: { type: 'string' } } })),
  );

  it('an array or an envelope of records is the list; one record, or arrays of scalars only, is not', async () => {
    let n = 0;
    await fc.assert(fc.asyncProperty(holding, async (answer) => {
        expect(await listOf(answer, (n += 1))).toBe('getFilters');
      }), { numRuns: 12 });
    await fc.assert(fc.asyncProperty(single, async (answer) => {
        expect(await listOf(answer, (n += 1))).toBeUndefined();
      }), { numRuns: 6 });
  });
});

describe('a create whose key the client chooses, refused with the documented 422 when the key is taken', () => {
  const KEYS = `openapi: 3.0.3
info: { title: Keys, version: 1.0.0 }
paths:
  /keys:
    post:
      operationId: createKey
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
        '422': { description: taken or invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /keys/{name}:
    parameters: [ { name: name, in: path, required: true, schema: { type: string, pattern: '^[a-z0-9-]{1,60}$' } } ]
    get:
      operationId: getKey
      responses:
        '200': { description: the key, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Key:
      type: object
      required: [name]
      additionalProperties: false
      properties:
        name: { type: string, pattern: '^[a-z0-9-]{1,60}$', example: signing-key }
        label: { type: string, maxLength: 40 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;
  let server: DocumentedServer;
  beforeAll(async () => {
    // Holds the example's key before the run, as a target seeded from the document's examples does.
    server = await serveDocumented(
      'keys.yaml',
      KEYS,
      keyedServer({
        collection: '/keys',
        created: 201,
        refused: 422,
        seeded: [['signing-key', { name: 'signing-key' }]],
        accept: (record) => {
          const { name, label } = record;
          const valid = typeof name === 'string' && /^[a-z0-9-]{1,60}$/.test(name) && (label === undefined || (typeof label === 'string' && [...label].length <= 40)) && onlyMembers(record, ['name', 'label']);
          return valid ? { key: name, record } : undefined;
        },
      }),
    );
  });
  afterAll(() => server?.close());

  it('is sent with keys of the run\'s own, fresh for each variant: a correct server refuses none of the valid bodies', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 9, only: ['accepts-valid-bodies', 'accepts-json-charset'] });
    const ran = report.results.filter((r) => r.operationId === 'createKey');
    expect(ran.filter((r) => r.verdict === 'passed').length).toBeGreaterThan(2);
    expect(failures(report)).toEqual([]);
    // No valid body went out with the example's key, which the server held before the run.
    const sent = report.results.flatMap((r) => r.evidence ?? []).filter((e) => e.request.method === 'POST').map((e) => String(e.request.body ?? ''));
    expect(sent.filter((body) => body.includes('"signing-key"'))).toEqual([]);
  }, 120_000);
});

describe('an id from a closed list (Firefly\'s configuration names: an enum of four)', () => {
  const SETTINGS = `openapi: 3.0.3
info: { title: Settings, version: 1.0.0 }
paths:
  /settings:
    post:
      operationId: createSetting
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Setting' } } } }
      responses:
        '201': { description: stored, content: { application/json: { schema: { $ref: '#/components/schemas/Setting' } } } }
        '422': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /settings/{name}:
    parameters: [ { name: name, in: path, required: true, schema: { type: string, enum: [theme, locale, currency, timezone] } } ]
    get:
      operationId: getSetting
      responses:
        '200': { description: the setting, content: { application/json: { schema: { $ref: '#/components/schemas/Setting' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Setting:
      type: object
      required: [name, value]
      properties:
        name: { type: string, enum: [theme, locale, currency, timezone] }
        value: { type: string, maxLength: 40 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;
  let server: DocumentedServer;
  beforeAll(async () => {
    // Every listed setting always exists; a create sets its value.
    const settings = new Map(['theme', 'locale', 'currency', 'timezone'].map((name) => [name, { name, value: 'default' }]));
    server = await serveDocumented('settings.yaml', SETTINGS, (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const item = /^\/settings\/([^/]+)$/.exec(url.pathname);
        if (item && req.method === 'GET') {
          const setting = settings.get(decodeURIComponent(item[1]!));
          return setting ? sendJson(res, 200, setting) : sendJson(res, 404, { message: 'none' });
        }
        if (url.pathname === '/settings' && req.method === 'POST') {
          const body = sentJson(req) ? ((await readJsonBody(req)) as Record<string, unknown> | undefined) : undefined;
          const setting = typeof body?.['name'] === 'string' ? settings.get(body['name']) : undefined;
          if (!setting || typeof body?.['value'] !== 'string' || [...body['value']].length > 40) return sendJson(res, 422, { message: 'invalid' });
          setting.value = body['value'];
          return sendJson(res, 201, setting);
        }
        return sendJson(res, url.pathname === '/settings' || item ? 405 : 404, { message: 'no' }, url.pathname === '/settings' || item ? { allow: item ? 'GET' : 'POST' } : {});
      })();
    });
  });
  afterAll(() => server?.close());

  it('is not taken for an absent id: unknown-id-404 skips, saying why, where every listed id may name a record', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 4, only: ['unknown-id-404'] });
    const cases = report.results.filter((r) => r.checkId === 'unknown-id-404' && r.operationId === 'getSetting');
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.map((r) => `${r.verdict}: ${r.reason ?? ''}`)).toEqual(cases.map(() => expect.stringMatching(/^skipped: name takes only listed values/)));
  }, 60_000);
});

describe('a create whose integer key the client may send (Traccar\'s devices: int64 `id`, not readOnly)', () => {
  const DEVICES = `openapi: 3.0.3
info: { title: Devices, version: 1.0.0 }
paths:
  /devices:
    post:
      operationId: postDevices
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
        '400': { description: taken or invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /devices/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: integer, format: int64 } } ]
    get:
      operationId: getDevice
      responses:
        '200': { description: the device, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Device:
      type: object
      additionalProperties: false
      properties:
        id: { type: integer, format: int64 }
        name: { type: string, maxLength: 40 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;
  let server: DocumentedServer;
  beforeAll(async () => {
    server = await serveDocumented(
      'devices.yaml',
      DEVICES,
      keyedServer({
        collection: '/devices',
        created: 200,
        refused: 400,
        accept: (record, next) => {
          const { id, name } = record;
          const valid = (id === undefined || (typeof id === 'number' && Number.isInteger(id))) && (name === undefined || (typeof name === 'string' && [...name].length <= 40)) && onlyMembers(record, ['id', 'name']);
          if (!valid) return undefined;
          const key = id === undefined ? next() : String(id);
          return { key, record: { ...record, id: Number(key) } };
        },
        // `/devices/007` names device 7.
        itemKey: (segment) => (/^-?\d+$/.test(segment) ? String(Number(segment)) : segment),
      }),
    );
  });
  afterAll(() => server?.close());

  // Against Traccar's document the mock refused `POST /devices {"id": 2147483648}` as taken: an earlier variant of the
  // run (a PUT) had made that device. accepts-valid-bodies no longer varies a create's client-chosen key; this server,
  // with no PUT, shows only that the runner finds nothing on such a target.
  it('gets no false finding: the create\'s key is the run\'s own, never an edge value an earlier variant may hold', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 6, only: ['accepts-valid-bodies', 'accepts-json-charset', 'accepts-large-ids', 'create-new-identity', 'create-read-back'] });
    expect(report.results.filter((r) => r.operationId === 'postDevices' && r.verdict === 'passed').length).toBeGreaterThan(2);
    expect(failures(report)).toEqual([]);
  }, 120_000);
});

describe('a client-chosen key of digits whose pattern refuses a leading zero (Discord\'s snowflakes, example "0")', () => {
  const SNOWFLAKES = `openapi: 3.0.3
info: { title: Stages, version: 1.0.0 }
paths:
  /stage-instances:
    post:
      operationId: createStage
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Stage' } } } }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Stage' } } } }
        '409': { description: taken, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /stage-instances/{channel_id}:
    parameters: [ { name: channel_id, in: path, required: true, schema: { type: string, pattern: '^(0|[1-9][0-9]*)$' } } ]
    get:
      operationId: getStage
      responses:
        '200': { description: the stage, content: { application/json: { schema: { $ref: '#/components/schemas/Stage' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Stage:
      type: object
      required: [channel_id, topic]
      additionalProperties: false
      properties:
        channel_id: { type: string, pattern: '^(0|[1-9][0-9]*)$', example: '0' }
        topic: { type: string, maxLength: 120 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;
  let server: DocumentedServer;
  beforeAll(async () => {
    // Seeded from the document's example, as a mock is: channel "0" is taken.
    server = await serveDocumented(
      'stages.yaml',
      SNOWFLAKES,
      keyedServer({
        collection: '/stage-instances',
        created: 200,
        refused: 400,
        taken: 409,
        seeded: [['0', { channel_id: '0', topic: 'seeded' }]],
        accept: (record) => {
          const { channel_id: id, topic } = record;
          const valid = typeof id === 'string' && /^(0|[1-9][0-9]*)$/.test(id) && typeof topic === 'string' && [...topic].length <= 120 && onlyMembers(record, ['channel_id', 'topic']);
          return valid ? { key: id, record } : undefined;
        },
      }),
    );
  });
  afterAll(() => server?.close());

  it('is made the run\'s own in a form the pattern takes: every record created and read back', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 2, only: ['create-read-back'] });
    const cases = report.results.filter((r) => r.checkId === 'create-read-back');
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((r) => r.verdict !== 'passed').map((r) => `${r.verdict}: ${r.reason ?? ''}`)).toEqual([]);
  }, 60_000);
});

describe('a list with no paging parameter that answers a first page of a default size (Lago\'s billing entities)', () => {
  const ENTITIES = `openapi: 3.0.3
info: { title: Entities, version: 1.0.0 }
paths:
  /entities:
    get:
      operationId: listEntities
      responses:
        '200': { description: the entities, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Entity' } } } } }
    post:
      operationId: createEntity
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Entity' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Entity' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /entities/{code}:
    parameters: [ { name: code, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: getEntity
      responses:
        '200': { description: the entity, content: { application/json: { schema: { $ref: '#/components/schemas/Entity' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Entity:
      type: object
      required: [code, name]
      additionalProperties: false
      properties:
        code: { type: string, minLength: 1, maxLength: 60 }
        name: { type: string, maxLength: 60 }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;
  const accept = (record: Record<string, unknown>): { key: string; record: Record<string, unknown> } | undefined => {
    const { code, name } = record;
    const valid = typeof code === 'string' && code.length >= 1 && [...code].length <= 60 && typeof name === 'string' && [...name].length <= 60 && onlyMembers(record, ['code', 'name']);
    return valid ? { key: code, record } : undefined;
  };
  const seeded = (count: number): [string, Record<string, unknown>][] => Array.from({ length: count }, (_, i) => [`seeded-${i}`, { code: `seeded-${i}`, name: `Seeded ${i}` }]);
  const servers: DocumentedServer[] = [];
  const serve = async (keyed: Omit<Keyed, 'collection' | 'created' | 'refused' | 'accept'>): Promise<DocumentedServer> => {
    const server = await serveDocumented('entities.yaml', ENTITIES, keyedServer({ collection: '/entities', created: 201, refused: 400, accept, ...keyed }));
    servers.push(server);
    return server;
  };
  afterAll(() => Promise.all(servers.map((server) => server.close())));
  const listed = async (server: DocumentedServer): Promise<{ verdict: string; reason: string }[]> =>
    (await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 3, only: ['list-contains-created'] })).results.map((r) => ({ verdict: r.verdict, reason: r.reason ?? '' }));

  it('holding more records than its page, the run\'s records past it are not shown missing: the case is skipped, saying why', async () => {
    const results = await listed(await serve({ seeded: seeded(120), list: { page: 100 } }));
    expect(results).toEqual([{ verdict: 'skipped', reason: expect.stringMatching(/first page/) }]);
  }, 60_000);

  it('holding fewer, a list that leaves out what was created still fails', async () => {
    const results = await listed(await serve({ seeded: seeded(3), list: { page: 100, seededOnly: true } }));
    expect(results).toEqual([{ verdict: 'failed', reason: expect.stringMatching(/does not list the created record/) }]);
  }, 60_000);
});

describe('a repeatable query parameter of listed values (Asana\'s opt_fields: an array of an enum, no maxItems)', () => {
  const FIELDS = ['approval_status', 'message', 'requester'];
  const REQUESTS = `openapi: 3.0.3
info: { title: Requests, version: 1.0.0 }
paths:
  /access_requests:
    get:
      operationId: listRequests
      parameters:
        - { name: opt_fields, in: query, required: false, style: form, explode: false, schema: { type: array, items: { type: string, enum: [${FIELDS.join(', ')}] } } }
      responses:
        '200': { description: the requests, content: { application/json: { schema: { type: array, items: { type: object, properties: { gid: { type: string } } } } } } }
        '400': { description: invalid, content: { application/json: { schema: { type: object, required: [message], properties: { message: { type: string } } } } } }
`;
  let server: DocumentedServer;
  beforeAll(async () => {
    server = await serveDocumented('requests.yaml', REQUESTS, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/access_requests') return sendJson(res, 404, { message: 'no such path' });
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { message: 'method not allowed' }, { allow: 'GET, HEAD' });
      const asked = url.searchParams.get('opt_fields');
      if (asked !== null && !asked.split(',').every((field) => FIELDS.includes(field))) return sendJson(res, 400, { message: `unknown field in ${asked}` });
      return sendJson(res, 200, [{ gid: '1' }]);
    });
  });
  afterAll(() => server?.close());

  it('is sent repeated with its listed values, and a correct server takes it', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5, only: ['accepts-valid-queries'] });
    const repeated = report.results.filter((r) => r.checkId === 'accepts-valid-queries' && /opt_fields repeated/.test(r.title));
    expect(repeated.map((r) => `${r.verdict}: ${r.reason ?? ''}`)).toEqual(['passed: ']);
  }, 60_000);
});
