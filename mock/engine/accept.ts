/**
 * Does a request's `Accept` allow `application/json`? (RFC 9110 §12.5.1.)
 *
 * The most specific media range that matches decides: `application/json`
 * beats `application/*`, which beats `*\/*`. A range whose weight is `q=0`
 * means "not acceptable", so `application/json;q=0, *\/*` excludes JSON even
 * though `*\/*` would admit it. No `Accept` (or an empty one) admits anything.
 * Ranges that do not parse are ignored rather than failing the request.
 */

const cache = new Map<string, boolean>();
/** Clients send a handful of distinct Accept values; bound the memo so hostile ones cannot grow it. */
const CACHE_LIMIT = 256;

export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  const cached = cache.get(accept);
  if (cached !== undefined) return cached;
  const verdict = evaluate(accept);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(accept, verdict);
  return verdict;
}

function evaluate(accept: string): boolean {
  // Specificity: 3 exact, 2 application/*, 1 */*; 0 nothing matched yet.
  let specificity = 0;
  let weight = 0;
  let sawRange = false;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    const mediaRange = range.trim().toLowerCase();
    if (mediaRange === '') continue;
    const slash = mediaRange.indexOf('/');
    if (slash <= 0 || slash === mediaRange.length - 1) continue;
    sawRange = true;
    const rank = mediaRange === 'application/json' ? 3 : mediaRange === 'application/*' ? 2 : mediaRange === '*/*' ? 1 : 0;
    if (rank === 0 || rank < specificity) continue;
    const q = qualityOf(params);
    if (rank > specificity) {
      specificity = rank;
      weight = q;
    } else {
      weight = Math.max(weight, q);
    }
  }
  if (!sawRange) return true;
  return specificity > 0 && weight > 0;
}

/** `q` per RFC 9110 §12.4.2: 0 to 1 with up to three decimals; anything unreadable counts as 1. */
function qualityOf(params: readonly string[]): number {
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const text = value.trim();
    if (!/^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(text)) return 1;
    return Number(text);
  }
  return 1;
}

/**
 * Does a request's `Accept` admit any of the media types an operation answers with? (RFC 9110 §12.5.1.) For each
 * documented type, the most specific range that matches it decides (`type/subtype` over `type/*` over `*\/*`, media
 * type parameters aside), and a weight of `q=0` excludes it; a documented range (`image/*`, `*\/*`) is admitted by any
 * range of weight above 0 that overlaps it. No `Accept`, an empty one, or one of which no range parses admits all.
 */
export function acceptsAnyOf(accept: string | undefined, mediaTypes: readonly string[]): boolean {
  if (accept === undefined || mediaTypes.length === 0) return true;
  const key = `${accept}\u0000${mediaTypes.join(',')}`;
  const cached = anyCache.get(key);
  if (cached !== undefined) return cached;
  const ranges = parseRanges(accept);
  const verdict = ranges.length === 0 || mediaTypes.some((documented) => admitted(ranges, bare(documented)));
  if (anyCache.size >= CACHE_LIMIT) anyCache.clear();
  anyCache.set(key, verdict);
  return verdict;
}

const anyCache = new Map<string, boolean>();

/**
 * The documented media type an `Accept` prefers (RFC 9110 §12.5.1): the one whose most specific matching range weighs
 * most, the first in `mediaTypes` on a tie; undefined when the request states no preference (no `Accept`, none that
 * parses, or one that weighs them all alike) or admits none of them.
 */
export function preferredMediaType(accept: string | undefined, mediaTypes: readonly string[]): string | undefined {
  if (accept === undefined || mediaTypes.length < 2) return undefined;
  const key = `${accept}\u0000${mediaTypes.join(',')}`;
  if (preferredCache.has(key)) return preferredCache.get(key);
  const ranges = parseRanges(accept);
  const weights = mediaTypes.map((documented) => weightOf(ranges, bare(documented)));
  const best = Math.max(...weights);
  const chosen = ranges.length === 0 || best <= 0 || weights.every((weight) => weight === best) ? undefined : mediaTypes[weights.indexOf(best)];
  if (preferredCache.size >= CACHE_LIMIT) preferredCache.clear();
  preferredCache.set(key, chosen);
  return chosen;
}

const preferredCache = new Map<string, string | undefined>();

interface Range {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseRanges(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    const [type = '', subtype = '', extra] = range.trim().toLowerCase().split('/');
    if (type === '' || subtype === '' || extra !== undefined) continue;
    out.push({ type, subtype, q: qualityOf(params) });
  }
  return out;
}

function bare(mediaType: string): { readonly type: string; readonly subtype: string } {
  const [type = '*', subtype = '*'] = mediaType.split(';')[0]!.trim().toLowerCase().split('/');
  return { type, subtype };
}

function admitted(ranges: readonly Range[], documented: { readonly type: string; readonly subtype: string }): boolean {
  return weightOf(ranges, documented) > 0;
}

/** The weight an Accept gives a documented media type: the q of its most specific matching range (0 when none matches). */
function weightOf(ranges: readonly Range[], documented: { readonly type: string; readonly subtype: string }): number {
  // A documented range is served as one of its members: any acceptable range that overlaps it admits it.
  if (documented.type === '*' || documented.subtype === '*') {
    const overlapping = ranges.filter((r) => (documented.type === '*' || r.type === '*' || r.type === documented.type) && (documented.subtype === '*' || r.subtype === '*' || r.subtype === documented.subtype));
    return Math.max(0, ...overlapping.map((r) => r.q));
  }
  let rank = 0;
  let weight = 0;
  for (const r of ranges) {
    const own = r.type === documented.type && r.subtype === documented.subtype ? 3 : r.type === documented.type && r.subtype === '*' ? 2 : r.type === '*' && r.subtype === '*' ? 1 : 0;
    if (own === 0 || own < rank) continue;
    weight = own > rank ? r.q : Math.max(weight, r.q);
    rank = own;
  }
  return rank > 0 ? weight : 0;
}
