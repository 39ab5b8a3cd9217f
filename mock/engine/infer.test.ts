/**
 * What the generic engine infers from a document (infer.ts), and the corrections a user writes without code.
 * Documents are built in memory, already dereferenced (as load.ts leaves them): shared schema objects stand for $refs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { buildContract } from '../../src/contract/index.js';
import { mergePatch } from './engine.js';
import { inferResources, namedResourceOf, ownerOf, parentItemPath, parentOf, type MockOverlay } from './infer.js';

type Paths = OpenAPIV3.PathsObject;
const json = (schema: OpenAPIV3.SchemaObject): { content: { 'application/json': { schema: OpenAPIV3.SchemaObject } } } => ({ content: { 'application/json': { schema } } });
const ok = (schema: OpenAPIV3.SchemaObject, status = '200'): OpenAPIV3.ResponsesObject => ({ [status]: { description: 'ok', ...json(schema) } });
const param = (name: string, schema: OpenAPIV3.SchemaObject = { type: 'string' }): OpenAPIV3.ParameterObject => ({ name, in: 'path', required: true, schema });

function mapOf(paths: Paths, overlay?: MockOverlay) {
  const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
  return inferResources(buildContract({ file: '/tmp/t.yaml', sha256: '0'.repeat(64), document }, { strict: false }), overlay);
}

const Widget: OpenAPIV3.SchemaObject = {
  allOf: [
    { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    { type: 'object', properties: { widgetId: { type: 'string', format: 'uuid', readOnly: true } } },
  ],
};

function crud(collection: string, item: string, schema: OpenAPIV3.SchemaObject, id: OpenAPIV3.ParameterObject, list: OpenAPIV3.SchemaObject = { type: 'array', items: schema }): Paths {
  return {
    [collection]: {
      get: { operationId: `list ${collection}`, responses: ok(list) },
      post: { operationId: `create ${collection}`, requestBody: json(schema), responses: ok(schema, '201') },
    },
    [item]: {
      parameters: [id],
      get: { operationId: `read ${item}`, responses: ok(schema) },
      put: { operationId: `replace ${item}`, requestBody: json(schema), responses: ok(schema) },
      patch: { operationId: `update ${item}`, requestBody: json(schema), responses: ok(schema) },
      delete: { operationId: `delete ${item}`, responses: { '204': { description: 'gone' } } },
    },
  };
}

describe('inferResources', () => {
  it('finds the id field through allOf, named <thing>Id, and its kind from the path parameter (uuid)', () => {
    const [widgets] = mapOf(crud('/widgets', '/widgets/{id}', Widget, param('id', { type: 'string', format: 'uuid' }))).resources;
    expect(widgets).toMatchObject({ key: '/widgets', idParam: 'id', idField: 'widgetId', idKind: 'uuid', upsert: false });
    expect(widgets!.roles).toEqual({ list: 'list /widgets', create: 'create /widgets', read: 'read /widgets/{id}', replace: 'replace /widgets/{id}', update: 'update /widgets/{id}', delete: 'delete /widgets/{id}' });
  });

  it('finds the id field through oneOf branches, and an integer kind', () => {
    const Animal: OpenAPIV3.SchemaObject = { oneOf: [{ type: 'object', properties: { id: { type: 'integer' }, bark: { type: 'boolean' } } }, { type: 'object', properties: { id: { type: 'integer' }, meow: { type: 'boolean' } } }] };
    const [animals] = mapOf(crud('/animals', '/animals/{animalId}', Animal, param('animalId', { type: 'integer' }))).resources;
    expect(animals).toMatchObject({ idField: 'id', idKind: 'integer', idIsNumber: true });
  });

  it('scopes a nested collection to its parent and reads envelopes, totals, cursors, paging and filters', () => {
    const Comment: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' }, author: { type: 'string' } } };
    const envelope: OpenAPIV3.SchemaObject = { type: 'object', properties: { data: { type: 'array', items: Comment }, total_count: { type: 'integer' }, next_cursor: { type: 'string' } } };
    const paths = crud('/posts/{postId}/comments', '/posts/{postId}/comments/{commentId}', Comment, param('commentId'), envelope);
    paths['/posts/{postId}/comments']!.get!.parameters = [param('postId'), { name: 'author', in: 'query', schema: { type: 'string' } }, { name: 'per_page', in: 'query', schema: { type: 'integer' } }, { name: 'cursor', in: 'query', schema: { type: 'string' } }];
    paths['/posts/{postId}/comments']!.post!.parameters = [param('postId')];
    paths['/posts/{postId}/comments/{commentId}']!.parameters = [param('postId'), param('commentId')];
    const [comments] = mapOf(paths).resources;
    expect(comments).toMatchObject({ scopeParams: ['postId'], idParam: 'commentId', idField: 'id' });
    expect(comments!.list).toMatchObject({ shape: { kind: 'envelope', itemsKey: 'data', totalKey: 'total_count', cursorKey: 'next_cursor' }, paging: { limit: 'per_page', cursor: 'cursor' } });
    expect([...comments!.list!.filters]).toEqual([['author', 'author']]);
  });

  it('takes PUT on an item as the create where the collection has no POST', () => {
    const Setting: OpenAPIV3.SchemaObject = { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } };
    const paths = crud('/settings', '/settings/{key}', Setting, param('key'));
    delete paths['/settings']!.post;
    const [settings] = mapOf(paths).resources;
    expect(settings).toMatchObject({ upsert: true, idField: 'key', idKind: 'string' });
    expect(settings!.roles.create).toBeUndefined();
  });

  it('obeys x-mock-id, x-mock-collection: false and x-mock-stateless, in the document or an overlay', () => {
    const Thing: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'integer' }, slug: { type: 'string' } } };
    const paths = crud('/things', '/things/{ref}', Thing, param('ref'));
    expect(mapOf(paths).resources[0]).toMatchObject({ idField: 'id' });
    (paths['/things/{ref}'] as Record<string, unknown>)['x-mock-id'] = 'slug';
    expect(mapOf(paths).resources[0]).toMatchObject({ idField: 'slug' });
    expect(mapOf(paths, { paths: { '/things/{ref}': { 'x-mock-id': 'id' } } }).resources[0]).toMatchObject({ idField: 'id' });
    const stateless = mapOf(paths, { operations: { 'delete /things/{ref}': { 'x-mock-stateless': true } } });
    expect(stateless.resources[0]!.roles.delete).toBeUndefined();
    expect(stateless.roles.has('delete /things/{ref}')).toBe(false);
    (paths['/things'] as Record<string, unknown>)['x-mock-collection'] = false;
    expect(mapOf(paths).resources).toEqual([]);
  });

  it('leaves an action or a search stateless', () => {
    const paths: Paths = { '/search': { post: { operationId: 'search', responses: ok({ type: 'array', items: { type: 'string' } }) } } };
    const map = mapOf(paths);
    expect(map.resources).toEqual([]);
    expect(map.roles.size).toBe(0);
  });
});

describe('mergePatch (RFC 7396)', () => {
  it('merges member by member, removes on null, replaces arrays and scalars', () => {
    expect(mergePatch({ a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] }, { a: 'z', c: { f: null }, list: [3] })).toEqual({ a: 'z', c: { d: 'e' }, list: [3] });
    // RFC 7396 appendix A: a patch that is not an object replaces the whole target.
    expect(mergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
  });
});

describe('a format suffix on the paths (Twilio, Discourse: `/Calls.json`, `/Calls/{Sid}.json`)', () => {
  const Call: OpenAPIV3.SchemaObject = { type: 'object', properties: { sid: { type: 'string' }, to: { type: 'string' } } };
  const Account: OpenAPIV3.SchemaObject = { type: 'object', properties: { sid: { type: 'string' } } };
  const map = mapOf({
    ...crud('/Accounts.json', '/Accounts/{Sid}.json', Account, param('Sid')),
    ...crud('/Accounts/{AccountSid}/Calls.json', '/Accounts/{AccountSid}/Calls/{Sid}.json', Call, param('Sid')),
  });

  it('infers the resource, named without the suffix, nested under the parent item that carries it', () => {
    const calls = map.resources.find((r) => r.key === '/Accounts/{AccountSid}/Calls.json');
    expect(calls).toMatchObject({ name: 'Calls', suffix: '.json', idParam: 'Sid', idField: 'sid', scopeParams: ['AccountSid'], itemPath: '/Accounts/{AccountSid}/Calls/{Sid}.json' });
    expect(parentItemPath(calls!)).toBe('/Accounts/{AccountSid}.json');
    expect(parentOf(calls!, map.resources)?.key).toBe('/Accounts.json');
    expect(map.resources.find((r) => r.key === '/Accounts.json')).toMatchObject({ name: 'Accounts', roles: { create: 'create /Accounts.json', read: 'read /Accounts/{Sid}.json' } });
  });
});

describe('namedResourceOf: a path parameter outside the item path that names a record by its id parameter (Svix `/auth/app-portal-access/{app_id}`)', () => {
  const App: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
  const action = (status: string): OpenAPIV3.OperationObject => ({ operationId: `portal ${status}`, parameters: [param('app_id')], responses: { ...ok({ type: 'object' }), [status]: { description: 'no' } } });
  function build(extra: Paths) {
    const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { ...crud('/app', '/app/{app_id}', App, param('app_id')), ...extra } };
    const contract = buildContract({ file: '/tmp/t.yaml', sha256: '0'.repeat(64), document }, { strict: false });
    return { contract, map: inferResources(contract) };
  }

  it('names the resource whose id parameter it shares, when the operation documents a 404', () => {
    const { contract, map } = build({ '/auth/portal/{app_id}': { post: action('404') } });
    expect(namedResourceOf(contract.operationsById.get('portal 404')!, map.resources)).toMatchObject({ resource: { key: '/app' }, param: 'app_id' });
  });

  it('names none when the operation documents no 404, or the parameter is a bare `id` many resources could mean', () => {
    const { contract, map } = build({ '/auth/portal/{app_id}': { post: action('409') } });
    expect(namedResourceOf(contract.operationsById.get('portal 409')!, map.resources)).toBeUndefined();
    const bare = build({ ...crud('/things', '/things/{id}', App, param('id')), '/do/{id}': { post: { operationId: 'do', parameters: [param('id')], responses: { ...ok({ type: 'object' }), '404': { description: 'no' } } } } });
    expect(namedResourceOf(bare.contract.operationsById.get('do')!, bare.map.resources)).toBeUndefined();
  });
});

describe('an item path with no GET (Adyen `PATCH /scaDevices/{deviceId}`)', () => {
  const Device: OpenAPIV3.SchemaObject = { type: 'object', properties: { name: { type: 'string' } } };
  const deviceId = param('deviceId', { type: 'string', minLength: 30, maxLength: 30 });
  const writesOnly = (collection: OpenAPIV3.PathItemObject): Paths => ({
    '/scaDevices': collection,
    '/scaDevices/{deviceId}': { parameters: [deviceId], patch: { operationId: 'finish', requestBody: json(Device), responses: { ...ok(Device), '404': { description: 'no' } } } },
  });

  it('is a resource when its collection has a create: no read role, the path parameter schema kept for ids', () => {
    const [devices] = mapOf(writesOnly({ post: { operationId: 'begin', requestBody: json(Device), responses: ok(Device, '201') } })).resources;
    expect(devices).toMatchObject({ key: '/scaDevices', idParam: 'deviceId', idKind: 'string', idSchema: { minLength: 30 }, roles: { create: 'begin', update: 'finish' } });
    expect(devices!.roles.read).toBeUndefined();
  });

  it('is no resource without a create or a list on its collection', () => {
    expect(mapOf(writesOnly({})).resources).toEqual([]);
  });
});

describe('a list envelope with a total and a page count (Adyen `{ data, itemsTotal, pagesTotal }`)', () => {
  it('names both keys, so the answer counts the matching records and their pages instead of inventing numbers', () => {
    const Store: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' }, merchantId: { type: 'string' } } };
    const page: OpenAPIV3.SchemaObject = { type: 'object', properties: { data: { type: 'array', items: Store }, itemsTotal: { type: 'integer' }, pagesTotal: { type: 'integer' } } };
    const [stores] = mapOf(crud('/stores', '/stores/{storeId}', Store, param('storeId'), page)).resources;
    expect(stores!.list!.shape).toMatchObject({ kind: 'envelope', itemsKey: 'data', totalKey: 'itemsTotal', pagesKey: 'pagesTotal' });
  });
});

describe('ownerOf: the resource an operation path extends, whatever it names the id (Adyen `/paymentInstruments/{paymentInstrumentId}/authorisedCardUsers`)', () => {
  it('matches the item path by shape and gives the operation its own parameter names', () => {
    const Instrument: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' } } };
    const paths: Paths = { ...crud('/paymentInstruments', '/paymentInstruments/{id}', Instrument, param('id')), '/paymentInstruments/{paymentInstrumentId}/authorisedCardUsers': { get: { operationId: 'users', parameters: [param('paymentInstrumentId')], responses: ok({ type: 'object' }) } } };
    const document: OpenAPIV3.Document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths };
    const contract = buildContract({ file: '/tmp/t.yaml', sha256: '0'.repeat(64), document }, { strict: false });
    expect(ownerOf(contract.operationsById.get('users')!, inferResources(contract).resources)).toMatchObject({ resource: { key: '/paymentInstruments' }, params: ['paymentInstrumentId'] });
  });
});

describe('records that travel in a named array envelope (Xero: `{ "Items": [ {...} ] }`)', () => {
  const Item: OpenAPIV3.SchemaObject = { type: 'object', required: ['Code'], properties: { ItemID: { type: 'string', format: 'uuid' }, Code: { type: 'string' }, Name: { type: 'string' } } };
  const Warning: OpenAPIV3.SchemaObject = { type: 'object', properties: { Message: { type: 'string' } } };
  const Items: OpenAPIV3.SchemaObject = { type: 'object', properties: { pagination: { type: 'object', properties: { page: { type: 'integer' } } }, Warnings: { type: 'array', items: Warning }, Items: { type: 'array', items: Item } } };
  const itemId = param('ItemID', { type: 'string', format: 'uuid' });
  const ledger = (extra: Partial<Record<'collection' | 'item', OpenAPIV3.PathItemObject>> = {}): Paths => ({
    '/Items': {
      get: { operationId: 'getItems', responses: ok(Items) },
      put: { operationId: 'createItems', summary: 'Creates one or more items', requestBody: json(Items), responses: ok(Items) },
      post: { operationId: 'updateOrCreateItems', summary: 'Updates or creates one or more items', requestBody: json(Items), responses: ok(Items) },
      ...extra.collection,
    },
    '/Items/{ItemID}': {
      parameters: [itemId],
      get: { operationId: 'getItem', responses: ok(Items) },
      post: { operationId: 'updateItem', requestBody: json(Items), responses: ok(Items) },
      delete: { operationId: 'deleteItem', responses: { '204': { description: 'gone' } } },
      ...extra.item,
    },
  });

  it('takes the array member named as the collection for the records: the id field is found, the list reads it too', () => {
    const [items] = mapOf(ledger()).resources;
    expect(items).toMatchObject({ batchKey: 'Items', recordSchema: Item, idField: 'ItemID', idKind: 'uuid' });
    expect(items!.why).toBe('id field ItemID (uuid), records in .Items[]');
    // Beside `Warnings`, another array: the list's records are the batch key's, not a bare array.
    expect(items!.list!.shape).toMatchObject({ kind: 'envelope', itemsKey: 'Items' });
  });

  it('makes PUT on the collection the create when it says so, its POST the create-or-update, the item POST the update', () => {
    const [items] = mapOf(ledger()).resources;
    expect(items!.roles).toEqual({ list: 'getItems', create: 'createItems', createOrUpdate: 'updateOrCreateItems', read: 'getItem', update: 'updateItem', delete: 'deleteItem' });
    // A PUT that documents 201 creates whatever it is called; one that neither says nor documents it leaves POST the create.
    const documented = mapOf(ledger({ collection: { put: { operationId: 'putItems', requestBody: json(Items), responses: ok(Items, '201') } } })).resources[0]!;
    expect(documented.roles).toMatchObject({ create: 'putItems', createOrUpdate: 'updateOrCreateItems' });
    const silent = mapOf(ledger({ collection: { put: { operationId: 'replaceAllItems', requestBody: json(Items), responses: ok(Items) } } })).resources[0]!;
    expect(silent.roles).toMatchObject({ create: 'updateOrCreateItems' });
    expect(silent.roles.createOrUpdate).toBeUndefined();
  });

  it('leaves stateless a POST whose words say it deletes, and an item POST sent something else than the record', () => {
    const Delete: OpenAPIV3.SchemaObject = { type: 'object', properties: { Status: { type: 'string' } } };
    const [items] = mapOf(
      ledger({
        collection: { post: { operationId: 'deleteItems', summary: 'Deletes one or more items', requestBody: json(Delete), responses: ok(Items) } },
        item: { post: { operationId: 'archiveItem', requestBody: json(Delete), responses: ok(Items) } },
      }),
    ).resources;
    expect(items!.roles).toEqual({ list: 'getItems', create: 'createItems', read: 'getItem', delete: 'deleteItem' });
  });

  it('takes a lone array member only when its records carry the id, and never an array of a record that has its own id', () => {
    const Member: OpenAPIV3.SchemaObject = { type: 'object', properties: { name: { type: 'string' } } };
    const Group: OpenAPIV3.SchemaObject = { type: 'object', properties: { slug: { type: 'string' }, members: { type: 'array', items: Member } } };
    expect(mapOf(crud('/groups', '/groups/{slug}', Group, param('slug'))).resources[0]).toMatchObject({ recordSchema: Group, idField: 'slug' });
    expect(mapOf(crud('/groups', '/groups/{slug}', Group, param('slug'))).resources[0]!.batchKey).toBeUndefined();
    const Team: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' }, teams: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } };
    expect(mapOf(crud('/teams', '/teams/{id}', Team, param('id'))).resources[0]!.batchKey).toBeUndefined();
    const Lone: OpenAPIV3.SchemaObject = { type: 'object', properties: { Status: { type: 'string' }, Records: { type: 'array', items: Item } } };
    const [lone] = mapOf({ '/Items': { post: { operationId: 'make', requestBody: json(Lone), responses: ok(Lone) } }, '/Items/{ItemID}': { parameters: [itemId], get: { operationId: 'one', responses: ok(Lone) } } }).resources;
    expect(lone).toMatchObject({ batchKey: 'Records', idField: 'ItemID' });
  });

  it('takes the only object member that carries the id, whatever its name, for the record; never a member beside an id of its own', () => {
    // Discourse: createGroup answers { basic_group: { id, name } }, and the collection has no read to name the record.
    const Group: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const Created: OpenAPIV3.SchemaObject = { type: 'object', properties: { basic_group: Group } };
    const NewGroup: OpenAPIV3.SchemaObject = { type: 'object', properties: { group: { type: 'object', properties: { name: { type: 'string' } } } } };
    const paths: Paths = {
      '/admin/groups': { post: { operationId: 'createGroup', requestBody: json(NewGroup), responses: ok(Created) } },
      '/admin/groups/{id}': { parameters: [param('id', { type: 'integer' })], delete: { operationId: 'deleteGroup', responses: { '200': { description: 'gone' } } } },
    };
    expect(mapOf(paths).resources[0]).toMatchObject({ recordSchema: Group, idField: 'id', itemEnvelope: 'basic_group' });
    // A record with an id of its own and one object member (an address) is the record itself.
    const Person: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'integer' }, address: { type: 'object', properties: { id: { type: 'integer' }, city: { type: 'string' } } } } };
    expect(mapOf(crud('/people', '/people/{id}', Person, param('id', { type: 'integer' }))).resources[0]).toMatchObject({ recordSchema: Person, idField: 'id' });
  });
});

describe('a collection under a parent item by a segment of its own (Clerk: `/organizations/{organizationID}/billing/payment_methods`)', () => {
  const Method: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' } } };
  const Organization: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' } } };
  // The literal segments between the parent's item and the collection, drawn: the parent is the nearest item above.
  it('hangs from the nearest item path above it, whatever its parameter is named', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 0, maxLength: 3 }), fc.constantFrom('organizationID', 'org_id', 'id'), (between, name) => {
        const under = ['/organizations/{' + name + '}', ...between, 'payment_methods'].join('/');
        const map = mapOf({ ...crud('/organizations', '/organizations/{organization_id}', Organization, param('organization_id')), ...crud(under, `${under}/{method_id}`, Method, param('method_id')) });
        const methods = map.resources.find((r) => r.key === under);
        expect(parentItemPath(methods!)).toBe(`/organizations/{${name}}`);
        expect(parentOf(methods!, map.resources)?.key).toBe('/organizations');
      }),
      { numRuns: 20 },
    );
  });
});

describe('a PUT on a resource nothing else creates', () => {
  const Fee: OpenAPIV3.SchemaObject = { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string' } } };
  const withPut = (put: Record<string, unknown>): Paths => ({
    '/fees': { get: { operationId: 'listFees', responses: ok({ type: 'array', items: Fee }) } },
    '/fees/{id}': { parameters: [param('id')], get: { operationId: 'getFee', responses: ok(Fee) }, put: { requestBody: json(Fee), ...put } as unknown as OpenAPIV3.OperationObject },
  });
  const notFound = { '404': { description: 'no such fee' } };
  it('creates at its id unless it documents a 404 for an absent one, while 201 or its words ("Create or update", upsert) still say it creates', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.constantFrom('updateFee', 'upsertFee', 'putFee'), fc.constantFrom('Update a fee', 'Create or update a fee', 'Upserts a fee.', ''), (has404, has201, operationId, summary) => {
        const responses = { ...ok(Fee), ...(has201 ? ok(Fee, '201') : {}), ...(has404 ? notFound : {}) };
        const [fees] = mapOf(withPut({ operationId, summary, responses })).resources;
        const saysItCreates = operationId === 'upsertFee' || /create or update|upserts/i.test(summary);
        expect(fees!.upsert).toBe(has201 || saysItCreates || !has404);
      }),
      { numRuns: 40 },
    );
  });
});
