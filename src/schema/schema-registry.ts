import type { Ajv, AnySchema, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import type { ContractWarning } from '../contract/warnings.js';
import { SchemaConverter, type JsonSchema, type SchemaView } from './oas-to-json-schema.js';
import { compileSafePattern } from './safe-pattern.js';
import { forEachSchema } from './schema-walk.js';

/** Not fetched: an id Ajv resolves among the schemas it was given. `.invalid` is reserved (RFC 2606). */
const ID_BASE = 'https://petstore-kit.invalid/schemas';

/**
 * The schemas of one document as one Ajv instance knows them. Every
 * component schema (`#/components/schemas/Name`) and every schema that
 * contains itself is added to Ajv once per view under its own id and
 * referenced by `$ref` from every schema that uses it, so Ajv compiles it once
 * (a 355-operation document does not compile its shared shapes 355 times) and
 * a recursive schema compiles at all.
 */
export class SchemaRegistry {
  readonly converter: SchemaConverter;
  readonly #ajv: Ajv;
  readonly #components = new Map<object, string>();
  readonly #ids: Record<SchemaView, Map<object, string>> = { request: new Map(), response: new Map() };
  readonly #added = new Set<string>();
  readonly #onRejected: (where: string, error: Error) => void;
  /** Id → where the schema is in the document, for messages. */
  readonly #where = new Map<string, string>();
  #anonymous = 0;

  /**
   * `onRejected` is told, with a JSON pointer or a description, when Ajv
   * refuses a shared schema (a strict contract turns that into a KitError; a
   * lenient one into a warning, and the schema then accepts any value).
   */
  constructor(ajv: Ajv, document: OpenAPIV3.Document, lenient: boolean, onRejected: (where: string, error: Error) => void, dialect: '3.0' | '3.1' = '3.0') {
    this.#ajv = ajv;
    this.#onRejected = onRejected;
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      if (typeof schema === 'object' && schema !== null && !this.#components.has(schema)) this.#components.set(schema, name);
    }
    this.converter = new SchemaConverter({
      lenient,
      dialect,
      sharing: {
        refFor: (schema, view, cyclic) => this.#refFor(schema, view, cyclic),
        converted: (schema, view, out) => this.#converted(schema, view, out),
      },
    });
  }

  /** A validator for `schema` in `view`; Ajv caches by the converted object, so asking twice compiles once. */
  compile(schema: OpenAPIV3.SchemaObject, view: SchemaView): ValidateFunction {
    const id = this.#components.has(schema) ? this.#refFor(schema, view, false) : undefined;
    if (id !== undefined) {
      const validate = this.#ajv.getSchema(id);
      if (validate) return validate;
    }
    return this.#ajv.compile(this.converter.convertRoot(schema, view));
  }

  #refFor(schema: object, view: SchemaView, cyclic: boolean): string | undefined {
    const known = this.#ids[view].get(schema);
    if (known !== undefined) return known;
    const name = this.#components.get(schema);
    if (name === undefined && !cyclic) return undefined;
    this.#anonymous += name === undefined ? 1 : 0;
    const id = `${ID_BASE}/${view}/${name === undefined ? `recursive-${this.#anonymous}` : encodeURIComponent(name)}`;
    this.#ids[view].set(schema, id);
    this.#where.set(id, name === undefined ? 'a schema that contains itself' : `/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    // A schema met again while it is being converted is added when that conversion ends (#converted).
    if (!cyclic) this.converter.convertRoot(schema, view);
    return id;
  }

  #converted(schema: object, view: SchemaView, out: JsonSchema): void {
    const id = this.#ids[view].get(schema);
    if (id === undefined || this.#added.has(id)) return;
    this.#added.add(id);
    try {
      this.#ajv.addSchema(out as AnySchema, id);
    } catch (error) {
      this.#onRejected(this.#where.get(id) ?? id, error as Error);
      // Ajv may have kept the id of the schema it refused: free it for the stand-in that accepts anything.
      this.#ajv.removeSchema(id);
      this.#ajv.addSchema({}, id);
    }
  }
}

/**
 * A pattern the linear-time engine cannot run (safe-pattern.ts) is left out
 * by the lenient converter; this says so, with the engine's reason.
 */
function warnUnsafePattern(pattern: unknown, pointer: string, skipped: string, warn: (warning: ContractWarning) => void, warned: Set<string>): void {
  if (typeof pattern !== 'string') {
    warn({ pointer, message: 'a pattern that is not a string is not read.', skipped });
    return;
  }
  // Once per pattern, at its first use, as an unknown format is: Sentry's document uses one lookahead 13 times,
  // and 13 identical warnings buried the rest of the start-up's output.
  if (warned.has(pattern)) return;
  const compiled = compileSafePattern(pattern);
  if (compiled.ok) return;
  warned.add(pattern);
  warn({ pointer, message: `pattern ${JSON.stringify(pattern)} cannot be run in linear time (lookaround and backreferences need backtracking, which a document's pattern may not use): ${compiled.reason} (first use; others may follow).`, skipped });
}

/**
 * For a document taken as valid OpenAPI: the constructs Ajv cannot check as
 * written, found once over every schema of the document. A format Ajv does not
 * know (`uriref`, `blob`, `decimal`) is registered as accepting any value, and
 * a pattern the linear-time engine cannot run is dropped by the converter; both become
 * warnings saying what goes unchecked.
 */
export function scanForeignSchemas(ajv: Ajv, document: OpenAPIV3.Document, warn: (warning: ContractWarning) => void): void {
  const unknownFormats = new Map<string, string>();
  const unsafePatterns = new Set<string>();
  forEachSchema(document, (schema, pointer) => {
    const format = schema['format'];
    if (typeof format === 'string' && ajv.formats[format] === undefined && !unknownFormats.has(format)) unknownFormats.set(format, `${pointer}/format`);
    if (schema['pattern'] !== undefined) warnUnsafePattern(schema['pattern'], `${pointer}/pattern`, 'values are checked by type only, not against this pattern', warn, unsafePatterns);
    const patternProperties = schema['patternProperties'];
    if (typeof patternProperties === 'object' && patternProperties !== null) {
      for (const name of Object.keys(patternProperties)) warnUnsafePattern(name, `${pointer}/patternProperties`, 'properties whose names match this pattern are not checked against its schema', warn, unsafePatterns);
    }
  });
  for (const [format, pointer] of unknownFormats) {
    ajv.addFormat(format, true);
    warn({ pointer, message: `format "${format}" is not one the kit knows (first use; others may follow).`, skipped: `values of format "${format}" are checked by type only` });
  }
}
