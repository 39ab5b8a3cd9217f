/**
 * A create whose answer names the record by the item path's parameter, not by the record's id field (Mistral's
 * conversations, unseen by the kit's tests before: `POST /v1/conversations` answers `{object, conversation_id}`,
 * closed; `GET /v1/conversations/{conversation_id}` answers `{id, created_at, ...}`). The answer's key was invented,
 * the same for every create, and read back nowhere (404): now it is the stored record's id. Every answer is checked
 * against the document, and the runner finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/runner.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const CONVERSATION = { type: 'object', required: ['id', 'created_at', 'model'], properties: { id: { type: 'string' }, created_at: { type: 'string', format: 'date-time' }, model: { type: 'string' } } };
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Conversations', version: '1.0.0' },
  paths: {
    '/v1/conversations': {
      post: {
        operationId: 'startConversation',
        requestBody: { required: true, content: json({ type: 'object', required: ['inputs', 'model'], properties: { inputs: { type: 'string' }, model: { type: 'string' } } }) },
        responses: { '200': { description: 'started', content: json({ type: 'object', additionalProperties: false, required: ['conversation_id'], properties: { object: { const: 'conversation.response' }, conversation_id: { type: 'string' } } }) }, '422': { description: 'refused' } },
      },
    },
    '/v1/conversations/{conversation_id}': {
      parameters: [{ name: 'conversation_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getConversation', responses: { '200': { description: 'the conversation', content: json(CONVERSATION) }, '404': { description: 'none' } } },
      delete: { operationId: 'deleteConversation', responses: { '204': { description: 'deleted' }, '404': { description: 'none' } } },
    },
  },
};

describe("a create answering the record's key under the item path's parameter name (Mistral's conversations)", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it('answers each new record under its own key, read back and deleted there', async () => {
    const keys: string[] = [];
    for (const inputs of ['hello', 'again']) {
      const started = await served.client.send('POST', '/v1/conversations', { json: { inputs, model: 'small' } });
      expect(started.status).toBe(200);
      const key = (started.body as { conversation_id: string }).conversation_id;
      keys.push(key);
      const read = await served.client.send('GET', `/v1/conversations/${encodeURIComponent(key)}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: key, model: 'small' });
    }
    expect(new Set(keys).size).toBe(2);
    expect((await served.client.send('DELETE', `/v1/conversations/${encodeURIComponent(keys[0]!)}`)).status).toBe(204);
  });

  it('the runner finds nothing', async () => {
    const report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 4 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.filter((r) => r.checkId === 'create-read-back' && r.verdict === 'passed').length).toBeGreaterThan(0);
  }, 90_000);
});

/**
 * A record with no id field of its own, answered where the create requires one (SendGrid's contact segments: the read
 * is `Segment {name, ...}`, the create answers `allOf [{id: number, required}, Segment]`, the item path
 * `/segments/{segment_id}`). The `id` was drawn afresh (`12.77`), the same for every create and read back nowhere:
 * it is now the key the record is kept under, which its Location names too.
 */
const SEGMENT = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
const SEGMENTS = {
  openapi: '3.0.3',
  info: { title: 'Segments', version: '1.0.0' },
  paths: {
    '/segments': {
      post: {
        operationId: 'createSegment',
        requestBody: { required: true, content: json(SEGMENT) },
        responses: { '200': { description: 'created', content: json({ allOf: [{ type: 'object', required: ['id'], properties: { id: { type: 'number' } } }, SEGMENT] }) } },
      },
    },
    '/segments/{segment_id}': {
      parameters: [{ name: 'segment_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getSegment', responses: { '200': { description: 'the segment', content: json(SEGMENT) }, '404': { description: 'none' } } },
    },
  },
};

describe("a record with no id field, answered where the create requires one (SendGrid's segments)", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(SEGMENTS);
  });
  afterAll(() => served?.close());

  it('answers the key it is kept under, one per record, read back there', async () => {
    const ids = new Set<number>();
    for (const name of ['first', 'second']) {
      const created = await served.client.send('POST', '/segments', { json: { name } });
      expect(created.status).toBe(200);
      const { id } = created.body as { id: number };
      ids.add(id);
      expect(created.headers['location']).toBe(`/segments/${id}`);
      expect((await served.client.send('GET', `/segments/${id}`)).body).toEqual({ name });
    }
    expect(ids.size).toBe(2);
  });
});

/**
 * An item path that names a record by either of two fields (PagerDuty's `/incidents/types/{type_id_or_name}`): the
 * record is read at its name and at its id alike. The mock kept it under one and answered 404 at the other.
 */
const INCIDENT_TYPE = { type: 'object', required: ['name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string', maxLength: 50 }, display_name: { type: 'string' } } };
const INCIDENT_TYPES = {
  openapi: '3.0.3',
  info: { title: 'Incident types', version: '1.0.0' },
  paths: {
    '/incidents/types': {
      post: {
        operationId: 'createIncidentType',
        requestBody: { required: true, content: json({ type: 'object', required: ['incident_type'], properties: { incident_type: INCIDENT_TYPE } }) },
        responses: { '201': { description: 'created', content: json({ type: 'object', required: ['incident_type'], properties: { incident_type: INCIDENT_TYPE } }) }, '400': { description: 'refused' } },
      },
    },
    '/incidents/types/{type_id_or_name}': {
      parameters: [{ name: 'type_id_or_name', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getIncidentType', responses: { '200': { description: 'the type', content: json({ type: 'object', required: ['incident_type'], properties: { incident_type: INCIDENT_TYPE } }) }, '404': { description: 'none' } } },
    },
  },
};

describe("an item path naming a record by either of two fields (PagerDuty's {type_id_or_name})", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(INCIDENT_TYPES);
  });
  afterAll(() => served?.close());

  it('reads the record at its id and at its name', async () => {
    const created = await served.client.send('POST', '/incidents/types', { json: { incident_type: { name: 'fraud', display_name: 'Fraud' } } });
    expect(created.status).toBe(201);
    const type = (created.body as { incident_type: { id: string; name: string } }).incident_type;
    for (const key of [type.id, type.name]) {
      const read = await served.client.send('GET', `/incidents/types/${encodeURIComponent(key)}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ incident_type: type });
    }
  });
});

/**
 * A record the create names by a member its item path's parameter ends with (SendGrid's IP pools: `POST /ips/pools
 * {name}`, read at `/ips/pools/{pool_name}` as `{pool_name, ips}`): kept under the name sent, as the path addresses it.
 * It was kept under an id of the mock's own (`20`), and its name read 404.
 */
const POOL = { type: 'object', properties: { pool_name: { type: 'string' }, ips: { type: 'array', items: { type: 'string' } } } };
const POOLS = {
  openapi: '3.0.3',
  info: { title: 'IP pools', version: '1.0.0' },
  paths: {
    '/ips/pools': {
      post: {
        operationId: 'createPool',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) },
        responses: { '200': { description: 'created', content: json({ type: 'object', properties: { name: { type: 'string' } } }) }, '400': { description: 'refused' } },
      },
    },
    '/ips/pools/{pool_name}': {
      parameters: [{ name: 'pool_name', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getPool', responses: { '200': { description: 'the pool', content: json(POOL) }, '404': { description: 'none' } } },
    },
  },
};

describe("a record named by the member its item path's parameter ends with (SendGrid's {pool_name})", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(POOLS);
  });
  afterAll(() => served?.close());

  it('is kept under the name sent, read at it, and a second create of the name is refused', async () => {
    const created = await served.client.send('POST', '/ips/pools', { json: { name: 'marketing' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'marketing' });
    const read = await served.client.send('GET', '/ips/pools/marketing');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ pool_name: 'marketing' });
    expect((await served.client.send('POST', '/ips/pools', { json: { name: 'marketing' } })).status).toBe(400);
  });
});
