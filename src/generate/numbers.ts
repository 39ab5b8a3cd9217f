/**
 * Numbers inside a schema's bounds: 3.0's `minimum` with a boolean `exclusiveMinimum`, 3.1's numeric
 * `exclusiveMinimum` (JSON Schema 2020-12 §6.2.5), and `multipleOf`. Bounds that leave no number are reported.
 */
import type { Schema } from './composition.js';
import { made, unmakeable, type Generated, type Spot } from './result.js';
import type { Hint, Walker } from './walker.js';

interface Range {
  readonly min: number | undefined;
  readonly max: number | undefined;
}

/** The inclusive range a schema allows; an exclusive bound moves inward by 1 for an integer, by a hair for a number. */
export function rangeOf(s: Schema, integer: boolean): Range {
  const nudge = (bound: number, up: boolean): number => (integer ? (up ? Math.floor(bound) + 1 : Math.ceil(bound) - 1) : bound + (up ? 1 : -1) * Math.max(Math.abs(bound) * 1e-9, 1e-6));
  const exclusiveMin: unknown = s.exclusiveMinimum;
  const exclusiveMax: unknown = s.exclusiveMaximum;
  let min = typeof s.minimum === 'number' ? (exclusiveMin === true ? nudge(s.minimum, true) : integer ? Math.ceil(s.minimum) : s.minimum) : undefined;
  let max = typeof s.maximum === 'number' ? (exclusiveMax === true ? nudge(s.maximum, false) : integer ? Math.floor(s.maximum) : s.maximum) : undefined;
  if (typeof exclusiveMin === 'number') min = Math.max(min ?? Number.NEGATIVE_INFINITY, nudge(exclusiveMin, true));
  if (typeof exclusiveMax === 'number') max = Math.min(max ?? Number.POSITIVE_INFINITY, nudge(exclusiveMax, false));
  return { min, max };
}

/** Why a number schema allows no value, or undefined: bounds crossed, or no multiple of `multipleOf` between them. */
export function numberObstacle(s: Schema, integer: boolean): { keyword: string; message: string } | undefined {
  const { min, max } = rangeOf(s, integer);
  if (min !== undefined && max !== undefined && min > max) return { keyword: 'minimum', message: `its lower bound (${String(s.minimum ?? s.exclusiveMinimum)}) is above its upper bound (${String(s.maximum ?? s.exclusiveMaximum)}): no ${integer ? 'integer' : 'number'} is allowed` };
  const step = stepOf(s, integer);
  if (step !== undefined && min !== undefined && max !== undefined && Math.ceil(min / step) * step > max) return { keyword: 'multipleOf', message: `no multiple of ${step} lies between ${min} and ${max}` };
  return undefined;
}

function stepOf(s: Schema, integer: boolean): number | undefined {
  const m = s.multipleOf;
  if (typeof m !== 'number' || !(m > 0) || !Number.isFinite(m)) return undefined;
  // An integer's step must itself be whole for a multiple to be an integer; a fractional one is left to the validator.
  return integer && !Number.isInteger(m) ? undefined : m;
}

export function integerValue(walker: Walker, s: Schema, spot: Spot, hint: Hint): Generated {
  const obstacle = numberObstacle(s, true);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message);
  const { min, max } = rangeOf(s, true);
  const step = stepOf(s, true);
  let value: number;
  if (walker.style === 'plain') {
    // The smallest integer in bounds from 1 up (ids start there), else the lowest allowed.
    value = min !== undefined ? Math.max(min, 1) : 1;
    if (max !== undefined && value > max) value = min ?? max;
  } else {
    const low = min ?? (max !== undefined && max < 1 ? max - 100 : 1);
    const high = max ?? low + (/id$/i.test(hint.name) ? 10_000 : 100);
    value = walker.randInt(Math.ceil(low), Math.max(Math.ceil(low), Math.floor(Math.min(high, low + 1e9))));
  }
  if (step !== undefined) value = Math.ceil(value / step) * step;
  if (!Number.isSafeInteger(value) || (max !== undefined && value > max) || (min !== undefined && value < min)) {
    value = firstMultiple(min, max, step) ?? value;
  }
  if (!Number.isFinite(value)) return unmakeable(spot, 'maximum', 'its bounds leave no integer JSON can carry');
  return made(value);
}

function firstMultiple(min: number | undefined, max: number | undefined, step: number | undefined): number | undefined {
  const from = min ?? (max !== undefined ? Math.min(max, 0) : 0);
  const value = step !== undefined ? Math.ceil(from / step) * step : from;
  return max === undefined || value <= max ? value : undefined;
}

export function numberValue(walker: Walker, s: Schema, spot: Spot): Generated {
  const obstacle = numberObstacle(s, false);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message);
  const { min, max } = rangeOf(s, false);
  const step = stepOf(s, false);
  let value: number;
  if (walker.style === 'plain') {
    if (min !== undefined && max !== undefined) value = (min + max) / 2;
    else if (min !== undefined) value = min + 1;
    else if (max !== undefined) value = max - 1;
    else value = 1;
  } else {
    const low = min ?? (max !== undefined && max < 0 ? max - 100 : 0);
    const high = max ?? low + 100;
    value = Math.round(walker.faker.number.float({ min: low, max: Math.max(low, high) }) * 100) / 100;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) value = max !== undefined ? (low + high) / 2 : low + 1;
  }
  if (step !== undefined) {
    value = Math.ceil((min ?? value) / step) * step;
    if (max !== undefined && value > max) value = Math.floor(max / step) * step;
  }
  if (!Number.isFinite(value)) return unmakeable(spot, 'maximum', 'its bounds leave no number JSON can carry');
  return made(value);
}
