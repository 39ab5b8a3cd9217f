/**
 * Objects: the required members first (a required member that cannot be made means the object cannot be), then,
 * for a lifelike value near the top, the optional ones a front end shows (not deprecated ones), and for either
 * style as many more as `minProperties` asks, from the declared properties and then `additionalProperties`.
 * Members hidden in the view are never made. Members keep the order the schema declares them in.
 */
import { asSchema, define, isObject, mergeAllOf, type JsonObject, type Schema } from './composition.js';
import { below, made, unmakeable, type Generated, type Spot } from './result.js';
import { hiddenIn, type Hint, type Walker } from './walker.js';

/** Why no object of this schema fits the budget, or undefined. */
export function objectObstacle(s: Schema, cap: number): { keyword: string; message: string; capped: boolean } | undefined {
  const min = s.minProperties ?? 0;
  if (s.maxProperties !== undefined && min > s.maxProperties) return { keyword: 'minProperties', message: `minProperties ${min} is above maxProperties ${s.maxProperties}: no object is allowed`, capped: false };
  const declared = Object.keys(s.properties ?? {}).length;
  if (min > declared + cap) return { keyword: 'minProperties', message: `minProperties ${min} asks for more than the ${cap} members a generated object may add to the ${declared} it declares`, capped: true };
  const closed = s.additionalProperties === false || (s as { unevaluatedProperties?: unknown }).unevaluatedProperties === false;
  if (closed && min > declared) return { keyword: 'minProperties', message: `minProperties ${min} asks for more members than the ${declared} a closed object declares`, capped: false };
  return undefined;
}

export function objectValue(walker: Walker, s: Schema, spot: Spot, depth: number, hint: Hint): Generated {
  const obstacle = objectObstacle(s, walker.budget.items);
  if (obstacle) return unmakeable(spot, obstacle.keyword, obstacle.message, obstacle.capped ? 'items' : undefined);
  if (!walker.spend.take(1, 2)) return unmakeable(spot, 'type', 'the value has grown past its budget here', walker.spend.exhausted(1));
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const members: Map<string, unknown> = new Map();
  const member = (name: string, raw: Schema | undefined, propertySpot: Spot): Generated | undefined => {
    if (!walker.spend.take(0, name.length + 4)) return unmakeable(propertySpot, 'properties', 'the value has grown past its budget here', 'bytes');
    const result = walker.value(raw ?? extraSchema(s), propertySpot, depth + 1, { variant: hint.variant, name });
    if (result.ok) members.set(name, result.value);
    return result;
  };
  const visible = Object.entries(properties).filter(([, raw]) => !hiddenIn(walker.view, mergeAllOf(asSchema(raw))));
  // Required first, so optional members never spend what a required one needs.
  for (const name of required) {
    const raw = Object.hasOwn(properties, name) ? asSchema(properties[name]) : undefined;
    if (raw && hiddenIn(walker.view, mergeAllOf(raw))) continue;
    const result = member(name, raw, raw ? below(spot, 'properties', name) : below(spot, 'required'));
    if (result && !result.ok) return result;
  }
  const minProperties = s.minProperties ?? 0;
  const rich = walker.style === 'lifelike' && depth < walker.richDepth;
  for (const [name, raw] of visible) {
    if (members.has(name)) continue;
    const property = mergeAllOf(asSchema(raw));
    const wanted = members.size < minProperties || (rich && (s.minProperties !== undefined || !property.deprecated));
    if (!wanted || (s.maxProperties !== undefined && members.size >= s.maxProperties)) continue;
    // An optional member that cannot be made is left out.
    member(name, asSchema(raw), below(spot, 'properties', name));
  }
  for (let i = 1; members.size < minProperties && i <= walker.budget.items + minProperties; i += 1) {
    const name = `extra${i}`;
    if (members.has(name) || Object.hasOwn(properties, name)) continue;
    const result = member(name, undefined, below(spot, 'additionalProperties'));
    if (result && !result.ok) return result;
  }
  // The schema's order, then what it does not declare.
  const out: JsonObject = {};
  for (const name of Object.keys(properties)) if (members.has(name)) define(out, name, members.get(name));
  for (const [name, value] of members) if (!Object.hasOwn(out, name)) define(out, name, value);
  return made(out);
}

/** The schema of a member the object does not declare: its `additionalProperties` schema, else any (a string). */
function extraSchema(s: Schema): Schema {
  return isObject(s.additionalProperties) ? asSchema(s.additionalProperties) : {};
}
