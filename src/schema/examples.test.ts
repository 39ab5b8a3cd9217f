import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { bundledContract } from '../test-support.js';

// Every example in the document must be valid for its schema: a tool that
// serves or sends them (the mock's Prefer: example=, Prism, the runner) would
// otherwise ship an invalid payload with the contract's blessing.
describe('every example in openapi.yaml validates against its schema', async () => {
  const { contract, compiled } = await bundledContract();
  const cases: { where: string; schema: OpenAPIV3.SchemaObject; value: unknown; view: 'request' | 'response' }[] = [];

  for (const operation of contract.operations) {
    for (const media of operation.requestBody?.content ?? []) {
      for (const [name, value] of media.examples) cases.push({ where: `${operation.operationId} request ${name}`, schema: media.schema!, value, view: 'request' });
    }
    for (const [status, response] of operation.responses) {
      for (const media of response.content) {
        for (const [name, value] of media.examples) cases.push({ where: `${operation.operationId} ${status} ${name}`, schema: media.schema!, value, view: 'response' });
      }
      for (const header of response.headers) {
        if (header.schema?.example !== undefined) cases.push({ where: `${operation.operationId} ${status} header ${header.name}`, schema: header.schema, value: header.schema.example, view: 'response' });
      }
    }
    for (const parameter of operation.parameters) {
      if (parameter.example !== undefined) cases.push({ where: `${operation.operationId} parameter ${parameter.name}`, schema: parameter.schema, value: parameter.example, view: 'request' });
    }
  }
  for (const [name, schema] of Object.entries(contract.document.components?.schemas ?? {}) as [string, OpenAPIV3.SchemaObject][]) {
    if (schema.example !== undefined) cases.push({ where: `components/schemas/${name}`, schema, value: schema.example, view: name.startsWith('New') || name.endsWith('Update') ? 'request' : 'response' });
  }
  for (const [kind, response] of Object.entries(contract.unmatched)) {
    for (const media of response?.content ?? []) for (const [name, value] of media.examples) cases.push({ where: `x-unmatched-requests ${kind} ${name}`, schema: media.schema!, value, view: 'response' });
  }

  it('finds examples everywhere it should (every request body and every response body)', () => {
    for (const operation of contract.operations) {
      for (const media of operation.requestBody?.content ?? []) expect(media.examples.size, `${operation.operationId} request`).toBeGreaterThan(0);
      for (const [status, response] of operation.responses) {
        for (const media of response.content) expect(media.examples.size, `${operation.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
    expect(cases.length).toBeGreaterThan(150);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s', (_where, c) => {
    expect(compiled.validate(c.schema, c.value, c.view)).toEqual([]);
  });

  it('examples of error responses carry the status of their response and a documented code', () => {
    for (const operation of contract.operations) {
      for (const [status, response] of operation.responses) {
        if (Number(status) < 400) continue;
        for (const media of response.content) {
          for (const [name, value] of media.examples) {
            const error = value as { code: string; status: number };
            // Shared responses (DeprecatedOperationError) hold examples for several statuses: each must match one that uses it.
            if (media.examples.size > 1 && error.status !== Number(status)) continue;
            expect(error.status, `${operation.operationId} ${status} ${name}`).toBe(Number(status));
            expect(contract.errorCodes.get(error.code)?.status, `${operation.operationId} ${status} ${name}`).toBe(Number(status));
          }
        }
      }
    }
  });
});
