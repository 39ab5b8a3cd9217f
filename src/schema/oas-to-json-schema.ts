import type { OpenAPIV3 } from 'openapi-types';
import { compileSafePattern } from './safe-pattern.js';

/**
 * Which side of the wire a schema is used on. OpenAPI 3.0 §4.7.24: a
 * `readOnly` property is only sent in responses and a `writeOnly` one only in
 * requests, so each is dropped from `required` on the other side.
 */
export type SchemaView = 'request' | 'response';

export type JsonSchema = Record<string, unknown>;

/**
 * Where the converter hands a schema that is better referenced than inlined
 * (a component, or a schema that contains itself). `refFor` returns the `$ref`
 * target after making sure the schema is registered under it; the registry
 * converts it (with this same converter) the first time.
 */
export interface SchemaSharing {
  /** The id to reference `schema` by in `view`, or undefined to inline it. `cyclic`: the schema is being converted right now (it contains itself). */
  refFor(schema: object, view: SchemaView, cyclic: boolean): string | undefined;
  /** Called once per schema and view when its conversion is done: a schema given an id while it was being converted is registered now. */
  converted(schema: object, view: SchemaView, out: JsonSchema): void;
}

export interface ConverterOptions {
  /**
   * Lenient (a document from elsewhere, taken as valid OpenAPI): constructs
   * Ajv cannot compile as written are rewritten into what they mean —
   * `discriminator` is dropped (an annotation: `oneOf`/`anyOf` already
   * validate), `nullable` without `type` accepts null beside the rest, a
   * `nullable` that is not true (`false`, the default) is left out, a
   * nullable `enum` accepts null, a repeated `enum` value is kept once, and a
   * `pattern` the linear-time engine cannot run is dropped (reported as a warning by
   * scanForeignSchemas, schema-registry.ts).
   */
  readonly lenient?: boolean;
  readonly sharing?: SchemaSharing;
  /**
   * `3.1`: the schemas are JSON Schema 2020-12 (OpenAPI 3.1 §4.8.24), compiled
   * by Ajv's 2020 dialect: `nullable` is not a keyword (a `type` list holds
   * "null"), `exclusiveMinimum`/`exclusiveMaximum` are numbers, and the
   * identifiers a dereferenced document no longer needs (`$id`, `$anchor`,
   * `$schema`, `$defs`) are left out. Default `3.0`.
   */
  readonly dialect?: '3.0' | '3.1';
}

/** Keywords whose value is one subschema (JSON Schema 2020-12 §10, and `contentSchema` §8.5). */
const SUBSCHEMA_KEYWORDS = new Set(['items', 'additionalProperties', 'not', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'if', 'then', 'else', 'contentSchema']);
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/**
 * 2020-12 identifiers and definitions, left out of a 3.1 schema once it is
 * dereferenced: every `$ref` has been replaced by its target, and an `$id`
 * compiled twice (request and response views) would be refused by Ajv as
 * a duplicate. `$dynamicRef` is resolved the same way as its anchor is gone.
 */
const DEREFERENCED_IDENTIFIERS = new Set(['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$schema', '$defs', 'definitions', '$vocabulary']);

/**
 * Turns OpenAPI 3.0 schema objects into the JSON Schema (draft-07) that Ajv
 * compiles, and OpenAPI 3.1 ones into JSON Schema 2020-12 (see `dialect`), for one view. Memoized per source object and view, so a schema
 * used from many places becomes one object and Ajv compiles it once.
 *
 * - `x-` extensions are dropped (Ajv in strict mode rejects unknown keywords);
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 style, as OAS 3.0
 *   has them) become the draft-07 numeric form;
 * - `readOnly` properties leave `required` in the request view, `writeOnly`
 *   ones in the response view;
 * - `example` is dropped (Ajv reads ids in every member, an example's `$id` too);
 * - `nullable`, `discriminator`, `readOnly`, `writeOnly` stay in strict mode: the
 *   Ajv factory knows them.
 *
 * A dereferenced document is a graph: a recursive schema (a tree node whose
 * `children` are tree nodes) contains itself. Inlining it would never end, so
 * a schema met again while it is being converted is referenced by id instead
 * (through `sharing`), as are the document's components, which Ajv then
 * compiles once for every operation that uses them.
 */
export class SchemaConverter {
  readonly #memo: Record<SchemaView, WeakMap<object, JsonSchema>> = { request: new WeakMap(), response: new WeakMap() };
  readonly #inProgress: Record<SchemaView, Set<object>> = { request: new Set(), response: new Set() };
  readonly #lenient: boolean;
  readonly #sharing: SchemaSharing | undefined;
  readonly #oas31: boolean;

  constructor(options: ConverterOptions = {}) {
    this.#lenient = options.lenient === true;
    this.#sharing = options.sharing;
    this.#oas31 = options.dialect === '3.1';
  }

  /** The schema as a whole (the root of a compile, or a shared schema being registered): never replaced by a reference to itself. */
  convertRoot(schema: object, view: SchemaView): JsonSchema {
    const cached = this.#memo[view].get(schema);
    if (cached) return cached;
    this.#inProgress[view].add(schema);
    try {
      const out = this.#convertBody(schema as JsonSchema, view);
      this.#memo[view].set(schema, out);
      this.#sharing?.converted(schema, view, out);
      return out;
    } finally {
      this.#inProgress[view].delete(schema);
    }
  }

  #convertChild(value: unknown, view: SchemaView): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const cyclic = this.#inProgress[view].has(value);
    const ref = this.#sharing?.refFor(value, view, cyclic);
    if (ref !== undefined) return { $ref: ref };
    if (cyclic) throw new Error('a schema contains itself and no registry was given to reference it by id');
    return this.convertRoot(value, view);
  }

  #convertBody(schema: JsonSchema, view: SchemaView): JsonSchema {
    let out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      // `example` says nothing Ajv checks, and Ajv reads every member of a schema for ids, annotations included: a
      // `$id` in an example (Box's metadata `{ "$id": "01234500-…" }`, in two components) made both uncompilable
      // ("resolves to more than one schema"), and each accepted anything.
      if (key.startsWith('x-') || key === 'example') continue;
      if (this.#oas31 && (DEREFERENCED_IDENTIFIERS.has(key) || key === 'nullable')) continue;
      if (SUBSCHEMA_MAP_KEYWORDS.has(key)) {
        out[key] = isRecord(value) ? mapValues(value, (child) => this.#convertChild(child, view)) : value;
        if (key === 'patternProperties' && this.#lenient && isRecord(value)) out[key] = runnablePatternKeys(out[key] as JsonSchema);
        continue;
      }
      if (SUBSCHEMA_KEYWORDS.has(key)) {
        // OpenAPI 3.0 and draft 2019 `items: [..]` (a tuple) is a list of subschemas too.
        out[key] = Array.isArray(value) ? value.map((child: unknown) => this.#convertChild(child, view)) : this.#convertChild(value, view);
        continue;
      }
      switch (key) {
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
        case 'prefixItems':
          out[key] = Array.isArray(value) ? value.map((child: unknown) => this.#convertChild(child, view)) : value;
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          if (value === true) {
            const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
            out[key] = schema[bound];
          } else if (typeof value === 'number') {
            out[key] = value;
          }
          break;
        case 'minimum':
        case 'maximum': {
          const exclusive = key === 'minimum' ? schema['exclusiveMinimum'] : schema['exclusiveMaximum'];
          if (exclusive !== true) out[key] = value;
          break;
        }
        case 'discriminator':
          // Strict: Ajv checks that every oneOf branch pins the tag (const or enum) and is chosen by it. Ajv does
          // not read `mapping`; with the tags pinned in the branches it adds nothing Ajv needs, so it is left out.
          if (!this.#lenient) out[key] = isRecord(value) && 'mapping' in value ? { propertyName: value['propertyName'] } : value;
          break;
        case 'pattern':
          // Lenient: run by the linear-time engine (see createLenientAjv), so a pattern it cannot run is dropped (and warned of).
          if (!this.#lenient || isLinearPattern(value)) out[key] = value;
          break;
        case 'nullable':
          // OpenAPI 3.0.3 §4.7.24: only a true value changes what is allowed (it adds null). Lenient: `nullable: false`
          // (the default, written out: PagerDuty's status page services, Intercom's content source list) or a value
          // that is not a boolean adds nothing, and Ajv refuses it beside no `type` ("nullable" cannot be used without
          // "type") or `type: null`, so it is left out; a true one is read by nullableAsWritten below.
          if (!this.#lenient || value === true) out[key] = value;
          break;
        case 'enum':
          // JSON Schema wants enum values unique; a repeated one allows nothing more, so a document from elsewhere keeps the rest.
          out[key] = this.#lenient && Array.isArray(value) ? uniqueValues(value) : value;
          break;
        default:
          out[key] = value;
      }
    }

    if (Array.isArray(schema['required']) && isRecord(schema['properties'])) {
      const hidden = view === 'request' ? 'readOnly' : 'writeOnly';
      const properties = schema['properties'];
      const required = (schema['required'] as unknown[]).filter((name) => {
        const property = typeof name === 'string' ? properties[name] : undefined;
        return !isRecord(property) || property[hidden] !== true;
      });
      if (required.length > 0) out['required'] = required;
      else delete out['required'];
    }

    if (this.#lenient && schema['nullable'] === true) out = this.#oas31 ? nullableIn31(out) : nullableAsWritten(out);
    return out;
  }
}

/**
 * OpenAPI 3.0.3 §4.7.24 `nullable`, read as documents from elsewhere use it:
 * with a `type`, Ajv's own support applies, and an `enum` that omits null is
 * widened (the 3.0.3 clarification would keep it closed, but authors who write
 * both mean "or null"); without a `type` (`nullable: true, allOf: [$ref]`),
 * Ajv refuses to compile it, so null is accepted beside whatever the rest allows.
 */
function nullableAsWritten(out: JsonSchema): JsonSchema {
  if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...(out['enum'] as unknown[]), null];
  if (out['type'] !== undefined) return out;
  const { nullable: _nullable, ...rest } = out;
  return { anyOf: [{ type: 'null' }, rest] };
}

/**
 * `nullable: true` in a 3.1 document: no longer a keyword (OpenAPI 3.1 §4.8.24
 * removed it for `type: [.., "null"]`), but an author who wrote it meant "or
 * null", so a document from elsewhere is read that way: null joins the `type`
 * list and the `enum`, or, without a `type`, is accepted beside the rest.
 */
function nullableIn31(out: JsonSchema): JsonSchema {
  if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...(out['enum'] as unknown[]), null];
  const type = out['type'];
  if (type === undefined) return { anyOf: [{ type: 'null' }, out] };
  const types = Array.isArray(type) ? (type as unknown[]) : [type];
  if (!types.includes('null')) out['type'] = [...types, 'null'];
  return out;
}

/** `patternProperties` without the names (patterns) the linear-time engine cannot run. */
function runnablePatternKeys(properties: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(properties).filter(([pattern]) => isLinearPattern(pattern)));
}

function uniqueValues(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value) ?? 'undefined';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A pattern the linear-time engine runs (safe-pattern.ts): not one that needs lookaround or backreferences. */
export function isLinearPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && compileSafePattern(pattern).ok;
}

const defaultConverter = new SchemaConverter();

/**
 * Converts one schema, inlining everything (the kit's validators use a
 * converter bound to their Ajv instance instead, which shares components).
 * Throws on a schema that contains itself.
 */
export function toJsonSchema(schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject, view: SchemaView): JsonSchema {
  return defaultConverter.convertRoot(schema, view);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  // By definition: a property named `__proto__` (legal in JSON, found by the generator's property test) stays a member, never the prototype.
  for (const [key, value] of Object.entries(record)) Object.defineProperty(out, key, { value: fn(value), enumerable: true, writable: true, configurable: true });
  return out;
}
