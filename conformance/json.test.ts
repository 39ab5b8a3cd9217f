/** Lossless JSON (issue 9, point 1): int64 ids past 2^53 round-trip exactly; validators still see plain numbers. */
import { describe, expect, it } from 'vitest';
import { excerptJson, parseJson, parseJsonBody, plainJson, reportableJson, stringifyJson } from './json.js';

describe('parseJson / stringifyJson', () => {
  it('keeps an id above 2^53 exact, and writes it back digit for digit', () => {
    const value = parseJson('{"id":4590224790122085204,"quantity":1,"price":1.5,"name":"12345678901234567890"}');
    expect(value).toEqual({ id: 4590224790122085204n, quantity: 1, price: 1.5, name: '12345678901234567890' });
    expect(stringifyJson(value)).toBe('{"id":4590224790122085204,"quantity":1,"price":1.5,"name":"12345678901234567890"}');
    expect(String((value as { id: bigint }).id)).toBe('4590224790122085204');
  });

  it('keeps an int64 past 2^53 exact whatever its form: a zero fraction or an exponent (independent findings, bigIds + numberForms)', () => {
    expect(parseJson('{"id":635187127168994984.0,"b":4590224790122085204e0,"c":45902247901220852.04e2,"d":1.0}')).toEqual({ id: 635187127168994984n, b: 4590224790122085204n, c: 4590224790122085204n, d: 1 });
    // A real fraction past 2^53 stays a double, as JSON.parse gives it.
    expect(parseJson('[4590224790122085204.5]')).toEqual([4590224790122085204.5]);
  });

  it('gives plain numbers where no integer is past 2^53 (the fast path)', () => {
    expect(parseJson('[9007199254740991, -3, 1e3]')).toEqual([9007199254740991, -3, 1000]);
  });

  it('throws a SyntaxError for text that is not JSON, as JSON.parse does', () => {
    expect(() => parseJson('{"id": 12345678901234567890')).toThrow(SyntaxError);
    expect(() => parseJson("{'a':1}")).toThrow(SyntaxError);
  });

  it('takes JSON that lossless-json alone would refuse: too deep for its recursion, or a duplicate key', () => {
    const deep = `${'['.repeat(100_000)}12345678901234567890${']'.repeat(100_000)}`;
    expect(Array.isArray(parseJson(deep))).toBe(true);
    expect(parseJson('{"id":12345678901234567890,"id":1}')).toEqual({ id: 1 });
  });

  it('plainJson turns bigints into the numbers JSON.parse gives, for Ajv, and leaves a plain value as it is', () => {
    const value = parseJson('{"ids":[4590224790122085204]}');
    expect(plainJson(value)).toEqual(JSON.parse('{"ids":[4590224790122085204]}'));
    const plain = { a: 1 };
    expect(plainJson(plain)).toBe(plain);
  });

  it('parseJsonBody gives the validators plain numbers, and walks nothing when no integer can be past 2^53', () => {
    const small = parseJsonBody('[{"id":1},{"id":2}]');
    expect(small.plain).toBe(small.value);
    const big = parseJsonBody('{"id":4590224790122085204}');
    expect(big.value).toEqual({ id: 4590224790122085204n });
    expect(big.plain).toEqual(JSON.parse('{"id":4590224790122085204}'));
  });

  it('reportableJson makes findings JSON-safe and bounded', () => {
    expect(reportableJson({ id: 4590224790122085204n })).toEqual({ id: '4590224790122085204' });
    const huge = Array.from({ length: 100_000 }, () => ({}));
    expect(JSON.stringify(reportableJson(huge)).length).toBeLessThan(5_000);
    const deep = parseJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => JSON.stringify(reportableJson(deep))).not.toThrow();
    expect(excerptJson(deep)).toBe('[…]');
  });
});

describe('stringifyJson, the one writer (json-text.ts folded into json.ts)', () => {
  it('writes an id past 2^53 held as a bigint digit for digit, where JSON.stringify throws', () => {
    const body = { petId: 4590224790122085204n, quantity: 1, ids: [9223372036854775807n, -9223372036854775808n] };
    expect(() => JSON.stringify(body)).toThrow(TypeError);
    expect(stringifyJson(body)).toBe('{"petId":4590224790122085204,"quantity":1,"ids":[9223372036854775807,-9223372036854775808]}');
  });

  it('is JSON.stringify byte for byte without bigints, and with them everywhere but the bigints', () => {
    const values: unknown[] = [{ name: '\u0000bigint:12', n: 1.5, skipped: undefined }, [null, true, 'x', undefined], 'text', 0, { at: new Date(0) }];
    for (const value of values) expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson({ id: 2n ** 64n, at: new Date(0), gone: undefined, list: [undefined] })).toBe(`{"id":18446744073709551616,"at":${JSON.stringify(new Date(0))},"list":[null]}`);
  });

  it('names undefined, which has no JSON text, instead of answering undefined for a string', () => {
    expect(stringifyJson(undefined)).toBe('undefined');
    expect(excerptJson(undefined)).toBe('undefined');
  });
});
