/**
 * Where two path keys of a document match one request, the mock routes it as a server built from the document would.
 *
 * - A concrete path before its templated counterpart (OpenAPI 3.0.3 §4.7.8) is an order of trial, not an exclusion
 *   (Box's metadata): beside `/files/{file_id}/metadata/{scope}/{template_key}`, the concrete
 *   `/files/{file_id}/metadata/global/boxSkillsCards` made every `.../global/<other key>` a 404 ROUTE_NOT_FOUND, and a
 *   POST on `.../global/boxSkillsCards` (only GET there) a 405, though the template serves both. Now the template
 *   answers them, as find-my-way (fastify: static, then parametric, per method) and Prism (path and method, then the
 *   concrete one first) route them; a 405 only where no matching path has the method, its `Allow` the union.
 * - A `#fragment` in a path key is never sent (RFC 3986 §3.5; Mistral's `/v1/conversations#stream`,
 *   `/v1/connectors/{connector_id_or_name}#idOrName` beside `/v1/connectors/{connector_id}#id`): the keys are routed by
 *   the path before the `#`. Before, `GET /v1/connectors/abc` was a 404; only `/v1/connectors/abc%23idOrName` matched.
 *
 * Each operation answers a marker of its own (`served`, an enum of one value), so the answer says which one was
 * reached, and the client checks every answer against the operation its own router matched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const answer = (served: string, status = '200'): Record<string, unknown> => ({
  [status]: {
    description: served,
    content: { 'application/json': { schema: { type: 'object', required: ['served'], properties: { served: { type: 'string', enum: [served] } } }, example: { served } } },
  },
});
const operation = (operationId: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ operationId, responses: { ...answer(operationId), '400': { description: 'refused' } }, ...extra });
const withBody = { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } } };
const param = (name: string, schema: Record<string, unknown> = { type: 'string' }): Record<string, unknown> => ({ name, in: 'path', required: true, schema });

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Overlapping paths', version: '1.0.0' },
  paths: {
    '/files/{file_id}/metadata/{scope}/{template_key}': {
      parameters: [param('file_id'), param('scope', { type: 'string', enum: ['global', 'enterprise'] }), param('template_key')],
      get: operation('templateGet'),
      post: operation('templatePost', withBody),
      put: operation('templatePut', withBody),
      delete: operation('templateDelete'),
    },
    '/files/{file_id}/metadata/global/boxSkillsCards': { parameters: [param('file_id')], get: operation('skillsGet') },
    '/files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo': { parameters: [param('file_id')], get: operation('classificationGet') },
    // Mistral's shapes; the fragment key first in the document, so the rule (no fragment first) is what decides.
    '/v1/conversations#stream': { post: operation('startStream', withBody) },
    '/v1/conversations': { post: operation('start', withBody), get: operation('list') },
    '/v1/connectors/{connector_id_or_name}#idOrName': { parameters: [param('connector_id_or_name')], get: operation('getConnector') },
    '/v1/connectors/{connector_id}#id': { parameters: [param('connector_id', { type: 'string', format: 'uuid' })], patch: operation('updateConnector', withBody), delete: operation('deleteConnector') },
  },
};

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('overlapping path keys: a concrete path falls back to its template, a #fragment is not on the wire', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it.each([
    ['GET', '/files/12345/metadata/global/boxSkillsCards', 'skillsGet'],
    ['GET', '/files/12345/metadata/enterprise/securityClassification-6VMVochwUWo', 'classificationGet'],
    // Was 404 ROUTE_NOT_FOUND: the literal `global` (or `enterprise`) led nowhere for `properties`.
    ['GET', '/files/12345/metadata/global/properties', 'templateGet'],
    ['GET', '/files/12345/metadata/enterprise/properties', 'templateGet'],
    ['PUT', '/files/12345/metadata/global/properties', 'templatePut'],
    // Was 405 (Allow: GET): a method the concrete path lacks is the template's.
    ['POST', '/files/12345/metadata/global/boxSkillsCards', 'templatePost'],
    ['DELETE', '/files/12345/metadata/enterprise/securityClassification-6VMVochwUWo', 'templateDelete'],
    // Were 404: the keys hold a #fragment no client sends.
    ['GET', '/v1/connectors/abc', 'getConnector'],
    ['PATCH', `/v1/connectors/${UUID}`, 'updateConnector'],
    ['DELETE', `/v1/connectors/${UUID}`, 'deleteConnector'],
    // Two keys share the wire path and method: the one without a fragment answers.
    ['POST', '/v1/conversations', 'start'],
    ['GET', '/v1/conversations', 'list'],
  ])('%s %s is answered by %s', async (method, path, operationId) => {
    const exchange = await served.client.send(method, path, ['POST', 'PUT', 'PATCH'].includes(method) ? { json: {} } : {});
    expect([exchange.status, exchange.body]).toEqual([200, { served: operationId }]);
  });

  it('reads each parameter by the name its own key gives it (the uuid of `#id`, a name for `#idOrName`)', async () => {
    expect((await served.client.send('PATCH', '/v1/connectors/abc', { json: {} })).status).toBe(400);
    expect((await served.client.send('GET', '/v1/connectors/abc')).status).toBe(200);
  });

  it('answers 405 only where no path matching the URL has the method, with the methods of all of them', async () => {
    const cases: [string, string, string][] = [
      ['PATCH', '/files/12345/metadata/global/boxSkillsCards', 'GET, POST, PUT, DELETE'],
      ['PATCH', '/files/12345/metadata/global/properties', 'GET, POST, PUT, DELETE'],
      ['PUT', '/v1/connectors/abc', 'GET, PATCH, DELETE'],
      ['DELETE', '/v1/conversations', 'POST, GET'],
    ];
    for (const [method, path, allow] of cases) {
      const exchange = await served.client.send(method, path, method === 'PUT' ? { json: {} } : {});
      expect([method, path, exchange.status, exchange.headers['allow']]).toEqual([method, path, 405, allow]);
    }
  });
});
