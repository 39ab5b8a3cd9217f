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
