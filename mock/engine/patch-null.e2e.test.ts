/**
 * A PATCH that sets a member to null (WorkOS's permissions, unseen by the kit's tests before: `description: [string,
 * "null"]`, OpenAPI 3.1): in a plain `application/json` PATCH, null is a value the schema allows, and the record
 * holds it; only a merge patch (RFC 7396, `application/merge-patch+json`) reads null as "remove the member". Before,
 * every generic PATCH was read as a merge patch, and the old text came back. Checked in both dialects' ways of saying
 * nullable (3.1's type list, 3.0's `nullable`), and a member that cannot be null is still removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };

function document(openapi: '3.0.3' | '3.1.0'): unknown {
  const nullableText = openapi === '3.1.0' ? { type: ['string', 'null'] } : { type: 'string', nullable: true };
  const permission = { type: 'object', required: ['slug', 'description'], properties: { slug: { type: 'string', readOnly: true }, description: nullableText, note: { type: 'string' } } };
  const patch = { type: 'object', properties: { description: nullableText, note: { type: 'string', nullable: true } } };
  const json = (schema: unknown, media = 'application/json'): unknown => ({ [media]: { schema } });
  const collection = (name: string, media: string): Record<string, unknown> => ({
    [`/${name}`]: {
      post: {
        operationId: `create_${name}`,
        requestBody: { required: true, content: json({ type: 'object', required: ['description'], properties: { description: nullableText, note: { type: 'string' } } }) },
        responses: { '201': { description: 'created', content: json(permission) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    [`/${name}/{slug}`]: {
      parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get_${name}`, responses: { '200': { description: 'one', content: json(permission) }, '404': { description: 'none', content: json(ERROR) } } },
      patch: {
        operationId: `patch_${name}`,
        requestBody: { required: true, content: json(patch, media) },
        responses: { '200': { description: 'patched', content: json(permission) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  });
  return { openapi, info: { title: 'Permissions', version: '1.0.0' }, paths: { ...collection('permissions', 'application/json'), ...collection('merged', 'application/merge-patch+json') } };
}

describe.each(['3.1.0', '3.0.3'] as const)('a PATCH to null, OpenAPI %s', (openapi) => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(document(openapi));
  });
  afterAll(() => served?.close());

  const created = async (collection: string): Promise<string> => {
    const answer = await served.client.send('POST', `/${collection}`, { json: { description: 'Allows viewing documents', note: 'first' } });
    expect(answer.status).toBe(201);
    return String((answer.body as { slug: string }).slug);
  };

  it('sets a member that may be null to null in an application/json PATCH, and keeps it so', async () => {
    const slug = await created('permissions');
    const patched = await served.client.send('PATCH', `/permissions/${encodeURIComponent(slug)}`, { json: { description: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: null, note: 'first' });
    expect((await served.client.send('GET', `/permissions/${encodeURIComponent(slug)}`)).body).toMatchObject({ description: null, note: 'first' });
  });

  it('removes a member that cannot be null, and reads null as removal in a merge patch', async () => {
    const slug = await created('permissions');
    const patched = await served.client.send('PATCH', `/permissions/${encodeURIComponent(slug)}`, { json: { note: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).not.toHaveProperty('note');
    const merged = await created('merged');
    const removed = await served.client.send('PATCH', `/merged/${encodeURIComponent(merged)}`, { json: { note: null }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('note');
  });
});
