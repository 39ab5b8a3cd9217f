/**
 * Issue 32, point 4: findings the generated documents (mock/engine/any-document.test.ts) showed were the runner's,
 * each as a class on a small correct server of a constructed document:
 *
 * - a `writeOnly` member (a password) is sent on create and replace and never answered (OpenAPI 3.0.3 §4.7.25): its
 *   absence from the read-back is right, not "sent but missing".
 *
 * Against the correct server the runner reports no failure; against one that forgets the name it was sent, it does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { listenOnLoopback, readJsonBody, sendJson } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Accounts, version: 1.0.0 }
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '415': { description: not JSON, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /accounts/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } } ]
    get:
      operationId: getAccount
      responses:
        '200': { description: the account, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    put:
      operationId: replaceAccount
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '415': { description: not JSON, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    delete:
      operationId: deleteAccount
      responses:
        '204': { description: deleted }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Account:
      type: object
      required: [id, name, password]
      additionalProperties: false
      properties:
        id: { type: integer, minimum: 1, readOnly: true }
        name: { type: string, minLength: 1, maxLength: 40 }
        password: { type: string, minLength: 8, maxLength: 64, writeOnly: true }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;

/** A correct server of DOCUMENT: it keeps the password and never answers it. `forgetsName` plants a real defect. */
function accounts(forgetsName: boolean): RequestListener {
  const held = new Map<number, { name: string; password: string }>();
  let next = 1;
  const valid = (body: unknown): body is { name: string; password: string } => {
    if (typeof body !== 'object' || body === null) return false;
    const { name, password, ...rest } = body as Record<string, unknown>;
    // JSON Schema counts lengths in code points (2020-12 validation §6.3.1).
    const length = (text: string): number => [...text].length;
    return Object.keys(rest).length === 0 && typeof name === 'string' && length(name) >= 1 && length(name) <= 40 && typeof password === 'string' && length(password) >= 8 && length(password) <= 64;
  };
  const answer = (id: number, record: { name: string }): unknown => ({ id, name: forgetsName ? 'someone' : record.name });
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const writes = req.method === 'POST' || req.method === 'PUT';
      // RFC 9110 §8.4: a content coding the server does not know is refused with 415, as an unknown media type is.
      if (writes && (req.headers['content-encoding'] !== undefined || (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json')) return sendJson(res, 415, { message: 'send application/json' });
      const body = writes ? await readJsonBody(req).catch(() => undefined) : undefined;
      if (url.pathname === '/accounts') {
        if (req.method !== 'POST') return sendJson(res, 405, { message: 'POST only' }, { allow: 'POST' });
        if (!valid(body)) return sendJson(res, 400, { message: 'invalid account' });
        const id = next++;
        held.set(id, { name: body.name, password: body.password });
        return sendJson(res, 201, answer(id, body));
      }
      const match = /^\/accounts\/([^/]+)$/.exec(url.pathname);
      if (!match) return sendJson(res, 404, { message: 'no such path' });
      if (!['GET', 'PUT', 'DELETE'].includes(req.method ?? '')) return sendJson(res, 405, { message: 'GET, PUT, DELETE' }, { allow: 'GET, PUT, DELETE' });
      if (!/^[1-9][0-9]*$/.test(match[1]!)) return sendJson(res, 400, { message: 'id must be a positive integer' });
      const id = Number(match[1]);
      const record = held.get(id);
      if (!record) return sendJson(res, 404, { message: 'no such account' });
      if (req.method === 'GET') return sendJson(res, 200, answer(id, record));
      if (req.method === 'DELETE') return held.delete(id), sendJson(res, 204);
      if (!valid(body)) return sendJson(res, 400, { message: 'invalid account' });
      held.set(id, { name: body.name, password: body.password });
      return sendJson(res, 200, answer(id, body));
    })();
  };
}

describe('the runner against a correct server of what the generated documents showed', () => {
  let dir: string;
  let spec: string;
  const servers: { close(): void }[] = [];
  let correct: RunReport;
  let defective: RunReport;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'unseen-false-findings-'));
    spec = join(dir, 'accounts.yaml');
    await writeFile(spec, DOCUMENT);
    const good = await listenOnLoopback(accounts(false));
    const bad = await listenOnLoopback(accounts(true));
    servers.push(good.server, bad.server);
    correct = await runConformance({ baseUrl: good.baseUrl, specPath: spec, seed: 5 });
    defective = await runConformance({ baseUrl: bad.baseUrl, specPath: spec, seed: 5 });
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('does not expect a writeOnly member back: no failure', () => {
    expect(correct.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    expect(correct.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'passed')).toBe(true);
  });

  it('still fails a server that does not keep what it was sent', () => {
    expect(defective.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'failed' && /name/.test(r.reason ?? ''))).toBe(true);
  });
});
