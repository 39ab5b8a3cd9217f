/**
 * The admin token's comparison (admin-access.ts), written without node:crypto so the core bundles for a browser
 * (issue 23, point 3): it must still accept exactly the token.
 */
import { describe, expect, it } from 'vitest';
import { createAdminAccess, sameSecret } from './access.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('sameSecret', () => {
  it('accepts the secret and nothing else: a prefix, an extension, one byte changed, a repetition, empty', () => {
    expect(sameSecret(bytes('s3cret'), bytes('s3cret'))).toBe(true);
    for (const sent of ['s3cre', 's3crets', 's3creT', 's3crets3cret', '', 'ſ3cret']) expect(sameSecret(bytes(sent), bytes('s3cret')), sent).toBe(false);
    expect(sameSecret(bytes(''), bytes(''))).toBe(true);
    expect(sameSecret(bytes('x'), bytes(''))).toBe(false);
  });

  it('is what the admin surface uses for X-Mock-Admin-Token', () => {
    const check = createAdminAccess({ token: 'tøken' });
    expect(check('GET', { 'x-mock-admin-token': 'tøken' })).toBeUndefined();
    expect(check('GET', { 'x-mock-admin-token': 'tøke' })?.code).toBe('ADMIN_TOKEN_REQUIRED');
    expect(check('GET', {})?.code).toBe('ADMIN_TOKEN_REQUIRED');
  });
});
