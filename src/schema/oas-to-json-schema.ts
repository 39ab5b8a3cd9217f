import type { OpenAPIV3 } from 'openapi-types';

/**
 * Which side of the wire a schema is used on. OpenAPI 3.0 §4.7.24: a
 * `readOnly` property is only sent in responses and a `writeOnly` one only in
 * requests, so each is dropped from `required` on the other side.
 */
export type SchemaView = 'request' | 'response';

type JsonSchema = Record<string, unknown>;

const memo: Record<SchemaView, WeakMap<object, JsonSchema>> = { request: new WeakMap(), response: new WeakMap() };

/**
 * Turns an OpenAPI 3.0 schema object into the JSON Schema (draft-07) that Ajv
 * compiles, for one view. Memoized per source object, so a schema referenced
 * from many places (Error, Id) becomes one object and Ajv compiles it once.
 *
 * - `x-` extensions are dropped (Ajv in strict mode rejects unknown keywords);
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 style, as OAS 3.0
 *   has them) become the draft-07 numeric form;
 * - `readOnly` properties leave `required` in the request view, `writeOnly`
 *   ones in the response view;
 * - `nullable`, `discriminator`, `example`, `readOnly`, `writeOnly` stay: the
 *   Ajv factory knows them.
 */
export function toJsonSchema(schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject, view: SchemaView): JsonSchema {
  return convert(schema as unknown as JsonSchema, view);
}

function convert(schema: JsonSchema, view: SchemaView): JsonSchema {
  const cached = memo[view].get(schema);
  if (cached) return cached;
  const out: JsonSchema = {};
  // Set before walking children so a recursive schema terminates.
  memo[view].set(schema, out);

  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) continue;
    switch (key) {
      case 'properties':
        out[key] = mapValues(value as Record<string, JsonSchema>, (child) => convert(child, view));
        break;
      case 'items':
      case 'additionalProperties':
      case 'not':
        out[key] = typeof value === 'object' && value !== null ? convert(value as JsonSchema, view) : value;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as JsonSchema[]).map((child) => convert(child, view));
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
      default:
        out[key] = value;
    }
  }

  if (Array.isArray(schema['required']) && schema['properties']) {
    const hidden = view === 'request' ? 'readOnly' : 'writeOnly';
    const properties = schema['properties'] as Record<string, JsonSchema>;
    const required = (schema['required'] as string[]).filter((name) => properties[name]?.[hidden] !== true);
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  return out;
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [key, value] of Object.entries(record)) out[key] = fn(value);
  return out;
}
