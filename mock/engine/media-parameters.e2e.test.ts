/**
 * A JSON media type documented with a parameter (Okta's Identity Engine API, unseen by the kit's tests before: every
 * answer is `application/json;okta-version=1.0.0`). A Content-Type is matched by its type and subtype, whatever its
 * parameters (RFC 9110 §8.3.1), but the check compared the documented key whole with the answer's bare type, so no
 * answer could match: the mock's start-up proof found all 113 of them unmakeable and answered 501 instead, and a
 * real server sending the documented type was a finding of the runner. Now the answer is sent as documented and
 * passes the document's check (foreign-client.ts throws on one that breaks it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, sweptAnswers, type DocumentMock } from './test-support/document-mock.js';

const VERSIONED = 'application/json;okta-version=1.0.0';
const json = (schema: unknown): unknown => ({ [VERSIONED]: { schema } });
const ERROR = { type: 'object', required: ['errorCode'], properties: { errorCode: { type: 'string' }, errorSummary: { type: 'string' } } };
const ENROLLMENT = { type: 'object', required: ['id', 'device'], properties: { id: { type: 'string' }, device: { type: 'string' } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Enrollments', version: '1.0.0' },
  paths: {
    '/enrollments': {
      get: { operationId: 'listEnrollments', responses: { '200': { description: 'all', content: json({ type: 'array', items: ENROLLMENT }) } } },
      post: {
        operationId: 'createEnrollment',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['device'], properties: { device: { type: 'string' } } } } } },
        responses: { '200': { description: 'created', content: json(ENROLLMENT) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    '/enrollments/{enrollmentId}': {
      parameters: [{ name: 'enrollmentId', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getEnrollment', responses: { '200': { description: 'one', content: json(ENROLLMENT) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
};

describe('a JSON media type documented with a parameter', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it('answers in the documented media type, its parameter kept, and the answers are kept records', async () => {
    const created = await served.client.send('POST', '/enrollments', { json: { device: 'phone' } });
    expect(created.status).toBe(200);
    expect(created.headers['content-type']).toBe(VERSIONED);
    const { id } = created.body as { id: string };
    const read = await served.client.send('GET', `/enrollments/${encodeURIComponent(id)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, device: 'phone' });
    const absent = await served.client.send('GET', '/enrollments/none-such');
    expect(absent.status).toBe(404);
    expect(absent.headers['content-type']).toBe(VERSIONED);
  });

  it('proves every documented answer makeable at start-up', async () => {
    const state = await sweptAnswers(served);
    expect(state.proved).toBe(state.operations);
    expect(state.unanswerable).toEqual([]);
  });
});
