import { setupServer } from 'msw/node';
import createClient from 'openapi-fetch';
import { createMswMock } from 'petstore-kit/msw';
import type { paths } from 'petstore-kit/types';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const mock = await createMswMock(); // answers http://localhost:4010, http://127.0.0.1:4010 and http://[::1]:4010
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

// `fetch: (request) => fetch(request)` looks the global fetch up at each call: server.listen() replaces it after
// this line ran, and a client holding the original would send its requests to the network instead.
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010', fetch: (request) => fetch(request) });

it('lists available pets', async () => {
  const { data, response } = await client.GET('/pets', { params: { query: { status: 'available' } } });
  expect(response.status).toBe(200);
  expect(data?.length).toBeGreaterThan(0);
  expect(data?.every((pet) => pet.status === 'available')).toBe(true);
});

it('refuses to delete a pet with an open order, as the contract says', async () => {
  const { error, response } = await client.DELETE('/pets/{petId}', { params: { path: { petId: 7 } } });
  expect(response.status).toBe(409);
  expect(error?.code).toBe('PET_HAS_OPEN_ORDER');
});

it('shows what the app sent', async () => {
  const { response } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
  expect(response.status).toBe(201);
  expect(mock.app.journal.list({ operationId: 'createPet' })).toHaveLength(1);
});
