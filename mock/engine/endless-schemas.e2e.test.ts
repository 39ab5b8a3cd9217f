/**
 * A schema that refers to itself with no value in between (Okta's OAuth document, unseen by the kit's tests before,
 * in its "oneOfInheritance" form: `JsonSigningWebKey` is `oneOf` a `JsonWebKeyEC` whose `allOf` is the
 * `JsonSigningWebKey` again). Its validator calls itself without end; the stack overflowed in the proof sweep after
 * start-up, out of any request, and the mock's process died (every later request: connection refused). Now such an
 * answer is declared unmakeable, as any other is, and answered with the declared refusal; the mock keeps serving the
 * rest of its document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, sweptAnswers, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Keys', version: '1.0.0' },
  paths: {
    // With an example, as Okta's keys have: the generator's own refusal of the loop (no finite value) is not reached.
    '/keys/current': { get: { operationId: 'currentKey', responses: { '200': { description: 'the key', content: { 'application/json': { schema: { $ref: '#/components/schemas/SigningKey' }, example: { kid: 'k1', use: 'sig', kty: 'EC', x: 'abc' } } } } } } },
    '/status': { get: { operationId: 'status', responses: { '200': { description: 'up', content: json({ type: 'object', required: ['up'], properties: { up: { type: 'boolean' } } }) } } } },
  },
  components: {
    schemas: {
      SigningKey: { type: 'object', properties: { kid: { type: 'string' }, use: { type: 'string', enum: ['sig'] } }, oneOf: [{ $ref: '#/components/schemas/EcKey' }, { $ref: '#/components/schemas/RsaKey' }] },
      EcKey: { allOf: [{ $ref: '#/components/schemas/SigningKey' }], type: 'object', properties: { kty: { type: 'string', enum: ['EC'] }, x: { type: 'string' } } },
      RsaKey: { allOf: [{ $ref: '#/components/schemas/SigningKey' }], type: 'object', properties: { kty: { type: 'string', enum: ['RSA'] }, n: { type: 'string' } } },
    },
  },
};

describe('a schema that refers to itself with no value in between', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
  });
  afterAll(() => served?.close());

  it('is declared unmakeable after start-up, and the mock keeps serving', async () => {
    const state = await sweptAnswers(served);
    expect(state.proved).toBe(state.operations);
    expect(state.unanswerable.map((u) => u.operationId)).toEqual(['currentKey']);
    expect(state.unanswerable[0]!.why).toMatch(/refers to itself/);
    const status = await served.client.send('GET', '/status');
    expect(status.status).toBe(200);
  });

  it('answers the operation with the declared refusal, not a crash', async () => {
    // The kit's own Error (501 CANNOT_GENERATE), which the document does not describe: read without the client's check.
    const answer = await fetch(`${served.mock.url}/keys/current`);
    expect(answer.status).toBe(501);
    expect(await answer.text()).toMatch(/refers to itself/);
    expect((await served.client.send('GET', '/status')).status).toBe(200);
  });
});
