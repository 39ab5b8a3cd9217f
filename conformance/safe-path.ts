/**
 * The runner never sends a request whose path, once normalised, is not a path
 * of the operation it meant (issue 20, point 5). Ids come from the target (a
 * created record's id, a Location) and from generated values: an id of `..`
 * made `/things/{id}` into `/things/..`, which a URL parser and every server
 * normalise to `/` (RFC 3986 §5.2.4, remove_dot_segments; the WHATWG URL
 * standard also takes `%2e`, `%2E` and `.%2e` as dots), so the clean-up sent
 * `DELETE /`; `.` gave `DELETE /things/`, the whole collection.
 *
 * `pathRefusal` compares the request with the operation's template, segment
 * by segment, twice: as written (to name the parameter and the value that is
 * wrong) and as the URL parser normalised it (what undici would send). A
 * templated segment must not be empty, a dot segment, or hold a `/` or `\`
 * once decoded, nor once decoded twice (a proxy or server that decodes again
 * would see `%252e%252e` as `..`). Literal segments must stay as the template
 * has them. Anything else is refused with the reason; the case that meant it
 * is skipped with that reason (context.ts), the clean-up leaves the record
 * behind with it (cleanup.ts).
 */

/** The error code of a request refused before it was sent (HttpResult.error.code). */
export const UNSAFE_PATH = 'UNSAFE_PATH';

/** A percent-decoding that never throws: a malformed escape stays as it is. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The path part of a relative path or an absolute URL, exactly as written (no normalisation). */
function rawPathOf(path: string): string {
  const withoutOrigin = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  return withoutOrigin.split(/[?#]/)[0]!;
}

/** The segments after the base URL's path prefix, or undefined when the path is not under it. */
function segmentsUnder(prefix: string, path: string): string[] | undefined {
  if (prefix && path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
  return path.slice(prefix.length).split('/').slice(1);
}

/** Why a value in a templated segment would not reach the operation, or undefined when it would. */
function unsafeValue(segment: string): string | undefined {
  const once = decode(segment);
  const twice = decode(once);
  if (once === '') return 'is empty';
  if (once === '.' || once === '..') return 'is a dot segment, which URL normalisation removes';
  if (/[/\\]/.test(once)) return 'holds a path separator once decoded';
  if (twice === '.' || twice === '..') return 'is a dot segment once decoded twice (by a proxy or server that decodes again)';
  if (/[/\\]/.test(twice)) return 'holds a path separator once decoded twice (by a proxy or server that decodes again)';
  return undefined;
}

/** A template segment as a pattern: its literal parts exact, each `{name}` any text; with the names, in order. Made once per segment: every request is compared. */
function segmentPattern(segment: string): { pattern: RegExp; names: string[] } {
  let made = SEGMENT_PATTERNS.get(segment);
  if (!made) SEGMENT_PATTERNS.set(segment, (made = newSegmentPattern(segment)));
  return made;
}

const SEGMENT_PATTERNS = new Map<string, { pattern: RegExp; names: string[] }>();

function newSegmentPattern(segment: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = segment
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '(.*)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`, 's'), names };
}

/** The first way `segments` differ from the template's, naming the parameter and its value when a templated one is wrong. */
function mismatch(template: readonly string[], segments: readonly string[]): string | undefined {
  if (segments.length !== template.length) return `it has ${segments.length} segments, the template ${template.length}`;
  for (const [i, want] of template.entries()) {
    const got = segments[i]!;
    if (!want.includes('{')) {
      if (decode(got) !== decode(want)) return `${JSON.stringify(decode(got))} stands where the template has "${want}"`;
      continue;
    }
    const { pattern, names } = segmentPattern(want);
    const problem = unsafeValue(got);
    if (problem !== undefined) return `the ${names.map((n) => `{${n}}`).join('')} value ${JSON.stringify(decode(got))} ${problem}`;
    if (!pattern.test(decode(got))) return `${JSON.stringify(decode(got))} stands where the template has "${want}"`;
  }
  return undefined;
}

/**
 * Why a request for the operation with path template `template` must not be
 * sent to `url` (what the URL parser made of `path`), or undefined when it may.
 * `basePath` is the path prefix of the target's base URL (`/api/v1`, or '').
 */
export function pathRefusal(template: string, basePath: string, path: string, url: URL): string | undefined {
  const prefix = basePath.replace(/\/+$/, '');
  const want = template.split('/').slice(1);
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(path);
  const written = rawPathOf(path);
  // As written first: it names the parameter whose value is wrong (`/things/..`: the {id} value "..").
  const writtenSegments = absolute ? segmentsUnder(prefix, written) : written.split('/').slice(1);
  const sent = segmentsUnder(prefix, url.pathname);
  const detail =
    (writtenSegments && writtenSegments.length === want.length ? mismatch(want, writtenSegments) : undefined) ??
    (sent === undefined ? `it is not under the base path ${prefix}` : mismatch(want, sent));
  if (detail === undefined) return undefined;
  const shown = absolute || !prefix ? written : `${prefix}${written}`;
  return `not sent: ${shown}${shown === url.pathname ? '' : ` (${url.pathname} once normalised)`} is not a path of ${template}: ${detail}`;
}

/**
 * Why a request meant for no operation (a Location or Link the target gave, followed as it is) must not be
 * sent: a dot segment, written or percent-encoded, would be normalised away (RFC 3986 §5.2.4), so
 * `/things/..` would reach `/`. Undefined when it may be sent.
 */
export function dotSegmentRefusal(path: string): string | undefined {
  const segment = rawPathOf(path)
    .split('/')
    .find((s) => {
      const once = decode(s);
      return ['.', '..'].includes(once) || ['.', '..'].includes(decode(once));
    });
  return segment === undefined ? undefined : `not sent: ${rawPathOf(path)} holds the dot segment "${segment}", which normalisation would remove, reaching another path`;
}
