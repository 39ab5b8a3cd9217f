/**
 * `--validation warn|off` relax request validation for demos, but never let
 * a value reach the store, or an answer, that the document forbids (see
 * relaxed.ts): unknown body fields are dropped, an empty update does nothing,
 * paging bounds and list sizes are not enforced; a wrong type, a value out of
 * an enum or below a lower bound is still a 400. Every answer is still checked
 * against the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet } from '../../src/types.js';
import type { ContractClient } from '../test-support/contract-client.js';
import { detailPaths, expectError, expectUnchanged, newCategory, newOrder, newPet, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

let warn: TestMock;
let off: TestMock;
const warnings: string[] = [];
const offLines: string[] = [];
beforeAll(async () => {
  [warn, off] = await Promise.all([
    startTestMock({ validation: 'warn', quiet: false, log: (line) => warnings.push(line) }),
    startTestMock({ validation: 'off', quiet: false, log: (line) => offLines.push(line) }),
  ]);
});
afterAll(async () => {
  await Promise.all([warn?.close(), off?.close()]);
});

describe.each([
  ['warn', () => warn],
  ['off', () => off],
] as const)('--validation %s', (mode, server) => {
  const fresh = (): { name: string; api: ContractClient } => {
    const name = sessionName(`relaxed-${mode}`);
    return { name, api: server().client.session(name) };
  };

  it('lets unknown body fields through, dropped (and __proto__ pollutes nothing)', async () => {
    const { api } = fresh();
    const category = await newCategory(api);
    const answer = await api.send('POST', '/pets', { body: `{"name":"Rex","categoryId":${category.id},"colour":"red","__proto__":{"polluted":"yes"}}`, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: (answer.body as Pet).id, name: 'Rex', categoryId: category.id, status: 'available' });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('lets paging past its bounds and an empty update through', async () => {
    const { api } = fresh();
    const page = await api.get('/pets', { query: { limit: 500 } });
    expect(page.status).toBe(200);
    const order = await newOrder(api, (await newPet(api, (await newCategory(api)).id)).id);
    const same = await api.patch(`/store/orders/${order.id}`, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(order);
  });

  it.each([
    ['a name that is a number', { name: 5, categoryId: 1 }, '/body/name'],
    ['a name too long to store', { name: 'x'.repeat(101), categoryId: 1 }, '/body/name'],
    ['a status outside the enum', { name: 'Rex', categoryId: 1, status: 'lost' }, '/body/status'],
    ['a missing categoryId', { name: 'Rex' }, '/body/categoryId'],
    ['a categoryId below 1', { name: 'Rex', categoryId: 0 }, '/body/categoryId'],
  ])('still refuses %s with a 400, changing nothing', async (_label, body, pointer) => {
    const { name, api } = fresh();
    const answer = await expectUnchanged(server().client, name, () => api.post('/pets', body));
    expectError(answer, 400, 'VALIDATION_FAILED');
    expect(detailPaths(answer)).toContain(pointer);
  });

  it('still refuses a negative stock, a text id and a wrong media type', async () => {
    const { name, api } = fresh();
    expectError(await expectUnchanged(server().client, name, () => api.put('/store/inventory/1', { quantity: -1 })), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets/abc'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/pets', { query: { offset: -1 } }), 400, 'VALIDATION_FAILED');
    expectError(await api.send('POST', '/pets', { body: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await api.get('/pets', { headers: { 'x-mock-session': 'bad name' } }), 400, 'VALIDATION_FAILED');
  });
});

describe('what is logged', () => {
  it('warn logs what the request broke; off logs no such warning', async () => {
    warnings.length = 0;
    offLines.length = 0;
    await warn.client.get('/pets', { query: { limit: 500 } });
    await off.client.get('/pets', { query: { limit: 500 } });
    expect(warnings.at(-1)).toMatch(/^GET \/pets 200 .* \| warning: the request breaks the contract, let through by --validation warn: \/query\/limit must be <= 100$/);
    expect(offLines.at(-1)).toMatch(/^GET \/pets 200 [0-9.]+ms$/);
  });
});
