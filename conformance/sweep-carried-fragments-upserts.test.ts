/**
 * Three classes of false finding a sweep of published documents showed (2026-11-27: Sonarr, Mistral, Box), each on a
 * small correct server of a constructed document of the same shape, and each with a wrong server that still fails:
 *
 * - C4, a path value carried from one operation to another whose parameter schema differs (Sonarr's
 *   `PUT /api/v3/config/host/{id}` takes a string id, its GET an int32): replace-visible sent the GET the PUT's string
 *   `brief`, and status-documented judged the GET's 400. The value is now one both take (checks/support.ts
 *   madeUpPathValue), and a read no such value exists for is skipped with the reason, never sent (carryRefusal).
 * - C8, path keys with a `#fragment` (Mistral's `/v1/conversations#stream`, Box's `…/schema#add`): a fragment is never
 *   sent (RFC 3986 §3.5), and method-not-allowed-405 judged the key's own methods alone on the path without it. Such a
 *   key is skipped with the reason; the key without the fragment is judged, its Allow with or without the fragment
 *   keys' methods (RFC 9110 §15.5.6: Allow lists the target resource's methods, whichever reading the server takes).
 * - C3, a create that upserts by a client-settable id (Sonarr's `POST /api/v3/tag {"id": 14}`, the id not readOnly,
 *   no refusal documented): create-new-identity failed the server for writing the record the id names, an answer the
 *   document allows. Where a 409 (or any refusal) is documented, that same server still fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

function failures(report: RunReport, checks?: readonly string[]): string[] {
  return report.results.filter((r) => r.verdict === 'failed' && (!checks || checks.includes(r.checkId))).map((r) => `${r.checkId} ${r.operationId ?? ''} ${r.title}: ${r.reason ?? ''}`);
}

function exchanges(report: RunReport): { readonly checkId: string; readonly method: string; readonly url: string; readonly status?: number }[] {
  return report.results.flatMap((r) => (r.evidence ?? []).map((e) => ({ checkId: r.checkId, method: e.request.method, url: e.request.url, ...(e.response ? { status: e.response.status } : {}) })));
}

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };

/** A read and a replace on one path whose `id` parameters differ: the GET's an int32, the PUT's a string (`putPattern` narrows it). */
function carriedDocument(putPattern?: string): string {
  const thing = { type: 'object', required: ['name'], additionalProperties: false, properties: { id: { type: 'integer', format: 'int32', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 40 } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Hosts', version: '1' },
    paths: {
      '/config/host/{id}': {
        get: {
          operationId: 'getHost',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int32' } }],
          responses: { '200': { description: 'the host', content: { 'application/json': { schema: thing } } } },
        },
        put: {
          operationId: 'putHost',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', ...(putPattern ? { pattern: putPattern } : {}) } }],
          requestBody: { required: true, content: { 'application/json': { schema: thing } } },
          responses: { '200': { description: 'replaced', content: { 'application/json': { schema: thing } } }, '400': { description: 'invalid', content: { 'application/json': { schema: ERROR } } } },
        },
      },
    },
  });
}

/**
 * A correct server of carriedDocument: every int32 id names a host (a default one until it is put); a GET of another
 * id is refused with 400, as any server refuses an input its parameter schema rules out. `keeps: false` answers the PUT
 * and stores nothing.
 */
function hostServer(keeps: boolean, putPattern?: RegExp): (req: IncomingMessage, res: ServerResponse) => void {
  const hosts = new Map<string, { name: string }>();
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const item = /^\/config\/host\/([^/]+)$/.exec(url.pathname);
      if (!item) return sendJson(res, 404, { message: 'no such path' });
      const segment = decodeURIComponent(item[1]!);
      const int32 = /^-?(0|[1-9][0-9]{0,9})$/.test(segment) && Math.abs(Number(segment)) <= 2 ** 31 - 1;
      if (req.method === 'GET') {
        if (!int32) return sendJson(res, 400, { message: 'id must be an integer' });
        return sendJson(res, 200, { id: Number(segment), ...(hosts.get(String(Number(segment))) ?? { name: 'default' }) });
      }
      if (req.method === 'PUT') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['name'] : undefined;
        const valid = typeof name === 'string' && [...name].length >= 1 && [...name].length <= 40 && Object.keys(body as object).every((k) => k === 'name');
        if (!valid || (putPattern && !putPattern.test(segment))) return sendJson(res, 400, { message: 'invalid' });
        const key = int32 ? String(Number(segment)) : segment;
        if (keeps) hosts.set(key, { name });
        return sendJson(res, 200, { ...(int32 ? { id: Number(segment) } : {}), name });
      }
      return sendJson(res, 405, { message: 'method not allowed' }, { allow: 'GET, PUT' });
    })();
  };
}

describe('C4: a path value carried from one operation to a sibling whose parameter schema differs', () => {
  const servers: Record<string, DocumentedServer> = {};
  beforeAll(async () => {
    servers['keeps'] = await serveDocumented('hosts.json', carriedDocument(), hostServer(true));
    servers['loses'] = await serveDocumented('hosts.json', carriedDocument(), hostServer(false));
    servers['apart'] = await serveDocumented('hosts.json', carriedDocument('^[a-z]+$'), hostServer(true, /^[a-z]+$/));
  });
  afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

  it('is a value both take: the replace is read back through the GET, and no GET is sent a value its schema refuses', async () => {
    const server = servers['keeps']!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5, only: ['replace-visible', 'negative-body', 'status-documented'] });
    expect(failures(report)).toEqual([]);
    expect(report.results.find((r) => r.checkId === 'replace-visible' && r.operationId === 'putHost')?.verdict).toBe('passed');
    const gets = exchanges(report).filter((e) => e.method === 'GET');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.filter((e) => e.status !== 200)).toEqual([]);
  }, 60_000);

  it('a server that answers the replace and keeps nothing still fails replace-visible', async () => {
    const server = servers['loses']!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5, only: ['replace-visible'] });
    expect(report.results.find((r) => r.checkId === 'replace-visible' && r.operationId === 'putHost')?.verdict).toBe('failed');
  }, 60_000);

  it('where no value is valid for both, the read is skipped with the reason, never sent', async () => {
    const server = servers['apart']!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5, only: ['replace-visible', 'negative-body', 'status-documented'] });
    expect(failures(report)).toEqual([]);
    const replace = report.results.find((r) => r.checkId === 'replace-visible' && r.operationId === 'putHost');
    expect(replace?.verdict).toBe('skipped');
    expect(replace?.reason).toMatch(/not valid for getHost's own id schema/);
    expect(exchanges(report).filter((e) => e.method === 'GET' && e.status !== 200)).toEqual([]);
  }, 60_000);
});

/** Keys that differ only by a `#fragment`: one path on the wire each (Mistral's streaming variants, Box's `#add`, Mistral's connectors). */
const FRAGMENTS = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Fragments', version: '1' },
  paths: {
    '/conversations': {
      get: { operationId: 'listConversations', responses: { '200': { description: 'the list', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } } } },
      post: { operationId: 'startConversation', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'started', content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
    '/conversations#stream': {
      post: { operationId: 'startConversationStream', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'a stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } } },
    },
    '/schema': { get: { operationId: 'getSchema', responses: { '200': { description: 'the schema', content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/schema#add': { put: { operationId: 'addToSchema', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'added', content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/schema#update': { put: { operationId: 'updateSchema', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'updated', content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/connectors/{connector_id_or_name}#idOrName': {
      get: { operationId: 'getConnector', parameters: [{ name: 'connector_id_or_name', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'one', content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
    '/connectors/{connector_id}#id': {
      patch: { operationId: 'updateConnector', parameters: [{ name: 'connector_id', in: 'path', required: true, schema: { type: 'string' } }], requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'updated', content: { 'application/json': { schema: { type: 'object' } } } } } },
      delete: { operationId: 'deleteConnector', parameters: [{ name: 'connector_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'deleted' } } },
    },
  },
});

/**
 * How a server reads the fragment keys: `wire` serves their operations on the path without the fragment (its Allow
 * lists every method there), `literal` routes only the keys without one (a fragment key names no path it can
 * receive). `wrong` is `wire` with an Allow that leaves out a method it serves.
 */
function fragmentServer(reading: 'wire' | 'literal' | 'wrong'): (req: IncomingMessage, res: ServerResponse) => void {
  const routes: [RegExp, string[]][] = [
    [/^\/conversations$/, ['GET', 'POST']],
    [/^\/schema$/, reading === 'literal' ? ['GET'] : ['GET', 'PUT']],
    ...(reading === 'literal' ? [] : [[/^\/connectors\/[^/]+$/, ['GET', 'PATCH', 'DELETE']] as [RegExp, string[]]]),
  ];
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = routes.find(([pattern]) => pattern.test(url.pathname));
      if (!route) return sendJson(res, 404, { message: 'no such path' });
      const [, methods] = route;
      if (!methods.includes(req.method ?? '')) return sendJson(res, 405, { message: 'method not allowed' }, { allow: (reading === 'wrong' ? methods.slice(0, 1) : methods).join(', ') });
      if (req.method === 'DELETE') return void res.writeHead(204).end();
      if (req.method !== 'GET') await readJsonBody(req);
      return sendJson(res, 200, url.pathname === '/conversations' && req.method === 'GET' ? [] : {});
    })();
  };
}

describe('C8: path keys that differ only by a #fragment are one path on the wire', () => {
  const servers: Record<string, DocumentedServer> = {};
  beforeAll(async () => {
    for (const reading of ['wire', 'literal', 'wrong'] as const) servers[reading] = await serveDocumented('fragments.json', FRAGMENTS, fragmentServer(reading));
  });
  afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

  for (const reading of ['wire', 'literal'] as const) {
    it(`a server that ${reading === 'wire' ? 'serves the fragment keys on the path without the fragment' : 'routes only the keys without a fragment'} gets no 405 finding, and no '#' is sent`, async () => {
      const server = servers[reading]!;
      const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 3, only: ['method-not-allowed-405', 'other-methods'] });
      expect(failures(report)).toEqual([]);
      const cases = report.results.filter((r) => r.checkId === 'method-not-allowed-405');
      // The keys without a fragment were judged; the fragment keys skipped, saying why.
      expect(cases.filter((r) => r.verdict === 'passed').map((r) => r.title).sort()).toEqual(['PATCH /conversations (documented: GET, POST)', 'PATCH /schema (documented: GET)']);
      for (const key of ['/conversations#stream', '/schema#add', '/schema#update', '/connectors/{connector_id_or_name}#idOrName', '/connectors/{connector_id}#id']) {
        const skipped = cases.find((r) => r.title.startsWith(`${key} (`));
        expect(skipped?.verdict, key).toBe('skipped');
        expect(skipped?.reason, key).toMatch(/a fragment is never part of a request \(RFC 3986 §3\.5\)/);
      }
      const sent = exchanges(report).filter((e) => e.status !== undefined);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((e) => e.url.includes('#'))).toEqual([]);
    }, 60_000);
  }

  it('an Allow that leaves out a method the path serves still fails', async () => {
    const server = servers['wrong']!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 3, only: ['method-not-allowed-405'] });
    expect(failures(report)).toEqual([expect.stringContaining('PATCH /conversations (documented: GET, POST): Allow lists GET')]);
  }, 60_000);
});

/** A create whose body may carry the record's id (not readOnly), with `refusal` its only documented 4xx (none: Sonarr's tags). */
function tagDocument(refusal?: '409' | '422'): string {
  const tag = { type: 'object', required: ['label'], properties: { id: { type: 'integer', format: 'int32' }, label: { type: 'string', minLength: 1, maxLength: 60 } } };
  const ok = { description: 'the tag', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Tags', version: '1' },
    paths: {
      '/tags': {
        post: {
          operationId: 'createTag',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } },
          responses: { '200': ok, ...(refusal ? { [refusal]: { description: 'the id is taken, or the body invalid', content: { 'application/json': { schema: ERROR } } } } : {}) },
        },
      },
      '/tags/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int32' } }],
        get: { operationId: 'getTag', responses: { '200': ok } },
        delete: { operationId: 'deleteTag', responses: { '200': { description: 'deleted' } } },
      },
    },
    components: { schemas: { Tag: tag } },
  });
}

/**
 * A server of tagDocument that writes the record an id sent names (an upsert: a new record where the id is free, the
 * one it names replaced where it is taken). `stale` answers that replacement and keeps the old record.
 */
function upsertServer(stale = false): (req: IncomingMessage, res: ServerResponse) => void {
  const tags = new Map<number, { id: number; label: string }>();
  let next = 1;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/tags' && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
        const id = record?.['id'];
        const label = record?.['label'];
        if (!record || typeof label !== 'string' || [...label].length < 1 || [...label].length > 60 || (id !== undefined && !(Number.isInteger(id) && Math.abs(id as number) <= 2 ** 31 - 1))) return sendJson(res, 400, { message: 'invalid' });
        const tag = { id: typeof id === 'number' ? id : next++, label };
        if (!(stale && tags.has(tag.id))) tags.set(tag.id, tag);
        return sendJson(res, 200, tag);
      }
      const item = /^\/tags\/([^/]+)$/.exec(url.pathname);
      if (item) {
        if (!/^-?[0-9]{1,10}$/.test(item[1]!)) return sendJson(res, 400, { message: 'id must be an integer' });
        const tag = tags.get(Number(item[1]));
        if (req.method === 'GET') return tag ? sendJson(res, 200, tag) : sendJson(res, 404, { message: 'none' });
        if (req.method === 'DELETE') {
          if (!tag) return sendJson(res, 404, { message: 'none' });
          tags.delete(tag.id);
          return void res.writeHead(200).end();
        }
        return sendJson(res, 405, { message: 'method not allowed' }, { allow: 'GET, DELETE' });
      }
      if (url.pathname === '/tags') return sendJson(res, 405, { message: 'method not allowed' }, { allow: 'POST' });
      return sendJson(res, 404, { message: 'no such path' });
    })();
  };
}

describe('C3: a create that writes the record a client-settable id names', () => {
  const servers: Record<string, DocumentedServer> = {};
  beforeAll(async () => {
    servers['silent'] = await serveDocumented('tags.json', tagDocument(), upsertServer());
    servers['stale'] = await serveDocumented('tags.json', tagDocument(), upsertServer(true));
    servers['409'] = await serveDocumented('tags.json', tagDocument('409'), upsertServer());
    servers['422'] = await serveDocumented('tags.json', tagDocument('422'), upsertServer());
  });
  afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

  const identity = async (name: string): Promise<RunReport['results'][number] | undefined> => {
    const server = servers[name]!;
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 7, only: ['create-new-identity'] });
    return report.results.find((r) => r.checkId === 'create-new-identity' && r.operationId === 'createTag');
  };

  it('passes where the create documents no refusal: writing the record the id names is an answer the document allows', async () => {
    const result = await identity('silent');
    expect(result?.verdict, result?.reason).toBe('passed');
    // The second create was sent the first's id, and the record was read back after it.
    const posts = (result?.evidence ?? []).filter((e) => e.request.method === 'POST');
    expect(posts.some((e) => /"id":/.test(e.request.body ?? ''))).toBe(true);
    expect((result?.evidence ?? []).some((e) => e.request.method === 'GET')).toBe(true);
  }, 60_000);

  it('fails there a server that answers the write and keeps the old record', async () => {
    const result = await identity('stale');
    expect(result?.verdict).toBe('failed');
    expect(result?.reason).toMatch(/after a create that named it/);
  }, 60_000);

  for (const refusal of ['409', '422']) {
    it(`fails the same server where the create documents a ${refusal}: overwriting the record is then wrong`, async () => {
      const result = await identity(refusal);
      expect(result?.verdict).toBe('failed');
      expect(result?.reason).toMatch(/a create took the id the client sent/);
    }, 60_000);
  }
});

describe('a required path parameter the path has no place for (Sonarr\'s GET / declares `path`)', () => {
  const DOCUMENT = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Static', version: '1' },
    paths: {
      '/': { get: { operationId: 'getRoot', parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'OK' } } } },
    },
  });
  let server: DocumentedServer;
  // A server that holds to the document: no request can carry `path`, so it refuses every one.
  beforeAll(async () => {
    server = await serveDocumented('static.json', DOCUMENT, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/') return sendJson(res, 404, { message: 'no such path' });
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { message: 'method not allowed' }, { allow: 'GET' });
      return sendJson(res, 400, { message: 'path is required' });
    });
  });
  afterAll(() => server.close());

  it('its refusal is not a status-documented failure: the document is what no request can satisfy', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 1, only: ['head-like-get', 'status-documented'] });
    expect(exchanges(report).some((e) => e.method === 'GET' && e.status === 400)).toBe(true);
    expect(failures(report, ['status-documented'])).toEqual([]);
  }, 60_000);
});
