/**
 * Credentials of the shape an operation's security requirement asks for (OpenAPI 3.0.3 §4.7.10 `security`, else
 * the document's; §4.7.33 Security Scheme Object): what a front end sends, so that a referee which checks security,
 * such as Prism's proxy, sees a request that fulfils it. The mock itself does not check credentials.
 */
import type { Contract, Operation } from '../../../src/contract/index.js';
import { isObject } from '../schemas.js';

export interface Credentials {
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
}

const BASIC = `Basic ${Buffer.from('round-trip:secret').toString('base64')}`;

export function credentialsFor(contract: Contract, operation: Operation): Credentials {
  const out: Credentials = { headers: {}, query: {} };
  const document = contract.document as unknown as Record<string, unknown>;
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const item = isObject(paths[operation.pathTemplate]) ? (paths[operation.pathTemplate] as Record<string, unknown>) : {};
  const raw = isObject(item[operation.method]) ? (item[operation.method] as Record<string, unknown>) : {};
  const requirements = Array.isArray(raw['security']) ? (raw['security'] as unknown[]) : Array.isArray(document['security']) ? (document['security'] as unknown[]) : [];
  const components = isObject(document['components']) ? document['components'] : {};
  const schemes = isObject(components['securitySchemes']) ? components['securitySchemes'] : {};
  // The first alternative (an empty one means "no credentials needed", which any request fulfils).
  const first = requirements.find(isObject);
  for (const name of Object.keys(first ?? {})) {
    const scheme = schemes[name];
    if (!isObject(scheme)) continue;
    if (scheme['type'] === 'apiKey' && typeof scheme['name'] === 'string') {
      if (scheme['in'] === 'header') out.headers[scheme['name'].toLowerCase()] = 'round-trip-key';
      else if (scheme['in'] === 'query') out.query[scheme['name']] = 'round-trip-key';
      else if (scheme['in'] === 'cookie') out.headers['cookie'] = `${scheme['name']}=round-trip-key`;
    } else if (scheme['type'] === 'http') {
      out.headers['authorization'] = String(scheme['scheme']).toLowerCase() === 'basic' ? BASIC : 'Bearer round-trip-token';
    } else if (scheme['type'] === 'oauth2' || scheme['type'] === 'openIdConnect') {
      out.headers['authorization'] = 'Bearer round-trip-token';
    }
  }
  return out;
}
