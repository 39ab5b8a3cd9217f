/**
 * Which header fields a proxy passes on. RFC 9110 §7.6.1: a Connection header field names options that concern
 * only the connection it came on; an intermediary removes every field the Connection field names, then the
 * Connection field itself, and also the fields known to be connection-specific whether named or not
 * (Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade). The message framing is the proxy's own on each
 * side (node:http frames what it sends to the client, undici what it sends to the target), so Transfer-Encoding
 * never crosses; Content-Length does, since the body crosses byte for byte.
 *
 * Besides those, the request loses `Host` (it names the proxy; undici sends the target's, as a gateway must: RFC
 * 9110 §7.2) and `Expect` (RFC 9110 §10.1.1: 100-continue is answered by this hop, node:http does it). Every message
 * gains the proxy in `Via` (RFC 9110 §7.6.3: a proxy MUST send it in each message it forwards).
 */

/** Always connection-specific (RFC 9110 §7.6.1), lower case. */
const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade']);
/** Also not passed on in a request: this hop's own business. */
const REQUEST_ONLY: ReadonlySet<string> = new Set(['host', 'expect']);

/** What this proxy adds to `Via` (RFC 9110 §7.6.3: received-protocol received-by; a pseudonym stands for the host). */
export const VIA = '1.1 petstore-kit';

/** The field names a Connection header field nominates, lower case (`close`, `keep-alive` and the like are options, harmless to remove). */
function nominated(values: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const value of values) for (const token of value.split(',')) if (token.trim() !== '') out.add(token.trim().toLowerCase());
  return out;
}

/**
 * The request's header lines to send on, from node:http's `rawHeaders` (names as sent, repeated fields kept in
 * order), flat as undici takes them: `[name, value, name, value, …]`, with `Via` added.
 */
export function forwardedRequestHeaders(rawHeaders: readonly string[]): string[] {
  const connection: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'connection') connection.push(rawHeaders[i + 1]!);
  const named = connection.length > 0 ? nominated(connection) : undefined;
  const out: string[] = [];
  let via: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (CONNECTION_SPECIFIC.has(lower) || REQUEST_ONLY.has(lower) || named?.has(lower)) continue;
    if (lower === 'via') {
      via = via === undefined ? rawHeaders[i + 1]! : `${via}, ${rawHeaders[i + 1]!}`;
      continue;
    }
    out.push(name, rawHeaders[i + 1]!);
  }
  out.push('via', via === undefined ? VIA : `${via}, ${VIA}`);
  return out;
}

export type HeaderObject = Record<string, string | string[] | undefined>;

/** The response's header fields to send back to the client (lower-case names, repeated fields as arrays), with `Via` added. */
export function forwardedResponseHeaders(headers: HeaderObject): Record<string, string | string[]> {
  const connection = headers['connection'];
  const named = connection === undefined ? undefined : nominated(typeof connection === 'string' ? [connection] : connection);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || CONNECTION_SPECIFIC.has(name) || named?.has(name)) continue;
    out[name] = value;
  }
  const via = out['via'];
  out['via'] = via === undefined ? VIA : `${typeof via === 'string' ? via : via.join(', ')}, ${VIA}`;
  return out;
}
