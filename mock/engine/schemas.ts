/**
 * Reading a document's schemas the way the generic engine needs them: the
 * document is dereferenced when loaded (src/contract/load.ts), so every
 * schema position holds a schema object, possibly a cyclic one. Composition
 * (allOf, oneOf, anyOf) is resolved in src/generate/composition.ts, the one
 * place every consumer asks; it is re-exported here for the engine's files.
 * Nothing here is Pet Store knowledge; nothing here touches Node.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { MediaTypeSpec, Operation, ResponseSpec } from '../../src/contract/index.js';
import { asSchema, isObject, mergeAllOf, typeOf, type Schema } from '../../src/generate/index.js';
import { isJsonMediaType } from '../../src/schema/index.js';

export { allowsNull, asSchema, isObject, jsonTypeOf, mergeAllOf, propertiesOf, typeOf, typesOf, type JsonObject, type Schema } from '../../src/generate/index.js';

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
