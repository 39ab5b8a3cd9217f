/**
 * A create whose body carries the record's integer id (writable, the field its links read the path id from): the
 * runner sends a key of its own, high in the field's range, not the schema's minimum that the server's data holds.
 * On a small correct server that refuses a taken id with its documented 409, the run finds nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownIntegerKeys } from './own-keys.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

/** The document, its answers bare or in `{ data }` (the link then reads `$response.body#/data/id`). */
const documentOf = (envelope: boolean): string => `openapi: 3.0.3
info: { title: Gauges, version: 1.0.0 }
paths:
  /gauges:
    post:
      operationId: createGauge
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Gauge' } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: ${envelope ? "{ type: object, required: [data], properties: { data: { $ref: '#/components/schemas/Gauge' } } }" : "{ $ref: '#/components/schemas/Gauge' }"} } }
          links:
            getGauge: { operationId: getGauge, parameters: { gaugeId: '$response.body#${envelope ? '/data' : ''}/id' } }
        '400': { $ref: '#/components/responses/Error' }
        '409': { $ref: '#/components/responses/Error' }
  /gauges/{gaugeId}:
    get:
      operationId: getGauge
      parameters:
        - { name: gaugeId, in: path, required: true, schema: { type: integer, minimum: 1 } }
      responses:
        '200': { description: the gauge, content: { application/json: { schema: ${envelope ? "{ type: object, required: [data], properties: { data: { $ref: '#/components/schemas/Gauge' } } }" : "{ $ref: '#/components/schemas/Gauge' }"} } } }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
components:
  responses:
    Error: { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  schemas:
    Error: { type: object, required: [code, message], properties: { code: { type: string }, message: { type: string } } }
    Gauge:
      type: object
      additionalProperties: false
      required: [id, label]
      properties:
        id: { type: integer, format: int64, minimum: 1 }
        label: { type: string, minLength: 1, maxLength: 60 }
`;

/** A correct server whose data holds gauges 1 to 3: a create of a taken id is its documented 409. */
function gaugeServer(envelope: boolean): (req: IncomingMessage, res: ServerResponse) => void {
  const gauges = new Map<number, { id: number; label: string }>([1, 2, 3].map((id) => [id, { id, label: `gauge ${id}` }]));
  const refuse = (res: ServerResponse, status: number, code: string, message: string): void => sendJson(res, status, { code, message });
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/gauges' && req.method === 'POST') {
        if (!sentJson(req)) return refuse(res, 400, 'VALIDATION_FAILED', 'send JSON');
        const body = await readJsonBody(req);
        const gauge = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
        const { id, label } = gauge;
        const valid = Object.keys(gauge).every((key) => key === 'id' || key === 'label') && Number.isSafeInteger(id) && (id as number) >= 1 && typeof label === 'string' && label.length >= 1 && [...label].length <= 60;
        if (!valid) return refuse(res, 400, 'VALIDATION_FAILED', 'a gauge is an id (an integer from 1) and a label of 1 to 60 characters');
        if (gauges.has(id as number)) return refuse(res, 409, 'CONFLICT', `gauge ${String(id)} exists`);
        const made = { id: id as number, label: label as string };
        gauges.set(made.id, made);
        return sendJson(res, 201, envelope ? { data: made } : made);
      }
      const match = /^\/gauges\/([^/]+)$/.exec(url.pathname);
      if (match && req.method === 'GET') {
        const id = /^\d+$/.test(match[1]!) ? Number(match[1]) : NaN;
        if (!(id >= 1)) return refuse(res, 400, 'VALIDATION_FAILED', 'gaugeId is an integer from 1');
        const gauge = gauges.get(id);
        return gauge ? sendJson(res, 200, envelope ? { data: gauge } : gauge) : refuse(res, 404, 'NOT_FOUND', `gauge ${id} not found`);
      }
      if (match || url.pathname === '/gauges') return sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: 'no' }, { allow: match ? 'GET' : 'POST' });
      return refuse(res, 404, 'NOT_FOUND', 'no such path');
    })();
  };
}

describe.each([false, true])('a create that carries its integer id (answered in { data }: %s)', (envelope) => {
  let server: DocumentedServer;
  beforeAll(async () => {
    server = await serveDocumented('gauges.yaml', documentOf(envelope), gaugeServer(envelope));
  });
  afterAll(() => server.close());

  it('is sent a key of the run, not one the server holds: a correct server is blamed for nothing', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 5 });
    const failed = report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`);
    expect(failed).toEqual([]);
    expect(report.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'passed')).toBe(true);
  }, 60_000);
});

describe('ownIntegerKeys', () => {
  it('draws high in the range, inside every bound, differently for each tag', () => {
    const free = ownIntegerKeys({ minimum: 1 }, 'r1-a.1');
    expect(free.length).toBeGreaterThan(0);
    for (const key of free) expect(key).toBeGreaterThan(2 ** 30);
    expect(ownIntegerKeys({ minimum: 1 }, 'r1-a.2')[0]).not.toBe(free[0]);
    const bounded = ownIntegerKeys({ minimum: 1, maximum: 100, multipleOf: 5 }, 'r1-a.1');
    for (const key of bounded) {
      expect(key % 5).toBe(0);
      expect(key).toBeGreaterThanOrEqual(50);
      expect(key).toBeLessThanOrEqual(100);
    }
    // 3.1's numeric exclusive bounds, and 3.0's boolean ones.
    for (const key of ownIntegerKeys({ exclusiveMinimum: 0, exclusiveMaximum: 10 }, 't')) expect(key).toBeLessThan(10);
    for (const key of ownIntegerKeys({ minimum: 1, maximum: 10, exclusiveMaximum: true }, 't')) expect(key).toBeLessThan(10);
    expect(ownIntegerKeys({ minimum: 7, maximum: 7 }, 't')).toEqual([]);
  });
});
