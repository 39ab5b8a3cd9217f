/**
 * Every example in openapi.yaml, through the mock:
 * - each response example is served by `Prefer: code=S, example=NAME` exactly
 *   as written, and (by the contract client) valid for that response;
 * - each documented status can be forced with `Prefer: code=S` alone;
 * - each request-body example is accepted as valid input (never a 400).
 * The tables come from the document, so a new example is covered without editing this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/contract/index.js';
import { bundledContract } from '../../src/test-support.js';
import { sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

const { contract } = await bundledContract();

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

/** The operation's path with each path parameter set to its documented example (or 1). */
function pathOf(operation: Operation): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const example = operation.parameters.find((p) => p.in === 'path' && p.name === name)?.example;
    return String(example ?? 1);
  });
}

/** A valid body for the operation: its first request example. */
function bodyOf(operation: Operation): unknown {
  const media = operation.requestBody?.content.find((m) => m.mediaType === 'application/json');
  return media ? [...media.examples.values()][0] : undefined;
}

const allResponseExamples = contract.operations.flatMap((operation) =>
  [...operation.responses.values()].flatMap((response) =>
    response.content.flatMap((media) => [...media.examples.entries()].map(([name, value]) => ({ id: operation.operationId, operation, status: response.status, name, value }))),
  ),
);

/** An Error example names its status; one shared by several responses (getPet's errors) can only be served at that status. */
function namedStatus(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number' ? value.status : undefined;
}
const servable = (e: { status: string; value: unknown }): boolean => namedStatus(e.value) === undefined || namedStatus(e.value) === Number(e.status);
const responseExamples = allResponseExamples.filter(servable);
const misfiled = allResponseExamples.filter((e) => !servable(e));

const statuses = contract.operations.flatMap((operation) => [...operation.responses.keys()].map((status) => ({ id: operation.operationId, operation, status })));

const requestExamples = contract.operations.flatMap((operation) =>
  (operation.requestBody?.content ?? []).flatMap((media) => [...media.examples.entries()].map(([name, value]) => ({ id: operation.operationId, operation, name, value }))),
);

describe('response examples', () => {
  it('the document has examples to serve', () => {
    expect(responseExamples.length).toBeGreaterThan(40);
  });

  it.each(responseExamples)('$id $status "$name" is served as written and valid', async ({ operation, status, name, value }) => {
    const api = t.client.session(sessionName(`example-${operation.operationId}`));
    const before = await t.client.state();
    const answer = await api.send(operation.method.toUpperCase(), pathOf(operation), {
      headers: { prefer: `code=${status}, example=${name}` },
      ...(operation.requestBody ? { json: bodyOf(operation) } : {}),
    });
    expect(answer.status).toBe(Number(status));
    expect(answer.body).toEqual(value);
    expect(answer.headers['preference-applied']).toBe(`code=${status}, example=${name}`);
    // A forced answer is canned: the store is not touched.
    expect(await t.client.state()).toEqual(before);
  });

  it.each(misfiled)('$id $status "$name" (an Error of another status) is refused with a 400 that names the right code', async ({ operation, status, name, value }) => {
    const answer = await t.client.send(operation.method.toUpperCase(), pathOf(operation), { headers: { prefer: `code=${status}, example=${name}` } });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`code=${namedStatus(value)}`);
  });

  it('example=NAME alone finds the response that has it (a 404 example on getPet)', async () => {
    const answer = await t.client.get('/pets/1', { headers: { prefer: 'example=petNotFound' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'PET_NOT_FOUND' });
  });
});

describe('every documented status can be forced', () => {
  it.each(statuses)('$id answers a forced $status with a valid body and headers', async ({ operation, status }) => {
    const answer = await t.client.send(operation.method.toUpperCase(), pathOf(operation), {
      headers: { prefer: `code=${status}` },
      ...(operation.requestBody ? { json: bodyOf(operation) } : {}),
    });
    expect(answer.status).toBe(Number(status));
    if (Number(status) >= 400) expect((answer.body as { status: number }).status).toBe(Number(status));
  });
});

describe('request examples', () => {
  it.each(requestExamples)('$id request example "$name" is valid input', async ({ operation, value }) => {
    const api = t.client.session(sessionName(`request-${operation.operationId}`));
    const answer = await api.send(operation.method.toUpperCase(), pathOf(operation), { json: value });
    // The state decides between success, 404, 409 and 422; the contract says the input itself is fine.
    expect(answer.status, answer.text).not.toBe(400);
    expect(answer.status).toBeLessThan(500);
  });
});
