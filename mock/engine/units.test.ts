/** The small parsers of the core: Accept, Prefer, RFC 3339, the deprecation headers, the request log line. */
import { describe, expect, it } from 'vitest';
import { bundledContract } from '../../src/test-support.js';
import { acceptsJson } from './accept.js';
import { parseRfc3339 } from '../conveniences/clock.js';
import { compileDeprecation } from '../conveniences/deprecation.js';
import { formatRequestLine } from '../transport/log.js';
import { MAX_DELAY_MS, parsePrefer } from '../conveniences/prefer.js';

describe('acceptsJson (RFC 9110 §12.5.1)', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['application/json', true],
    ['application/*', true],
    ['*/*', true],
    ['text/html, */*;q=0.1', true],
    ['APPLICATION/JSON', true],
    ['text/html', false],
    ['application/xml', false],
    ['application/json;q=0', false],
    ['application/json;q=0.000', false],
    ['application/json;q=0, */*', false],
    ['*/*;q=0', false],
    ['application/*;q=0, application/json', true],
    ['application/*;q=0.5, */*;q=0', true],
    ['text/html;q=1, application/json;q=0.001', true],
    ['garbage', true],
  ])('%j → %s', (accept, expected) => {
    expect(acceptsJson(accept)).toBe(expected);
  });
});

describe('parsePrefer (RFC 7240)', () => {
  it('reads code, example and delay, case-insensitively, first instance winning', () => {
    expect(parsePrefer('Code=404, example="pet Not Found", delay=5, code=500')).toEqual({ ok: true, preferences: { code: 404, example: 'pet Not Found', delayMs: 5, tokens: { code: 'code=404', example: 'example="pet Not Found"', delay: 'delay=5' } } });
  });
  it('caps the delay', () => {
    expect(parsePrefer('delay=99999999')).toMatchObject({ ok: true, preferences: { delayMs: MAX_DELAY_MS } });
  });
  it('ignores unknown preferences and their parameters', () => {
    expect(parsePrefer('return=minimal; foo="bar", respond-async')).toEqual({ ok: true });
    expect(parsePrefer(undefined)).toEqual({ ok: true });
  });
  it.each(['code=99', 'code=600', 'code=abc', 'delay=1.5', 'delay=', 'example=', '=x', 'code=404 junk'])('refuses %j', (value) => {
    expect(parsePrefer(value).ok).toBe(false);
  });
});

describe('parseRfc3339', () => {
  it.each([
    ['2027-06-30T23:59:59Z', Date.UTC(2027, 5, 30, 23, 59, 59)],
    ['2027-06-30t23:59:59z', Date.UTC(2027, 5, 30, 23, 59, 59)],
    ['2027-07-01T01:59:59+02:00', Date.UTC(2027, 5, 30, 23, 59, 59)],
    ['2027-06-30T23:59:59.5Z', Date.UTC(2027, 5, 30, 23, 59, 59, 500)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('%s', (text, millis) => {
    expect(parseRfc3339(text)).toBe(millis);
  });
  it.each(['2027-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2027-06-30', '2027-06-30T23:59:59', '2027-06-30T23:59:60Z', '2027-13-01T00:00:00Z', '2027-06-30T23:59:59+24:00', ' 2027-06-30T23:59:59Z'])('refuses %s', (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });
});

describe('compileDeprecation', async () => {
  const { contract } = await bundledContract();
  it('computes getPet’s three headers from the document, filling the successor’s path parameter', () => {
    const deprecation = compileDeprecation(contract.operationsById.get('getPet')!, '/api')!;
    expect(deprecation.headers({ petId: '7' })).toEqual({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
      link: '</api/pets?id=7>; rel="successor-version", <https://petstore.example.com/docs/deprecations#getPet>; rel="deprecation"; type="text/html"',
    });
    expect(deprecation.headers({ petId: 'a>b, <evil>' })['link']).toMatch(/^<\/api\/pets\?id=a%3Eb%2C%20%3Cevil%3E>;/);
    expect(deprecation.isSunset(Date.UTC(2027, 5, 30, 23, 59, 59))).toBe(false);
    expect(deprecation.isSunset(Date.UTC(2027, 5, 30, 23, 59, 59, 1))).toBe(true);
  });
  it('is undefined for the operations that are not deprecated', () => {
    const deprecated = contract.operations.filter((operation) => compileDeprecation(operation, '') !== undefined).map((o) => o.operationId);
    expect(deprecated).toEqual(['getPet']);
  });
});

describe('formatRequestLine', () => {
  it('escapes control characters and clips long paths', () => {
    expect(formatRequestLine('GET', '/pets\n200 fake line', 404, 1.234, undefined)).toBe('GET /pets\\x0a200 fake line 404 1.2ms');
    expect(formatRequestLine('GET', `/${'a'.repeat(500)}`, 404, 1, ['x'])).toMatch(/…\(501 chars\) 404 1\.0ms \| warning: x$/);
  });
});

describe('regression: a validation problem about a 10,000-deep value', () => {
  it('is reported, not a stack overflow (src/schema/diagnostics.ts clip())', async () => {
    const { compiled } = await bundledContract();
    const deep: unknown = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    const problems = compiled.operations.get('createPet')!.body(deep);
    expect(problems).toEqual([expect.objectContaining({ pointer: '/body', keyword: 'type', actual: '[…]' })]);
  });
});
