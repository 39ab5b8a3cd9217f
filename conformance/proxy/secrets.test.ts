/**
 * The proxy's quick first look before scrubbing a value (secrets.ts `prefiltered`): it must change nothing the
 * redactor would do, only skip the work for values that hold no secret. Property-based, over text made of pieces of
 * the secrets' echoed forms (redact.ts secretForms: whole, after the scheme, encoded, base64), near misses and noise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { casesForTier } from '../../src/test-tier.js';
import { createRedactor, secretForms } from '../reporters/redact.js';
import { prefiltered } from './secrets.js';

const SECRETS = ['Bearer tok-AAAA-1-xxxxxxxx', 'ck-BBBB-2-yyyyyyyy', 'Basic dXNlcjpodW50ZXIy', 'k3y'];

describe('prefiltered', () => {
  it('scrubs exactly as the redactor it wraps', () => {
    const plain = createRedactor({ secrets: SECRETS });
    const quick = prefiltered(plain, SECRETS);
    const forms = SECRETS.flatMap(secretForms);
    const piece = fc.oneof(
      fc.constantFrom(...forms),
      fc.constantFrom(...forms).map((form) => form.slice(0, Math.max(1, form.length - 2))),
      fc.constantFrom('@', '//ann:pw@host/', 'tok-', ' ', '"', 'é', '😀'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        expect(quick.text(text)).toBe(plain.text(text));
      }),
      { numRuns: casesForTier({ fast: 500, full: 20_000 }), seed: 1 },
    );
  });

  it('leaves a value alone without scrubbing it when no secret can be in it', () => {
    const plain = createRedactor({ secrets: SECRETS });
    let calls = 0;
    const quick = prefiltered({ ...plain, text: (value) => ((calls += 1), plain.text(value)) }, SECRETS);
    expect(quick.text('a pet called Rex, 4 years old')).toBe('a pet called Rex, 4 years old');
    expect(calls).toBe(0);
    expect(quick.text('echo: Bearer tok-AAAA-1-xxxxxxxx')).toBe('echo: [redacted]');
    expect(calls).toBe(1);
    // A URL's password is scrubbed whatever the book holds.
    expect(quick.text('see http://ann:pw@host/')).toBe('see http://ann:[redacted]@host/');
  });
});
