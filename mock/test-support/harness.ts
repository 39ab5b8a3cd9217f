/**
 * One real mock per test file, on 127.0.0.1 and a free port, with the
 * contract-checking client, and the small steps the tests share. Tests work
 * in their own `X-Mock-Session`, so they neither see nor disturb each other's
 * data and do not depend on what the fixtures hold.
 */
import { expect } from 'vitest';
import { bundledContract } from '../../src/test-support.js';
import type { CompiledContract } from '../../src/schema/index.js';
import type { Category, Order, Pet } from '../../src/types.js';
import { startMock, type MockOptions, type RunningMock } from '../transport/server.js';
import { createContractClient, type ContractClient, type Exchange } from './contract-client.js';

export interface TestMock {
  readonly mock: RunningMock;
  readonly client: ContractClient;
  readonly compiled: CompiledContract;
  close(): Promise<void>;
}

/**
 * The clock the test mocks run at unless a test says otherwise: after getPet's
 * deprecation, before its sunset. Without it the suite would start failing on
 * 2027-07-01, when the real clock passes the sunset.
 */
export const TEST_NOW = new Date('2026-11-01T12:00:00Z');

export async function startTestMock(options: MockOptions = {}, connections?: number): Promise<TestMock> {
  const [{ compiled }, mock] = await Promise.all([bundledContract(), startMock({ port: 0, quiet: true, now: TEST_NOW, ...options })]);
  const client = createContractClient({
    origin: mock.url,
    compiled,
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(connections ? { connections } : {}),
    ...(options.adminToken !== undefined ? { adminToken: options.adminToken } : {}),
  });
  return {
    mock,
    client,
    compiled,
    async close() {
      await client.close();
      await mock.close();
    },
  };
}

let counter = 0;
/** A session name no other test uses. */
export function sessionName(label: string): string {
  counter += 1;
  return `${label.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40)}-${process.pid}-${counter}`;
}

/** Asserts an Error answer: status, code, and (by the client) the Error shape. */
export function expectError(exchange: Exchange, status: number, code: string): Record<string, unknown> {
  expect(exchange.status, exchange.text).toBe(status);
  const body = exchange.body as Record<string, unknown>;
  expect(body['code'], exchange.text).toBe(code);
  expect(body['status']).toBe(status);
  expect(typeof body['message']).toBe('string');
  return body;
}

/** The `path` of each detail of a VALIDATION_FAILED answer. */
export function detailPaths(exchange: Exchange): string[] {
  const details = (exchange.body as { details?: { path: string }[] }).details ?? [];
  return details.map((d) => d.path);
}

/** Runs `send` and asserts that the session's whole state is the same afterwards: a rejected request changes nothing. */
export async function expectUnchanged(client: ContractClient, session: string, send: () => Promise<Exchange>): Promise<Exchange> {
  const before = await client.state(session);
  const exchange = await send();
  expect(await client.state(session)).toEqual(before);
  return exchange;
}

let names = 0;
export async function newCategory(client: ContractClient, name = `Category ${process.pid}-${++names}`): Promise<Category> {
  const answer = await client.post('/categories', { name });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Category;
}

export async function newPet(client: ContractClient, categoryId: number, extra: Partial<Pet> = {}): Promise<Pet> {
  const answer = await client.post('/pets', { name: `Pet ${++names}`, categoryId, ...extra });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Pet;
}

export async function newOrder(client: ContractClient, petId: number, extra: Partial<Order> = {}): Promise<Order> {
  const answer = await client.post('/store/orders', { petId, quantity: 1, ...extra });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Order;
}
