/**
 * How many distinct values a schema allows, where that is few: what `uniqueItems` with a `minItems` needs
 * (review 1, finding 4: three distinct booleans, or 300 distinct integers between 1 and 500 with a
 * `multipleOf: 2`, cannot be). An upper bound, Infinity where the values are many or not counted here (strings,
 * objects, arrays): a schema is reported only when even the bound is too low.
 */
import { allowsNull, branchesOf, constOf, generatedTypeOf, mergeAllOf, typesOf, type Schema } from './composition.js';
import { distinctNumbers } from './numbers.js';

/** Branches inside branches are counted this deep at most (a branch may be the schema itself). */
const MAX_DEPTH = 4;

export function distinctValues(raw: Schema, depth = 0): number {
  const s = mergeAllOf(raw);
  if (constOf(s) !== undefined) return 1;
  if (Array.isArray(s.enum)) return new Set(s.enum.map((option) => JSON.stringify(option))).size + (allowsNull(s) && !s.enum.includes(null) ? 1 : 0);
  const branches = branchesOf(s);
  if (branches.length > 0) {
    if (depth >= MAX_DEPTH) return Number.POSITIVE_INFINITY;
    return branches.reduce((sum, branch) => sum + distinctValues(branch, depth + 1), 0);
  }
  if (typesOf(s).filter((type) => type !== 'null').length > 1) return Number.POSITIVE_INFINITY;
  const orNull = allowsNull(s) ? 1 : 0;
  switch (generatedTypeOf(s)) {
    case 'boolean':
      return 2 + orNull;
    case 'null':
      return 1;
    case 'integer':
      return distinctNumbers(s, true) + orNull;
    case 'number':
      return distinctNumbers(s, false) + orNull;
    case 'string':
      return s.maxLength === 0 ? 1 + orNull : Number.POSITIVE_INFINITY;
    default:
      return Number.POSITIVE_INFINITY;
  }
}
