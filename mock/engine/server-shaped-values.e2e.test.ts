/**
 * Values a server shapes itself, from Supabase Auth's description (unseen by the kit's tests before, swept with the
 * runner: 18 failed checks, 0 after):
 * - a key the server prefixes (`identifier`: "will be prefixed with 'custom:' automatically"; the request's pattern
 *   `^[a-zA-Z0-9_-]+$`, the answer's `^custom:…`): the answer keeps the client's word after the pattern's fixed start,
 *   and the record is kept under the key its answer names, so it is read, replaced and deleted there. Before, the
 *   answer carried an invented key (`custom:7l`) and the record stayed under the client's word: 404 at its own key.
 * - an answer that is `oneOf` of two open objects with no member in common (signup: a token answer or a user): any
 *   object made for one is a value of both, so the mock answered 501 CANNOT_GENERATE; a member the other branch types
 *   otherwise now sets the value apart (src/generate/set-apart.ts).
 * The prefixes are drawn (fast-check, a fixed seed) from characters a pattern must escape and those it need not.
 * Every answer is checked against the document by the client (foreign-client.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schema/index.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
const WORD = '^[a-zA-Z0-9_-]+$';

/** Fixed starts a server puts before a client's word: letters, then one of `:`, `_`, `.`, `-`, `/`-free punctuation. */
const PREFIXES = fc.sample(fc.tuple(fc.stringMatching(/^[a-z]{2,8}$/), fc.constantFrom(':', '_', '.', '-', '+', '|')).map(([word, mark]) => `${word}${mark}`), { numRuns: 4, seed: 2611 });
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function collection(index: number, prefix: string): Record<string, unknown> {
  const record = {
    type: 'object',
    required: ['identifier', 'name'],
    properties: { identifier: { type: 'string', pattern: `^${escaped(prefix)}[a-zA-Z0-9_-]+$` }, name: { type: 'string' }, created_at: { type: 'string', format: 'date-time', readOnly: true } },
  };
  const item = { name: 'identifier', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [`/providers${index}`]: {
      post: {
        operationId: `createProvider${index}`,
        requestBody: { required: true, content: json({ type: 'object', required: ['identifier', 'name'], properties: { identifier: { type: 'string', pattern: WORD }, name: { type: 'string' } } }) },
        responses: { '201': { description: 'created', content: json(record) }, '400': { description: 'refused', content: json(ERROR) }, '409': { description: 'taken', content: json(ERROR) } },
      },
    },
    [`/providers${index}/{identifier}`]: {
      parameters: [item],
      get: { operationId: `getProvider${index}`, responses: { '200': { description: 'the provider', content: json(record) }, '404': { description: 'none', content: json(ERROR) } } },
      delete: { operationId: `deleteProvider${index}`, responses: { '204': { description: 'deleted' }, '404': { description: 'none', content: json(ERROR) } } },
    },
  };
}

const TOKEN = { type: 'object', properties: { access_token: { type: 'string' }, refresh_token: { type: 'string' }, expires_in: { type: 'integer' }, token_type: { type: 'string' } } };
const USER = { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string' }, created_at: { type: 'string', format: 'date-time' }, role: { type: 'string' } } };
const SIGNUP_ANSWER = { oneOf: [TOKEN, USER] };

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Server-shaped values', version: '1.0.0' },
  paths: {
    ...Object.assign({}, ...PREFIXES.map((prefix, index) => collection(index, prefix))),
    '/signup': {
      post: {
        operationId: 'postSignup',
        requestBody: { required: true, content: json({ type: 'object', properties: { email: { type: 'string' }, password: { type: 'string' } } }) },
        responses: { '200': { description: 'a user, or tokens', content: json(SIGNUP_ANSWER) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
  },
};

describe('values a server shapes itself (Supabase Auth)', () => {
  let mock: DocumentMock;
  beforeAll(async () => {
    mock = await startDocumentMock(DOCUMENT);
  }, 30_000);
  afterAll(async () => {
    await mock?.close();
  });

  it.each(PREFIXES.map((prefix, index) => [prefix, index] as const))('a key prefixed with %j keeps the client word and is read, refused when taken, and deleted at the key it answers', async (prefix, index) => {
    const created = await mock.client.send('POST', `/providers${index}`, { json: { identifier: 'mycompany', name: 'My company' } });
    expect(created.status).toBe(201);
    const key = (created.body as { identifier: string }).identifier;
    expect(key).toBe(`${prefix}mycompany`);
    const read = await mock.client.send('GET', `/providers${index}/${encodeURIComponent(key)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ identifier: key, name: 'My company' });
    // The same word again names the same record: the documented 409, and nothing else stored.
    const again = await mock.client.send('POST', `/providers${index}`, { json: { identifier: 'mycompany', name: 'Another' } });
    expect(again.status).toBe(409);
    expect((await mock.client.send('GET', `/providers${index}/mycompany`, { plainNotFound: true })).status).toBe(404);
    expect((await mock.client.send('DELETE', `/providers${index}/${encodeURIComponent(key)}`)).status).toBe(204);
    expect((await mock.client.send('GET', `/providers${index}/${encodeURIComponent(key)}`, { plainNotFound: true })).status).toBe(404);
  });

  it('a oneOf of two open objects answers a value of exactly one branch, not 501', async () => {
    const validate = createAjv({ strict: false }).compile(SIGNUP_ANSWER);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const answer = await mock.client.send('POST', '/signup', { json: { email, password: 'secret-1' } });
      expect(answer.status).toBe(200);
      expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

/**
 * A creation time typed as Unix seconds (Intercom's tickets: `created_at: {type: integer, format: date-time}`): the
 * mock stamped RFC 3339 text, which the field refused, so the record kept the field's example while the create
 * answered the client's value, and the read disagreed with the create. The stamp now takes the field's type.
 */
const TICKET = { type: 'object', required: ['title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, created_at: { type: 'integer', format: 'date-time', example: 1663597223 } } };
const TICKETS = {
  openapi: '3.0.3',
  info: { title: 'Tickets', version: '1.0.0' },
  paths: {
    '/tickets': { post: { operationId: 'createTicket', requestBody: { required: true, content: json(TICKET) }, responses: { '200': { description: 'created', content: json(TICKET) } } } },
    '/tickets/{ticket_id}': {
      parameters: [{ name: 'ticket_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getTicket', responses: { '200': { description: 'the ticket', content: json(TICKET) }, '404': { description: 'none' } } },
    },
  },
};

describe('a creation time typed as Unix seconds (Intercom\'s tickets)', () => {
  let mock: DocumentMock;
  beforeAll(async () => {
    mock = await startDocumentMock(TICKETS);
  }, 30_000);
  afterAll(async () => {
    await mock?.close();
  });

  it('is stamped in seconds, and the read answers what the create answered', async () => {
    const before = Math.floor(Date.now() / 1000);
    const created = await mock.client.send('POST', '/tickets', { json: { title: 'a problem', created_at: 1590000000 } });
    expect(created.status).toBe(200);
    const ticket = created.body as { id: string; created_at: number };
    expect(ticket.created_at).toBeGreaterThanOrEqual(before);
    expect((await mock.client.send('GET', `/tickets/${ticket.id}`)).body).toEqual(ticket);
  });
});
