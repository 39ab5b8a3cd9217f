/**
 * What generation gives: a value, or why none can be made within the budget (issue 31, point 1), naming the spot
 * in the document as a JSON pointer (`#/components/schemas/Thing/properties/name`), the keyword that stands in the
 * way (`minLength`), and a sentence a person can act on.
 */
import { capFlag, type BudgetCap } from './budget.js';

export interface Unmakeable {
  /** Where in the document, as a JSON pointer fragment (RFC 6901): the schema whose keyword cannot be met. */
  readonly at: string;
  readonly keyword: string;
  /** Says what the keyword asks and why it cannot be given, ending with what to do where there is something. */
  readonly message: string;
  /** The cap that stood in the way, when one did (not a contradiction in the schema itself). */
  readonly cap?: BudgetCap;
}

export type Generated<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: Unmakeable };

export function made<T>(value: T): Generated<T> {
  return { ok: true, value };
}

export function unmakeable(at: Spot, keyword: string, message: string, cap?: BudgetCap): { readonly ok: false; readonly why: Unmakeable } {
  return { ok: false, why: { at: spotText(at), keyword, message: cap ? `${message} (${capFlag(cap)} raises it)` : message, ...(cap ? { cap } : {}) } };
}

/** One line: the spot, then what stands in the way. */
export function describeUnmakeable(why: Unmakeable): string {
  return `${why.at}: ${why.message}`;
}

/**
 * Where the walk is in the document: a base pointer (the root schema's, or a component's once the walk enters
 * one) and the keywords taken from it, kept as a chain so a step costs no string until a failure names it.
 */
export type Spot = { readonly base: string } | { readonly parent: Spot; readonly segment: string };

export function spotAt(base: string): Spot {
  return { base };
}

export function below(parent: Spot, ...segments: readonly (string | number)[]): Spot {
  let spot = parent;
  for (const segment of segments) spot = { parent: spot, segment: String(segment) };
  return spot;
}

export function spotText(spot: Spot): string {
  const segments: string[] = [];
  let at: Spot = spot;
  while ('parent' in at) {
    segments.push(at.segment.replace(/~/g, '~0').replace(/\//g, '~1'));
    at = at.parent;
  }
  return segments.length === 0 ? at.base : `${at.base}/${segments.reverse().join('/')}`;
}
