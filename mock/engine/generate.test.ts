/**
 * The generic mock's generated strings for a field with a `pattern` match it (src/generate/patterns.ts draws them): a
 * value its own document refuses would be fitted or noted at best, and answered as it was at worst.
 */
import { describe, expect, it } from 'vitest';
import { compileSafePattern } from '../../src/schema/index.js';
import { ValueGenerator } from './generate.js';

/** Published patterns (ReadMe's API v2, Twilio's Messaging) that faker's own fromRegExp broke. */
const PATTERNS = [
  String.raw`\/branches\/((v{0,1})(stable|([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(-.*)?)(_(.*))?)`,
  String.raw`\/projects\/(me|[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*)`,
  String.raw`\/images\/([a-f\d]{24})`,
  String.raw`rdme_\w+`,
  String.raw`^(SM|MM)[0-9a-fA-F]{32}$`,
];

function matches(pattern: string, value: unknown): boolean {
  const safe = compileSafePattern(pattern);
  if (!safe.ok) throw new Error(safe.reason);
  return typeof value === 'string' && safe.pattern.test(value);
}

describe("the generic mock's generated values", () => {
  it.each(PATTERNS)('match their field\'s pattern %s, the same for the same seed', (pattern) => {
    const schema = { type: 'string', pattern } as const;
    const first = new ValueGenerator(5).value(schema, 'response', 0, 1, 'uri');
    expect(matches(pattern, first)).toBe(true);
    expect(new ValueGenerator(5).value(schema, 'response', 0, 1, 'uri')).toBe(first);
  });
});
