/**
 * The proxy's own answers are a closed set (errors.ts), and docs/proxy.md lists the same codes with the same
 * statuses: a code added or changed on one side fails here until the other follows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { PROXY_ERROR_CODES, proxyError } from './errors.js';

describe('the proxy’s error codes', () => {
  it('are the ones docs/proxy.md lists, each with its status', () => {
    const page = readFileSync(join(PACKAGE_ROOT, 'docs', 'proxy.md'), 'utf8');
    const documented = Object.fromEntries([...page.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    expect(documented).toEqual(Object.fromEntries(Object.entries(PROXY_ERROR_CODES).map(([code, spec]) => [code, spec.status])));
  });

  it('answer in the kit’s Error shape, the rule named in each detail', () => {
    const answer = proxyError('RESPONSE_VIOLATES_CONTRACT', 'broken', [{ rule: 'response-schema', diagnostic: { pointer: '/body/name', keyword: 'required', message: 'is required' } }]);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toEqual({ code: 'RESPONSE_VIOLATES_CONTRACT', message: 'broken', status: 502, details: [{ path: '/body/name', message: 'response-schema: is required' }] });
    expect(JSON.parse(proxyError('TARGET_TIMEOUT', 'slow').text)).toEqual({ code: 'TARGET_TIMEOUT', message: 'slow', status: 504 });
  });
});
