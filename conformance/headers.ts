/**
 * Parsers for the header fields the runner judges. Each follows its RFC
 * closely enough to tell a conforming value from a near miss, and says
 * which near miss it is (the legacy `Deprecation: true` of the drafts, say).
 */

export interface LinkValue {
  /** The URI-reference between `<` and `>`, as sent. */
  readonly target: string;
  /** Parameter names lower case; `rel` split into its relation types, lower case (RFC 8288 §3.3). */
  readonly rels: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/** Parses a `Link` field value (RFC 8288 §3): `<uri>; rel="a b"; type="text/html", <uri2>; rel=c`. */
export function parseLinkHeader(value: string): LinkValue[] {
  const links: LinkValue[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < value.length && /[ \t]/.test(value[i]!)) i += 1;
  };
  while (i < value.length) {
    skipSpace();
    if (value[i] === ',') {
      i += 1;
      continue;
    }
    if (value[i] !== '<') return links; // not a link-value: stop rather than guess
    const end = value.indexOf('>', i);
    if (end < 0) return links;
    const target = value.slice(i + 1, end);
    i = end + 1;
    const params: Record<string, string> = {};
    for (;;) {
      skipSpace();
      if (value[i] !== ';') break;
      i += 1;
      skipSpace();
      const name = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(value.slice(i))?.[0];
      if (!name) break;
      i += name.length;
      skipSpace();
      let paramValue = '';
      if (value[i] === '=') {
        i += 1;
        skipSpace();
        if (value[i] === '"') {
          i += 1;
          while (i < value.length && value[i] !== '"') {
            if (value[i] === '\\') i += 1;
            paramValue += value[i] ?? '';
            i += 1;
          }
          i += 1;
        } else {
          const token = /^[^;,\s]*/.exec(value.slice(i))?.[0] ?? '';
          paramValue = token;
          i += token.length;
        }
      }
      // RFC 8288 §3.3: occurrences after the first of `rel` are ignored.
      const key = name.toLowerCase();
      if (!(key in params)) params[key] = paramValue;
    }
    links.push({ target, rels: (params['rel'] ?? '').toLowerCase().split(/\s+/).filter(Boolean), params });
    skipSpace();
    if (value[i] === ',') i += 1;
  }
  return links;
}

export type DeprecationValue =
  | { readonly kind: 'date'; readonly seconds: number }
  | { readonly kind: 'legacy-true' }
  | { readonly kind: 'legacy-date'; readonly date: Date }
  | { readonly kind: 'invalid' };

/**
 * RFC 9745 §2.1: `Deprecation` is an RFC 9651 Date structured field, `@`
 * followed by an integer of Unix seconds. Drafts before the RFC used the
 * token `true` and HTTP-dates; both are recognised so the finding can say so.
 */
export function parseDeprecation(value: string): DeprecationValue {
  const text = value.trim();
  const sfDate = /^@(-?\d{1,15})$/.exec(text);
  if (sfDate) return { kind: 'date', seconds: Number(sfDate[1]) };
  if (text.toLowerCase() === 'true' || text === '?1') return { kind: 'legacy-true' };
  const date = new Date(text);
  if (/[a-z]/i.test(text) || /^\d{4}-\d{2}-\d{2}/.test(text)) {
    if (!Number.isNaN(date.getTime())) return { kind: 'legacy-date', date };
  }
  return { kind: 'invalid' };
}

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/** RFC 9110 §5.6.7: the IMF-fixdate form an HTTP-date must be sent in (RFC 8594 §3 for Sunset). Undefined when the value is not one. */
export function parseImfFixdate(value: string): Date | undefined {
  const match = IMF_FIXDATE.exec(value.trim());
  if (!match) return undefined;
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) return undefined;
  // The weekday must be the date's real weekday: `Mon, 30 Jun 2027` is not an IMF-fixdate of any instant.
  if (date.toUTCString().slice(0, 3) !== match[1]) return undefined;
  return date;
}

/** An IMF-fixdate for an instant, for messages: what was expected. */
export function toImfFixdate(date: Date): string {
  return date.toUTCString();
}

/** A comma-separated list of tokens (RFC 9110 §5.6.1), lower case. */
export function tokenList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * RFC 3986 §4.1 URI-reference, by its characters: unreserved, reserved and
 * percent-encoded octets only (no spaces, no quotes, no raw non-ASCII), and
 * no scheme-looking prefix that is not a valid scheme.
 */
export function isUriReference(text: string): boolean {
  if (!/^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/.test(text)) return false;
  const colon = text.indexOf(':');
  const firstDelimiter = text.search(/[/?#]/);
  if (colon >= 0 && (firstDelimiter < 0 || colon < firstDelimiter)) return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text);
  return true;
}

/** An absolute http(s) URI with a host (RFC 3986 §4.3). */
export function isAbsoluteHttpUri(text: string): boolean {
  if (!isUriReference(text) || !/^https?:\/\//i.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}
