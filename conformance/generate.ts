/**
 * Inputs derived from the document: valid bodies from its examples (the
 * schemas fill gaps, faker the free values), and invalid mutations of them
 * from the schemas' own constraints. Nothing here knows a field of the Pet
 * Store: a document with other shapes gets other inputs.
 *
 * Faker is a private instance seeded with --seed (`createEnglishFaker(seed)`),
 * never the global one, so two runs with one seed send the same values
 * (apart from the run tag that keeps their records apart).
 */
import type { Faker } from '@faker-js/faker';
import { createEnglishFaker } from '../src/english-faker.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { MediaTypeSpec, Operation, ParameterSpec } from '../src/contract/index.js';
import {
  asSchema,
  DEFAULT_GENERATION_BUDGET,
  describeUnmakeable,
  generate,
  isObject,
  mergeAllOf,
  propertiesOf as composedProperties,
  generatedTypeOf,
  type Generated,
  type GenerationBudget,
  type JsonObject,
  type Schema,
} from '../src/generate/index.js';
import { isJsonMediaType, type Diagnostic } from '../src/schema/index.js';
import { parseJson, plainJson, stringifyJson } from './json.js';

export { isObject, mergeAllOf, type JsonObject, type Schema };

/** The document is dereferenced when loaded (src/contract/load.ts), so every schema position holds a schema. */
export function schema(value: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | boolean | undefined): Schema {
  // JSON Schema 2020-12 (OpenAPI 3.1) allows `true`/`false` as a schema (`items: false`): read as one without keywords.
  return asSchema(value);
}

export function jsonBodyOf(operation: Operation): MediaTypeSpec | undefined {
  return operation.requestBody?.content.find((media) => isJsonMediaType(media.mediaType));
}

/** A body mutation: what the report shows as CheckResult.mutation, plus the value sent. */
export interface BodyMutation {
  readonly kind: 'missing-required' | 'wrong-type' | 'enum' | 'unknown-field' | 'out-of-range' | 'format' | 'min-properties';
  /** Where in the body, as a JSON pointer (`/name`; `` for the whole body). */
  readonly pointer: string;
  readonly description: string;
  readonly value: unknown;
}

export interface ParameterMutation {
  readonly kind: 'wrong-type' | 'enum' | 'out-of-range';
  readonly location: 'path' | 'query';
  readonly name: string;
  readonly pointer: string;
  readonly description: string;
  /** The exact text sent. */
  readonly text: string | readonly string[];
}

/** An integer that no implementation would have handed out, yet valid for an int64 id: a valid but absent id. */
export const ABSENT_ID = Number.MAX_SAFE_INTEGER;
/** 2^63, one past int64: as text it stays exact; as a JSON number it rounds to a value Ajv's int64 accepts. */
const TWO_TO_63 = '9223372036854775808';
/** Words that no sane enum contains, tried in order. `adopted` is the classic wrong PetStatus. */
const NOT_IN_ENUM = ['adopted', 'unknown-value', 'x-not-in-enum'];


/** Says why a body is not valid for an operation (the compiled request validator, src/schema), or [] when it is. */
export type BodyValidator = (operation: Operation, value: unknown) => readonly Diagnostic[];

export type ValidBody = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reason: string };

/**
 * Text generated data never holds: mixed case, multi-byte UTF-8 (two-, three- and four-byte characters),
 * quotes, HTML and SQL metacharacters, a backslash. Cut from the end to fit a maxLength.
 */
const DIVERSE_TEXT = 'Zoë ÅNGSTRÖM "Rex" O\'Brien <b>&amp;</b> 名前 🐕 \\ 50% x; DROP TABLE pets;--';

/** Schema samples tried after the examples, each taking other branches of oneOf/anyOf. */
const SAMPLE_VARIANTS = 3;

export interface GeneratorOptions {
  /** The caps on one generated value (`--generation-budget`); the defaults when absent. */
  readonly budget?: GenerationBudget;
  readonly document?: object;
}

export class Generator {
  readonly faker: Faker;
  private counter = 0;

  constructor(
    readonly seed: number,
    /** Short and unique per run, so records of two runs (or other data already there) never collide. */
    readonly runTag: string,
    /** Tells apart the generators of one run (one per check), so their tags never collide either. */
    private readonly label = '',
    /** The gate every body passes before it is called valid; without one (unit tests) every candidate passes. */
    private readonly validate: BodyValidator = () => [],
    /** `--generation-budget`, and the document, so a report names the component a schema is. */
    private readonly options: GeneratorOptions = {},
  ) {
    this.faker = createEnglishFaker(seed);
  }

  /** A fresh suffix for one record's free-text fields. */
  nextTag(): string {
    this.counter += 1;
    return `${this.runTag}-${this.label}${this.counter}`;
  }

  /** A valid body for the operation, or undefined (validBodyOrReason says why). */
  validBody(operation: Operation, bindings: Readonly<Record<string, unknown>>): unknown {
    const outcome = this.validBodyOrReason(operation, bindings);
    return outcome.ok ? outcome.body : undefined;
  }

  /**
   * A valid body for the operation: its preferred examples first, then
   * samples of its schema, each with fields named like a producer's parameter
   * bound to records the run owns and free-text fields made unique. The first
   * candidate whose exact JSON text the operation's request validator accepts
   * wins; when none does, the reason says what the last one broke, and the
   * check that wanted it skips rather than fails (issue 9, point 1).
   */
  validBodyOrReason(operation: Operation, bindings: Readonly<Record<string, unknown>>, form?: FormBody): ValidBody {
    // A form (requests/form-create.ts) is generated as a JSON body is, from its schema, and judged by its own validator.
    const media = form?.media ?? jsonBodyOf(operation);
    if (!media) return { ok: false, reason: `${operation.operationId} takes no JSON body` };
    const bodySchema = schema(media.schema);
    const at = `#/paths/${escapePointer(operation.pathTemplate)}/${operation.method.toLowerCase()}/requestBody/content/${escapePointer(media.mediaType)}/schema`;
    const candidates: (() => Generated)[] = [
      ...preferredExamples(media).map((example) => (): Generated => ({ ok: true, value: structuredClone(example) })),
      ...Array.from({ length: SAMPLE_VARIANTS }, (_, variant) => () => this.attempt(bodySchema, 0, variant, at)),
    ];
    let reason = `no example and no sample of ${operation.operationId}'s body schema`;
    for (const candidate of candidates) {
      const made = candidate();
      // What cannot be generated within the budget is said, not sent (issue 31): the check skips with it.
      if (!made.ok) {
        reason = `${operation.operationId}'s body cannot be generated: ${describeUnmakeable(made.why)}`;
        continue;
      }
      const base = made.value;
      const body = isObject(base) ? this.fill(base, bodySchema, bindings) : base;
      const problems = form ? form.problems(body) : this.validate(operation, asSent(body));
      if (problems.length === 0) return { ok: true, body };
      reason = `the generator's best body for ${operation.operationId} breaks the document at ${problems[0]!.pointer}: ${problems[0]!.message}`;
    }
    return { ok: false, reason };
  }

  /** Binds producer fields, fills required fields an example lacks, and makes free text unique. */
  private fill(base: JsonObject, bodySchema: Schema, bindings: Readonly<Record<string, unknown>>): JsonObject {
    const merged = mergeAllOf(bodySchema);
    const properties = merged.properties ?? {};
    for (const [name, value] of Object.entries(bindings)) {
      if (name in properties || name in base) base[name] = value;
    }
    // A required field the example lacks (a document whose example is partial) is filled from its schema.
    for (const name of merged.required ?? []) {
      const property = properties[name];
      const value = !(name in base) && property && !schema(property).readOnly ? this.sample(schema(property), 1) : undefined;
      if (value !== undefined) base[name] = value;
    }
    // A bound field names a record the run owns (`merchantId: "119"`): a tag on it would name no record, and two
    // records bound to one parent would no longer share it (list-contains-created filters by it).
    return this.uniquify(base, merged, new Set(Object.keys(bindings)));
  }

  /**
   * The body with every optional writable property filled and every free-text
   * string made of what generated data never holds (issue 19: non-ASCII and
   * multi-byte UTF-8, mixed case, quotes, HTML and SQL metacharacters), the
   * run's tag kept at its end so the clean-up still knows the record. What
   * the server stores of it must read back exactly; a server that drops an
   * optional field, or mangles text it did not expect, shows only here.
   */
  enrich(base: JsonObject, bodySchema: Schema, keep: ReadonlySet<string> = new Set()): JsonObject {
    const out: JsonObject = { ...base };
    for (const [name, raw] of Object.entries(propertiesOf(bodySchema))) {
      const p = mergeAllOf(raw);
      if (p.readOnly || keep.has(name)) continue;
      if (!(name in out)) {
        const sampled = this.sample(p, 1);
        if (sampled === undefined) continue;
        out[name] = sampled;
      }
      const value = out[name];
      if (typeof value !== 'string' || generatedTypeOf(p) !== 'string' || p.enum || p.format || p.pattern || !value.includes(this.runTag)) continue;
      const tag = value.slice(value.indexOf(this.runTag));
      const max = p.maxLength ?? 200;
      const room = max - [...tag].length - 1;
      if (room < 4) continue;
      out[name] = `${[...DIVERSE_TEXT].slice(0, room).join('').trimEnd()} ${tag}`;
    }
    return out;
  }

  /** Makes every free-text string of an object unique to this run, within its maxLength; the fields in `keep` stay as they are. */
  uniquify(value: JsonObject, objectSchema: Schema, keep: ReadonlySet<string> = new Set()): JsonObject {
    const tag = this.nextTag();
    const merged = mergeAllOf(objectSchema);
    for (const [name, propertySchema] of Object.entries(merged.properties ?? {})) {
      if (keep.has(name)) continue;
      const s = mergeAllOf(schema(propertySchema));
      if (s.type !== 'string' || s.enum || s.format || s.pattern) continue;
      if (!(name in value) && !(merged.required ?? []).includes(name)) continue;
      const current = typeof value[name] === 'string' && value[name] !== '' ? (value[name] as string) : this.faker.word.noun();
      const max = s.maxLength ?? 200;
      const suffix = ` ${tag}`;
      value[name] = `${current.slice(0, Math.max(1, max - suffix.length))}${suffix}`.slice(0, max);
    }
    return value;
  }

  /**
   * A value for a schema in the request view (OpenAPI 3.0.3 §4.7.24: readOnly properties are not sent), by the
   * kit's one generator (src/generate/, issue 31) in its plain style: the document's example or default on variant
   * 0, an enum value, a branch of `oneOf`/`anyOf` picked by `variant` (the validator decides which candidate is
   * valid), else the least a valid value needs; within the generation budget, or why not (`at`: the schema's spot).
   */
  attempt(raw: Schema, depth: number, variant = 0, at?: string): Generated {
    return generate(raw, { view: 'request', style: 'plain', faker: this.faker, budget: this.options.budget ?? DEFAULT_GENERATION_BUDGET, variant, depth, ...(at !== undefined ? { at } : {}), ...(this.options.document ? { document: this.options.document } : {}) });
  }

  /** A value for a schema (attempt()), or undefined when none can be made within the generation budget. */
  sample(raw: Schema, depth: number, variant = 0): unknown {
    const result = this.attempt(raw, depth, variant);
    return result.ok ? result.value : undefined;
  }
}

/** A form body to generate in place of a JSON one: its media type, and what its validator says of a value. */
export interface FormBody {
  readonly media: MediaTypeSpec;
  problems(value: unknown): readonly { readonly pointer: string; readonly message: string }[];
}

/** The exact JSON text of a body, read back as the validators read a request (json.ts): what is validated is what is sent. */
export function asSent(body: unknown): unknown {
  return body === undefined ? undefined : plainJson(parseJson(stringifyJson(body)));
}

/**
 * Every property an object of this schema may carry, with its schema, found
 * through composition: `allOf` parts merged, and the branches of
 * `oneOf`/`anyOf` united (any branch may be the one sent). A field named in
 * a part (`NewOrder: allOf: [OrderBase, {required: [petId]}]`) is as much the
 * body's as a top-level one: looking only at `properties` missed the parent
 * record a body needs, so the runner sent ids it did not own (issue 19).
 */
export function propertiesOf(raw: Schema | OpenAPIV3.ReferenceObject | undefined): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, p] of composedProperties(schema(raw))) Object.defineProperty(out, name, { value: p, enumerable: true, writable: true, configurable: true });
  return out;
}

/** RFC 6901: `~` and `/` escaped in one segment of a JSON pointer. */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The examples in the order the generator prefers them: examples whose
 * boolean flags are all false first, since a `true` flag in an example
 * (`complete: true`) usually triggers a state transition that cannot be
 * undone (a complete order cannot be cancelled), and the run must be able
 * to clean up after itself.
 */
function preferredExamples(media: MediaTypeSpec): unknown[] {
  const values = [...media.examples.values()];
  const hasTrueFlag = (value: unknown): boolean => isObject(value) && Object.values(value).some((v) => v === true);
  return [...values.filter((v) => !hasTrueFlag(v)), ...values.filter(hasTrueFlag)];
}

/** A value of a different JSON type than the schema asks for. */
function wrongType(s: Schema): { value: unknown; label: string } {
  switch (s.type) {
    case 'string':
      return { value: 12345, label: 'a number instead of a string' };
    case 'integer':
    case 'number':
      return { value: '12345', label: `a string instead of ${s.type === 'integer' ? 'an integer' : 'a number'}` };
    case 'boolean':
      return { value: 'true', label: 'the string "true" instead of a boolean' };
    case 'array':
      return { value: 'x', label: 'a string instead of an array' };
    case 'object':
      return { value: 'x', label: 'a string instead of an object' };
    default:
      return { value: [], label: 'an array' };
  }
}

function notInEnum(values: readonly unknown[]): string {
  return NOT_IN_ENUM.find((word) => !values.includes(word)) ?? `${String(values[0])}-x`;
}

/**
 * Invalid variants of a valid body, each breaking one constraint of the
 * schema: each required field removed, wrong types, enum violations,
 * an unknown field on a closed shape, values out of range, bad formats.
 * Nested objects are walked too (to a small depth).
 */
export function bodyMutations(rawSchema: Schema, valid: unknown): BodyMutation[] {
  const out: BodyMutation[] = [];
  // An allOf body (a base and a part that adds `required`) is one object schema: mutate the merged view.
  const bodySchema = mergeAllOf(rawSchema);
  if (!isObject(valid) || generatedTypeOf(bodySchema) !== 'object') return out;
  out.push({ kind: 'wrong-type', pointer: '', description: 'the body is a JSON array instead of an object', value: [] });
  walkObject(bodySchema, valid, '', out, 0);
  return out;
}

function walkObject(s: Schema, valid: JsonObject, pointer: string, out: BodyMutation[], depth: number): void {
  const at = (name: string): string => `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const withValue = (name: string, value: unknown): JsonObject => setAt(valid, pointer, name, value);
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);

  for (const name of required) {
    out.push({ kind: 'missing-required', pointer: at(name), description: `required field ${at(name)} removed`, value: setAt(valid, pointer, name, undefined) });
  }
  for (const [name, raw] of Object.entries(properties)) {
    const p = mergeAllOf(schema(raw));
    if (p.readOnly) continue;
    const wrong = wrongType(p);
    out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to ${wrong.label}`, value: withValue(name, wrong.value) });
    if (required.has(name) && !p.nullable) out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to null`, value: withValue(name, null) });
    if (p.type === 'integer') out.push({ kind: 'wrong-type', pointer: at(name), description: `${at(name)} set to a fraction (1.5) instead of an integer`, value: withValue(name, 1.5) });
    if (p.enum) {
      const word = notInEnum(p.enum);
      out.push({ kind: 'enum', pointer: at(name), description: `${at(name)} set to "${word}", not one of ${p.enum.join(', ')}`, value: withValue(name, word) });
    }
    if (typeof p.minimum === 'number') {
      const below = p.exclusiveMinimum === true ? p.minimum : p.type === 'integer' ? p.minimum - 1 : p.minimum - 0.5;
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${below}, below its minimum ${p.minimum}`, value: withValue(name, below) });
    }
    if (typeof p.maximum === 'number') {
      const above = p.exclusiveMaximum === true ? p.maximum : p.type === 'integer' ? p.maximum + 1 : p.maximum + 0.5;
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${above}, above its maximum ${p.maximum}`, value: withValue(name, above) });
    }
    if (p.type === 'integer' && p.format === 'int64') {
      // A bigint, written digit for digit by stringifyJson: as a double 2^63 would round onto a value Ajv's int64 accepts.
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to 2^63, one past int64`, value: withValue(name, BigInt(TWO_TO_63)) });
    }
    if (p.type === 'string' && typeof p.minLength === 'number' && p.minLength > 0) {
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to "" (minLength ${p.minLength})`, value: withValue(name, '') });
    }
    // One character past maxLength, unless that is past the default generation budget's string cap (10^9 characters are not sent).
    if (p.type === 'string' && typeof p.maxLength === 'number' && p.maxLength < DEFAULT_GENERATION_BUDGET.string) {
      out.push({ kind: 'out-of-range', pointer: at(name), description: `${at(name)} set to ${p.maxLength + 1} characters (maxLength ${p.maxLength})`, value: withValue(name, 'x'.repeat(p.maxLength + 1)) });
    }
    if (p.type === 'string' && p.format && ['date-time', 'date', 'uri', 'email', 'uuid'].includes(p.format)) {
      out.push({ kind: 'format', pointer: at(name), description: `${at(name)} set to "not-a-${p.format}" (format ${p.format})`, value: withValue(name, `not-a-${p.format}`) });
    }
    const nested = valid[name];
    if (p.type === 'object' && isObject(nested) && depth < 3) walkObject(p, valid, at(name), out, depth + 1);
  }
  if (s.additionalProperties === false) {
    const name = 'unexpectedField';
    out.push({ kind: 'unknown-field', pointer: at(name), description: `unknown field ${at(name)} added to a closed shape`, value: withValue(name, 'x') });
  }
  if (typeof s.minProperties === 'number' && s.minProperties > 0 && depth === 0) {
    out.push({ kind: 'min-properties', pointer: pointer || '', description: `an empty object (minProperties ${s.minProperties})`, value: {} });
  }
}

/** A deep copy of `root` with the field `name` of the object at `pointer` set (or removed when value is undefined). */
function setAt(root: JsonObject, pointer: string, name: string, value: unknown): JsonObject {
  const copy = structuredClone(root);
  let target: JsonObject = copy;
  for (const segment of pointer.split('/').slice(1)) {
    const next = target[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!isObject(next)) return copy;
    target = next;
  }
  if (value === undefined) delete target[name];
  else target[name] = value;
  return copy;
}

/**
 * Invalid texts for one parameter, from its schema: not a number, a
 * fraction, below the minimum, above the maximum, past int64, outside the
 * enum, not a boolean. `validText` is a valid value of the same parameter,
 * from which a fraction is made (`<own id>.5`), so a server that rounds it
 * lands on a record the run owns.
 */
export function parameterMutations(parameter: ParameterSpec, validText: string): ParameterMutation[] {
  if (parameter.in !== 'path' && parameter.in !== 'query') return [];
  const location = parameter.in;
  const pointer = `/${location}/${parameter.name}`;
  const out: ParameterMutation[] = [];
  const add = (kind: ParameterMutation['kind'], text: string | readonly string[], description: string): void => {
    out.push({ kind, location, name: parameter.name, pointer, description: `${parameter.name}=${Array.isArray(text) ? text.join('&') : String(text)}: ${description}`, text });
  };
  const s = parameter.schema;
  const isArray = s.type === 'array';
  const item = isArray ? schema((s as OpenAPIV3.ArraySchemaObject).items) : s;
  const wrap = (text: string): string | readonly string[] => (isArray ? [text] : text);
  switch (item.type) {
    case 'integer': {
      add('wrong-type', wrap('abc'), 'not a number');
      add('wrong-type', wrap(/^-?\d+$/.test(validText) ? `${validText}.5` : '1.5'), 'a fraction');
      if (typeof item.minimum === 'number') {
        add('out-of-range', wrap(String(item.minimum - 1)), `below the minimum ${item.minimum}`);
        if (item.minimum - 1 > -1) add('out-of-range', wrap('-1'), 'negative');
      }
      if (typeof item.maximum === 'number') add('out-of-range', wrap(String(item.maximum + 1)), `above the maximum ${item.maximum}`);
      if (item.format === 'int64') add('out-of-range', wrap(TWO_TO_63), '2^63, one past int64');
      break;
    }
    case 'number':
      add('wrong-type', wrap('abc'), 'not a number');
      if (typeof item.minimum === 'number') add('out-of-range', wrap(String(item.minimum - 1)), `below the minimum ${item.minimum}`);
      if (typeof item.maximum === 'number') add('out-of-range', wrap(String(item.maximum + 1)), `above the maximum ${item.maximum}`);
      break;
    case 'boolean':
      add('wrong-type', wrap('yes'), 'not true or false');
      break;
    case 'string':
      if (item.enum) add('enum', wrap(notInEnum(item.enum)), `not one of ${item.enum.join(', ')}`);
      if (typeof item.minLength === 'number' && item.minLength > 0) add('out-of-range', wrap(''), `shorter than minLength ${item.minLength}`);
      break;
    default:
      break;
  }
  if (isArray && typeof s.maxItems === 'number' && s.maxItems < 1000 && /^-?\d+$/.test(validText)) {
    add('out-of-range', Array.from({ length: s.maxItems + 1 }, () => validText), `${s.maxItems + 1} values (maxItems ${s.maxItems})`);
  }
  return out;
}

/** A version-4 uuid no implementation hands out by chance (all its random bits set): valid for `format: uuid`, naming nothing. */
export const ABSENT_UUID = 'ffffffff-ffff-4fff-bfff-ffffffffffff';

/**
 * Candidates for a valid id that names no record, for one path parameter's
 * schema (issue 11, point 4): an integer for an integer id (ABSENT_ID, or the
 * schema's maximum when it is lower), a uuid for a uuid, a string of the
 * run's own tag for any other string (a pattern's sample when it has one).
 * The caller sends the first the parameter's validator accepts, so that
 * 404 is the only right answer.
 */
export function absentIdCandidates(parameter: ParameterSpec, generator: Generator): string[] {
  const s = mergeAllOf(parameter.schema);
  if (s.type === 'integer' || s.type === 'number') {
    const max = typeof s.maximum === 'number' ? (s.exclusiveMaximum === true ? s.maximum - 1 : s.maximum) : undefined;
    return [String(max !== undefined && max < ABSENT_ID ? Math.floor(max) : ABSENT_ID)];
  }
  if (s.format === 'uuid') return [ABSENT_UUID];
  const out: string[] = [];
  const tag = `absent-${generator.runTag}`;
  // The run's tag first, pattern or not: the caller keeps the first candidate the schema accepts, and a pattern as
  // open as Svix's `^[a-zA-Z0-9\-_.]+$` takes it.
  out.push(typeof s.maxLength === 'number' ? tag.slice(0, Math.max(s.minLength ?? 1, s.maxLength)) : tag);
  // Never the document's own example or default: a mock seeded from the examples (ours, Prism's) holds that very record.
  const documented = new Set([parameter.example, s.example, s.default].filter((v) => v !== undefined && v !== null).map(String));
  for (let i = 0; i < 3; i += 1) {
    const value = generator.sample(s, 0, i);
    if (value === undefined) continue;
    const sample = String(value);
    if (!documented.has(sample)) out.push(sample);
  }
  return out;
}

/**
 * Typed values to try for a parameter, best first: its example, its schema's
 * example or default, then samples. An array gets two items where its
 * schema allows (so a serialization that keeps only the first is caught);
 * the caller sends the first its validator accepts (issue 11, point 3).
 */
export function parameterCandidates(parameter: ParameterSpec, generator: Generator): unknown[] {
  const s = mergeAllOf(parameter.schema);
  const out: unknown[] = [parameter.example, s.example, s.default].filter((v) => v !== undefined && v !== null).map((v) => structuredClone(v));
  for (let variant = 0; variant < SAMPLE_VARIANTS; variant += 1) {
    const value = generator.sample(s, 1, variant);
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 1 && (s.maxItems ?? 2) >= 2) {
      const second = generator.sample(schema((s as OpenAPIV3.ArraySchemaObject).items), 2, variant + 1);
      out.push(second === undefined || (s.uniqueItems && JSON.stringify(second) === JSON.stringify(value[0])) ? value : [...value, second]);
    } else {
      out.push(value);
    }
  }
  return out;
}

/** Values to try for a request body of a media type that is not JSON (a form, a text): its examples, then samples of its schema. */
export function bodyCandidates(media: MediaTypeSpec, generator: Generator): unknown[] {
  const bodySchema = schema(media.schema);
  const samples = Array.from({ length: SAMPLE_VARIANTS }, (_, variant) => generator.sample(bodySchema, 0, variant)).filter((value) => value !== undefined);
  return [...preferredExamples(media).map((example) => structuredClone(example)), ...samples];
}

/** A valid text for a parameter when the run has no record of its own to name: its example, default or a sample. */
export function sampleParameterText(parameter: ParameterSpec, generator: Generator): string {
  // Empty when none can be made within the generation budget: the validator then refuses it, and the case skips.
  const value = parameter.example ?? parameter.schema.example ?? parameter.schema.default ?? generator.sample(parameter.schema, 0) ?? '';
  return Array.isArray(value) ? String(value[0]) : String(value);
}
