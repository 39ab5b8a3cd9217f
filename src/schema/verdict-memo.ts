/**
 * Verdicts of a string check kept by value (issue 22, point 8). The mock checks every answer of a document
 * from elsewhere before it leaves, and an answer carries the same stored values again and again: a `sid`
 * against its pattern (re2js takes a microsecond or more per test where a RegExp takes tens of nanoseconds),
 * a `date_created` against `date-time`, a URL against `uri` (a long regular expression). A kept verdict is a
 * Map lookup. Bounded: values up to VALUE_MAX characters only, at most PER_CHECK per check and LIMIT in all
 * (each past its bound starts over), so a few MB at most whatever is checked. A check must be pure: the same
 * value, the same verdict.
 */
const VALUE_MAX = 256;
const PER_CHECK = 1024;
const LIMIT = 16_384;
let memos = new Set<Map<string, boolean>>();
let kept = 0;

export function rememberVerdicts(check: (value: string) => boolean): (value: string) => boolean {
  const memo = new Map<string, boolean>();
  memos.add(memo);
  return (value) => {
    if (typeof value !== 'string' || value.length > VALUE_MAX) return check(value);
    const known = memo.get(value);
    if (known !== undefined) return known;
    const verdict = check(value);
    if (kept >= LIMIT) forgetAll();
    if (memo.size >= PER_CHECK) {
      kept -= memos.has(memo) ? memo.size : 0;
      memo.clear();
    }
    memo.set(value, verdict);
    kept += 1;
    memos.add(memo);
    return verdict;
  };
}

/** Empties every memo (a memo refills as its check is used again). */
function forgetAll(): void {
  for (const memo of memos) memo.clear();
  memos = new Set();
  kept = 0;
}
