export { createAjv } from './ajv.js';
export { coerceText, type Coerced } from './coerce.js';
export { toDiagnostics, MAX_DIAGNOSTICS, type Diagnostic } from './diagnostics.js';
export { toJsonSchema, type SchemaView } from './oas-to-json-schema.js';
export * from './validators.js';
