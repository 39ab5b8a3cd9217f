/**
 * Arrays within `minItems`/`maxItems` and the budget's item cap: OpenAPI 3.1 tuples (`prefixItems`, then
 * `items`, or `items: false` for nothing after them), `uniqueItems` honoured by drawing other variants of an item
 * that repeats one before it. Near the top an array carries at least one item; deeper, only its minimum.
 */
import { prefixItemsOf, restItemsOf, type Schema } from './composition.js';
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
  for (let i = 0; i < length; i += 1) {
    const itemSchema = prefix[i] ?? (rest === false ? {} : rest);
    const itemSpot = i < prefix.length ? below(spot, 'prefixItems', i) : below(spot, 'items');
    let item: Generated | undefined;
    for (let retry = 0; retry <= (seen ? UNIQUE_RETRIES : 0); retry += 1) {
      const variant = seen ? hint.variant + i + retry * length : hint.variant;
      item = walker.value(itemSchema, itemSpot, depth + 1, { variant, name: hint.name });
      if (!item.ok || !seen || !seen.has(JSON.stringify(item.value))) break;
    }
    if (!item || !item.ok) {
      // Past the items the schema needs, an item that cannot be made shortens the array; before, nothing can.
      if (i < Math.max(min, prefix.length)) return item ?? unmakeable(itemSpot, 'items', 'no item can be made');
      break;
    }
    seen?.add(JSON.stringify(item.value));
    if (!walker.spend.take(0, 1)) return unmakeable(spot, 'items', 'the value has grown past its budget here', 'bytes');
    out.push(item.value);
  }
  return made(out);
}
