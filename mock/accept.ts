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
