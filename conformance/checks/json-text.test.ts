import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text.js';

describe('jsonText', () => {
  it('writes an id past 2^53 held as a bigint digit for digit, where JSON.stringify throws', () => {
    const body = { petId: 4590224790122085204n, quantity: 1, ids: [9223372036854775807n] };
    expect(() => JSON.stringify(body)).toThrow(TypeError);
    expect(jsonText(body)).toBe('{"petId":4590224790122085204,"quantity":1,"ids":[9223372036854775807]}');
  });

  it('is JSON.stringify byte for byte without bigints, strings that look like the mark included', () => {
    for (const value of [{ name: '\u0000bigint:12', n: 1.5 }, [null, true, 'x'], 'text', 0]) expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('names undefined, which has no JSON text, instead of throwing', () => {
    expect(jsonText(undefined)).toBe('undefined');
  });
});
