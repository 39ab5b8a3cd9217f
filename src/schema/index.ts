export { ajvFor, createAjv, createLenientAjv, type SchemaDialect } from './ajv.js';
export { compileSafePattern, safePattern, type SafePattern } from './safe-pattern.js';
export { coerceText, type Coerced } from './coerce.js';
export { toDiagnostics, MAX_DIAGNOSTICS, type Diagnostic } from './diagnostics.js';
export { SchemaConverter, toJsonSchema, type JsonSchema, type SchemaView } from './oas-to-json-schema.js';
export { forEachSchema } from './schema-walk.js';
export * from './validators.js';
