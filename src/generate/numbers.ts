/**
 * Numbers inside a schema's bounds: 3.0's `minimum` with a boolean `exclusiveMinimum`, 3.1's numeric
 * `exclusiveMinimum` (JSON Schema 2020-12 §6.2.5), the range of an integer `format` (`int32`, `int64`: OpenAPI
 * 3.0.3 §4.4, as ajv-formats checks them), and `multipleOf`. Bounds that leave no number are reported.
 *
 * A value is taken on a lattice, `k × step` for a whole k (review 1, finding 3): `Math.ceil(0.3 / 0.1) * 0.1` is
 * 0.30000000000000004, which the document refuses. Each candidate is rounded to the step's decimals and kept only
 * if it passes the very test Ajv applies (ajv/lib/vocabularies/validation/multipleOf.ts: the quotient is whole as
 * parseInt reads it), trying the neighbouring multiples when it does not (0.3 / 0.1 is 2.9999999999999996: 0.3 is
 * no multiple of 0.1 to Ajv, 0.4 is). Where none of the multiples near the bounds passes, the field is reported.
 *
 * The same lattice gives a scalar's n-th value (Hint.ordinal): an array with `uniqueItems` takes its items'
 * values 0, 1, 2, … from it, distinct by construction (review 1, finding 4).
 */
import type { Schema } from './composition.js';
import { made, unmakeable, type Generated, type Spot } from './result.js';
import type { Hint, Walker } from './walker.js';

/** The ranges of the integer formats (ajv-formats: `int32` a whole number within 32 bits, `int64` any whole number). */
const INTEGER_FORMATS: Readonly<Record<string, { readonly min: number; readonly max: number }>> = {
  int32: { min: -(2 ** 31), max: 2 ** 31 - 1 },
  int64: { min: -(2 ** 63), max: 2 ** 63 - 1 },
};
/**
 * Where an int64 is generated when the schema's own bounds allow it: the integers a JSON number carries exactly
 * (±(2^53-1)). Past them a value does not survive JavaScript's JSON.parse, and Prism refuses it (its int64 check is
 * "must be >= -9007199254740991"): a mock answer of -9.2e18 for an unbounded `amount.value` broke the adyen corpus.
 */
const SAFE_INT64 = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
/** Multiples tried either side of the one wanted before the search gives up (Ajv's float test refuses a few in a row at most). */
const MAX_TRIES = 64;
/** A narrow range of numbers without multipleOf is cut into this many steps for distinct values. */
const NARROW_STEPS = 64;

export interface NumberDomain {
  /** A whole number: `type: integer`, or an integer format. */
  readonly integer: boolean;
  /** The inclusive bounds, exclusive ones moved inward, the format's range included. */
  readonly min: number | undefined;
  readonly max: number | undefined;
  /** The schema's multipleOf, as Ajv tests it. */
  readonly multipleOf: number | undefined;
  /** The format whose range bounds it, when it does. */
  readonly format: string | undefined;
}

/** A set of candidates `anchor + k × step` (rounded to `decimals`), `low ≤ k ≤ high`. */
interface Lattice {
  readonly anchor: number;
  readonly step: number;
  readonly decimals: number | undefined;
  readonly low: number;
  readonly high: number;
}

/** What a schema allows as a number; `integer` for `type: integer`. */
export function domainOf(s: Schema, integer: boolean): NumberDomain {
  const format = typeof s.format === 'string' && Object.hasOwn(INTEGER_FORMATS, s.format) ? s.format : undefined;
  const whole = integer || format !== undefined;
  const nudge = (bound: number, up: boolean): number => (whole ? (up ? Math.floor(bound) + 1 : Math.ceil(bound) - 1) : bound + (up ? 1 : -1) * Math.max(Math.abs(bound) * 1e-9, 1e-6));
  const exclusiveMin: unknown = s.exclusiveMinimum;
  const exclusiveMax: unknown = s.exclusiveMaximum;
  let min = typeof s.minimum === 'number' ? (exclusiveMin === true ? nudge(s.minimum, true) : whole ? Math.ceil(s.minimum) : s.minimum) : undefined;
  let max = typeof s.maximum === 'number' ? (exclusiveMax === true ? nudge(s.maximum, false) : whole ? Math.floor(s.maximum) : s.maximum) : undefined;
  if (typeof exclusiveMin === 'number') min = Math.max(min ?? Number.NEGATIVE_INFINITY, nudge(exclusiveMin, true));
  if (typeof exclusiveMax === 'number') max = Math.min(max ?? Number.POSITIVE_INFINITY, nudge(exclusiveMax, false));
  if (format !== undefined) {
    const full = INTEGER_FORMATS[format]!;
    // int64 keeps to the safe integers unless the schema's bounds lie wholly outside them.
    const safe = format === 'int64' && Math.max(min ?? SAFE_INT64.min, SAFE_INT64.min) <= Math.min(max ?? SAFE_INT64.max, SAFE_INT64.max);
    const range = safe ? SAFE_INT64 : full;
    min = Math.max(min ?? range.min, range.min);
    max = Math.min(max ?? range.max, range.max);
  }
  const m = s.multipleOf;
  const multipleOf = typeof m === 'number' && m > 0 && Number.isFinite(m) ? m : undefined;
  return { integer: whole, min, max, multipleOf, format };
}

/** Ajv's multipleOf test, to the letter (without its `multipleOfPrecision` option, which the kit does not set). */
export function isMultipleAsAjv(value: number, multipleOf: number): boolean {
  const quotient = value / multipleOf;
  return quotient === parseInt(String(quotient), 10);
}

/** Whether `value` is one the domain allows, by the tests the validators apply. */
function allows(domain: NumberDomain, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if ((domain.min !== undefined && value < domain.min) || (domain.max !== undefined && value > domain.max)) return false;
  if (domain.integer && !Number.isInteger(value)) return false;
  return domain.multipleOf === undefined || isMultipleAsAjv(value, domain.multipleOf);
}

/** Why a number schema allows no value, or undefined: bounds crossed (the format's included), or no multiple between them. */
export function numberObstacle(s: Schema, integer: boolean): { keyword: string; message: string } | undefined {
  const domain = domainOf(s, integer);
  const { min, max } = domain;
  const kind = domain.integer ? 'integer' : 'number';
  if (min !== undefined && max !== undefined && min > max) {
    const own = domainOf({ ...s, format: undefined }, integer);
    if (domain.format !== undefined && !(own.min !== undefined && own.max !== undefined && own.min > own.max)) {
      const range = INTEGER_FORMATS[domain.format]!;
      const bounds = (['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum'] as const).filter((key) => typeof s[key] === 'number').map((key) => `${key} ${String(s[key])}`);
      return { keyword: 'format', message: `its format ${domain.format} allows ${range.min} to ${range.max}, and its ${bounds.join(', ')} leave${bounds.length === 1 ? 's' : ''} no ${kind} there` };
    }
    return { keyword: 'minimum', message: `its lower bound (${String(s.minimum ?? s.exclusiveMinimum)}) is above its upper bound (${String(s.maximum ?? s.exclusiveMaximum)}): no ${kind} is allowed` };
  }
  if (domain.multipleOf !== undefined && boundValue(domain) === undefined) {
    const between = `between ${min ?? '-∞'} and ${max ?? '∞'}`;
    const lattice = latticeOf(domain, 0);
    return lattice.low > lattice.high
      ? { keyword: 'multipleOf', message: `no ${domain.integer ? 'whole ' : ''}multiple of ${domain.multipleOf} lies ${between}` }
      : { keyword: 'multipleOf', message: `no multiple of ${domain.multipleOf} near its bounds (${between}) passes the validator's test, whose division in floating point leaves a remainder on each` };
  }
  return undefined;
}

/**
 * How many distinct values the domain allows, or Infinity (an upper bound: a multiple Ajv's float test refuses is
 * still counted), for `uniqueItems` (cost.ts): the whole numbers or the multiples between finite bounds.
 */
export function distinctNumbers(s: Schema, integer: boolean): number {
  const domain = domainOf(s, integer);
  if (domain.min === undefined || domain.max === undefined) return Number.POSITIVE_INFINITY;
  if (domain.min > domain.max) return 0;
  if (domain.min === domain.max) return 1;
  if (!domain.integer && domain.multipleOf === undefined) return Number.POSITIVE_INFINITY;
  const lattice = latticeOf(domain, 0);
  return Math.max(0, lattice.high - lattice.low + 1);
}

export function integerValue(walker: Walker, s: Schema, spot: Spot, hint: Hint): Generated {
  return scalar(walker, s, spot, hint, true);
}

export function numberValue(walker: Walker, s: Schema, spot: Spot, hint: Hint): Generated {
  return scalar(walker, s, spot, hint, false);
}

function scalar(walker: Walker, s: Schema, spot: Spot, hint: Hint, integer: boolean): Generated {
  const obstacle = numberObstacle(s, integer);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message);
  const domain = domainOf(s, integer);
  // The runner's plain values, and the items of a uniqueItems array, are the n-th of the lattice from the least a
  // value needs; a lifelike value is drawn.
  const ordinal = hint.ordinal ?? (walker.style === 'plain' ? hint.variant : undefined);
  // A lifelike value is drawn near the schema's own bounds, not the format's (an unbounded int64 amount is not -2^53).
  const lifelike = (): number => clamp(drawnValue(walker, domainOf({ ...s, format: undefined }, domain.integer), hint.name), domain);
  const preferred = ordinal !== undefined ? plainValue(domain) : lifelike();
  const lattice = latticeOf(domain, preferred);
  const wanted = ordinal !== undefined ? nthIndex(lattice, indexNear(lattice, preferred, domain.integer), ordinal) : indexNear(lattice, preferred, false);
  const value = nearestAllowed(domain, lattice, wanted) ?? boundValue(domain);
  if (value === undefined) return unmakeable(spot, 'maximum', `its bounds leave no ${domain.integer ? 'integer' : 'number'} JSON can carry`);
  return made(value);
}

/** The runner's choice: the smallest integer in bounds from 1 up (ids start there), else the one nearest 1; a number between the bounds. */
function plainValue(domain: NumberDomain): number {
  const { min, max } = domain;
  if (domain.integer) {
    const value = min !== undefined ? Math.max(min, 1) : 1;
    // Below 1 the nearest allowed integer is the upper bound (the lower one may be int64's -2^53).
    return max !== undefined && value > max ? max : value;
  }
  if (min !== undefined && max !== undefined) return (min + max) / 2;
  if (min !== undefined) return min + 1;
  if (max !== undefined) return max - 1;
  return 1;
}

function clamp(value: number, domain: NumberDomain): number {
  return Math.min(Math.max(value, domain.min ?? value), domain.max ?? value);
}

/** A lifelike value: drawn between the bounds (or near them), a number to two decimals. */
function drawnValue(walker: Walker, domain: NumberDomain, name: string): number {
  const { min, max } = domain;
  if (domain.integer) {
    const low = min ?? (max !== undefined && max < 1 ? max - 100 : 1);
    const high = max ?? low + (/id$/i.test(name) ? 10_000 : 100);
    return walker.randInt(Math.ceil(low), Math.max(Math.ceil(low), Math.floor(Math.min(high, low + 1e9))));
  }
  const low = min ?? (max !== undefined && max < 0 ? max - 100 : 0);
  const high = max ?? low + 100;
  const value = Math.round(walker.faker.number.float({ min: low, max: Math.max(low, high) }) * 100) / 100;
  return Math.min(Math.max(value, min ?? value), max ?? value);
}

/**
 * The lattice values are taken on: the multiples of multipleOf (for an integer, of the least whole multiple of it),
 * else the whole numbers, else steps of 1 (or a 64th of a narrow range) from `anchor`; bounded by the domain's.
 */
function latticeOf(domain: NumberDomain, anchor: number): Lattice {
  const { min, max } = domain;
  let lattice: { anchor: number; step: number; decimals: number | undefined };
  if (domain.multipleOf !== undefined) {
    const step = domain.integer ? wholeStep(domain.multipleOf) : domain.multipleOf;
    lattice = { anchor: 0, step, decimals: decimalsOf(step) };
  } else if (domain.integer) lattice = { anchor: 0, step: 1, decimals: 0 };
  else {
    const width = min !== undefined && max !== undefined ? max - min : Number.POSITIVE_INFINITY;
    lattice = { anchor, step: width >= NARROW_STEPS || width === 0 ? 1 : width / NARROW_STEPS, decimals: undefined };
  }
  // A hair of slack, so 0.3 / 0.1 = 2.9999999999999996 still starts the multiples at 3 (each candidate is checked anyway).
  const low = min === undefined ? Number.NEGATIVE_INFINITY : Math.ceil((min - lattice.anchor) / lattice.step - 1e-9);
  const high = max === undefined ? Number.POSITIVE_INFINITY : Math.floor((max - lattice.anchor) / lattice.step + 1e-9);
  return { ...lattice, low, high };
}

/** The smallest whole multiple of `multipleOf`, for an integer: 1 for 0.5, 3 for 0.3, 5 for 2.5, 6 for 6. */
function wholeStep(multipleOf: number): number {
  if (Number.isInteger(multipleOf)) return multipleOf;
  const decimals = decimalsOf(multipleOf);
  if (decimals > 15) return 1;
  const scale = 10 ** decimals;
  const numerator = Math.round(multipleOf * scale);
  return numerator / gcd(numerator, scale);
}

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y > 0) [x, y] = [y, x % y];
  return x;
}

/** The decimals a step is written with (0.01: 2; 2.5e-7: 8), at most 100 (what toFixed takes). */
function decimalsOf(step: number): number {
  const [mantissa, exponent] = String(step).split('e');
  const fraction = mantissa!.split('.')[1]?.length ?? 0;
  return Math.min(100, Math.max(0, fraction - Number(exponent ?? 0)));
}

function valueAt(lattice: Lattice, k: number): number {
  const raw = lattice.anchor + k * lattice.step;
  return lattice.decimals === undefined ? raw : Number(raw.toFixed(lattice.decimals));
}

/** The lattice index nearest `value` within its bounds (the first at or above it when `upward`). */
function indexNear(lattice: Lattice, value: number, upward: boolean): number {
  const exact = (value - lattice.anchor) / lattice.step;
  const k = upward ? Math.ceil(exact - 1e-9) : Math.round(exact);
  return Math.min(Math.max(k, lattice.low), lattice.high);
}

/**
 * The index of the n-th value counted from `from`: upward to the upper bound, then downward from below `from`,
 * then round again; distinct for every n below the lattice's size.
 */
function nthIndex(lattice: Lattice, from: number, n: number): number {
  const size = lattice.high - lattice.low + 1;
  const turn = Number.isFinite(size) ? n % size : n;
  const above = lattice.high - from;
  return turn <= above ? from + turn : from - (turn - above);
}

/** The allowed value at index `k`, or at the nearest index whose value the validators allow. */
function nearestAllowed(domain: NumberDomain, lattice: Lattice, k: number): number | undefined {
  if (!Number.isFinite(k)) return undefined;
  for (let offset = 0; offset <= MAX_TRIES; offset += 1) {
    for (const index of offset === 0 ? [k] : [k + offset, k - offset]) {
      if (index < lattice.low || index > lattice.high) continue;
      const value = valueAt(lattice, index);
      if (allows(domain, value)) return value;
    }
  }
  return undefined;
}

/**
 * An allowed value nearest 0 within the bounds (where a quotient is small, so Ajv's float test is kindest): what
 * numberObstacle checks exists, and what a value falls back to.
 */
function boundValue(domain: NumberDomain): number | undefined {
  const lattice = latticeOf(domain, 0);
  if (lattice.low > lattice.high) return undefined;
  return nearestAllowed(domain, lattice, indexNear(lattice, 0, false));
}
