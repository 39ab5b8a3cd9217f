/**
 * What every part of the generator works with (generate.ts makes one per value): the view and style asked for,
 * the seeded random source, what the value has spent of its budget, and the walk itself, so the parts (numbers,
 * strings, arrays, objects) call back into it without importing each other.
 */
import type { Faker } from '@faker-js/faker';
import type { GenerationBudget, Spend } from './budget.js';
import type { Schema } from './composition.js';
import type { Generated, Spot } from './result.js';

/**
 * Which side of the document a value is for (OpenAPI 3.0.3 §4.7.24): an answer carries `readOnly` fields and
 * never `writeOnly` ones; a request the other way round.
 */
export type View = 'request' | 'response';

/**
 * How a value reads, the one choice the two halves of the kit make differently:
 * - `plain` (the runner's inputs): the least a valid value needs (required fields, the smallest number from 1
 *   up, `false`, a word, dates ahead), so a request changes as little as it can and stays easy to clean up;
 * - `lifelike` (the mock's records and answers): what a front end shows (optional fields near the top, numbers
 *   and flags drawn, text that reads like its field's name, dates in the recent past).
 */
export type Style = 'plain' | 'lifelike';

export interface Hint {
  /** Picks among a schema's alternatives: `oneOf`/`anyOf` branches, enum values; 0 takes the document's example or default. */
  readonly variant: number;
  /** The field's name, for lifelike text (`email`, `city`). */
  readonly name: string;
}

export interface Walker {
  readonly view: View;
  readonly style: Style;
  readonly faker: Faker;
  readonly budget: GenerationBudget;
  readonly spend: Spend;
  /** Above this depth objects carry their optional fields and arrays a first item; below, only what is required. */
  readonly richDepth: number;
  randInt(from: number, to: number): number;
  value(schema: Schema, spot: Spot, depth: number, hint: Hint): Generated;
}

/** Whether a property is left out of a value for this view (OpenAPI 3.0.3 §4.7.24). */
export function hiddenIn(view: View, property: Schema): boolean {
  return view === 'request' ? property.readOnly === true : property.writeOnly === true;
}
