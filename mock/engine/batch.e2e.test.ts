/**
 * Records that travel in a named array envelope (issue 22 point 1, Xero's style): `GET /Items/{ItemID}` answers
 * `{ "Items": [ {item} ] }`, `PUT /Items` creates every record of `{ "Items": [...] }`, `POST /Items` creates or
 * updates them by their id field, `POST /Items/{ItemID}` updates the one. Over HTTP on a small document written in
 * that style, every answer checked against it (foreign-client.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Ledger, version: '1' }
paths:
  /Items:
    get:
      operationId: getItems
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
    put:
      operationId: createItems
      summary: Creates one or more items
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
        '400': { description: refused, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    post:
      operationId: updateOrCreateItems
      summary: Updates or creates one or more items
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
        '400': { description: refused, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /Items/{ItemID}:
    parameters: [{ name: ItemID, in: path, required: true, schema: { type: string, format: uuid } }]
    get:
      operationId: getItem
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    post:
      operationId: updateItem
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Items' } } } }
        '400': { description: refused, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    delete:
      operationId: deleteItem
      responses:
        '204': { description: gone }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Items:
      type: object
      properties:
        Warnings: { type: array, items: { type: object, properties: { Message: { type: string } } } }
        Items: { type: array, items: { $ref: '#/components/schemas/Item' } }
    Item:
      type: object
      required: [Code]
      properties:
        ItemID: { type: string, format: uuid }
        Code: { type: string, maxLength: 30 }
        Name: { type: string, maxLength: 50 }
        Description: { type: string }
        UpdatedDateUTC: { type: string, format: date-time, readOnly: true }
    Error:
      type: object
      required: [Message]
      properties:
        ErrorNumber: { type: integer }
        Type: { type: string }
        Message: { type: string }
`;

interface Item {
  readonly ItemID: string;
  readonly Code: string;
  readonly Name?: string;
  readonly Description?: string;
  readonly UpdatedDateUTC?: string;
}
const itemsOf = (body: unknown): Item[] => (body as { Items: Item[] }).Items;

const dir = mkdtempSync(join(tmpdir(), 'generic-batch-'));
const spec = join(dir, 'ledger.yaml');
writeFileSync(spec, DOCUMENT);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('records in a named array envelope ({ "Items": [...] })', () => {
  let mock: RunningMock;
  let client: ForeignClient;
  const lines: string[] = [];
  beforeAll(async () => {
    const compiled = compileContract(await loadContract(spec));
    mock = await startMock({ port: 0, specPath: spec, quiet: true, log: (line) => lines.push(line), now: new Date('2026-11-01T12:00:00Z') });
    client = createForeignClient(mock.url, compiled);
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
  });

  it('says at start-up that the records travel in .Items[] and finds their id field', async () => {
    expect(lines.join('\n')).toContain('/Items/{ItemID}: list create createOrUpdate read update delete; id field ItemID (uuid), records in .Items[]');
    const map = (await client.send('GET', '/__mock/resources')).body as { resources: { id: unknown; records?: string; operations: unknown }[] };
    expect(map.resources[0]).toMatchObject({ id: { parameter: 'ItemID', field: 'ItemID', kind: 'uuid' }, records: '.Items[]' });
  });

  it('creates by PUT one record per element, reads each back, upserts by POST, updates by POST on the item, lists, deletes', async () => {
    const headers = { 'x-mock-session': 'round-trip' };
    const before = itemsOf((await client.send('GET', '/Items', { headers })).body).length;

    const created = await client.send('PUT', '/Items', { headers, json: { Items: [{ Code: 'A1', Name: 'Apple', Description: 'crisp' }, { Code: 'B1', Name: 'Banana' }] } });
    expect(created.status).toBe(200);
    const [apple, banana] = itemsOf(created.body);
    expect(itemsOf(created.body)).toHaveLength(2);
    expect(apple).toMatchObject({ Code: 'A1', Name: 'Apple', Description: 'crisp', ItemID: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(banana).toMatchObject({ Code: 'B1', Name: 'Banana', ItemID: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(apple!.ItemID).not.toBe(banana!.ItemID);
    for (const item of [apple!, banana!]) expect((await client.send('GET', `/Items/${item.ItemID}`, { headers })).body).toEqual({ Items: [item] });

    // One element names a held record (merged into it, RFC 7396: Description kept), the other is new.
    const upserted = await client.send('POST', '/Items', { headers, json: { Items: [{ ItemID: apple!.ItemID, Code: 'A1', Name: 'Apple II' }, { Code: 'C1', Name: 'Cherry' }] } });
    expect(upserted.status).toBe(200);
    const [merged, cherry] = itemsOf(upserted.body);
    expect(merged).toEqual({ ...apple, Name: 'Apple II' });
    expect(cherry).toMatchObject({ Code: 'C1', Name: 'Cherry' });
    expect([apple!.ItemID, banana!.ItemID]).not.toContain(cherry!.ItemID);
    expect(itemsOf((await client.send('GET', `/Items/${apple!.ItemID}`, { headers })).body)).toEqual([merged]);

    const updated = await client.send('POST', `/Items/${banana!.ItemID}`, { headers, json: { Items: [{ Code: 'B2', Name: 'Blueberry' }] } });
    expect(updated.status).toBe(200);
    expect(itemsOf(updated.body)).toEqual([{ ...banana, Code: 'B2', Name: 'Blueberry' }]);

    const listed = itemsOf((await client.send('GET', '/Items', { headers })).body);
    expect(listed).toHaveLength(before + 3);
    expect(listed).toEqual(expect.arrayContaining([merged, cherry, { ...banana, Code: 'B2', Name: 'Blueberry' }]));

    expect((await client.send('DELETE', `/Items/${apple!.ItemID}`, { headers })).status).toBe(204);
    const gone = await client.send('GET', `/Items/${apple!.ItemID}`, { headers });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ Message: expect.any(String) });
    expect(itemsOf((await client.send('GET', '/Items', { headers })).body)).toHaveLength(before + 2);
  });

  it('still takes a bare record, and answers it in the envelope', async () => {
    const headers = { 'x-mock-session': 'bare' };
    const created = await client.send('PUT', '/Items', { headers, json: { Code: 'D1', Name: 'Date' } });
    expect(created.status).toBe(200);
    const [date] = itemsOf(created.body);
    expect(date).toMatchObject({ Code: 'D1', Name: 'Date' });
    expect(created.headers['location']).toBe(`/Items/${date!.ItemID}`);
    expect(itemsOf((await client.send('GET', `/Items/${date!.ItemID}`, { headers })).body)).toEqual([date]);
  });

  it('refuses a malformed envelope with a 400 in the document\'s error shape, and stores nothing (regression: the envelope was stored as one record)', async () => {
    const headers = { 'x-mock-session': 'malformed' };
    const before = itemsOf((await client.send('GET', '/Items', { headers })).body);
    for (const [method, path] of [['PUT', '/Items'], ['POST', '/Items']] as const) {
      for (const json of [{ Items: [] }, { Items: { Code: 'X1' } }, { Items: [{ Code: 'X2' }, 'X3'] }]) {
        const refused = await client.send(method, path, { headers, json });
        expect(refused.status, `${method} ${JSON.stringify(json)}`).toBe(400);
        // The document's Error, saying what went wrong in its own `Message`.
        expect(refused.body).toMatchObject({ Message: expect.stringMatching(/Items|body/) });
      }
    }
    const target = before[0]!;
    const emptyUpdate = await client.send('POST', `/Items/${target.ItemID}`, { headers, json: { Items: [] } });
    expect(emptyUpdate.status).toBe(400);
    expect(emptyUpdate.body).toMatchObject({ Message: 'Items holds no record; nothing was stored.' });
    expect(itemsOf((await client.send('GET', '/Items', { headers })).body)).toEqual(before);
  });
});
