/**
 * delete-removes also expects a read keyed by the deleted record's id alone to answer 404 (`GET /store/inventory/{petId}`
 * once the pet is gone). Where the links are the runner's guess (the document declares none), a parameter's name
 * alone binds that read to the record only when the name says which collection it is of: Rebilly's
 * `GET /reset-password/{token}` was expected to 404 once an authentication token was deleted, because both say `token`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesCollection } from './links.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const ERROR = "{ description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }";
const DOCUMENT = `openapi: 3.0.3
info: { title: Tokens, version: 1.0.0 }
paths:
  /authentication-tokens:
    post:
      operationId: createToken
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/TokenInput' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Token' } } } }
        '400': ${ERROR}
  /authentication-tokens/{token}:
    parameters: [ { name: token, in: path, required: true, schema: { type: string, pattern: '^t[0-9]+$' } } ]
    get:
      operationId: getToken
      responses:
        '200': { description: the token, content: { application/json: { schema: { $ref: '#/components/schemas/Token' } } } }
        '404': ${ERROR}
    delete:
      operationId: deleteToken
      responses:
        '204': { description: deleted }
        '404': ${ERROR}
  /reset-password/{token}:
    parameters: [ { name: token, in: path, required: true, schema: { type: string } } ]
    get:
      operationId: checkResetToken
      responses:
        '200': { description: whether a reset token of that name is pending, content: { application/json: { schema: { type: object, required: [pending], properties: { pending: { type: boolean } } } } } }
        '404': ${ERROR}
components:
  schemas:
    TokenInput:
      type: object
      required: [username]
      additionalProperties: false
      properties: { username: { type: string, minLength: 1, maxLength: 60 } }
    Token:
      type: object
      required: [token, username]
      properties: { token: { type: string, readOnly: true }, username: { type: string } }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;

function tokenServer(): (req: IncomingMessage, res: ServerResponse) => void {
  const tokens = new Map<string, { token: string; username: string }>();
  let next = 1;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const item = /^\/authentication-tokens\/([^/]+)$/.exec(url.pathname);
      if (url.pathname === '/authentication-tokens' && req.method === 'POST') {
        const body = sentJson(req) ? ((await readJsonBody(req)) as { username?: unknown } | undefined) : undefined;
        const username = body?.username;
        if (typeof username !== 'string' || username.length < 1 || username.length > 60 || Object.keys(body!).length !== 1) return sendJson(res, 400, { message: 'invalid' });
        const token = { token: `t${next++}`, username };
        tokens.set(token.token, token);
        return sendJson(res, 201, token, { location: `/authentication-tokens/${token.token}` });
      }
      if (item && req.method === 'GET') return tokens.has(item[1]!) ? sendJson(res, 200, tokens.get(item[1]!)) : sendJson(res, 404, { message: 'none' });
      if (item && req.method === 'DELETE') return tokens.delete(item[1]!) ? sendJson(res, 204) : sendJson(res, 404, { message: 'none' });
      // Another collection's read that happens to name its parameter `token`: it answers for any name.
      if (/^\/reset-password\/[^/]+$/.test(url.pathname) && req.method === 'GET') return sendJson(res, 200, { pending: false });
      return sendJson(res, 404, { message: 'no such path' });
    })();
  };
}

describe('a read keyed by a parameter of the same name, in another collection', () => {
  let server: DocumentedServer;
  beforeAll(async () => {
    server = await serveDocumented('tokens.yaml', DOCUMENT, tokenServer());
  });
  afterAll(() => server.close());

  it('is no read of the deleted record where the links are guessed and the name does not say so', async () => {
    const report = await runConformance({ baseUrl: server.baseUrl, specPath: server.specPath, seed: 6, only: ['delete-removes'] });
    const ran = report.results.filter((r) => r.checkId === 'delete-removes');
    expect(ran.filter((r) => r.verdict === 'failed').map((r) => r.reason)).toEqual([]);
    expect(ran.some((r) => r.verdict === 'passed')).toBe(true);
  }, 60_000);

  it('binds by a name that says its collection', () => {
    expect(namesCollection('petId', '/pets')).toBe(true);
    expect(namesCollection('pet_id', '/store/pets')).toBe(true);
    expect(namesCollection('categoryId', '/categories')).toBe(true);
    expect(namesCollection('authenticationTokenId', '/authentication-tokens')).toBe(true);
    expect(namesCollection('token', '/authentication-tokens')).toBe(false);
    expect(namesCollection('id', '/pets')).toBe(false);
    expect(namesCollection('Sid', '/Accounts/{AccountSid}/Calls.json')).toBe(false);
    expect(namesCollection('CallSid', '/Accounts/{AccountSid}/Calls.json')).toBe(true);
  });
});
