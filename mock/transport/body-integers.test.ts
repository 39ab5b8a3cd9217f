/** The scan behind the mock's answer to long integers (body-integers.ts): where each stands, and only real integer literals. */
import { describe, expect, it } from 'vitest';
import { longIntegers, withIntegersAsSent } from './body-integers.js';

describe('longIntegers', () => {
  it('gives the RFC 6901 pointer of each, through arrays, escaped keys and strings that look like numbers', () => {
    const text = '{"a/b~c":[1,{"x":"99999999999999999999","id":9007199254740993}],"k\\"q":-9223372036854775809,"n":[[12345678901234567]]}';
    expect(longIntegers(text)).toEqual([
      { pointer: '/a~1b~0c/1/id', literal: '9007199254740993', inInt64: true },
      { pointer: '/k"q', literal: '-9223372036854775809', inInt64: false },
      { pointer: '/n/0/0', literal: '12345678901234567', inInt64: true },
    ]);
  });

  it('finds nothing without a long integer literal: safe integers, fractions, exponents, digits in strings', () => {
    expect(longIntegers('{"a":9007199254740991,"b":1.5,"c":"12345678901234567890","d":1e300,"e":-9007199254740991}')).toEqual([]);
  });

  it('walks any depth without recursion', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}9223372036854775808${']'.repeat(depth)}`;
    const [found] = longIntegers(text);
    expect(found?.inInt64).toBe(false);
    expect(found?.pointer).toBe('/0'.repeat(depth));
  });
});

describe('withIntegersAsSent', () => {
  it('writes the rounded double of each long id back as sent', () => {
    expect(withIntegersAsSent('No pet has id 9223372036854776000.', [{ pointer: '/petId', literal: '9223372036854775807', inInt64: true }])).toBe('No pet has id 9223372036854775807.');
  });
});
