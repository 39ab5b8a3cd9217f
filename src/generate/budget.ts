/**
 * The budget of one generated value (issue 31): the mock's records and answers and the runner's bodies and
 * parameters are all made from schemas the kit did not write, and a schema may ask for what no process can hold
 * (`minLength: 100000000`, `minItems: 1e8`, a record that requires itself ten times). Every value is made within
 * these caps, with the schema's own bounds honoured inside them; what cannot be is reported (result.ts), not
 * attempted. Each cap is far above what a published document's values need: the largest answer generated for
 * GitHub's REST description (1,000+ operations) is about 60 KB, 600 values deep at most 9.
 */
export interface GenerationBudget {
  /** Characters of one string. */
  readonly string: number;
  /** Items of one array, and members of one object beyond those it declares. */
  readonly items: number;
  /** Objects and arrays inside each other. */
  readonly depth: number;
  /** Values of every kind in one generated value (objects, arrays, strings, numbers, ...). */
  readonly nodes: number;
  /** Bytes of one generated value as JSON text (about: each string counts its UTF-16 length). */
  readonly bytes: number;
}

export type BudgetCap = keyof GenerationBudget;

export const DEFAULT_GENERATION_BUDGET: GenerationBudget = Object.freeze({
  string: 10_000,
  items: 1_000,
  depth: 32,
  nodes: 10_000,
  bytes: 1024 * 1024,
});

/** The flag that sets each cap, as the messages name it (src/cli/options.ts, `--generation-budget`). */
export function capFlag(cap: BudgetCap): string {
  return `--generation-budget ${cap}=N`;
}

/** What each cap bounds, for messages and --help. */
export const CAP_WORDS: Readonly<Record<BudgetCap, string>> = {
  string: 'characters of one string',
  items: 'items of one array (or extra members of one object)',
  depth: 'levels of nesting',
  nodes: 'values in one generated value',
  bytes: 'bytes of one generated value',
};

/** The highest value a cap may be set to: past these a cap no longer protects the process. */
const CAP_CEILINGS: Readonly<Record<BudgetCap, number>> = {
  string: 64 * 1024 * 1024,
  items: 10_000_000,
  depth: 10_000,
  nodes: 10_000_000,
  bytes: 1024 * 1024 * 1024,
};

export type BudgetParse = { readonly ok: true; readonly budget: GenerationBudget } | { readonly ok: false; readonly message: string };

/**
 * `--generation-budget string=20000,items=50` (repeatable, comma-separated): the named caps changed, the others
 * at their defaults. Each value is a whole number from 1 to its ceiling.
 */
export function parseGenerationBudget(texts: readonly string[], base: GenerationBudget = DEFAULT_GENERATION_BUDGET): BudgetParse {
  const out: Record<BudgetCap, number> = { ...base };
  for (const part of texts.flatMap((text) => text.split(',')).map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^([a-z]+)=(\d{1,12})$/.exec(part);
    const cap = match?.[1];
    if (!match || cap === undefined || !Object.hasOwn(CAP_CEILINGS, cap)) {
      return { ok: false, message: `--generation-budget takes CAP=N with CAP one of ${Object.keys(CAP_CEILINGS).join(', ')} (e.g. string=20000); got '${part}'` };
    }
    const name = cap as BudgetCap;
    const value = Number(match[2]);
    if (value < 1 || value > CAP_CEILINGS[name]) return { ok: false, message: `--generation-budget ${name} takes a whole number from 1 to ${CAP_CEILINGS[name]}; got ${match[2]}` };
    out[name] = value;
  }
  return { ok: true, budget: Object.freeze(out) };
}

/** What one value has used of its budget so far; a value's parts are charged as they are made, and never refunded. */
export class Spend {
  nodes = 0;
  bytes = 0;

  constructor(readonly budget: GenerationBudget) {}

  /** Charges a part; false (and nothing charged) when it would go past the node or byte cap. */
  take(nodes: number, bytes: number): boolean {
    if (this.nodes + nodes > this.budget.nodes || this.bytes + bytes > this.budget.bytes) return false;
    this.nodes += nodes;
    this.bytes += bytes;
    return true;
  }

  /** The cap a failed take() ran into. */
  exhausted(nodes: number): BudgetCap {
    return this.nodes + nodes > this.budget.nodes ? 'nodes' : 'bytes';
  }
}
