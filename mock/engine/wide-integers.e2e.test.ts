/**
 * Integers past int64 in a request body (Nomad's variables, unseen by the kit's tests before: `CreateIndex` is a
 * uint64, `type: integer, minimum: 0, maximum: 18446744073709551615`, no format). The mock refused every literal
 * outside int64 with 400, naming the Pet Store's ids, though this document allows them; the runner's "its maximum"
 * body was refused 26 times. Now a field whose own bounds lie past int64 takes them (its validation judges the value),
 * and a field without such a bound still refuses them (a `format: int64` id, as the Pet Store's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const VARIABLE = {
  type: 'object',
  required: ['Path'],
  properties: {
    Path: { type: 'string' },
    CreateIndex: { type: 'integer', minimum: 0, maximum: 18446744073709551615 },
    OwnerId: { type: 'integer', format: 'int64' },
    Counts: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 18446744073709551615 } },
  },
};
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Variables', version: '1.0.0' },
  paths: {
    '/vars': {
      post: {
        operationId: 'createVariable',
        requestBody: { required: true, content: json(VARIABLE) },
        responses: { '201': { description: 'created', content: json(VARIABLE) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
  },
};

describe('integers past int64 where the document bounds them there (Nomad\'s uint64 indexes)', () => {
  let served: DocumentMock;
  beforeAll(async () => {
    served = await startDocumentMock(DOCUMENT);
  });
  afterAll(() => served?.close());

  it('takes a uint64 at its maximum, at the top and inside an array', async () => {
    const created = await served.client.send('POST', '/vars', { text: '{"Path":"jazz","CreateIndex":18446744073709551615,"Counts":[1,18446744073709551615]}' });
    expect(created.status).toBe(201);
  });

  it('refuses an integer outside int64 where the field is int64, naming the field', async () => {
    const refused = await served.client.send('POST', '/vars', { text: '{"Path":"jazz","OwnerId":9223372036854775808}' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('/body/OwnerId');
  });
});
