/**
 * The answer guard (answer-guard.ts, issue 32 point 1): no answer leaves that the document does not allow. On a small
 * constructed document: an answer no value can satisfy is declared once the proof sweep is done (the log and
 * `GET /__mock/resources`) and answered with the document's 500, or the kit's Error naming the spot where the
 * document has none; a header the engine sets that its schema refuses is replaced by the proved answer; an answer
 * documented as JSON and CSV is sent as the Accept prefers; an error documented only as XML is sent as XML. Every
 * answer the document documents is checked against it (foreign-client.ts throws on any that breaks it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Guarded', version: '1.0.0' },
  paths: {
    '/gauges': {
      get: {
        operationId: 'listGauges',
        responses: {
          '200': {
            description: 'the gauges; the count is bounded by the document, below what the data holds',
            headers: { 'X-Total-Count': { required: true, schema: { type: 'integer', minimum: 0, maximum: 2 } } },
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Gauge' } } } },
          },
        },
      },
      post: {
        operationId: 'createGauge',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Gauge' } } } },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gauge' } } } },
          '400': { description: 'refused', content: { 'application/xml': { schema: { type: 'object', xml: { name: 'problem' }, properties: { code: { type: 'string' }, message: { type: 'string' } } } } } },
        },
      },
    },
    '/gauges/{gaugeId}': {
      get: {
        operationId: 'getGauge',
        parameters: [{ name: 'gaugeId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'the gauge', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gauge' } } } }, '404': { description: 'none' } },
      },
    },
    '/report': {
      get: {
        operationId: 'getReport',
        responses: {
          '200': {
            description: 'the report, as JSON or CSV',
            content: {
              'application/json': { schema: { type: 'array', items: { type: 'object', required: ['day', 'count'], properties: { day: { type: 'string', format: 'date' }, count: { type: 'integer' } } } } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    '/impossible': {
      get: {
        operationId: 'getImpossible',
        responses: {
          '200': { description: 'a text no value can be', content: { 'application/json': { schema: { type: 'string', minLength: 5, maxLength: 2 } } } },
          '500': { description: 'a failure', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/notes': {
      post: {
        operationId: 'postNote',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } } } },
        responses: {
          '204': { description: 'kept' },
          '422': { description: 'refused', content: { 'application/json': { schema: { type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } } } } },
        },
      },
    },
    '/hopeless': {
      get: {
        operationId: 'getHopeless',
        responses: { '200': { description: 'a number no value can be', content: { 'application/json': { schema: { type: 'integer', minimum: 10, maximum: 5 } } } } },
      },
    },
  },
  components: {
    schemas: {
      Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
      Gauge: { type: 'object', required: ['id', 'label'], properties: { id: { type: 'integer', minimum: 1 }, label: { type: 'string', minLength: 1, maxLength: 40 } } },
    },
  },
};

describe('the answer guard', () => {
  const work = mkdtempSync(join(tmpdir(), 'answer-guard-'));
  const file = join(work, 'guarded.json');
  const lines: string[] = [];
  let mock: RunningMock;
  let client: ForeignClient;
  beforeAll(async () => {
    writeFileSync(file, JSON.stringify(DOCUMENT));
    mock = await startMock({ port: 0, specPath: file, log: (line) => lines.push(line) });
    client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** The proof state once the sweep has proved every operation (bounded: a few seconds at most for five operations). */
  const provedAll = async (): Promise<{ proved: number; operations: number; unanswerable: { operationId: string; status: string; where: string; why: string; answeredWith: number }[] }> => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { body } = await client.send('GET', '/__mock/resources');
      const answers = (body as { answers: { proved: number; operations: number; unanswerable: never[] } }).answers;
      if (answers.proved === answers.operations) return answers;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the proof sweep did not finish within 5 s');
  };

  it('declares the answers no value can satisfy, naming the spot of the document, and what is answered instead', async () => {
    const answers = await provedAll();
    expect(answers.unanswerable.map((u) => `${u.operationId} ${u.status} -> ${u.answeredWith}`).sort()).toEqual(['getHopeless 200 -> 501', 'getImpossible 200 -> 500']);
    const impossible = answers.unanswerable.find((u) => u.operationId === 'getImpossible')!;
    expect(impossible.where).toContain('/paths/~1impossible/get/responses/200');
    expect(impossible.why).toMatch(/minLength 5 is above maxLength 2/);
    expect(lines.some((line) => /2 documented answers cannot be made valid/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('getHopeless 200') && line.includes('answers 501 instead'))).toBe(true);
  });

  it('answers such an operation with its documented 500, valid for the document', async () => {
    const answer = await client.send('GET', '/impossible');
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ message: expect.stringContaining('~1impossible/get/responses/200') as unknown });
  });

  it("answers one that documents no 5xx with the kit's Error naming the spot and why", async () => {
    const answer = await request(`${mock.url}/hopeless`);
    expect(answer.statusCode).toBe(501);
    const body = (await answer.body.json()) as { code: string; message: string };
    expect(body.code).toBe('CANNOT_GENERATE');
    expect(body.message).toMatch(/getHopeless.*~1hopeless\/get\/responses\/200/);
  });

  it('never sends a header its schema refuses: the proved answer goes instead', async () => {
    // Three gauges in the initial data: the count the engine would send is 3, which the document bounds at 2.
    const state = (await client.send('GET', '/__mock/state')).body as Record<string, Record<string, unknown[]>>;
    expect(Object.values(state['/gauges'] ?? {}).flat().length).toBeGreaterThan(2);
    const answer = await client.send('GET', '/gauges');
    expect(Number(answer.headers['x-total-count'])).toBeLessThanOrEqual(2);
  });

  it('sends the media type the Accept prefers among those documented, JSON when it has no preference', async () => {
    const csv = await client.send('GET', '/report', { headers: { accept: 'text/csv' } });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('day,count');
    const preferred = await client.send('GET', '/report', { headers: { accept: 'application/json;q=0.5, text/csv' } });
    expect(preferred.headers['content-type']).toMatch(/^text\/csv/);
    for (const accept of [undefined, '*/*', 'application/json', 'text/csv, application/json']) {
      const json = await client.send('GET', '/report', accept === undefined ? {} : { headers: { accept } });
      expect(json.headers['content-type'], String(accept)).toMatch(/^application\/json/);
      expect(Array.isArray(json.body)).toBe(true);
    }
  });

  it('sends a refusal under the status the operation documents (422 for 400), saying that status in its body', async () => {
    const answer = await client.send('POST', '/notes', { json: { text: 7 } });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
  });

  it('sends an error documented only as XML as XML', async () => {
    const answer = await client.send('POST', '/gauges', { json: { label: 42 } });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/xml/);
    expect(answer.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<problem>(<status>400<\/status>)?<code>VALIDATION_FAILED<\/code><message>[^<]+<\/message><\/problem>$/);
  });
});
