/**
 * A record a PUT makes at its own key, whose schema is an `allOf` and names its key by the path parameter's last word
 * (Typesense's `PUT /synonym_sets/{synonymSetName}`: `SynonymSetSchema` = `allOf [ {items: [{id, synonyms}]}, {name} ]`).
 * The mock took the array `items` for an envelope around the record (its objects hold an `id`) and wrote the key into
 * the first item's `id`, and drew the required `name` afresh for every answer, so the PUT and the GET after it
 * disagreed (the runner's replace-visible, once it replaced a record it had made). The key is the record's `name`,
 * what the client sent stays as sent, and every read answers the same record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ITEM = { allOf: [{ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }, { type: 'object', required: ['synonyms'], properties: { synonyms: { type: 'array', items: { type: 'string' } } } }] };
const CREATE = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ITEM } } };
const SET = { allOf: [CREATE, { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }] };
const NAME = { name: 'synonymSetName', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Synonym sets', version: '1.0.0' },
  paths: {
    '/synonym_sets': { get: { operationId: 'retrieveSynonymSets', responses: { '200': { description: 'all', content: json({ type: 'array', items: SET }) } } } },
    '/synonym_sets/{synonymSetName}': {
      parameters: [NAME],
      put: { operationId: 'upsertSynonymSet', summary: 'Create or update a synonym set', requestBody: { required: true, content: json(CREATE) }, responses: { '200': { description: 'kept', content: json(SET) } } },
      get: { operationId: 'retrieveSynonymSet', responses: { '200': { description: 'the set', content: json(SET) }, '404': { description: 'none', content: json({ type: 'object', properties: { message: { type: 'string' } } }) } } },
      delete: { operationId: 'deleteSynonymSet', responses: { '200': { description: 'gone', content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) }, '404': { description: 'none', content: json({ type: 'object', properties: { message: { type: 'string' } } }) } } },
    },
  },
};

describe('a record a PUT makes at its own key, its schema an allOf', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(async () => {
    await served?.close();
  });

  it('keeps the items as sent, is named by its key, and reads back the same', async () => {
    const sent = { items: [{ id: 'finding', synonyms: ['horde', 'crowd'] }] };
    const put = await served.client.send('PUT', '/synonym_sets/swine', { json: sent });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...sent, name: 'swine' });
    const read = await served.client.send('GET', '/synonym_sets/swine');
    expect(read.body).toEqual(put.body);
    const again = await served.client.send('PUT', '/synonym_sets/swine', { json: { items: [{ id: 'pocket-watch', synonyms: ['hunt'] }] } });
    expect(again.body).toEqual({ items: [{ id: 'pocket-watch', synonyms: ['hunt'] }], name: 'swine' });
    expect((await served.client.send('GET', '/synonym_sets/swine')).body).toEqual(again.body);
  });
});
