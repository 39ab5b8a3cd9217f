/**
 * A document whose answer schema nests oneOf/anyOf inside the branches of oneOf/anyOf, six levels deep, with an
 * example to fit that breaks a format and a pattern at every level (the shape of Meilisearch's `Settings_Unchecked`,
 * whose mock never started: fitting the example cost branches × rounds × pointers at each level, multiplied per
 * level, and the synchronous loop held the event loop, SIGTERM included). One fit now has a total work budget
 * (conform.ts FIT_WORK), and each branch's composed schema is compiled once. The mock starts, and every answer comes
 * within the test's timeout and is checked against the document (foreign-client.ts throws on any that breaks it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown, example?: unknown): unknown => ({ 'application/json': { schema, ...(example !== undefined ? { example } : {}) } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
/** Levels of branches inside branches: Level5 holds Level4 … holds Level0. */
const DEPTH = 6;

/** Level `n`: one of three kinds (oneOf at even levels, anyOf at odd ones), each holding two members of level `n - 1`. */
function level(n: number): unknown {
  const kinds = ['circle', 'square', 'triangle'].map((kind) => ({
    type: 'object',
    required: ['kind', 'at'],
    additionalProperties: false,
    properties: {
      kind: { type: 'string', enum: [`${kind}${n}`] },
      at: { type: 'string', format: 'date-time' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      ...(n > 0 ? { left: { $ref: `#/components/schemas/Level${n - 1}` }, right: { $ref: `#/components/schemas/Level${n - 1}` } } : {}),
    },
  }));
  return n % 2 === 0 ? { oneOf: kinds } : { anyOf: kinds };
}

/** An example tree that breaks `at` (not a date-time) and `code` (not the pattern) at every node. */
function example(n: number): unknown {
  return { kind: `${n % 2 === 0 ? 'circle' : 'square'}${n}`, at: 'yesterday', code: 'abc', ...(n > 0 ? { left: example(n - 1), right: example(n - 1) } : {}) };
}

const TOP = `Level${DEPTH - 1}`;
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Branches inside branches', version: '1.0.0' },
  paths: {
    '/settings': {
      get: { operationId: 'getSettings', responses: { '200': { description: 'the settings', content: json({ $ref: `#/components/schemas/${TOP}` }, example(DEPTH - 1)) } } },
    },
    '/shapes': {
      get: {
        operationId: 'listShapes',
        responses: { '200': { description: 'the shapes', content: json({ type: 'array', items: { $ref: '#/components/schemas/Shape' } }, [{ id: 1, tree: example(DEPTH - 1) }, { id: 2, tree: example(DEPTH - 1) }]) } },
      },
      post: {
        operationId: 'createShape',
        requestBody: { required: true, content: json({ type: 'object', required: ['tree'], properties: { tree: { $ref: `#/components/schemas/${TOP}` } } }) },
        responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Shape' }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    '/shapes/{shapeId}': {
      get: {
        operationId: 'getShape',
        parameters: [{ name: 'shapeId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'the shape', content: json({ $ref: '#/components/schemas/Shape' }) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  },
  components: {
    schemas: {
      Shape: { type: 'object', required: ['id', 'tree'], properties: { id: { type: 'integer', readOnly: true }, tree: { $ref: `#/components/schemas/${TOP}` } } },
      ...Object.fromEntries(Array.from({ length: DEPTH }, (_, n) => [`Level${n}`, level(n)])),
    },
  },
};

describe(`branches nested ${DEPTH} levels deep, with an example to fit`, () => {
  let mock: DocumentMock;
  // Bounded: before the fit's work budget, start-up fitted the example records for minutes and never listened.
  beforeAll(async () => {
    mock = await startDocumentMock(DOCUMENT);
  }, 30_000);
  afterAll(async () => {
    await mock?.close();
  });

  it('answers the fitted example at once, as the document allows', async () => {
    const answer = await mock.client.send('GET', '/settings');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kind: expect.stringMatching(/^(circle|square|triangle)5$/) });
  }, 30_000);

  it('keeps the example records, fitted, and answers them in the list and one by one', async () => {
    const list = await mock.client.send('GET', '/shapes');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body) ? list.body.length : -1).toBe(2);
    const one = await mock.client.send('GET', '/shapes/1');
    expect(one.status).toBe(200);
  }, 30_000);

  it('creates a record sent with the same broken tree, within the budget', async () => {
    const created = await mock.client.send('POST', '/shapes', { json: { tree: { kind: 'square5', at: '2024-01-01T00:00:00Z' } } });
    expect(created.status).toBe(201);
    const read = await mock.client.send('GET', `/shapes/${String((created.body as { id: number }).id)}`);
    expect(read.status).toBe(200);
  }, 30_000);
});
