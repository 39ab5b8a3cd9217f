/**
 * `Prefer` (RFC 7240) with Prism's conventions: `code=NNN` forces a status the
 * operation documents, `example=NAME` a named example, `delay=MS` latency
 * (capped, and never blocking other requests). Every forced answer is
 * checked against the contract like any other (examples.e2e.test.ts serves
 * all of them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailPaths, expectError, expectUnchanged, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

describe('Prefer: code and example', () => {
  it('forces a documented status with a body valid for it, without touching the store', async () => {
    const name = sessionName('prefer');
    const answer = await expectUnchanged(t.client, name, () => t.client.session(name).post('/pets', { name: 'Rex', categoryId: 1 }, { headers: { prefer: 'code=201' } }));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: 21, name: 'Rex', categoryId: 1, status: 'available' });
    // Location derived from the example, through the document's links.
    expect(answer.headers['location']).toBe('/pets/21');
    expect(answer.headers['preference-applied']).toBe('code=201');
  });

  it('a 409 forced on placeOrder uses an example of that status', async () => {
    const answer = await t.client.post('/store/orders', { petId: 1, quantity: 1 }, { headers: { prefer: 'code=409, example=insufficientStock' } });
    expectError(answer, 409, 'INSUFFICIENT_STOCK');
  });

  it('a list forced to 200 carries X-Total-Count from the example', async () => {
    const answer = await t.client.get('/pets', { headers: { prefer: 'example=empty' } });
    expect(answer.body).toEqual([]);
    expect(answer.headers['x-total-count']).toBe('0');
  });

  it('an undocumented code is a 400 listing the documented ones', async () => {
    const answer = await t.client.get('/pets', { headers: { prefer: 'code=418' } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toEqual(['/header/prefer']);
    expect(answer.text).toContain('documented: 200, 400, 406, 413, 500');
  });

  it('an unknown example is a 400 listing the names there are', async () => {
    const answer = await t.client.get('/pets', { headers: { prefer: 'example=nope' } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(answer.text).toContain('page, empty');
  });

  it.each(['code=4o4', 'code=', 'delay=soon', 'delay=-5', 'example=""', 'code=404;;,,=='])('a malformed preference (%s) is a 400', async (prefer) => {
    expectError(await t.client.get('/pets', { headers: { prefer } }), 400, 'VALIDATION_FAILED');
  });

  it('unknown preferences are ignored (RFC 7240 §2)', async () => {
    const answer = await t.client.get('/pets', { headers: { prefer: 'return=minimal, respond-async, dynamic=true' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['preference-applied']).toBeUndefined();
  });

  it('a request that breaks the contract is a 400 even when a code is preferred, with all problems', async () => {
    const answer = await t.client.get('/pets', { query: { limit: 0 }, headers: { prefer: 'code=999' } });
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer).sort()).toEqual(['/header/prefer', '/query/limit']);
  });
});

describe('Prefer: delay', () => {
  it('delays the answer without holding up other requests', async () => {
    const started = Date.now();
    const slow = t.client.get('/pets', { headers: { prefer: 'delay=400' } });
    const fast = await t.client.get('/categories');
    const fastMs = Date.now() - started;
    const slowAnswer = await slow;
    const slowMs = Date.now() - started;
    expect(fast.status).toBe(200);
    expect(fastMs).toBeLessThan(300);
    expect(slowAnswer.status).toBe(200);
    expect(slowMs).toBeGreaterThanOrEqual(390);
    expect(slowAnswer.headers['preference-applied']).toBe('delay=400');
  });

  it('applies to errors too, and combines with code', async () => {
    const started = Date.now();
    const answer = await t.client.get('/pets/1', { headers: { prefer: 'code=404, delay=150' } });
    expect(answer.status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});
