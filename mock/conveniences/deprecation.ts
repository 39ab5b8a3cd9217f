/**
 * The headers of a deprecated operation, computed once from the document
 * (`deprecated`, `x-deprecated-at`, `x-sunset`, `x-successor-version`,
 * `externalDocs`), and the sunset check. Per request only the successor link's
 * path parameters are filled in.
 *
 * - `Deprecation: @<unix seconds>`: RFC 9745 §2.1, a Structured Field Date (RFC 9651 §3.3.7).
 * - `Sunset: <IMF-fixdate>`: RFC 8594 §3, an HTTP-date (RFC 9110 §5.6.7).
 * - `Link`: RFC 8288, `rel="successor-version"` (RFC 5829) and `rel="deprecation"` (RFC 9745 §3).
 */
import type { Operation } from '../../src/contract/index.js';

export interface Deprecation {
  readonly operationId: string;
  /** The three headers (those the document gives data for), lower-case names, for a request with these path parameters. */
  headers(pathParams: Readonly<Record<string, string>>): Record<string, string>;
  /** True once `now` is past the sunset instant ("after the sunset", contract.md). */
  isSunset(now: number): boolean;
  /** The 410's message: when it was sunset and what to use instead. */
  sunsetMessage(pathParams: Readonly<Record<string, string>>): string;
  /** The request log's warning. */
  warning(pathParams: Readonly<Record<string, string>>): string;
}

type Part = { readonly text: string } | { readonly param: string };

/** undefined when the operation is not deprecated. `basePath` prefixes a successor given as an absolute path. */
export function compileDeprecation(operation: Operation, basePath: string): Deprecation | undefined {
  const spec = operation.deprecation;
  if (!operation.deprecated || !spec) return undefined;

  const deprecationValue = spec.deprecatedAt ? `@${Math.floor(spec.deprecatedAt.getTime() / 1000)}` : undefined;
  // toUTCString() is the IMF-fixdate form: "Wed, 30 Jun 2027 23:59:59 GMT".
  const sunsetValue = spec.sunset ? spec.sunset.toUTCString() : undefined;
  const sunsetAt = spec.sunset?.getTime();

  const successor = spec.successorTemplate ? parseTemplate(spec.successorTemplate.startsWith('/') ? `${basePath}${spec.successorTemplate}` : spec.successorTemplate) : undefined;
  const docsLink = spec.documentationUrl ? `<${spec.documentationUrl}>; rel="deprecation"; type="text/html"` : undefined;
  const staticLink = successor === undefined ? docsLink : undefined;

  const successorUrl = (params: Readonly<Record<string, string>>): string | undefined => (successor ? fill(successor, params) : undefined);
  const linkFor = (params: Readonly<Record<string, string>>): string | undefined => {
    if (!successor) return staticLink;
    const first = `<${fill(successor, params)}>; rel="successor-version"`;
    return docsLink ? `${first}, ${docsLink}` : first;
  };

  const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
  const sunsetText = spec.sunset ? spec.sunset.toISOString().replace('.000Z', 'Z') : undefined;

  return {
    operationId: operation.operationId,
    headers(params) {
      const link = linkFor(params);
      // An object literal of known shape, not a spread: this runs on every answer of the operation (issue 5's hot path).
      const out: Record<string, string> = deprecationValue === undefined ? {} : { deprecation: deprecationValue };
      if (sunsetValue !== undefined) out['sunset'] = sunsetValue;
      if (link !== undefined) out['link'] = link;
      return out;
    },
    isSunset(now) {
      return sunsetAt !== undefined && now > sunsetAt;
    },
    sunsetMessage(params) {
      const instead = successorUrl(params);
      return `${where} was sunset at ${sunsetText ?? 'its sunset date'}${instead ? `; use GET ${instead}` : ''}.`;
    },
    warning(params) {
      const instead = successorUrl(params);
      return `${operation.operationId} is deprecated${sunsetText ? ` (sunset ${sunsetText})` : ''}${instead ? `; use GET ${instead}` : ''}`;
    },
  };
}

function parseTemplate(template: string): readonly Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^}]+)\}/g)) {
    if (match.index > last) parts.push({ text: template.slice(last, match.index) });
    parts.push({ param: match[1] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

/** Longer than any id (2^63-1 has 19 digits): such a value is not echoed into a response header. */
const MAX_ECHOED = 64;

function fill(parts: readonly Part[], params: Readonly<Record<string, string>>): string {
  let out = '';
  for (const part of parts) {
    if ('text' in part) {
      out += part.text;
      continue;
    }
    const value = params[part.param] ?? '';
    // The value is the client's: percent-encoded so it cannot break out of the <URI-Reference> (RFC 8288 §3), and
    // left out when absurdly long, so a 20 KB path cannot make a response header no client would accept.
    out += value.length > MAX_ECHOED ? '' : encodeURIComponent(value);
  }
  return out;
}
