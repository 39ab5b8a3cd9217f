/**
 * What the core and the adapter keep between requests so a read costs less (issue 22, point 8), seen from a client:
 * a record read again is sent from the UTF-8 bytes kept with it (server.ts), a path matched and a parameter check
 * passed are remembered (match-memo.ts, parameter-memo.ts). None of it may change an answer: the same bytes and
 * Content-Length each time, HEAD without a body, and a refused id refused with its details however often a valid
 * one was read. Every answer is checked against openapi.yaml by the contract client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet } from '../../src/types.js';
import { expectError, newCategory, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

describe('answers kept between requests', () => {
  it('a record read again is sent as the same UTF-8 bytes, with their length, and HEAD has the length but no body', async () => {
    const api = t.client.session(sessionName('kept-bytes'));
    const category = await newCategory(api);
    // Outside ASCII, so its UTF-8 length differs from its length in characters.
    const pet = await newPet(api, category.id, { name: 'Größe 🐕 ñ' });
    const reads = [await api.get(`/pets/${pet.id}`), await api.get(`/pets/${pet.id}`), await api.get(`/pets/${pet.id}`)];
    for (const read of reads) {
      expect(read.status, read.text).toBe(200);
      expect((read.body as Pet).name).toBe('Größe 🐕 ñ');
      expect(read.text).toBe(reads[0]!.text);
      expect(read.headers['content-length']).toBe(String(Buffer.byteLength(read.text)));
    }
    const head = await api.send('HEAD', `/pets/${pet.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(reads[0]!.text)));
  });

  it('a record changed after it was read is sent as it is now, not as the bytes kept for it before', async () => {
    const api = t.client.session(sessionName('kept-bytes-change'));
    const category = await newCategory(api);
    const pet = await newPet(api, category.id, { name: 'Before' });
    expect(((await api.get(`/pets/${pet.id}`)).body as Pet).name).toBe('Before');
    const replaced = await api.put(`/pets/${pet.id}`, { name: 'After é', categoryId: category.id, status: 'available' });
    expect(replaced.status, replaced.text).toBe(200);
    const read = await api.get(`/pets/${pet.id}`);
    expect((read.body as Pet).name).toBe('After é');
    expect(read.headers['content-length']).toBe(String(Buffer.byteLength(read.text)));
  });

  it('a refused id is refused with its details every time, before and after a valid id was read and remembered', async () => {
    const api = t.client.session(sessionName('kept-checks'));
    for (let round = 0; round < 3; round += 1) {
      const refused = expectError(await api.get('/pets/abc'), 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(refused['details'])).toContain('/path/petId');
      expect((await api.get('/pets/1')).status).toBe(200);
      expectError(await api.get('/pets/0'), 400, 'VALIDATION_FAILED');
    }
  });

  it('a path matched before still meets every other method as the router says: 405 with Allow, 404 nearby', async () => {
    const api = t.client.session(sessionName('kept-matches'));
    expect((await api.get('/pets/1')).status).toBe(200);
    const refused = await api.send('POST', '/pets/1');
    expectError(refused, 405, 'METHOD_NOT_ALLOWED');
    expect(refused.headers['allow']).toContain('GET');
    expectError(await api.get('/pets/1/extra'), 404, 'ROUTE_NOT_FOUND');
    expect((await api.get('/pets/1')).status).toBe(200);
  });
});
