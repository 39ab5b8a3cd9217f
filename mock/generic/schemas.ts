/**
 * Reading a document's schemas the way the generic engine needs them: the
 * document is dereferenced when loaded (src/contract/load.ts), so every
 * schema position holds a schema object, possibly a cyclic one. Nothing here
 * is Pet Store knowledge; nothing here touches Node.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { MediaTypeSpec, Operation, ResponseSpec } from '../../src/contract/index.js';
import { isJsonMediaType } from '../../src/schema/index.js';

export type Schema = OpenAPIV3.SchemaObject;
export type JsonObject = Record<string, unknown>;

export function asSchema(value: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | undefined): Schema {
  return (value ?? {}) as Schema;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const merged = new WeakMap<Schema, Schema>();

/**
 * `allOf` folded into one schema (OpenAPI 3.0.3 §4.7.24 / JSON Schema: every part applies). A property both parts
 * declare becomes `{allOf: [a, b]}`, merged only when read, so a cyclic schema never recurses here. Memoized by
 * identity: dereferenced documents share schema objects.
 */
export function mergeAllOf(s: Schema): Schema {
  if (!s.allOf || s.allOf.length === 0) return s;
  const known = merged.get(s);
  if (known) return known;
  const { allOf, ...own } = s;
  const parts = [own, ...allOf.map((part) => mergeAllOf(asSchema(part)))];
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    Object.assign(out, part);
    for (const name of part.required ?? []) required.add(name);
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      const earlier = properties[name];
      properties[name] = earlier ? { allOf: [earlier, asSchema(property)] } : asSchema(property);
    }
  }
  // Keywords where one part's word must win over another's: any `false`/`true` of these holds for the whole.
  if (parts.some((part) => part.additionalProperties === false)) out['additionalProperties'] = false;
  for (const flag of ['readOnly', 'writeOnly'] as const) if (parts.some((part) => part[flag])) out[flag] = true;
  if (parts.some((part) => part.nullable !== undefined)) out['nullable'] = parts.every((part) => part.nullable === true || part.type === undefined);
  if (Object.keys(properties).length > 0) out['properties'] = properties;
  if (required.size > 0) out['required'] = [...required];
  delete out['allOf'];
  const result = out as Schema;
  merged.set(s, result);
  return result;
}

/**
 * Every property a value of this schema may carry, looked up through `allOf`, `oneOf` and `anyOf` (the first
 * declaration of a name wins): where an identity field such as `id` is searched for, a polymorphic record
 * (`oneOf: [Cat, Dog]`, both with `id`) has one all the same.
 */
export function propertiesOf(raw: Schema, depth = 0): ReadonlyMap<string, Schema> {
  const out = new Map<string, Schema>();
  if (depth > 4) return out;
  const s = mergeAllOf(raw);
  for (const [name, p] of Object.entries(s.properties ?? {})) out.set(name, asSchema(p));
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
    for (const [name, p] of propertiesOf(asSchema(branch), depth + 1)) if (!out.has(name)) out.set(name, p);
  }
  return out;
}

/**
 * The types a schema names: `type: x` (OpenAPI 3.0), or `type: [x, 'null']` (OpenAPI 3.1 §4.8.24, JSON Schema
 * 2020-12 validation §6.1.1), empty when it names none.
 */
export function typesOf(raw: Schema): readonly string[] {
  const type: unknown = mergeAllOf(raw).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Whether `null` is a value of the schema: 3.0's `nullable: true`, 3.1's `type: [x, 'null']` or `const: null`. */
export function allowsNull(raw: Schema): boolean {
  const s = mergeAllOf(raw);
  return s.nullable === true || typesOf(s).includes('null') || ('const' in s && (s as { const?: unknown }).const === null) || (s.enum?.includes(null) ?? false);
}

/**
 * The type a schema asks for, or the one its keywords imply (`properties` → object, `items` → array). Of a 3.1
 * type list, the first that is not `null`: the one a generated value takes.
 */
export function typeOf(raw: Schema): string | undefined {
  const s = mergeAllOf(raw);
  const types = typesOf(s);
  if (types.length > 0) return types.find((t) => t !== 'null') ?? 'null';
  if (s.properties || s.additionalProperties !== undefined) return 'object';
  if (('items' in s && s.items !== undefined) || 'prefixItems' in s) return 'array';
  if ('const' in s) return jsonTypeOf((s as { const?: unknown }).const);
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
    const type = typeOf(asSchema(branch));
    if (type !== undefined) return type;
  }
  return undefined;
}

/** The JSON Schema type of a JSON value (`integer` for a whole number). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function itemsOf(s: Schema): Schema | undefined {
  const merged = mergeAllOf(s);
  return typeOf(merged) === 'array' ? asSchema((merged as OpenAPIV3.ArraySchemaObject).items) : undefined;
}

/** The JSON media type of a list of contents: `application/json` first, then any `+json`. */
export function jsonMedia(content: readonly MediaTypeSpec[]): MediaTypeSpec | undefined {
  return content.find((m) => m.mediaType.split(';')[0]!.trim().toLowerCase() === 'application/json') ?? content.find((m) => isJsonMediaType(m.mediaType));
}

/** The documented response for a status: the exact code, then its range (`2XX`), then `default` (OAS 3.0.3 §4.7.16). */
export function responseFor(operation: Operation, status: number): ResponseSpec | undefined {
  return operation.responses.get(String(status)) ?? operation.responses.get(`${String(status)[0]}XX`) ?? operation.responses.get('default');
}

/** The lowest documented 2xx status of an operation, preferring `preferred` when documented. */
export function successStatus(operation: Operation, preferred: readonly number[]): number | undefined {
  for (const status of preferred) if (operation.responses.has(String(status))) return status;
  const codes = [...operation.responses.keys()].filter((k) => /^2\d\d$/.test(k)).map(Number).sort((a, b) => a - b);
  if (codes.length > 0) return codes[0];
  if (operation.responses.has('2XX')) return preferred[0] ?? 200;
  return undefined;
}

export function responseSchema(operation: Operation, status: number): Schema | undefined {
  const spec = responseFor(operation, status);
  const media = spec ? jsonMedia(spec.content) : undefined;
  return media?.schema;
}

export function requestSchema(operation: Operation): Schema | undefined {
  const media = operation.requestBody ? jsonMedia(operation.requestBody.content) : undefined;
  return media?.schema;
}

/** An `x-` extension's value on a document object (a schema, a path item, an operation). */
export function extension(owner: unknown, name: string): unknown {
  return isObject(owner) && Object.hasOwn(owner, name) ? owner[name] : undefined;
}
