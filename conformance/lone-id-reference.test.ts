/**
 * The one field of a created record named like an id, when its name does not say the record's collection
 * (`credentialId` in a `/password-tokens` answer, Rebilly's API), may be a reference to another record: the runner's
 * inferred link reads the record's id from the create's Location when the answer carries one, and from that field
 * only when it does not (links.ts LOCATION_ID_ELSE). A field that says the collection (`passwordTokenId`) is taken
 * as the id as before. Against a server of each kind, create-read-back passes; against one that loses its records,
 * it still fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { buildLinkModel, LOCATION_ID_ELSE } from './links.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

const documentWith = (idLike: string): string => `openapi: 3.0.3
info: { title: Password tokens, version: 1.0.0 }
paths:
  /password-tokens:
    post:
      operationId: createPasswordToken
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/TokenInput' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Token' } } } }
        '400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /password-tokens/{id}:
    parameters: [ { name: id, in: path, required: true, schema: { type: string, minLength: 1, maxLength: 64 } } ]
    get:
      operationId: getPasswordToken
      responses:
        '200': { description: the token, content: { application/json: { schema: { $ref: '#/components/schemas/Token' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    TokenInput:
      type: object
      required: [username]
      additionalProperties: false
      properties: { username: { type: string, minLength: 1, maxLength: 40 } }
    Token:
      type: object
      required: [username, ${idLike}]
      properties:
        username: { type: string }
        ${idLike}: { type: string, readOnly: true }
    Error:
      type: object
      required: [message]
      properties: { message: { type: string } }
`;

/**
 * `by`: how the server names a record. `location`: its own number, in the Location only (the field is a reference to
 * a credential); `field`: the field's value, with no Location; `lost`: as `location`, but the record is never kept.
 */
function tokenServer(idLike: string, by: 'location' | 'field' | 'lost'): (req: IncomingMessage, res: ServerResponse) => void {
  const tokens = new Map<string, Record<string, string>>();
  let next = 1;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/password-tokens' && req.method === 'POST') {
        const body = sentJson(req) ? await readJsonBody(req) : undefined;
        const username = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['username'] : undefined;
        if (typeof username !== 'string' || username.length === 0 || username.length > 40 || Object.keys(body as object).length !== 1) return sendJson(res, 400, { message: 'invalid' });
        const number = String(next++);
        const token = { username, [idLike]: by === 'field' ? `tok-${number}` : `credential-${(next * 7919) % 1000}` };
        if (by !== 'lost') tokens.set(by === 'field' ? token[idLike]! : number, token);
        return sendJson(res, 201, token, by === 'field' ? {} : { location: `/password-tokens/${number}` });
      }
      const item = /^\/password-tokens\/([^/]+)$/.exec(url.pathname);
      if (item && req.method === 'GET') {
        const token = tokens.get(decodeURIComponent(item[1]!));
        return token ? sendJson(res, 200, token) : sendJson(res, 404, { message: 'none' });
      }
      return sendJson(res, 404, { message: 'no such path' });
    })();
  };
}

function verdicts(report: RunReport): string[] {
  return report.results.filter((r) => r.checkId === 'create-read-back').map((r) => `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`);
}

describe('the one id-like field of a created record', () => {
  const servers: Record<string, DocumentedServer> = {};
  beforeAll(async () => {
    const started = await Promise.all([
      serveDocumented('tokens.yaml', documentWith('credentialId'), tokenServer('credentialId', 'location')),
      serveDocumented('tokens.yaml', documentWith('credentialId'), tokenServer('credentialId', 'field')),
      serveDocumented('tokens.yaml', documentWith('credentialId'), tokenServer('credentialId', 'lost')),
      serveDocumented('tokens.yaml', documentWith('passwordTokenId'), tokenServer('passwordTokenId', 'field')),
    ]);
    [servers['location'], servers['field'], servers['lost'], servers['named']] = started;
  });
  afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));

  it('is read after the Location when its name does not say the collection, and taken alone when it does', async () => {
    const reference = buildLinkModel(await loadContract(servers['location']!.specPath)).kinds.get('createPasswordToken');
    expect(reference?.links.map((t) => t.link.parameters['path.id'])).toEqual([`${LOCATION_ID_ELSE}$response.body#/credentialId`]);
    const named = buildLinkModel(await loadContract(servers['named']!.specPath)).kinds.get('createPasswordToken');
    expect(named?.links.map((t) => t.link.parameters['path.id'])).toEqual(['$response.body#/passwordTokenId']);
  });

  it('a server that names its records in the Location passes: the reference is not taken for the id', async () => {
    const report = await runConformance({ baseUrl: servers['location']!.baseUrl, specPath: servers['location']!.specPath, seed: 3, only: ['create-read-back'] });
    expect(verdicts(report).length).toBeGreaterThan(0);
    expect(verdicts(report).filter((v) => !v.startsWith('passed'))).toEqual([]);
  }, 60_000);

  it('a server that sends no Location and names its records by the field passes too', async () => {
    for (const name of ['field', 'named']) {
      const report = await runConformance({ baseUrl: servers[name]!.baseUrl, specPath: servers[name]!.specPath, seed: 3, only: ['create-read-back'] });
      expect(verdicts(report).length).toBeGreaterThan(0);
      expect(verdicts(report).filter((v) => !v.startsWith('passed'))).toEqual([]);
    }
  }, 60_000);

  it('a server that loses what it created still fails', async () => {
    const report = await runConformance({ baseUrl: servers['lost']!.baseUrl, specPath: servers['lost']!.specPath, seed: 3, only: ['create-read-back'] });
    expect(verdicts(report).length).toBeGreaterThan(0);
    expect(verdicts(report).every((v) => v.startsWith('failed'))).toBe(true);
  }, 60_000);
});
