/**
 * The one generator (issue 31, point 1): a value for a schema, within a budget, for the mock (records, answers,
 * headers) and the runner (bodies, parameters) alike. One small function per construct (numbers.ts, strings.ts,
 * arrays.ts, objects.ts); this file is the walk between them: the document's own words first (`const`, then on
 * variant 0 its example, examples or default), then an enum value, then a branch of `oneOf`/`anyOf`, then a
 * value built from the type. What cannot be made within the budget is reported (result.ts): before anything is
 * built when the schema's least value is already past it (cost.ts), else where the walk meets a cap. A schema
 * that allows null answers null where nothing else can be made, which is also how a cyclic schema ends.
 */
import type { Faker } from '@faker-js/faker';
import { arrayValue } from './arrays.js';
import { DEFAULT_GENERATION_BUDGET, Spend, type GenerationBudget } from './budget.js';
import { allowsNull, asSchema, branchesOf, constOf, firstExample, generatedTypeOf, mergeAllOf, ofNamedType, withBranch, type Schema } from './composition.js';
import { cheapestBranchOrder, EMPTY_ENUM, ENUM_OF_OTHER_TYPE, leastCost, ownValueBytes } from './cost.js';
import { limitsOf, type Limits } from './constraints.js';
import { judge } from './judge.js';
import { componentLocator, type Locate } from './locate.js';
import { integerValue, numberValue } from './numbers.js';
import { objectValue } from './objects.js';
import { below, made, spotAt, unmakeable, type Generated, type Spot, type Unmakeable } from './result.js';
import { setApart } from './set-apart.js';
import { stringValue } from './strings.js';
import type { Hint, Style, View, Walker } from './walker.js';

export interface GenerateOptions {
  readonly view: View;
  readonly style: Style;
  /** The caller's seeded faker (never the global one): the same seed gives the same values. */
  readonly faker: Faker;
  readonly budget?: GenerationBudget;
  /** Picks among alternatives; 0 (the default) takes the document's example or default first. */
  readonly variant?: number;
  /** The field's name, for lifelike text. */
  readonly name?: string;
  /** How deep in a larger value this one starts (a record's field: 1): depth counts toward the cap and leanness. */
  readonly depth?: number;
  /** Where the schema is in the document, as a JSON pointer fragment (`#/paths/~1things/post/requestBody/...`), for reports. */
  readonly at?: string;
  /** The document, so a report names a component (`#/components/schemas/Thing`) rather than the path it was reached by. */
  readonly document?: object;
}

/** Above this depth a value is rich (walker.ts); the runner's plain values only lengthen arrays there. */
const RICH_DEPTH: Readonly<Record<Style, number>> = { plain: 4, lifelike: 2 };
/** Branches whose chosen branch has branches again (`A: oneOf: [A, ...]`), at one depth, at most this many times. */
const MAX_BRANCH_HOPS = 16;
/** Branches of a oneOf tried past one whose value another branch may take (it could not be judged), for one known to be alone. */
const UNCERTAIN_TRIES = 3;
/** Values made for each side of a schema's conditions before it is reported (constraints.ts). */
const LIMITED_ATTEMPTS = 8;

export function generate(schema: Schema, options: GenerateOptions): Generated {
  const budget = options.budget ?? DEFAULT_GENERATION_BUDGET;
  const depth = options.depth ?? 0;
  const root = spotAt(options.at ?? '#');
  const locate = options.document ? componentLocator(options.document) : undefined;
  // The least value is past the budget, or cannot exist: said without building anything.
  const least = leastCost(schema, options.view, budget, root, locate);
  if (!least.ok) return least;
  if (least.cost.depth + depth > budget.depth) {
    return unmakeable(root, 'type', `its least value nests ${least.cost.depth} levels deep, past the ${budget.depth} levels allowed from depth ${depth}`, 'depth');
  }
  const hint: Hint = { variant: options.variant ?? 0, name: options.name ?? '' };
  const first = walk(options, budget, RICH_DEPTH[options.style], locate).value(schema, root, depth, hint);
  if (first.ok || RICH_DEPTH[options.style] <= depth) return first;
  // A rich value spent its budget on optional members: the lean one (only what is required) fits, as cost.ts said.
  const lean = walk(options, budget, 0, locate).value(schema, root, depth, hint);
  return lean.ok ? lean : first;
}

function walk(options: GenerateOptions, budget: GenerationBudget, richDepth: number, locate: Locate | undefined): Walker {
  const { faker } = options;
  const walker: Walker = {
    view: options.view,
    style: options.style,
    faker,
    budget,
    spend: new Spend(budget),
    richDepth,
    randInt: (from, to) => (to <= from ? from : faker.number.int({ min: from, max: to })),
    value(raw, at, depth, hint) {
      const located = locate?.(raw);
      const spot = located !== undefined ? spotAt(located) : at;
      const result = node(walker, raw, spot, depth, hint, 0, locate);
      if (result.ok || !allowsNull(raw)) return result;
      // Null is a value of it: where nothing else fits (a cycle, a cap), null does.
      return walker.spend.take(1, 4) ? made(null) : result;
    },
  };
  return walker;
}

function node(walker: Walker, raw: Schema, spot: Spot, depth: number, hint: Hint, hops: number, locate: Locate | undefined): Generated {
  if (depth > walker.budget.depth) return unmakeable(spot, 'type', `it nests deeper than the ${walker.budget.depth} levels a generated value may have`, 'depth');
  const s = mergeAllOf(raw);
  const limits = limitsOf(s);
  if (limits) return limitedValue(walker, limits, spot, depth, hint, hops, locate);
  const constant = constOf(s);
  if (constant !== undefined) return own(walker, constant.value, spot, 'const');
  // No value at all: an optional member holding it is left out, an array holding it is left empty.
  if (Array.isArray(s.enum) && s.enum.length === 0) return unmakeable(spot, 'enum', EMPTY_ENUM);
  if (hint.variant === 0) {
    const given = s.example ?? firstExample(s) ?? s.default;
    if (given !== undefined && given !== null && ofNamedType(s, given)) {
      const taken = own(walker, given, spot, 'example');
      if (taken.ok) return taken;
    }
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const options = s.enum.filter((option) => option !== null && ofNamedType(s, option));
    if (options.length === 0 && !s.enum.includes(null)) return unmakeable(spot, 'enum', ENUM_OF_OTHER_TYPE);
    if (options.length === 0) return walker.spend.take(1, 4) ? made(null) : unmakeable(spot, 'enum', 'the value has grown past its budget here', 'nodes');
    return own(walker, options[(hint.ordinal ?? hint.variant) % options.length], spot, 'enum');
  }
  const branches = branchesOf(s);
  if (branches.length > 0) return branchValue(walker, s, branches, spot, depth, hint, hops, locate);
  switch (generatedTypeOf(s)) {
    case 'integer':
      return leaf(walker, integerValue(walker, s, spot, hint), spot);
    case 'number':
      return leaf(walker, numberValue(walker, s, spot, hint), spot);
    case 'boolean': {
      // The runner's plain value is false (a true flag tends to start what cannot be undone), then true for the next variant.
      const ordinal = hint.ordinal ?? (walker.style === 'plain' ? hint.variant : undefined);
      return leaf(walker, made(ordinal !== undefined ? ordinal % 2 === 1 : walker.faker.datatype.boolean()), spot);
    }
    case 'null':
      return leaf(walker, made(null), spot);
    case 'array':
      return arrayValue(walker, s, spot, depth, hint);
    case 'object':
      return objectValue(walker, s, spot, depth, hint);
    default:
      // No type: a string, unless null is all it allows.
      if (allowsNull(s) && typeof s.type !== 'string') return leaf(walker, made(null), spot);
      return leaf(walker, stringValue(walker, s, spot, hint), spot);
  }
}

/**
 * One branch of `oneOf`/`anyOf`, with the keywords beside it: the variant's first, then the others in turn
 * (one that cannot be made is passed over). Deep in a value, where only what is required is made, the cheapest
 * branch goes first, so a recursive schema (`oneOf: [Node, string]`) ends rather than nesting to the cap.
 */
function branchValue(walker: Walker, s: Schema, branches: readonly Schema[], spot: Spot, depth: number, hint: Hint, hops: number, locate: Locate | undefined): Generated {
  const oneOfCount = s.oneOf?.length ?? 0;
  if (hops >= MAX_BRANCH_HOPS) return unmakeable(spot, oneOfCount > 0 ? 'oneOf' : 'anyOf', `its branches hold branches more than ${MAX_BRANCH_HOPS} times over without a value between them`);
  const order = depth >= walker.richDepth ? cheapestBranchOrder(branches, walker.view, walker.budget, locate) : branches.map((_, i) => (i + hint.variant) % branches.length);
  let first: Generated | undefined;
  let wholes: Schema[] | undefined;
  let uncertain: Generated | undefined;
  let triesLeft = UNCERTAIN_TRIES;
  for (const index of order) {
    const branchSpot = index < oneOfCount ? below(spot, 'oneOf', index) : below(spot, 'anyOf', index - oneOfCount);
    const result = node(walker, withBranch(s, branches[index]!), branchSpot, depth, hint, hops + 1, locate);
    if (result.ok && index < oneOfCount) {
      // A oneOf's value must match its branch alone (set-apart.ts): one another branch takes too is set apart, or passed over.
      const apart = setApart(result.value, (wholes ??= s.oneOf!.map((branch) => withBranch(s, asSchema(branch)))), index, (value, schema) => judge(value, schema, { view: walker.view }));
      if (apart.ok && apart.certain) return made(apart.value);
      // Another branch could not be judged (a pattern RE2 cannot run): a few more branches are tried for a value known
      // to be one branch's alone, and this one is answered only where none is.
      if (apart.ok) {
        uncertain ??= made(apart.value);
        if ((triesLeft -= 1) <= 0) break;
        continue;
      }
      // A value two branches take is no value of the oneOf: said, so an anyOf around it tries its other branches.
      first ??= unmakeable(branchSpot, 'oneOf', `its value is a value of branch ${apart.branch} too, and no member the generator adds sets it apart`);
      continue;
    }
    if (result.ok) return result;
    first ??= result;
  }
  return uncertain ?? first ?? unmakeable(spot, oneOfCount > 0 ? 'oneOf' : 'anyOf', 'no branch can be made');
}

/**
 * A value of a schema with a `not` or an `if` (constraints.ts): made for each side of its conditions in turn, a
 * few variants each, until one fails the `not` and its `if`s say what that side assumes (judge.ts). A value
 * that cannot be judged, or none that passes, is reported, never handed out.
 */
function limitedValue(walker: Walker, limits: Limits, spot: Spot, depth: number, hint: Hint, hops: number, locate: Locate | undefined): Generated {
  if (!limits.ok) return unmakeable(spot, limits.keyword, limits.message);
  const keyword = limits.not !== undefined ? 'not' : 'if';
  if (hops >= MAX_BRANCH_HOPS) return unmakeable(spot, keyword, `its conditions hold conditions more than ${MAX_BRANCH_HOPS} times over`);
  let failure: Generated | undefined;
  let made = false;
  for (const candidate of limits.candidates) {
    for (let attempt = 0; attempt < LIMITED_ATTEMPTS; attempt += 1) {
      // Later attempts count on: another enum value, the next integer, the other boolean (Hint.ordinal).
      const attemptHint: Hint = attempt === 0 ? hint : { variant: hint.variant + attempt, name: hint.name, ordinal: (hint.ordinal ?? hint.variant) + attempt };
      const mark = walker.spend.mark();
      const result = node(walker, candidate.schema, spot, depth, attemptHint, hops + 1, locate);
      if (!result.ok) {
        walker.spend.refund(mark);
        failure ??= result;
        break;
      }
      made = true;
      const failsNot = limits.not === undefined || judge(result.value, limits.not, { view: walker.view }) === false;
      // Each part folded in must hold, as far as the judge knows its keywords: a fold may lose one (an enum from an
      // `if` beside another part's pattern). A keyword it does not know is taken as met (the value was built to it);
      // one it knows but cannot check (a pattern RE2 cannot run) leaves the value untaken.
      const holds = (part: unknown): boolean => judge(result.value, part, { view: walker.view, trustUnknown: true }) === true;
      const sidesHold = limits.conditions.every((condition, i) => judge(result.value, condition.if, { view: walker.view }) === candidate.verdicts[i]) && candidate.parts.every(holds);
      if (failsNot && sidesHold) return result;
      walker.spend.refund(mark);
    }
  }
  if (!made && failure) return failure;
  return unmakeable(spot, keyword, `no value made (${LIMITED_ATTEMPTS} tries of each side of its conditions) ${limits.not !== undefined ? 'fails its not' : 'meets its if/then/else'}`);
}

/** A scalar, charged to the budget by its JSON text's length. */
function leaf(walker: Walker, result: Generated, spot: Spot): Generated {
  if (!result.ok) return result;
  const bytes = typeof result.value === 'string' ? result.value.length + 2 : String(result.value).length;
  return walker.spend.take(1, bytes) ? result : unmakeable(spot, 'type', 'the value has grown past its budget here', walker.spend.exhausted(1));
}

/** A value the document gives (const, example, default, enum), copied, and charged by its size: a huge one does not fit. */
function own(walker: Walker, value: unknown, spot: Spot, keyword: string): Generated {
  const remaining = { nodes: walker.budget.nodes - walker.spend.nodes, bytes: walker.budget.bytes - walker.spend.bytes };
  const size = ownValueBytes(value, remaining);
  if (size === undefined || !walker.spend.take(size.nodes, size.bytes)) return unmakeable(spot, keyword, `the document's ${keyword} is larger than what is left of the budget`, 'bytes');
  return made(typeof value === 'object' && value !== null ? structuredClone(value) : value);
}

/**
 * Why no value of the schema can be made within the budget, or undefined when one can: the measure generate()
 * takes first, for a caller that reports before it generates (the mock's start-up, the runner's plan).
 */
export function whyUnmakeable(schema: Schema, options: Pick<GenerateOptions, 'view' | 'budget' | 'at' | 'document' | 'depth'>): Unmakeable | undefined {
  const budget = options.budget ?? DEFAULT_GENERATION_BUDGET;
  const root = spotAt(options.at ?? '#');
  const least = leastCost(schema, options.view, budget, root, options.document ? componentLocator(options.document) : undefined);
  if (!least.ok) return least.why;
  const depth = options.depth ?? 0;
  if (least.cost.depth + depth > budget.depth) {
    const result = unmakeable(root, 'type', `its least value nests ${least.cost.depth} levels deep, past the ${budget.depth} levels allowed from depth ${depth}`, 'depth');
    return result.why;
  }
  return undefined;
}
