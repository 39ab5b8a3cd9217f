/**
 * The JSON types a parameter's or a header's schema allows, read from what it says: `type` (a name, or 3.1's list
 * `[integer, 'null']`, JSON Schema 2020-12 §6.1.1), `allOf` (every part applies), `oneOf`/`anyOf` (any branch),
 * `enum` and `const` (the types of their values). Text off the wire is typed by these (coerce.ts); a schema that says
 * nothing of its type keeps text as text.
 */
import type { OpenAPIV3 } from 'openapi-types';

type Schema = OpenAPIV3.SchemaObject;
const ALL = ['integer', 'number', 'boolean', 'null', 'string', 'array', 'object'] as const;
export type JsonType = (typeof ALL)[number];

const known = new WeakMap<Schema, { readonly types: readonly JsonType[] | undefined }>();

/** The types a schema allows, in its own order; undefined when it does not say. Kept by schema: it is read per request. */
export function typesOfSchema(schema: Schema): readonly JsonType[] | undefined {
  let entry = known.get(schema);
  if (!entry) known.set(schema, (entry = { types: typesOf(schema, 0) }));
  return entry.types;
}

function typesOf(schema: Schema, depth: number): readonly JsonType[] | undefined {
  if (depth > 8) return undefined;
  const own = declared(schema);
  let types: JsonType[] | undefined = own;
  for (const part of schema.allOf ?? []) {
    const partTypes = typesOf(part as Schema, depth + 1);
    if (partTypes) types = types ? types.filter((type) => partTypes.includes(type) || (type === 'integer' && partTypes.includes('number'))) : [...partTypes];
  }
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (branches.length > 0 && types === undefined) {
    const union: JsonType[] = [];
    for (const branch of branches) {
      const branchTypes = typesOf(branch as Schema, depth + 1);
      if (!branchTypes) return undefined;
      for (const type of branchTypes) if (!union.includes(type)) union.push(type);
    }
    types = union;
  }
  // 3.0's `nullable: true` (§4.7.24) adds null to the type it names.
  if (types && schema.nullable === true && !types.includes('null')) types = [...types, 'null'];
  return types;
}

/** array, object, or primitive: how a parameter's text is laid out on the wire. */
export function shapeOfSchema(schema: Schema): 'array' | 'object' | 'primitive' {
  const types = typesOfSchema(schema);
  if (types === undefined) return 'items' in schema && schema.items !== undefined ? 'array' : schema.properties ? 'object' : 'primitive';
  if (types.some((type) => type !== 'array' && type !== 'object' && type !== 'null')) return 'primitive';
  return types.includes('array') ? 'array' : types.includes('object') ? 'object' : 'primitive';
}

function declared(schema: Schema): JsonType[] | undefined {
  const type: unknown = schema.type;
  if (typeof type === 'string') return isJsonType(type) ? [type] : undefined;
  if (Array.isArray(type)) return type.filter(isJsonType);
  const values: unknown[] | undefined = 'const' in schema ? [(schema as { const?: unknown }).const] : schema.enum;
  if (values && values.length > 0) {
    const out: JsonType[] = [];
    for (const value of values) {
      const type = jsonType(value);
      if (!out.includes(type)) out.push(type);
    }
    return out;
  }
  return undefined;
}

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'object' ? 'object' : 'string';
}

function isJsonType(type: unknown): type is JsonType {
  return typeof type === 'string' && (ALL as readonly string[]).includes(type);
}
