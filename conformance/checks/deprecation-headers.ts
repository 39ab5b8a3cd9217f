import type { Operation } from '../../src/contract/index.js';
import { parseDeprecation, parseImfFixdate, parseLinkHeader, toImfFixdate } from '../headers.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';

/**
 * On every response of a deprecated operation, errors included:
 * - `Deprecation` is an RFC 9745 §2.1 Structured Field Date, `@<unix seconds>`,
 *   equal to `x-deprecated-at` (the drafts' `true` and date strings are named as such);
 * - `Sunset` is an RFC 8594 §3 HTTP-date in IMF-fixdate form (RFC 9110 §5.6.7),
 *   equal to `x-sunset`, and not earlier than the deprecation (RFC 9745 §4);
 * - `Link` (RFC 8288) has `rel="successor-version"` (RFC 5829) and `rel="deprecation"` (RFC 9745 §3).
 *
 * These are our contract's conventions: they apply only to an operation
 * that declares them (declaresDeprecationHeaders). A bare `deprecated: true`
 * says nothing about headers (OpenAPI 3.0.3 §4.7.10), so it is noted
 * (deprecation-links skips it with the reason), never failed (issue 11, point 4).
 */
export const deprecationHeaders: CheckDefinition = {
  id: 'deprecation-headers',
  family: 'deprecation',
  description: 'Deprecated operations send Deprecation (RFC 9745), Sunset (RFC 8594) and Link (successor-version, deprecation) on every response.',
  explain: {
    why: 'Clients and API gateways learn of a deprecation and its sunset only from these headers (RFC 9745, RFC 8594, RFC 8288); without them callers are surprised by the removal.',
    conformant: '`Deprecation: @1767225600`, `Sunset: Wed, 30 Jun 2027 23:59:59 GMT` and `Link: </pets?id=21>; rel="successor-version", <https://…>; rel="deprecation"` on every answer of getPet.',
  },
  writes: false,
  judge(x) {
    if (!x.operation?.deprecated || !declaresDeprecationHeaders(x.operation)) return NOT_APPLICABLE;
    const spec = x.operation.deprecation ?? {};
    const declared = declaredHeaders(x.operation);
    const findings: Finding[] = [];
    const expectedSeconds = spec.deprecatedAt ? Math.floor(spec.deprecatedAt.getTime() / 1000) : undefined;
    const expectedForm = expectedSeconds !== undefined ? `@${expectedSeconds}` : '@<unix seconds>';

    let deprecationSeconds: number | undefined;
    const deprecation = x.headers['deprecation'];
    if (deprecation === undefined) {
      if (spec.deprecatedAt !== undefined || declared.has('deprecation')) findings.push({ pointer: '/header/deprecation', keyword: 'required', message: `a deprecated operation must send Deprecation (RFC 9745), here ${expectedForm}`, expected: expectedForm });
    } else {
      const parsed = parseDeprecation(deprecation);
      if (parsed.kind === 'legacy-true') {
        findings.push({ pointer: '/header/deprecation', keyword: 'format', message: `Deprecation: ${deprecation} is the legacy boolean form of the drafts; RFC 9745 §2.1 requires a Structured Field Date, ${expectedForm}`, expected: expectedForm, actual: deprecation });
      } else if (parsed.kind === 'legacy-date') {
        findings.push({ pointer: '/header/deprecation', keyword: 'format', message: `Deprecation: ${deprecation} is a date string (the drafts' form); RFC 9745 §2.1 requires a Structured Field Date, ${expectedForm}`, expected: expectedForm, actual: deprecation });
      } else if (parsed.kind === 'invalid') {
        findings.push({ pointer: '/header/deprecation', keyword: 'format', message: `Deprecation: ${deprecation} is not an RFC 9745 Structured Field Date (@<unix seconds>)`, expected: expectedForm, actual: deprecation });
      } else {
        deprecationSeconds = parsed.seconds;
        if (expectedSeconds !== undefined && parsed.seconds !== expectedSeconds) {
          findings.push({ pointer: '/header/deprecation', keyword: 'x-deprecated-at', message: `Deprecation must be x-deprecated-at (${spec.deprecatedAt?.toISOString()}), ${expectedForm}`, expected: expectedForm, actual: deprecation });
        }
      }
    }

    const sunset = x.headers['sunset'];
    if (spec.sunset || declared.has('sunset') || sunset !== undefined) {
      const expected = spec.sunset ? toImfFixdate(spec.sunset) : 'an IMF-fixdate';
      if (sunset === undefined) {
        findings.push({ pointer: '/header/sunset', keyword: 'required', message: `a deprecated operation with ${spec.sunset ? 'x-sunset' : 'a documented Sunset header'} must send Sunset (RFC 8594): ${expected}`, expected });
      } else {
        const date = parseImfFixdate(sunset);
        if (!date) {
          findings.push({ pointer: '/header/sunset', keyword: 'format', message: `Sunset: ${sunset} is not an HTTP-date in IMF-fixdate form (RFC 8594 §3, RFC 9110 §5.6.7)`, expected, actual: sunset });
        } else {
          if (spec.sunset && Math.floor(date.getTime() / 1000) !== Math.floor(spec.sunset.getTime() / 1000)) {
            findings.push({ pointer: '/header/sunset', keyword: 'x-sunset', message: `Sunset must be x-sunset (${spec.sunset.toISOString()})`, expected, actual: sunset });
          }
          if (deprecationSeconds !== undefined && date.getTime() / 1000 < deprecationSeconds) {
            findings.push({ pointer: '/header/sunset', keyword: 'order', message: 'Sunset is earlier than Deprecation; RFC 9745 §4 forbids it', expected: `>= @${deprecationSeconds}`, actual: sunset });
          }
        }
      }
    }

    const link = x.headers['link'];
    const wanted = [...(spec.successorTemplate ? ['successor-version'] : []), ...(spec.documentationUrl ? ['deprecation'] : [])];
    if (wanted.length === 0 && declared.has('link')) wanted.push('successor-version', 'deprecation');
    const rels = new Set(parseLinkHeader(link ?? '').flatMap((l) => l.rels));
    for (const rel of wanted) {
      if (rels.has(rel)) continue;
      findings.push({
        pointer: '/header/link',
        keyword: 'rel',
        message: link === undefined ? `a deprecated operation must send Link with rel="${rel}" (RFC 8288)` : `Link has no rel="${rel}"${rel === 'deprecation' ? ' (RFC 9745 §3)' : ' (RFC 5829)'}`,
        expected: `rel="${rel}"`,
        ...(link !== undefined ? { actual: link } : {}),
      });
    }
    return verdictOf(findings);
  },
};

/** Names (lower-case) of the headers the operation's responses document. */
function declaredHeaders(operation: Operation): Set<string> {
  return new Set([...operation.responses.values()].flatMap((r) => r.headers.map((h) => h.name.toLowerCase())));
}

/**
 * Whether a deprecated operation declares the RFC 9745/8594 conventions: a
 * Deprecation or Sunset response header, or one of our extensions
 * (x-deprecated-at, x-sunset, x-successor-version). Only then are the
 * deprecation checks its business.
 */
export function declaresDeprecationHeaders(operation: Operation): boolean {
  const spec = operation.deprecation;
  if (spec?.deprecatedAt !== undefined || spec?.sunset !== undefined || spec?.successorTemplate !== undefined) return true;
  const declared = declaredHeaders(operation);
  return declared.has('deprecation') || declared.has('sunset');
}
