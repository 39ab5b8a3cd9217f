/**
 * The generic engine over HTTP (issue 22): the real mock started on a foreign document, every answer checked
 * against that document (foreign-client.ts), and a create / read / list / replace / update / delete round trip
 * on every resource it inferred.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { loadContract } from '../../src/contract/index.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { inferResources } from './infer.js';
import { createForeignClient, roundTrips, type ForeignClient } from './test-support/foreign-client.js';

const examples = (name: string): string => createRequire(import.meta.url).resolve(`@readme/oas-examples/3.0/json/${name}`);

describe('petstore-expanded.json, served by the generic engine', () => {
  let mock: RunningMock;
  let client: ForeignClient;
  let compiled: CompiledContract;
  const lines: string[] = [];
  beforeAll(async () => {
    const spec = examples('petstore-expanded.json');
    compiled = compileContract(await loadContract(spec));
    mock = await startMock({ port: 0, specPath: spec, quiet: true, log: (line) => lines.push(line) });
    client = createForeignClient(mock.url, compiled, mock.app.basePath);
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
  });

  it('starts instead of refusing the document with HANDLER_MISSING, and prints the resource map', () => {
    expect(lines.join('\n')).toMatch(/1 resource inferred/);
    expect(lines.join('\n')).toMatch(/\/pets\/\{id\}: list create read delete; id field id \(integer\)/);
  });

  it("serves under the path of the document's first server (http://petstore.swagger.io/api), and says so", async () => {
    expect(mock.app.basePath).toBe('/api');
    expect(lines.join('\n')).toMatch(/serving under \/api, the path of the document's first server \(http:\/\/petstore\.swagger\.io\/api\); --base-path \/ serves at the root/);
    const atRoot = await request(`${mock.url}/pets`);
    expect(atRoot.statusCode).toBe(404);
    expect(await atRoot.body.text()).toMatch(/\/api/);
  });

  it('serves at the root with --base-path /', async () => {
    const rooted = await startMock({ port: 0, specPath: examples('petstore-expanded.json'), quiet: true, basePath: '', log: () => {} });
    try {
      expect(rooted.app.basePath).toBe('');
      const rootClient = createForeignClient(rooted.url, compiled);
      try {
        expect((await rootClient.send('GET', '/pets')).status).toBe(200);
      } finally {
        await rootClient.close();
      }
    } finally {
      await rooted.close();
    }
  });

  it('creates, reads back, lists and deletes a pet; the deleted pet is the document\'s 404', async () => {
    const created = await client.send('POST', '/pets', { json: { name: 'Rex', tag: 'dog' } });
    expect(created.status).toBe(200);
    const pet = created.body as { id: number; name: string };
    expect(pet).toMatchObject({ name: 'Rex', tag: 'dog' });
    expect(Number.isInteger(pet.id)).toBe(true);
    expect((await client.send('GET', `/pets/${pet.id}`)).body).toEqual(pet);
    const listed = await client.send('GET', '/pets', { query: { limit: '100' } });
    expect(listed.body as unknown[]).toContainEqual(pet);
    expect((await client.send('GET', '/pets', { query: { tags: 'dog' } })).body).toEqual([pet]);
    expect((await client.send('DELETE', `/pets/${pet.id}`)).status).toBe(204);
    const gone = await client.send('GET', `/pets/${pet.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 404, message: expect.stringMatching(/not found/) });
  });

  it('keeps sessions apart: what one session creates the other does not see', async () => {
    const created = await client.send('POST', '/pets', { json: { name: 'Solo' }, headers: { 'x-mock-session': 'a' } });
    const id = (created.body as { id: number }).id;
    expect((await client.send('GET', `/pets/${id}`, { headers: { 'x-mock-session': 'a' } })).status).toBe(200);
    expect((await client.send('GET', `/pets/${id}`, { headers: { 'x-mock-session': 'b' } })).status).toBe(404);
  });

  it('refuses an invalid create with a 400 in the document\'s error shape (its default response)', async () => {
    const refused = await client.send('POST', '/pets', { json: { tag: 'no name' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 400, message: expect.stringMatching(/name/) });
  });

  it('passes the round trip on every inferred resource', async () => {
    const trips = await roundTrips(client, compiled, inferResources(compiled.contract));
    expect(trips).toEqual([{ resource: '/pets', steps: ['create', 'read', 'list', 'delete', 'read after delete: 404'] }]);
    expect(client.checked()).toBeGreaterThan(5);
  });
});
