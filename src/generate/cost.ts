/**
 * The least value a schema allows, measured before anything is built (issue 31: what cannot be made within the
 * budget is reported, not attempted): how many values it holds, how many bytes it takes as JSON, how deep it
 * nests. A schema whose least value is past the budget, or that allows none (bounds that cross, a record that
 * requires itself with no way out), gets the reason and the spot instead.
 *
 * A cyclic schema is read the way a grammar's productive symbols are found: a schema met again while it is
 * being measured counts as impossible there, so only a way out (an optional member, another branch, null) makes
 * it possible; a least value never holds a copy of itself, so that is exact for the schema that closes the cycle.
 * Results are kept by identity (per budget and view), except those that depended on such an assumption about a
 * schema further up, which are measured again when met again; a step count bounds the whole.
 */
import type { BudgetCap, GenerationBudget } from './budget.js';
import { arrayObstacle } from './arrays.js';
import { allowsNull, asSchema, branchesOf, constOf, firstExample, generatedTypeOf, mergeAllOf, ofNamedType, prefixItemsOf, restItemsOf, type Schema } from './composition.js';
import { limitsOf } from './constraints.js';
import type { Locate } from './locate.js';
import { numberObstacle } from './numbers.js';
import { objectObstacle } from './objects.js';
import { spotText, unmakeable, type Spot, type Unmakeable } from './result.js';
import { stringObstacle } from './strings.js';
import { shortestMatch } from './patterns.js';
import { hiddenIn, type View } from './walker.js';

export interface Cost {
  readonly nodes: number;
  readonly bytes: number;
  readonly depth: number;
}

/** A reason with its spot relative to the schema it was found in (`/properties/name`), or absolute (`#/...`) once inside a component. */
interface Obstacle {
  readonly at: string;
  readonly keyword: string;
  readonly message: string;
  readonly cap?: BudgetCap;
}

type Measure = { readonly ok: true; readonly cost: Cost } | { readonly ok: false; readonly obstacle: Obstacle };

const NULL_COST: Cost = { nodes: 1, bytes: 4, depth: 0 };
/** Past this many schemas visited in one measurement, the rest is left to the generator's own budget. */
const MAX_STEPS = 200_000;

interface Context {
  readonly view: View;
  readonly budget: GenerationBudget;
  readonly locate: Locate | undefined;
  readonly memo: WeakMap<Schema, Measure>;
  /** The schemas being measured, by their place on the stack. */
  readonly stack: Map<Schema, number>;
  steps: number;
  /** The lowest stack place an unfinished schema was met at, since the caller last looked. */
  lowestMet: number;
}

const memos = new WeakMap<GenerationBudget, Record<View, WeakMap<Schema, Measure>>>();

function memoFor(budget: GenerationBudget, view: View): WeakMap<Schema, Measure> {
  let byView = memos.get(budget);
  if (!byView) memos.set(budget, (byView = { request: new WeakMap(), response: new WeakMap() }));
  return byView[view];
}

/** The least value of `schema`, or why none fits: the spot is under `root` (or a component's, named by `locate`). */
export function leastCost(schema: Schema, view: View, budget: GenerationBudget, root: Spot, locate: Locate | undefined): { ok: true; cost: Cost } | { ok: false; why: Unmakeable } {
  const context: Context = { view, budget, locate, memo: memoFor(budget, view), stack: new Map(), steps: 0, lowestMet: Number.POSITIVE_INFINITY };
  const measured = measure(schema, context);
  if (measured.ok) {
    const { cost } = measured;
    if (cost.nodes > budget.nodes) return fail(root, '', 'type', `its least value holds ${cost.nodes} values, more than the ${budget.nodes} a generated value may hold`, 'nodes');
    if (cost.bytes > budget.bytes) return fail(root, '', 'type', `its least value takes ${cost.bytes} bytes, more than the ${budget.bytes} a generated value may take`, 'bytes');
    return { ok: true, cost };
  }
  return fail(root, measured.obstacle.at, measured.obstacle.keyword, measured.obstacle.message, measured.obstacle.cap);
}

function fail(root: Spot, at: string, keyword: string, message: string, cap?: BudgetCap): { ok: false; why: Unmakeable } {
  const base = at.startsWith('#') ? at : `${spotText(root)}${at}`;
  const result = unmakeable({ base }, keyword, message, cap);
  return { ok: false, why: result.why };
}

/** The branches in the order their least values grow, those that cannot be made last. */
export function cheapestBranchOrder(branches: readonly Schema[], view: View, budget: GenerationBudget, locate: Locate | undefined): number[] {
  const costs = branches.map((branch) => {
    const context: Context = { view, budget, locate, memo: memoFor(budget, view), stack: new Map(), steps: 0, lowestMet: Number.POSITIVE_INFINITY };
    const measured = measure(branch, context);
    return measured.ok ? measured.cost.nodes * 1e6 + measured.cost.bytes : Number.POSITIVE_INFINITY;
  });
  return branches.map((_, i) => i).sort((a, b) => costs[a]! - costs[b]! || a - b);
}

function measure(raw: Schema, context: Context): Measure {
  const known = context.memo.get(raw);
  if (known) return known;
  const place = context.stack.get(raw);
  if (place !== undefined) {
    if (allowsNull(raw)) return { ok: true, cost: NULL_COST };
    context.lowestMet = Math.min(context.lowestMet, place);
    const where = context.locate?.(raw);
    return impossible('', 'type', `it holds ${where ?? 'the schema around it'} again, with no way out (no optional member, no other branch, no null): no finite value exists`);
  }
  context.steps += 1;
  // Undecided: the generator's own budget bounds what it then tries.
  if (context.steps > MAX_STEPS || context.stack.size > 512) return { ok: true, cost: NULL_COST };
  const ownPlace = context.stack.size;
  context.stack.set(raw, ownPlace);
  const outerLowest = context.lowestMet;
  context.lowestMet = Number.POSITIVE_INFINITY;
  let result = measureMerged(mergeAllOf(raw), context);
  context.stack.delete(raw);
  if (!result.ok && allowsNull(raw)) result = { ok: true, cost: NULL_COST };
  const where = context.locate?.(raw);
  if (!result.ok && where !== undefined && !result.obstacle.at.startsWith('#')) result = { ok: false, obstacle: { ...result.obstacle, at: `${where}${result.obstacle.at}` } };
  // Kept unless it assumed something about a schema further up the stack that is still being measured.
  if (context.lowestMet >= ownPlace) context.memo.set(raw, result);
  context.lowestMet = Math.min(outerLowest, context.lowestMet);
  return result;
}

/** Why an empty enum has no value: written so, or left empty by folding allOf parts whose enums share none (netbird's `ResourceType`). */
export const EMPTY_ENUM = 'its enum lists no value (the enums of its allOf parts have none in common)';
/** Why an enum none of whose values is of the type the schema names has no value (Vimeo's `content_filter`: an array of strings). */
export const ENUM_OF_OTHER_TYPE = 'no value its enum lists is of the type it names';

function impossible(at: string, keyword: string, message: string, cap?: BudgetCap): Measure {
  return { ok: false, obstacle: { at, keyword, message, ...(cap ? { cap } : {}) } };
}

/** A measure taken below the current schema, its spot moved under `segments` (each escaped, RFC 6901). */
function under(segments: readonly (string | number)[], measured: Measure): Measure {
  if (measured.ok || measured.obstacle.at.startsWith('#')) return measured;
  const prefix = segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return { ok: false, obstacle: { ...measured.obstacle, at: `${prefix}${measured.obstacle.at}` } };
}

function measureMerged(s: Schema, context: Context): Measure {
  // A `not` or an `if` (constraints.ts): what the generator cannot judge is said here; else the cheapest side.
  const limits = limitsOf(s);
  if (limits) {
    if (!limits.ok) return impossible('', limits.keyword, limits.message);
    const options = limits.candidates.map((candidate) => measure(candidate.schema, context));
    return cheapest(options) ?? options[0]!;
  }
  const constant = constOf(s);
  if (constant !== undefined) return ownCost(constant.value, context, 'const');
  if (Array.isArray(s.enum) && s.enum.length === 0) return impossible('', 'enum', EMPTY_ENUM);
  const given = s.example ?? firstExample(s) ?? s.default;
  if (given !== undefined && given !== null && ofNamedType(s, given)) {
    const taken = ownCost(given, context, 'example');
    if (taken.ok) return taken;
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const typed = s.enum.filter((option) => option === null || ofNamedType(s, option));
    if (typed.length === 0) return impossible('', 'enum', ENUM_OF_OTHER_TYPE);
    const options = typed.map((option) => (option === null ? { ok: true as const, cost: NULL_COST } : ownCost(option, context, 'enum')));
    return cheapest(options) ?? options[0]!;
  }
  const branches = branchesOf(s);
  if (branches.length > 0) {
    const beside = besideOf(s);
    const besideCost = measureMerged(beside, context);
    if (!besideCost.ok) return besideCost;
    const oneOfCount = s.oneOf?.length ?? 0;
    const options = branches.map((branch, i) => {
      const measured = under(i < oneOfCount ? ['oneOf', i] : ['anyOf', i - oneOfCount], measure(branch, context));
      return measured.ok ? { ok: true as const, cost: larger(besideCost.cost, measured.cost) } : measured;
    });
    return cheapest(options) ?? options[0]!;
  }
  const type = generatedTypeOf(s);
  switch (type) {
    case 'integer':
    case 'number': {
      const obstacle = numberObstacle(s, type === 'integer');
      return obstacle ? impossible('', obstacle.keyword, obstacle.message) : { ok: true, cost: { nodes: 1, bytes: 1, depth: 0 } };
    }
    case 'boolean':
      return { ok: true, cost: { nodes: 1, bytes: 4, depth: 0 } };
    case 'null':
      return { ok: true, cost: NULL_COST };
    case 'array':
      return arrayCost(s, context);
    case 'object':
      return objectCost(s, context);
    default: {
      const obstacle = stringObstacle(s, context.budget.string);
      if (obstacle) return impossible('', obstacle.keyword, obstacle.message, obstacle.capped ? 'string' : undefined);
      const length = Math.max(s.minLength ?? 0, s.pattern !== undefined ? (shortestMatch(s.pattern) ?? 0) : 0);
      return { ok: true, cost: { nodes: 1, bytes: length + 2, depth: 0 } };
    }
  }
}

function arrayCost(s: Schema, context: Context): Measure {
  const obstacle = arrayObstacle(s, context.budget.items);
  if (obstacle) return impossible('', obstacle.keyword, obstacle.message, obstacle.capped ? 'items' : undefined);
  const prefix = prefixItemsOf(s);
  const rest = restItemsOf(s);
  const min = Math.max(s.minItems ?? 0, 0);
  let total: Cost = { nodes: 1, bytes: 2, depth: 0 };
  for (let i = 0; i < Math.min(prefix.length, Math.max(min, 0)); i += 1) {
    const item = under(['prefixItems', i], measure(prefix[i]!, context));
    if (!item.ok) return item;
    total = nested(total, item.cost, 1);
  }
  const more = min - Math.min(prefix.length, min);
  if (more > 0 && rest !== false) {
    const item = under(['items'], measure(rest, context));
    if (!item.ok) return item;
    total = nested(total, item.cost, more);
  }
  return within(total, context);
}

function objectCost(s: Schema, context: Context): Measure {
  const obstacle = objectObstacle(s, context.budget.items);
  if (obstacle) return impossible('', obstacle.keyword, obstacle.message, obstacle.capped ? 'items' : undefined);
  const properties = s.properties ?? {};
  let total: Cost = { nodes: 1, bytes: 2, depth: 0 };
  let members = 0;
  for (const name of new Set(s.required ?? [])) {
    const declared = Object.hasOwn(properties, name) ? asSchema(properties[name]) : undefined;
    if (declared && hiddenIn(context.view, mergeAllOf(declared))) continue;
    const member = declared ? under(['properties', name], measure(declared, context)) : { ok: true as const, cost: { nodes: 1, bytes: 3, depth: 0 } };
    if (!member.ok) return member;
    total = nested(total, { ...member.cost, bytes: member.cost.bytes + name.length + 4 }, 1);
    members += 1;
    if (total.nodes > context.budget.nodes || total.bytes > context.budget.bytes) return within(total, context);
  }
  const extra = Math.max(0, (s.minProperties ?? 0) - members);
  if (extra > 0) total = nested(total, { nodes: 1, bytes: 12, depth: 0 }, extra);
  return within(total, context);
}

/** `count` children of cost `child` inside `parent`: one level deeper. */
function nested(parent: Cost, child: Cost, count: number): Cost {
  return { nodes: parent.nodes + child.nodes * count, bytes: parent.bytes + (child.bytes + 1) * count, depth: Math.max(parent.depth, child.depth + 1) };
}

function larger(a: Cost, b: Cost): Cost {
  return { nodes: Math.max(a.nodes, b.nodes), bytes: Math.max(a.bytes, b.bytes), depth: Math.max(a.depth, b.depth) };
}

/** A cost past the budget is an obstacle where it arises, so the report names the schema that grew too large. */
function within(cost: Cost, context: Context): Measure {
  if (cost.depth > context.budget.depth) return impossible('', 'type', `its least value nests ${cost.depth} levels deep, more than the ${context.budget.depth} a generated value may`, 'depth');
  if (cost.nodes > context.budget.nodes) return impossible('', 'type', `its least value holds ${cost.nodes} values, more than the ${context.budget.nodes} a generated value may hold`, 'nodes');
  if (cost.bytes > context.budget.bytes) return impossible('', 'type', `its least value takes ${cost.bytes} bytes, more than the ${context.budget.bytes} a generated value may take`, 'bytes');
  return { ok: true, cost };
}

function cheapest(options: readonly Measure[]): Measure | undefined {
  let best: Measure | undefined;
  for (const option of options) if (option.ok && (!best || !best.ok || option.cost.nodes < best.cost.nodes || (option.cost.nodes === best.cost.nodes && option.cost.bytes < best.cost.bytes))) best = option;
  return best;
}

const besides = new WeakMap<Schema, Schema>();

/** The schema without its branches: what every branch must satisfy too. */
function besideOf(s: Schema): Schema {
  let beside = besides.get(s);
  if (!beside) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = s;
    besides.set(s, (beside = rest));
  }
  return beside;
}

function ownCost(value: unknown, context: Context, keyword: string): Measure {
  const size = ownValueBytes(value, { nodes: context.budget.nodes, bytes: context.budget.bytes });
  return size ? { ok: true, cost: size } : impossible('', keyword, `the document's ${keyword} is larger than a generated value may be`, 'bytes');
}

/**
 * The size of a value the document gives (an example, a default), without recursion, or undefined past `limit`:
 * a 50 MB example is not copied into every answer. The loader refuses data that contains itself (load.ts); a
 * shared part is counted each time it appears, as JSON writes it.
 */
export function ownValueBytes(value: unknown, limit: { readonly nodes: number; readonly bytes: number }): Cost | undefined {
  if (typeof value !== 'object' || value === null) {
    const bytes = typeof value === 'string' ? value.length + 2 : String(value).length;
    return bytes <= limit.bytes && limit.nodes >= 1 ? { nodes: 1, bytes, depth: 0 } : undefined;
  }
  const known = sizes.get(value);
  if (known) return known.nodes <= limit.nodes && known.bytes <= limit.bytes ? known : undefined;
  let nodes = 0;
  let bytes = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    nodes += 1;
    depth = Math.max(depth, level);
    if (typeof item === 'string') bytes += item.length + 3;
    else if (typeof item !== 'object' || item === null) bytes += String(item).length + 1;
    else {
      bytes += 2;
      if (Array.isArray(item)) for (const child of item) stack.push([child, level + 1]);
      else
        for (const [key, child] of Object.entries(item)) {
          bytes += key.length + 3;
          stack.push([child, level + 1]);
        }
    }
    if (nodes > limit.nodes || bytes > limit.bytes || level > 10_000) return undefined;
  }
  const size = { nodes, bytes, depth };
  sizes.set(value, size);
  return size;
}

const sizes = new WeakMap<object, Cost>();
