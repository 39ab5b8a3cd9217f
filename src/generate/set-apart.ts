/**
 * A value of one `oneOf` branch that another branch accepts too is no value of the `oneOf`: it must match exactly
 * one (JSON Schema 2020-12 §10.2.1.3, OpenAPI 3.0.3 §4.7.24). Open objects with no member in common do: Supabase's
 * signup answers `oneOf: [AccessTokenResponse, User]`, neither with `required` nor `additionalProperties: false`,
 * so every object a branch is made into is a value of both, and the mock had no answer to give (501).
 *
 * The value is set apart by a member the other branch declares, given a value of a type that branch refuses and
 * the chosen branch allows (`access_token: null` in a user): the least invented member that says which branch the
 * value is. Used by the generator (with judge.ts) and by the mock's fit (with its validators), through `holds`.
 */
import { define, isObject, propertiesOf, type JsonObject, type Schema } from './composition.js';

/** Whether `value` meets `schema`: true, false, or undefined where that is not known. */
export type Holds = (value: unknown, schema: Schema) => boolean | undefined;

/** What a member that sets a value apart is given, least invented first: each is refused by a branch that types the member. */
const PROBES: readonly unknown[] = [null, 0, '', false, [], {}];
/** Members of another branch tried at most, per branch: the work stays small on wide schemas. */
const MAX_NAMES = 16;
/** Past this many branches the value is left as it is (each one is judged): a guard against schemas of hundreds. */
export const MAX_SET_APART_BRANCHES = 32;

/** `certain`: every other branch is known to refuse the value (else one could not be judged, and may take it). */
export type SetApart = { readonly ok: true; readonly value: unknown; readonly certain: boolean } | { readonly ok: false; readonly branch: number };

/**
 * The value with what sets it apart from every other branch of `wholes` (each branch with the keywords beside it),
 * `chosen` being the one it was made for. A value no other branch is known to accept comes back as it is; one that
 * another branch accepts and no member sets apart is refused, naming that branch.
 */
export function setApart(value: unknown, wholes: readonly Schema[], chosen: number, holds: Holds): SetApart {
  if (wholes.length < 2) return { ok: true, value, certain: true };
  const own = wholes[chosen];
  if (wholes.length > MAX_SET_APART_BRANCHES || own === undefined) return { ok: true, value, certain: false };
  let current = value;
  for (let other = 0; other < wholes.length; other += 1) {
    if (other === chosen || holds(current, wholes[other]!) !== true) continue;
    const apart = isObject(current) ? withMemberRefused(current, own, wholes[other]!, holds) : undefined;
    if (apart === undefined) return { ok: false, branch: other };
    current = apart;
  }
  // A member added for one branch may let an earlier one accept the value again: judged once more, whole.
  let certain = true;
  for (let other = 0; other < wholes.length; other += 1) {
    if (other === chosen) continue;
    const verdict = holds(current, wholes[other]!);
    if (verdict === true) return { ok: false, branch: other };
    if (verdict === undefined) certain = false;
  }
  return { ok: true, value: current, certain };
}

/** The value with one member more that `other` refuses and `own` allows, or undefined when no such member is found. */
function withMemberRefused(value: JsonObject, own: Schema, other: Schema, holds: Holds): JsonObject | undefined {
  const ownNames = propertiesOf(own);
  // A member only the other branch declares first: the chosen branch says nothing of it, so it cannot object.
  const names = [...propertiesOf(other).keys()].filter((name) => !Object.hasOwn(value, name)).sort((a, b) => Number(ownNames.has(a)) - Number(ownNames.has(b)));
  for (const name of names.slice(0, MAX_NAMES)) {
    for (const probe of PROBES) {
      const next: JsonObject = { ...value };
      define(next, name, structuredClone(probe));
      if (holds(next, other) !== false) continue;
      const ownVerdict = holds(next, own);
      // The chosen branch must take the member: known to, or, where the whole value cannot be judged (a pattern of
      // another member RE2 cannot run), known to by the member's own schema. A probe the chosen branch might refuse
      // was kept once: `email: ""` against a pattern of a million letters, a value of neither branch (seed 93031 of
      // the generation property).
      if (ownVerdict === true || (ownVerdict === undefined && memberAllowed(own, ownNames, name, probe, holds) === true)) return next;
    }
  }
  return undefined;
}

/** Whether the chosen branch takes `probe` as its member `name`, judged by what it declares of that member alone. */
function memberAllowed(own: Schema, ownNames: ReadonlyMap<string, Schema>, name: string, probe: unknown, holds: Holds): boolean | undefined {
  const declared = ownNames.get(name);
  if (declared !== undefined) return holds(probe, declared);
  const rest = own.additionalProperties;
  if (rest === false) return false;
  if (isObject(rest)) return holds(probe, rest as Schema);
  // Patterns of member names say more than a reading of the member alone can: not judged here.
  return (own as Readonly<Record<string, unknown>>)['patternProperties'] === undefined ? true : undefined;
}
