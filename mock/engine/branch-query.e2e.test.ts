/**
 * A required exploded `form` object query parameter whose members are declared only in its `oneOf` branches
 * (Intercom's `GET /events`, unseen by the kit's tests before: `filter` is `oneOf` of `{user_id}` and `{email}`, each
 * closed). OpenAPI 3.0.3 §4.7.12.4: an exploded form object travels as its members, names of their own, so
 * `?user_id=u1` is the `filter`. The mock read it as an unknown query parameter and refused every request with an
 * undocumented 400 ("/query/filter is required"). A request without any member is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Events', version: '1.0.0' },
  paths: {
    '/events': {
      get: {
        operationId: 'listEvents',
        parameters: [
          { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: ['final'] } },
          {
            name: 'filter',
            in: 'query',
            required: true,
            style: 'form',
            explode: true,
            schema: {
              type: 'object',
              oneOf: [
                { properties: { user_id: { type: 'string' } }, required: ['user_id'], additionalProperties: false },
                { properties: { email: { type: 'string' } }, required: ['email'], additionalProperties: false },
              ],
            },
          },
        ],
        responses: { '200': { description: 'the events', content: json({ type: 'object', required: ['events'], properties: { events: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
  },
};

describe("a required exploded form object whose members are declared in its oneOf branches (Intercom's events filter)", () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it('is read from either branch\'s member, and named nowhere as an unknown parameter', async () => {
    const queries: Record<string, string>[] = [{ type: 'final', user_id: 'u1' }, { type: 'final', email: 'a@example.com' }];
    for (const query of queries) {
      const answer = await served.client.send('GET', '/events', { query });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-mock-unknown-query']).toBeUndefined();
    }
  });

  it('is still required: a request with none of its members is refused with the documented 400', async () => {
    const answer = await served.client.send('GET', '/events', { query: { type: 'final' } });
    expect(answer.status).toBe(400);
  });
});
