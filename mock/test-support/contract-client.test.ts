/**
 * The checker behind every mock test must itself catch contract breaches, or
 * a green suite would prove nothing. A deliberately broken server (node:http,
 * one defect per path) answers; the client must throw a ContractViolation
 * naming the defect, and accept the one correct answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledContract } from '../../src/test-support.js';
import { ContractViolation, createContractClient, type ContractClient } from './contract-client.js';

const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const deprecationHeaders = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT', link: '</pets?id=1>; rel="successor-version"' };

/** path → [status, headers, body]: one planted defect each, and one correct answer. */
const ANSWERS: Record<string, [number, Record<string, string>, unknown]> = {
  '/categories/1': [200, {}, { id: 1, name: 'Dogs' }], // correct
  '/pets': [200, {}, [pet]], // X-Total-Count missing
  '/categories': [200, { 'x-total-count': 'many' }, []], // X-Total-Count not an integer
  '/store/orders/1': [200, {}, { id: 0 }], // id below 1
  '/store/inventory/1': [418, {}, { code: 'TEAPOT', message: 'no', status: 418 }], // undocumented status
  '/store/inventory': [400, {}, { code: 'VALIDATION_FAILED', message: 'bad', status: 422 }], // Error.status differs
  '/store/orders': [400, {}, { code: 'PET_NOT_FOUND', message: 'bad', status: 400 }], // code of another status
  '/pets/1': [200, {}, pet], // deprecation headers missing
  '/pets/2': [200, deprecationHeaders, pet], // correct: getPet with its three headers
  '/nope': [200, {}, {}], // unknown path answered 200
};

let server: Server;
let client: ContractClient;
beforeAll(async () => {
  const { compiled } = await bundledContract();
  server = createServer((req, res) => {
    const [status, headers, body] = ANSWERS[req.url ?? ''] ?? [404, {}, { code: 'ROUTE_NOT_FOUND', message: 'none', status: 404 }];
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createContractClient({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, compiled });
});
afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the contract client', () => {
  it('accepts an answer that keeps the contract', async () => {
    expect((await client.get('/categories/1')).status).toBe(200);
    expect((await client.get('/pets/2')).status).toBe(200);
  });

  it.each([
    ['/pets', /x-total-count is required/],
    ['/categories', /x-total-count/],
    ['/store/orders/1', /\/body\/id/],
    ['/store/inventory/1', /418 is not a documented status/],
    ['/store/inventory', /Error.status must equal the HTTP status 400/],
    ['/store/orders', /gives PET_NOT_FOUND the status 404, not 400/],
    ['/pets/1', /deprecation is required/],
    ['/nope', /must be 404/],
  ])('throws for %s', async (path, reason) => {
    const error = await client.get(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as Error).message).toMatch(reason);
  });

  it('throws when a 405 does not list exactly the documented methods', async () => {
    ANSWERS['/categories/7'] = [405, { allow: 'GET' }, { code: 'METHOD_NOT_ALLOWED', message: 'no', status: 405 }];
    await expect(client.send('PATCH', '/categories/7')).rejects.toThrow(/Allow must list exactly/);
  });
});
