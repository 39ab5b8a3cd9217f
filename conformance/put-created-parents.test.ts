/**
 * Records a PUT makes at a key the client chooses (Qdrant's `PUT /collections/{collection_name}` "Create collection",
 * answering `{result: true}`; an S3 bucket), with no POST that makes them. The runner knew only POST creates, so every
 * operation below such a record (`/collections/{name}/points/search`) was sent a made-up name, refused 404 by a correct
 * server, and skipped: nothing under the collection was ever judged (Qdrant, unseen before: 572 skipped). Now the run
 * makes the parent with a PUT at a key of its own (its run tag in it), sends the nested operation there, and deletes the
 * parent at the end; a PUT to a key the run did not choose is never taken for its own record, so never deleted. A
 * check that sends the PUT itself replaces a record the run made with it (never a made-up key, which may name the
 * target's own record); a record made inside another (Typesense's synonym set items) is read in the parent it was made in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const FLAG = { type: 'object', required: ['result'], properties: { result: { type: 'boolean' }, time: { type: 'number' } } };
const ERROR = { type: 'object', required: ['status'], properties: { status: { type: 'object', properties: { error: { type: 'string' } } } } };
const NAME = { name: 'collection_name', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } };
const COLLECTION = { type: 'object', required: ['vectors'], properties: { vectors: { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1, maximum: 4096 } } } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Vector collections', version: '1.0.0' },
  paths: {
    '/collections/{collection_name}': {
      parameters: [NAME],
      put: { operationId: 'create_collection', summary: 'Create collection', requestBody: { required: true, content: json(COLLECTION) }, responses: { '200': { description: 'made', content: json(FLAG) } } },
      get: { operationId: 'get_collection', responses: { '200': { description: 'its info', content: json({ type: 'object', required: ['result'], properties: { result: { type: 'object' } } }) }, '404': { description: 'none', content: json(ERROR) } } },
      delete: { operationId: 'delete_collection', responses: { '200': { description: 'gone', content: json(FLAG) }, '404': { description: 'none', content: json(ERROR) } } },
    },
    '/collections/{collection_name}/points/search': {
      parameters: [NAME],
      post: {
        operationId: 'search_points',
        requestBody: { required: true, content: json({ type: 'object', required: ['limit'], properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } } }) },
        responses: { '200': { description: 'found', content: json({ type: 'object', required: ['result'], properties: { result: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, score: { type: 'number' } } } } } }) }, '404': { description: 'no such collection', content: json(ERROR) } },
      },
    },
  },
};

describe('records a PUT makes at a key the client chooses, as the parents of nested operations', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 3 });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('sends the nested operation under a collection the run made, and finds nothing', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    const accepted = report.results.filter((r) => r.checkId === 'accepts-valid-bodies' && r.operationId === 'search_points');
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.filter((r) => r.verdict === 'skipped').map((r) => r.reason)).toEqual([]);
    const searches = report.results.filter((r) => r.operationId === 'search_points').flatMap((r) => r.evidence).filter((x) => x.request.method === 'POST' && x.response?.status === 200);
    expect(searches.length).toBeGreaterThan(0);
    // At a key of the run's own: the run tag is in it.
    expect(searches.every((x) => /\/collections\/[^/]*pk[a-z0-9]+[^/]*\/points\/search$/.test(new URL(x.request.url).pathname))).toBe(true);
  });

  it('reads the collection itself at a key the run made: its 200 is judged, not only a 404 to a made-up name', () => {
    const reads = report.results.filter((r) => r.operationId === 'get_collection').flatMap((r) => r.evidence).filter((x) => x.request.method === 'GET' && x.response?.status === 200);
    expect(reads.length).toBeGreaterThan(0);
    expect(report.results.filter((r) => r.checkId === 'accepts-json-accept' && r.operationId === 'get_collection' && r.verdict === 'skipped')).toEqual([]);
  });

  it('deletes every collection it made, and leaves none behind', async () => {
    expect(report.cleanup.deleted).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind).toEqual([]);
    const state = await served.client.send('GET', '/__mock/state');
    const held = JSON.stringify(state.body);
    expect(held).not.toMatch(/pk[a-z0-9]{6,}/);
  });
});

const SET = { name: 'set_name', in: 'path', required: true, schema: { type: 'string' } };
const ITEM = { name: 'item_id', in: 'path', required: true, schema: { type: 'string' } };
const SYNONYMS = { type: 'object', required: ['synonyms'], properties: { synonyms: { type: 'array', items: { type: 'string' }, maxItems: 5 } } };
/** Typesense's synonym sets: a set a PUT makes, and items a PUT makes inside it ("Create or update a synonym set item"). */
const NESTED = {
  openapi: '3.0.3',
  info: { title: 'Synonym sets', version: '1.0.0' },
  paths: {
    '/synonym_sets/{set_name}': {
      parameters: [SET],
      put: { operationId: 'upsertSynonymSet', summary: 'Create or update a synonym set', requestBody: { required: true, content: json({ type: 'object', properties: { items: { type: 'array', maxItems: 0, items: {} } } }) }, responses: { '200': { description: 'kept', content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) } } },
      get: { operationId: 'getSynonymSet', responses: { '200': { description: 'the set', content: json({ type: 'object', properties: { name: { type: 'string' } } }) }, '404': { description: 'none', content: json(ERROR) } } },
      delete: { operationId: 'deleteSynonymSet', responses: { '200': { description: 'gone', content: json({ type: 'object', properties: { name: { type: 'string' } } }) }, '404': { description: 'none', content: json(ERROR) } } },
    },
    '/synonym_sets/{set_name}/items/{item_id}': {
      parameters: [SET, ITEM],
      put: { operationId: 'upsertSynonymSetItem', summary: 'Create or update a synonym set item', requestBody: { required: true, content: json(SYNONYMS) }, responses: { '200': { description: 'kept', content: json({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, synonyms: { type: 'array', items: { type: 'string' } } } }) }, '404': { description: 'no such set', content: json(ERROR) } } },
      get: { operationId: 'getSynonymSetItem', responses: { '200': { description: 'the item', content: json({ type: 'object', properties: { id: { type: 'string' }, synonyms: { type: 'array', items: { type: 'string' } } } }) }, '404': { description: 'none', content: json(ERROR) } } },
      delete: { operationId: 'deleteSynonymSetItem', responses: { '200': { description: 'gone', content: json({ type: 'object', properties: { id: { type: 'string' } } }) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
};

describe('records a PUT makes inside another a PUT made (Typesense\'s synonym set items)', () => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(NESTED);
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 5 });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('reads an item in the set it was made in, and finds nothing', () => {
    expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    const reads = report.results.filter((r) => r.operationId === 'getSynonymSetItem').flatMap((r) => r.evidence).filter((x) => x.request.method === 'GET' && x.response?.status === 200);
    expect(reads.length).toBeGreaterThan(0);
    expect(report.results.filter((r) => r.checkId === 'accepts-json-accept' && r.operationId === 'getSynonymSetItem' && r.verdict === 'skipped').map((r) => r.reason)).toEqual([]);
  });

  it('deletes the items and the sets it made, and leaves none behind', async () => {
    expect(report.cleanup.deleted).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind).toEqual([]);
    // The mock keeps each set's scope of items, emptied: no set and no item of the run's is left in it.
    const state = (await served.client.send('GET', '/__mock/state')).body as Record<string, Record<string, unknown[]>>;
    expect(JSON.stringify(state['/synonym_sets'])).not.toMatch(/pk[a-z0-9]{6,}/);
    const items = Object.entries(state['/synonym_sets/{set_name}/items'] ?? {}).filter(([scope]) => /pk[a-z0-9]{6,}/.test(scope));
    expect(items.length).toBeGreaterThan(0);
    expect(items.filter(([, records]) => records.length > 0)).toEqual([]);
  });
});
