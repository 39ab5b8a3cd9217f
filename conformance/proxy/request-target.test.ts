/**
 * The request-target as the proxy takes it (request-target.ts): origin-form only, dot-segments removed as RFC 3986
 * §5.2.4 has it, and refused when they would climb above the root or hide behind a second decoding or another
 * separator. Property-based: on paths made of plain, dot and encoded-dot segments, what the proxy sends is what a
 * WHATWG URL parser resolves the same path to, whenever that stays below the root; otherwise the proxy refuses it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { casesForTier } from '../../src/test-tier.js';
import { requestTarget, withoutDotSegments } from './request-target.js';

const SEGMENTS = ['a', 'b', 'c.d', '', '.', '..', '%2e', '%2E%2e', '.%2e', '...'];

/** How many segments deep a path reaches at its lowest point, resolved as WHATWG URL does: below 0 means it climbed above the root. */
function lowest(segments: readonly string[]): number {
  let depth = 0;
  let low = 0;
  for (const segment of segments) {
    const dots = segment.replace(/%2e/gi, '.');
    if (dots === '..') depth -= 1;
    else if (dots !== '.') depth += 1;
    low = Math.min(low, depth);
  }
  return low;
}

describe('withoutDotSegments', () => {
  it('resolves as a WHATWG URL parser does while the path stays below its root, and refuses it otherwise', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 8 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const ours = withoutDotSegments(path);
        if (lowest(segments) < 0) {
          expect(ours).toEqual({ problem: expect.stringMatching(/climbs above its root/) });
          return;
        }
        expect(ours).toBe(new URL(`http://h${path}`).pathname);
        expect(String(ours).split('/').some((s) => ['.', '..'].includes(s.replace(/%2e/gi, '.')))).toBe(false);
      }),
      { numRuns: casesForTier({ fast: 300, full: 20_000 }), seed: 35 },
    );
  });

  it('named cases: the review’s, the trailing slash, and the hidden ones', () => {
    expect(withoutDotSegments('/../../admin/x')).toEqual({ problem: expect.stringMatching(/climbs above its root/) });
    expect(withoutDotSegments('/pets/1/../2')).toBe('/pets/2');
    expect(withoutDotSegments('/pets/..')).toBe('/');
    expect(withoutDotSegments('/pets/./')).toBe('/pets/');
    expect(withoutDotSegments('/pets/v1.2/x')).toBe('/pets/v1.2/x');
    expect(withoutDotSegments('/pets/a%2Fb')).toBe('/pets/a%2Fb');
    for (const hidden of ['/a/..%2f..%2fadmin', '/a/..%5C..', '/a/..\\..\\admin', '/a/%252e%252e/b', '/a/%25%32%65%25%32%65/b']) {
      expect(withoutDotSegments(hidden), hidden).toEqual({ problem: expect.stringMatching(/only a further decoding, or a %2F, %5C or \\ taken as a separator/) });
    }
  });
});

describe('requestTarget', () => {
  it('takes origin-form, with its query as it came', () => {
    expect(requestTarget('GET', '/pets/1/../2?limit=1&x=%2e%2e')).toEqual({ kind: 'origin', path: '/pets/2', query: 'limit=1&x=%2e%2e', url: '/pets/2?limit=1&x=%2e%2e' });
    expect(requestTarget('GET', '/pets')).toEqual({ kind: 'origin', path: '/pets', query: '', url: '/pets' });
  });

  it('refuses every other form, and * but for OPTIONS', () => {
    expect(requestTarget('OPTIONS', '*')).toEqual({ kind: 'asterisk' });
    expect(requestTarget('GET', '*')).toMatchObject({ kind: 'refused', form: 'asterisk-form' });
    expect(requestTarget('GET', 'http://example.com/items/2')).toMatchObject({ kind: 'refused', form: 'absolute-form' });
    expect(requestTarget('GET', 'HTTP://user:pw@EXAMPLE.COM')).toMatchObject({ kind: 'refused', form: 'absolute-form', reason: expect.not.stringContaining('pw') });
    expect(requestTarget('CONNECT', 'example.com:443')).toMatchObject({ kind: 'refused', form: 'authority-form' });
    expect(requestTarget('GET', '/a#frag')).toMatchObject({ kind: 'refused', form: 'fragment' });
  });
});
