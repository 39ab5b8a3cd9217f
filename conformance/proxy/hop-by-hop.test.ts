/**
 * RFC 9110 §7.6.1 and §7.6.3, as hop-by-hop.ts applies them, table by table: what crosses the proxy and what
 * does not, in each direction.
 */
import { describe, expect, it } from 'vitest';
import { forwardedRequestHeaders, forwardedResponseHeaders, VIA } from './hop-by-hop.js';

function pairs(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

describe('a request passed on', () => {
  it.each([
    ['Connection and the fields it names', ['Connection', 'keep-alive, X-Trace-Hop', 'X-Trace-Hop', '1', 'Accept', 'application/json'], [['Accept', 'application/json']]],
    ['the fields that are always connection-specific', ['Keep-Alive', 'timeout=5', 'TE', 'trailers', 'Transfer-Encoding', 'chunked', 'Upgrade', 'websocket', 'Proxy-Connection', 'close', 'X-A', 'b'], [['X-A', 'b']]],
    ['Host and Expect, this hop’s own', ['Host', 'proxy.local:4010', 'Expect', '100-continue', 'Content-Length', '12'], [['Content-Length', '12']]],
    ['repeated fields, in order, names as sent', ['X-Id', '1', 'x-id', '2', 'Cookie', 'a=1'], [['X-Id', '1'], ['x-id', '2'], ['Cookie', 'a=1']]],
  ])('drops %s, keeps the rest, adds Via', (_what, raw, kept) => {
    expect(pairs(forwardedRequestHeaders(raw))).toEqual([...kept, ['via', VIA]]);
  });

  it('appends itself to a Via the client sent (every Via line, in order)', () => {
    expect(pairs(forwardedRequestHeaders(['Via', '1.0 edge', 'via', '1.1 cdn']))).toEqual([['via', `1.0 edge, 1.1 cdn, ${VIA}`]]);
  });
});

describe('an answer passed back', () => {
  it('drops Connection, what it names and the connection-specific fields; keeps repeated fields; adds Via', () => {
    expect(
      forwardedResponseHeaders({
        connection: 'close, x-secret',
        'x-secret': 'no',
        'keep-alive': 'timeout=9',
        'transfer-encoding': 'chunked',
        'content-length': '10',
        'set-cookie': ['a=1', 'b=2'],
        via: '1.1 origin',
      }),
    ).toEqual({ 'content-length': '10', 'set-cookie': ['a=1', 'b=2'], via: `1.1 origin, ${VIA}` });
  });
});
