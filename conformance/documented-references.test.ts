/**
 * unknown-reference-422 judges only what a document says: a body naming a record that does not exist is refused with
 * the 422 where the document says so in words (its 422's description, an error code it lists for 422, the member's
 * description), not wherever a 422 is documented. The Swagger Petstore v3 documents `422: Validation exception` on
 * placeOrder; its server, and the kit's own mock, take an order for a pet they do not have, and the runner failed
 * them (found running the runner against the generic mock on that document, never seen before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from '../mock/engine/test-support/document-mock.js';
import { saysUnknownReferenceRefused } from './documented-references.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

describe('which words say that a reference is checked', () => {
  it.for([
    { texts: { answer422: 'The body names a `categoryId` that no category has.', codes422: [] }, says: true },
    { texts: { answer422: 'The body names something that does not exist', codes422: [] }, says: true },
    { texts: { answer422: "The pet doesn't exist", codes422: [] }, says: true },
    { texts: { answer422: 'Unknown pet', codes422: [] }, says: true },
    { texts: { answer422: 'Referenced customer not found', codes422: [] }, says: true },
    { texts: { answer422: 'Unprocessable', codes422: [{ code: 'UNKNOWN_PET', description: 'The order names a pet that is gone.' }] }, says: true },
    { texts: { answer422: 'Unprocessable', codes422: [{ code: 'PET_NOT_FOUND' }] }, says: true },
    { texts: { answer422: 'Validation exception', codes422: [], member: 'The id of an existing pet' }, says: true },
    { texts: { answer422: 'Validation exception', codes422: [] }, says: false },
    { texts: { answer422: 'Validation Error', codes422: [{ code: 'VALIDATION_FAILED', description: 'A field breaks its schema.' }] }, says: false },
    { texts: { answer422: 'Unprocessable Entity', codes422: [] }, says: false },
    { texts: { answer422: 'Unknown error', codes422: [] }, says: false },
    { texts: { codes422: [], member: 'The pet this order is for' }, says: false },
  ])('$texts.answer422 / $texts.member: $says', ({ texts, says }) => {
    expect(saysUnknownReferenceRefused(texts)).toBe(says);
  });
});

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const PET = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64', minimum: 1 }, name: { type: 'string', maxLength: 40 } } };
const ORDER = { type: 'object', properties: { id: { type: 'integer', format: 'int64', minimum: 1 }, petId: { type: 'integer', format: 'int64', minimum: 1 }, quantity: { type: 'integer', minimum: 1, maximum: 10 } } };

/** A store whose placeOrder documents a 422 described as `unprocessable`. */
function storeDocument(unprocessable: string): unknown {
  return {
    openapi: '3.0.3',
    info: { title: 'Store', version: '1.0.0' },
    paths: {
      '/pet': {
        post: { operationId: 'addPet', requestBody: { required: true, content: json({ ...PET, required: ['name'] }) }, responses: { '200': { description: 'added', content: json(PET) }, '400': { description: 'bad' } } },
      },
      '/pet/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }],
        get: { operationId: 'getPetById', responses: { '200': { description: 'the pet', content: json(PET) }, '404': { description: 'Pet not found' } } },
        delete: { operationId: 'deletePet', responses: { '200': { description: 'deleted' }, '404': { description: 'Pet not found' } } },
      },
      '/store/order': {
        post: { operationId: 'placeOrder', requestBody: { required: true, content: json(ORDER) }, responses: { '200': { description: 'placed', content: json(ORDER) }, '400': { description: 'Invalid input' }, '422': { description: unprocessable } } },
      },
      '/store/order/{orderId}': {
        parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }],
        get: { operationId: 'getOrderById', responses: { '200': { description: 'the order', content: json(ORDER) }, '404': { description: 'Order not found' } } },
      },
    },
  };
}

describe.concurrent.for([
  { said: 'Validation exception', judged: false },
  { said: 'The order names a pet that does not exist', judged: true },
])('placeOrder documents 422 "$said"', ({ said, judged }) => {
  let served: DocumentMock;
  let report: RunReport;
  beforeAll(async () => {
    served = await startDocumentMock(storeDocument(said));
    report = await runConformance({ baseUrl: served.mock.url, specPath: served.file, seed: 5, only: ['unknown-reference-422'] });
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it(judged ? 'an order naming no pet is sent, and judged by the 422' : 'no order naming a pet it lacks is sent, and nothing fails', () => {
    const orders = report.results.filter((r) => r.checkId === 'unknown-reference-422' && r.operationId === 'placeOrder');
    const sent = orders.flatMap((r) => r.evidence).filter((x) => x.request.method === 'POST' && x.request.url.endsWith('/store/order'));
    if (judged) {
      expect(orders.some((r) => r.verdict === 'passed' || r.verdict === 'failed')).toBe(true);
      expect(sent.length).toBeGreaterThan(0);
    } else {
      expect(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
      expect(sent).toEqual([]);
    }
  });
});
