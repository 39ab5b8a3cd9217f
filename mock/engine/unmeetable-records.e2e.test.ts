/**
 * A record schema no value meets (GrowthBook, unseen by the kit's tests before: the read answers `allOf` of two closed
 * parts, each requiring a member the other forbids): the mock's fit of a new record drew it afresh and invented its key
 * (`cricket`, `shark`), so a record the client named `abc` was kept under the invented key, and deleted nowhere. The
 * key it is kept under now stays the record's, where nothing fits anyway; the reads answer the documented failure
 * (the read's schema cannot be met), and the create and the delete work on the key the answer names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const FEATURE = { type: 'object', required: ['id', 'owner'], properties: { id: { type: 'string' }, owner: { type: 'string' } } };
/** No value meets both parts: each requires a member the other's `additionalProperties: false` forbids. */
const WITH_REVISIONS = { allOf: [{ ...FEATURE, additionalProperties: false }, { type: 'object', required: ['revisions'], properties: { revisions: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }] };

function collection(name: string, clientKey: boolean): Record<string, unknown> {
  const body = clientKey ? { type: 'object', required: ['id', 'owner'], properties: { id: { type: 'string', pattern: '^[a-z0-9-]+$' }, owner: { type: 'string' } } } : { type: 'object', required: ['owner'], properties: { owner: { type: 'string' } } };
  return {
    [`/${name}`]: {
      post: {
        operationId: `create_${name}`,
        requestBody: { required: true, content: json(body) },
        responses: { '200': { description: 'created', content: json({ type: 'object', required: ['feature'], properties: { feature: FEATURE } }) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    [`/${name}/{id}`]: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get_${name}`, responses: { '200': { description: 'one', content: json({ type: 'object', required: ['feature'], properties: { feature: WITH_REVISIONS } }) }, '404': { description: 'none', content: json(ERROR) }, '500': { description: 'failed', content: json(ERROR) } } },
      delete: { operationId: `delete_${name}`, responses: { '204': { description: 'deleted' }, '404': { description: 'none', content: json(ERROR) } } },
    },
  };
}

const DOCUMENT = { openapi: '3.0.3', info: { title: 'Features', version: '1.0.0' }, paths: { ...collection('features', true), ...collection('experiments', false) } };

describe('records whose schema no value meets (GrowthBook\'s features and experiments)', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it('a record the client names is kept under its name, and deleted there', async () => {
    const created = await served.client.send('POST', '/features', { json: { id: 'dark-mode', owner: 'ana' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ feature: { id: 'dark-mode', owner: 'ana' } });
    expect((await served.client.send('DELETE', '/features/dark-mode')).status).toBe(204);
    expect((await served.client.send('DELETE', '/features/dark-mode')).status).toBe(404);
  });

  it("a record of the mock's own key is answered under the key it is kept under, and deleted there", async () => {
    const created = await served.client.send('POST', '/experiments', { json: { owner: 'ana' } });
    expect(created.status).toBe(200);
    const key = (created.body as { feature: { id: string } }).feature.id;
    expect((await served.client.send('DELETE', `/experiments/${encodeURIComponent(key)}`)).status).toBe(204);
  });
});
