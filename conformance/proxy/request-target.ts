/**
 * The request-target a client sent, as the proxy takes it (review 1, finding 2). The proxy is a gateway to --target,
 * not a forward proxy, so it takes only the origin-form (RFC 9112 §3.2.1: an absolute path, then an optional query)
 * and sends it under --target's path prefix:
 *
 * - the absolute-form (`GET http://example.com/x`, §3.2.2) names another authority: a target that honours it (RFC 9110
 *   §7.2) would serve a virtual host the client chose, with the `--header` credentials attached. Refused.
 * - the authority-form (`CONNECT host:443`, §3.2.3) asks for a tunnel. Refused (node:http refuses it for other methods).
 * - the asterisk-form (`OPTIONS *`, §3.2.4) asks about the server as a whole: the proxy answers it itself; any other
 *   method with `*` is refused.
 * - a fragment is never part of a request-target (RFC 9110 §7.1): refused.
 *
 * Dot-segments are removed as RFC 3986 §5.2.4 says, `%2e` taken as `.` (§6.2.2.2; the WHATWG URL standard does the
 * same), so the target gets a path with none: a path whose `..` would climb above the root (and so out of the
 * --target prefix, whatever the target does with dots) is refused, as is a dot-segment that only a second decoding,
 * or a `%2F`, `%5C` or `\` read as a separator, reveals: servers differ on those, so no one spelling is safe to send.
 */

export type RequestTarget =
  /** `url` is the path with its dot-segments removed, then `?query` when there is one: what goes after the prefix. */
  | { readonly kind: 'origin'; readonly path: string; readonly query: string; readonly url: string }
  | { readonly kind: 'asterisk' }
  | { readonly kind: 'refused'; readonly form: string; readonly reason: string };

const WAS_NOT_SENT = 'It was not sent on.';

/** What `method` with the request-target `raw` (node:http's `req.url`) becomes. */
export function requestTarget(method: string, raw: string): RequestTarget {
  if (raw === '*') {
    if (method === 'OPTIONS') return { kind: 'asterisk' };
    return refused('asterisk-form', `The request-target * is for OPTIONS only (RFC 9112 §3.2.4); this is ${method}. ${WAS_NOT_SENT}`);
  }
  if (!raw.startsWith('/')) {
    const absolute = /^[a-z][a-z0-9+.-]*:/i.test(raw) && raw.includes('//');
    return absolute
      ? refused('absolute-form', `The request-target is a full URL (absolute-form, RFC 9112 §3.2.2): this proxy is a gateway to its --target, not a forward proxy, and takes only a path such as /pets (origin-form, §3.2.1). ${WAS_NOT_SENT}`)
      : refused('authority-form', `The request-target is not a path (origin-form, RFC 9112 §3.2.1, such as /pets): this proxy takes no other form. ${WAS_NOT_SENT}`);
  }
  if (raw.includes('#')) return refused('fragment', `The request-target holds a fragment (#…), which is never sent in a request (RFC 9110 §7.1). ${WAS_NOT_SENT}`);
  const mark = raw.indexOf('?');
  const rawPath = mark === -1 ? raw : raw.slice(0, mark);
  const query = mark === -1 ? '' : raw.slice(mark + 1);
  const path = withoutDotSegments(rawPath);
  if (typeof path !== 'string') return refused('origin-form', `${path.problem} ${WAS_NOT_SENT}`);
  return { kind: 'origin', path, query, url: mark === -1 ? path : `${path}?${query}` };
}

function refused(form: string, reason: string): RequestTarget {
  return { kind: 'refused', form, reason };
}

/** `.` or `..` as written, or percent-encoded once (`%2e`, `.%2E`, …); undefined for any other segment. */
function dotSegment(segment: string): '.' | '..' | undefined {
  if (segment.length > 6) return undefined;
  const dots = segment.replace(/%2e/gi, '.');
  return dots === '.' || dots === '..' ? dots : undefined;
}

/** A dot-segment that a second decoding, or a `%2F`, `%5C` or `\` taken as a separator, would reveal. */
function hidesDotSegment(segment: string): boolean {
  const once = decoded(segment);
  const twice = decoded(once);
  return [segment, once, twice].some((form) => form.split(/[/\\]|%2f|%5c/i).some((part) => dotSegment(part) !== undefined));
}

/**
 * RFC 3986 §5.2.4 remove_dot_segments on an absolute path, segment by segment: `.` is dropped, `..` drops the segment
 * before it, and a path ending in either keeps its trailing slash. A `..` with nothing before it to drop would climb
 * above the root: refused, as is a hidden dot-segment.
 */
export function withoutDotSegments(path: string): string | { readonly problem: string } {
  // The common case: no dot and no encoded dot, nothing to resolve (a path of an API rarely has either).
  if (!path.includes('.') && !/%2e|%25/i.test(path) && !path.includes('\\')) return path;
  const segments = path.split('/').slice(1);
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    const dot = dotSegment(segment);
    if (dot === undefined) {
      if (hidesDotSegment(segment)) {
        return { problem: `The path holds a dot-segment that only a further decoding, or a %2F, %5C or \\ taken as a separator, reveals (${JSON.stringify(clip(segment))}); servers differ on those, so it might leave the --target prefix.` };
      }
      out.push(segment);
      continue;
    }
    if (dot === '..') {
      if (out.length === 0) return { problem: 'The path climbs above its root with a dot-segment (..): resolved (RFC 3986 §5.2.4), it would leave the --target prefix.' };
      out.pop();
    }
    if (last) out.push('');
  }
  return `/${out.join('/')}`;
}

/** A percent-decoding that never throws: a malformed escape stays as it is. */
function decoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
