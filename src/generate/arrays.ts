/**
 * Arrays within `minItems`/`maxItems` and the budget's item cap: OpenAPI 3.1 tuples (`prefixItems`, then
 * `items`, or `items: false` for nothing after them), `uniqueItems` honoured by drawing other variants of an item
 * that repeats one before it. Near the top an array carries at least one item; deeper, only its minimum.
 */
import { prefixItemsOf, restItemsOf, type Schema } from './composition.js';
import { distinctValues } from './distinct.js';
import { below, made, unmakeable, type Generated, type Spot } from './result.js';
import type { Hint, Walker } from './walker.js';

/** Another draw for an item equal to one before it, at most this many times. */
const UNIQUE_RETRIES = 3;

/** Why no array of this schema fits the budget's item cap, or undefined. */
export function arrayObstacle(s: Schema, cap: number): { keyword: string; message: string; capped: boolean } | undefined {
  const min = Math.max(s.minItems ?? 0, 0);
  if (s.maxItems !== undefined && min > s.maxItems) return { keyword: 'minItems', message: `minItems ${min} is above maxItems ${s.maxItems}: no array is allowed`, capped: false };
  if (min > cap) return { keyword: 'minItems', message: `minItems ${min} asks for more than the ${cap} items a generated array may have`, capped: true };
  if (restItemsOf(s) === false && min > prefixItemsOf(s).length) return { keyword: 'minItems', message: `minItems ${min} asks for more items than its ${prefixItemsOf(s).length} prefixItems, and items: false allows no more`, capped: false };
  if (s.uniqueItems === true && min > 1) {
    const rest = restItemsOf(s);
    const available = prefixItemsOf(s).length + (rest === false ? 0 : distinctValues(rest));
    if (available < min) return { keyword: 'uniqueItems', message: `uniqueItems with minItems ${min} asks for ${min} distinct items, but its items allow only ${available} distinct values`, capped: false };
  }
  return undefined;
}

export function arrayValue(walker: Walker, s: Schema, spot: Spot, depth: number, hint: Hint): Generated {
  const obstacle = arrayObstacle(s, walker.budget.items);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message, obstacle.capped ? 'items' : undefined);
  if (!walker.spend.take(1, 2)) return unmakeable(spot, 'type', 'the value has grown past its budget here', walker.spend.exhausted(1));
  const prefix = prefixItemsOf(s);
  const rest = restItemsOf(s);
  const min = Math.max(s.minItems ?? 0, 0);
  const rich = depth < walker.richDepth;
  const wanted = Math.max(prefix.length, rich ? Math.max(1, min) : min);
  const length = Math.min(rest === false ? prefix.length : wanted, s.maxItems ?? Number.POSITIVE_INFINITY, walker.budget.items);
  const out: unknown[] = [];
  const seen = s.uniqueItems ? new Set<string>() : undefined;
  // Distinct items: scalars take the n-th value of their schema (walker.ts, Hint.ordinal), counted from the variant
  // in the runner's plain style, from a drawn start in the lifelike one; other items are drawn again on a repeat.
  const start = !seen ? 0 : (hint.ordinal ?? (walker.style === 'plain' ? hint.variant : walker.randInt(0, 999)));
  for (let i = 0; i < length; i += 1) {
    const itemSchema = prefix[i] ?? (rest === false ? {} : rest);
    const itemSpot = i < prefix.length ? below(spot, 'prefixItems', i) : below(spot, 'items');
    let item: Generated | undefined;
    let repeated = false;
    for (let retry = 0; retry <= (seen ? UNIQUE_RETRIES : 0); retry += 1) {
      const itemHint: Hint = seen ? { variant: hint.variant + i + retry * length, name: hint.name, ordinal: start + i + retry * length } : { variant: hint.variant, name: hint.name };
      const mark = walker.spend.mark();
      item = walker.value(itemSchema, itemSpot, depth + 1, itemHint);
      repeated = item.ok && seen !== undefined && seen.has(JSON.stringify(item.value));
      if (!repeated) break;
      // A repeat is not kept: what it took goes back to the value's budget.
      walker.spend.refund(mark);
    }
    if (!item || !item.ok || repeated) {
      // Past the items the schema needs, an item that cannot be made (or only as a repeat) shortens the array; before, nothing can.
      if (i < Math.max(min, prefix.length)) return item && !item.ok ? item : unmakeable(spot, 'uniqueItems', `no item distinct from the ${i} before it was made in ${UNIQUE_RETRIES + 1} tries`);
      break;
    }
    seen?.add(JSON.stringify(item.value));
    if (!walker.spend.take(0, 1)) return unmakeable(spot, 'items', 'the value has grown past its budget here', 'bytes');
    out.push(item.value);
  }
  return made(out);
}
