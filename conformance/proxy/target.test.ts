/**
 * Review 1, finding 14: one reading of an inbound server's URL (target.ts) for --target and --fallback-url, whose
 * errors name the flag the URL came from (a --fallback-url with a query or credentials was taken by one parser, then
 * refused by the other as a `--target` problem).
 */
import { describe, expect, it } from 'vitest';
import { isKitError } from '../../src/kit-error.js';
import { fallbackAt } from './fallback.js';
import { startTestProxy } from './test-support/servers.js';
import { FALLBACK_URL_FLAG, targetOf } from './target.js';

function usage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isKitError(error) && error.code === 'USAGE') return error.message;
    throw error;
  }
  throw new Error('no USAGE error');
}

describe('targetOf and fallbackAt', () => {
  it.each([
    ['not a URL', 'nope', /"nope" is not a URL; give /],
    ['another scheme', 'ftp://127.0.0.1:4011', /must be an http or https URL; got ftp:/],
    ['a query', 'http://127.0.0.1:4011/?x=1', /must not carry a query or fragment/],
    ['credentials', 'http://user:hunter2@127.0.0.1:4011', /must not carry credentials/],
  ])('%s: a USAGE error that names the flag it came from', (_name, url, reason) => {
    const asTarget = usage(() => targetOf(url));
    const asFallback = usage(() => fallbackAt(url));
    expect(asTarget).toMatch(new RegExp(`^petstore-kit proxy: --target ${reason.source}`));
    expect(asFallback).toMatch(new RegExp(`^petstore-kit proxy: --fallback-url ${reason.source}`));
    expect(asFallback).not.toContain('--target');
    for (const message of [asTarget, asFallback]) expect(message).not.toContain('hunter2');
  });

  it('reads a fallback URL as it reads a target: origin, prefix, and how the log shows it', () => {
    const fallback = fallbackAt('http://127.0.0.1:4011/mock/');
    expect([fallback.target.origin, fallback.target.prefix, fallback.target.href('/pets?x=1'), fallback.describe]).toEqual(['http://127.0.0.1:4011', '/mock', 'http://127.0.0.1:4011/mock/pets?x=1', 'the mock at http://127.0.0.1:4011']);
    expect(targetOf('https://staging.example.com/api/v1', FALLBACK_URL_FLAG).display).toBe('https://staging.example.com/api/v1');
  });

  it('startProxy refuses a --fallback-url with credentials naming --fallback-url', async () => {
    await expect(startTestProxy({ target: 'http://127.0.0.1:1', fallbackUrl: 'http://u:hunter2@127.0.0.1:4011' })).rejects.toThrow(/^petstore-kit proxy: --fallback-url must not carry credentials/);
  });
});
