/** What the acceptance and provoking checks validate before sending: the exact body text, read as json.ts reads bodies. */
import { describe, expect, it } from 'vitest';
import { bundledContract } from '../../src/test-support.js';
import { bodyProblems } from './valid-variants.js';

describe('bodyProblems', async () => {
  const { compiled } = await bundledContract();
  const placeOrder = compiled.contract.operations.find((op) => op.operationId === 'placeOrder')!;

  it('validates a body with an id past 2^53 as sent (lossless parse, then plain numbers), not through JSON.parse', () => {
    // 2^63-1 is the largest id the document allows; a text JSON.parse reads is read the same way here.
    expect(bodyProblems({ compiled }, placeOrder, '{"petId":9223372036854775807,"quantity":1}')).toEqual([]);
    // The same exact id, in a form JSON.parse also takes (RFC 8259 §6 number with a zero fraction), stays valid.
    expect(bodyProblems({ compiled }, placeOrder, '{"petId":9223372036854775807.0,"quantity":1}')).toEqual([]);
    // What is wrong beside a long id is still found, at its pointer.
    expect(bodyProblems({ compiled }, placeOrder, '{"petId":9223372036854775807,"quantity":0}')).toContainEqual(expect.objectContaining({ pointer: '/body/quantity' }));
    expect(bodyProblems({ compiled }, placeOrder, '{"petId":"9223372036854775807","quantity":1}')).toContainEqual(expect.objectContaining({ pointer: '/body/petId', keyword: 'type' }));
  });

  it('throws the SyntaxError JSON.parse throws for text that is not JSON', () => {
    expect(() => bodyProblems({ compiled }, placeOrder, '{"petId":12345678901234567890,')).toThrow(SyntaxError);
  });
});
