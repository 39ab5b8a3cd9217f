import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { buildContract } from './contract/index.js';
import { createRouter } from './router.js';
import { bundledContract } from './test-support.js';

describe('router', async () => {
  const { contract } = await bundledContract();
  const router = createRouter(contract);

  it.each([
    ['GET', '/pets', 'listPets', {}],
    ['POST', '/pets', 'createPet', {}],
    ['GET', '/pets/12', 'getPet', { petId: '12' }],
    ['HEAD', '/pets/12', 'getPet', { petId: '12' }],
    ['PATCH', '/store/orders/3', 'updateOrder', { orderId: '3' }],
    ['GET', '/store/inventory', 'listInventory', {}],
    ['PUT', '/store/inventory/9', 'updateInventory', { petId: '9' }],
    ['GET', '/pets/%E2%82%AC', 'getPet', { petId: '€' }],
  ])('%s %s → %s', (method, path, operationId, params) => {
    const match = router.match(method, path);
    expect(match.kind).toBe('match');
    if (match.kind === 'match') {
      expect(match.operation.operationId).toBe(operationId);
      expect(match.pathParams).toEqual(params);
    }
  });

  it.each(['/petz', '/pets/1/extra', '/pets/', '/', '/store', '/pets/%E2%82', ''])('%s is an unknown path', (path) => {
    expect(router.match('GET', path)).toEqual({ kind: 'no-path' });
  });

  it('names exactly the documented methods of a known path with a wrong method', () => {
    expect(router.match('PATCH', '/pets/1')).toEqual({ kind: 'no-method', pathTemplate: '/pets/{petId}', allow: ['GET', 'PUT', 'DELETE'] });
    expect(router.match('DELETE', '/store/inventory')).toEqual({ kind: 'no-method', pathTemplate: '/store/inventory', allow: ['GET'] });
  });

  it('serves under a base path, and nothing outside it', () => {
    const prefixed = createRouter(contract, '/api/v1/');
    expect(prefixed.match('GET', '/api/v1/pets').kind).toBe('match');
    expect(prefixed.match('GET', '/pets').kind).toBe('no-path');
    expect(prefixed.match('GET', '/api/v10/pets').kind).toBe('no-path');
  });
});

describe('router: one position named differently by two templates', () => {
  it('names each parameter as the matched template does (Twilio: /Brands/{Sid} beside /Brands/{BrandSid}/Vettings)', async () => {
    const { buildContract } = await import('./contract/index.js');
    const responses = { '200': { description: 'ok' } };
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/brands/{Sid}': { get: { operationId: 'fetchBrand', responses } },
        '/brands/{BrandSid}/vettings/{VettingSid}': { get: { operationId: 'fetchVetting', responses } },
      },
    };
    const router = createRouter(buildContract({ file: '/tmp/t.yaml', sha256: '0'.repeat(64), document }, { strict: false }));
    expect(router.match('GET', '/brands/BN1')).toMatchObject({ kind: 'match', pathParams: { Sid: 'BN1' } });
    expect(router.match('GET', '/brands/BN1/vettings/VT2')).toMatchObject({ kind: 'match', pathParams: { BrandSid: 'BN1', VettingSid: 'VT2' } });
  });
});

describe('router on foreign templates (Twilio, Discourse)', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const paths: OpenAPIV3.PathsObject = {
    '/Accounts/{Sid}.json': { get: { operationId: 'fetchAccount', ...ok }, post: { operationId: 'updateAccount', ...ok } },
    '/Accounts/{AccountSid}/Calls/{Sid}.json': { get: { operationId: 'fetchCall', ...ok } },
    '/v{version}/status': { get: { operationId: 'status', ...ok } },
    '/groups/{name}.json': { get: { operationId: 'getGroup', ...ok } },
    '/groups/{id}.json': { put: { operationId: 'updateGroup', ...ok } },
    '/groups/{id}': { get: { operationId: 'getGroupPlain', ...ok } },
  };
  const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
  const router = createRouter(buildContract({ file: '/tmp/router.yaml', sha256: '0'.repeat(64), document }, { strict: false }));

  it.each([
    ['GET', '/Accounts/AC123.json', 'fetchAccount', { Sid: 'AC123' }],
    ['POST', '/Accounts/AC123.json', 'updateAccount', { Sid: 'AC123' }],
    ['GET', '/Accounts/AC1/Calls/CA2.json', 'fetchCall', { AccountSid: 'AC1', Sid: 'CA2' }],
    ['GET', '/v2/status', 'status', { version: '2' }],
    ['GET', '/groups/staff.json', 'getGroup', { name: 'staff' }],
    ['PUT', '/groups/41.json', 'updateGroup', { id: '41' }],
    ['GET', '/groups/41', 'getGroupPlain', { id: '41' }],
  ])('a parameter between literal text in one segment: %s %s → %s', (method, path, operationId, params) => {
    const match = router.match(method, path);
    expect(match.kind === 'match' ? [match.operation.operationId, match.pathParams] : match).toEqual([operationId, params]);
  });

  it('answers 405 with the methods of both same-shape templates, and no match for an empty parameter', () => {
    expect(router.match('PATCH', '/groups/41.json')).toMatchObject({ kind: 'no-method', allow: ['GET', 'PUT'] });
    expect(router.match('PATCH', '/Accounts/AC1.json')).toMatchObject({ kind: 'no-method', allow: ['GET', 'POST'] });
    expect(router.match('GET', '/Accounts/.json').kind).toBe('no-path');
  });
});

/**
 * OpenAPI 3.0.3 §4.7.8: "concrete (non-templated) paths would be matched before their templated counterparts" — an
 * order of trial, not an exclusion. Box's metadata paths: the literal `global` of the concrete path led nowhere for
 * `properties`, and the router did not go back to `{scope}`: 45 findings answered 404 ROUTE_NOT_FOUND.
 */
describe('router: a concrete path falls back to its templated counterpart (Box metadata)', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const paths: OpenAPIV3.PathsObject = {
    '/files/{file_id}/metadata/{scope}/{template_key}': {
      get: { operationId: 'templateGet', ...ok },
      post: { operationId: 'templatePost', ...ok },
      put: { operationId: 'templatePut', ...ok },
      delete: { operationId: 'templateDelete', ...ok },
    },
    '/files/{file_id}/metadata/global/boxSkillsCards': { get: { operationId: 'skillsGet', ...ok } },
    '/files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo': { get: { operationId: 'classificationGet', ...ok } },
    '/metadata_templates/global': { get: { operationId: 'globalTemplates', ...ok } },
    '/metadata_templates/{template_id}': { get: { operationId: 'templateById', ...ok } },
    '/metadata_templates/{scope}/{template_key}/schema': { get: { operationId: 'templateSchema', ...ok } },
    '/v{version}/files/{file_id}.json': { get: { operationId: 'versionedFile', ...ok } },
    '/v{version}/files/latest.json': { get: { operationId: 'latestFile', ...ok } },
  };
  const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
  const router = createRouter(buildContract({ file: '/tmp/precedence.yaml', sha256: '0'.repeat(64), document }, { strict: false }));

  it.each([
    // The concrete path where it serves the request.
    ['GET', '/files/1/metadata/global/boxSkillsCards', 'skillsGet', { file_id: '1' }],
    ['GET', '/files/1/metadata/enterprise/securityClassification-6VMVochwUWo', 'classificationGet', { file_id: '1' }],
    ['HEAD', '/files/1/metadata/global/boxSkillsCards', 'skillsGet', { file_id: '1' }],
    // A literal segment that leads nowhere: back to the template (was 404).
    ['GET', '/files/1/metadata/global/properties', 'templateGet', { file_id: '1', scope: 'global', template_key: 'properties' }],
    ['GET', '/files/1/metadata/enterprise/properties', 'templateGet', { file_id: '1', scope: 'enterprise', template_key: 'properties' }],
    ['GET', '/metadata_templates/global/properties/schema', 'templateSchema', { scope: 'global', template_key: 'properties' }],
    ['GET', '/metadata_templates/global', 'globalTemplates', {}],
    ['GET', '/metadata_templates/abc', 'templateById', { template_id: 'abc' }],
    // A method the concrete path lacks and the template has: the template's (was 405).
    ['POST', '/files/1/metadata/global/boxSkillsCards', 'templatePost', { file_id: '1', scope: 'global', template_key: 'boxSkillsCards' }],
    ['DELETE', '/files/1/metadata/enterprise/securityClassification-6VMVochwUWo', 'templateDelete', { file_id: '1', scope: 'enterprise', template_key: 'securityClassification-6VMVochwUWo' }],
    // Through a parameter between literal text, too.
    ['GET', '/v2/files/latest.json', 'latestFile', { version: '2' }],
    ['GET', '/v2/files/9.json', 'versionedFile', { version: '2', file_id: '9' }],
  ])('%s %s → %s', (method, path, operationId, params) => {
    const match = router.match(method, path);
    expect(match.kind === 'match' ? [match.operation.operationId, match.pathParams] : match).toEqual([operationId, params]);
  });

  it('answers 405 only where no matching path has the method, with every method of every path that matches', () => {
    expect(router.match('PATCH', '/files/1/metadata/global/boxSkillsCards')).toEqual({ kind: 'no-method', pathTemplate: '/files/{file_id}/metadata/global/boxSkillsCards', allow: ['GET', 'POST', 'PUT', 'DELETE'] });
    expect(router.match('PATCH', '/files/1/metadata/global/properties')).toEqual({ kind: 'no-method', pathTemplate: '/files/{file_id}/metadata/{scope}/{template_key}', allow: ['GET', 'POST', 'PUT', 'DELETE'] });
    expect(router.match('POST', '/metadata_templates/global')).toEqual({ kind: 'no-method', pathTemplate: '/metadata_templates/global', allow: ['GET'] });
    expect(router.match('GET', '/files/1/metadata/global/a/b')).toEqual({ kind: 'no-path' });
    expect(router.match('GET', '/files/1/metadata/global')).toEqual({ kind: 'no-path' });
  });
});

/**
 * A path key's `#fragment` is never sent (RFC 3986 §3.5); Mistral's document holds two operations of one path and
 * method apart with one (`/v1/conversations#stream`) and names overloads with it (`#idOrName`, `#id`). They were only
 * reached by a client sending a literal `%23id`.
 */
describe('router: path keys with a #fragment are routed by the wire path (Mistral)', () => {
  const ok = { responses: { '200': { description: 'ok' } } };
  const paths: OpenAPIV3.PathsObject = {
    // The fragment key first in the document: the key without a fragment still wins for the method both have.
    '/v1/conversations#stream': { post: { operationId: 'startStream', ...ok } },
    '/v1/conversations': { post: { operationId: 'start', ...ok }, get: { operationId: 'list', ...ok } },
    '/v1/connectors/{connector_id_or_name}#idOrName': { get: { operationId: 'getConnector', ...ok } },
    '/v1/connectors/{connector_id}#id': { patch: { operationId: 'updateConnector', ...ok }, delete: { operationId: 'deleteConnector', ...ok } },
    '/v1/things/{id}#one': { get: { operationId: 'thingOne', ...ok } },
    '/v1/things/{id}#two': { get: { operationId: 'thingTwo', ...ok }, put: { operationId: 'thingTwoPut', ...ok } },
  };
  const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
  const router = createRouter(buildContract({ file: '/tmp/fragments.yaml', sha256: '0'.repeat(64), document }, { strict: false }));

  it.each([
    ['GET', '/v1/connectors/abc', 'getConnector', { connector_id_or_name: 'abc' }],
    ['PATCH', '/v1/connectors/abc', 'updateConnector', { connector_id: 'abc' }],
    ['DELETE', '/v1/connectors/abc', 'deleteConnector', { connector_id: 'abc' }],
    ['POST', '/v1/conversations', 'start', {}],
    ['GET', '/v1/conversations', 'list', {}],
    // Two fragment keys of one method: the first in the document's order.
    ['GET', '/v1/things/7', 'thingOne', { id: '7' }],
    ['PUT', '/v1/things/7', 'thingTwoPut', { id: '7' }],
  ])('%s %s → %s', (method, path, operationId, params) => {
    const match = router.match(method, path);
    expect(match.kind === 'match' ? [match.operation.operationId, match.pathParams] : match).toEqual([operationId, params]);
  });

  it('names in Allow the methods of every key of the wire path, and never matches the fragment as text', () => {
    expect(router.match('PUT', '/v1/connectors/abc')).toEqual({ kind: 'no-method', pathTemplate: '/v1/connectors/{connector_id_or_name}', allow: ['GET', 'PATCH', 'DELETE'] });
    expect(router.match('DELETE', '/v1/conversations')).toEqual({ kind: 'no-method', pathTemplate: '/v1/conversations', allow: ['POST', 'GET'] });
    expect(router.match('GET', '/v1/connectors/abc%23idOrName')).toMatchObject({ kind: 'match', pathParams: { connector_id_or_name: 'abc#idOrName' } });
    expect(router.match('POST', '/v1/conversations%23stream').kind).toBe('no-path');
  });
});
