import type { Ajv, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import type { Contract, MediaTypeSpec, Operation, ParameterLocation, ParameterSpec, ResponseSpec } from '../contract/index.js';
import { responseFor } from '../contract/model.js';
import { KitError } from '../kit-error.js';
import { createAjv } from './ajv.js';
import { coerceText } from './coerce.js';
import { toDiagnostics, type Diagnostic } from './diagnostics.js';
import { toJsonSchema, type SchemaView } from './oas-to-json-schema.js';

export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request's parameters as text, straight off the wire. Header names are lower case. */
export interface RawParameters {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly headers: HeaderValues;
}

/** The same parameters typed by their schemas, with the document's defaults applied. */
export interface ParsedParameters {
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
}

export type ParametersResult = { ok: true; values: ParsedParameters } | { ok: false; diagnostics: Diagnostic[] };

export interface ResponseVerdict {
  /** The key of the documented response that applies ('200', '4XX', 'default'), or undefined when the status is not documented. */
  readonly statusKey?: string;
  readonly diagnostics: Diagnostic[];
}

export interface OperationValidators {
  readonly operation: Operation;
  /** Coerces and validates path, query and header parameters. */
  parameters(raw: RawParameters): ParametersResult;
  /** Validates a parsed JSON body against the request body schema; [] when it conforms. */
  body(value: unknown): Diagnostic[];
  /** Validates a response: status documented, media type documented, headers, body. */
  response(status: number, headers: HeaderValues, body: unknown): ResponseVerdict;
}

export interface CompiledContract {
  readonly contract: Contract;
  readonly operations: ReadonlyMap<string, OperationValidators>;
  /** Validates a value against any schema of the document, in a view (examples, fixtures, error bodies). */
  validate(schema: OpenAPIV3.SchemaObject, value: unknown, view: SchemaView, root?: string): Diagnostic[];
  /** Validates a response that no operation gives (`x-unmatched-requests`). */
  unmatchedResponse(kind: 'unknownPath' | 'wrongMethod', headers: HeaderValues, body: unknown): Diagnostic[];
}

const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header'];
const OUTPUT_KEY = { path: 'path', query: 'query', header: 'header', cookie: 'header' } as const;

/**
 * Compiles every validator the document implies, once, at start-up:
 * parameters per location, the request body, and each response's body and
 * headers. Nothing here runs per request except the compiled functions.
 */
export function compileContract(contract: Contract, ajv: Ajv = createAjv()): CompiledContract {
  const compile = (schema: OpenAPIV3.SchemaObject, view: SchemaView, where: string): ValidateFunction => {
    try {
      return ajv.compile(toJsonSchema(schema, view));
    } catch (error) {
      throw new KitError('SPEC_SCHEMA_REJECTED', `${contract.file} at ${where}: Ajv (strict) rejects this schema: ${(error as Error).message}`, {
        file: contract.file,
        pointer: where,
        reason: (error as Error).message,
      });
    }
  };

  const operations = new Map<string, OperationValidators>();
  for (const operation of contract.operations) {
    operations.set(operation.operationId, compileOperation(operation, compile));
  }

  const compileResponse = makeResponseCompiler(compile);
  const unmatched = {
    unknownPath: contract.unmatched.unknownPath ? compileResponse(contract.unmatched.unknownPath, '/x-unmatched-requests/unknownPath') : undefined,
    wrongMethod: contract.unmatched.wrongMethod ? compileResponse(contract.unmatched.wrongMethod, '/x-unmatched-requests/wrongMethod') : undefined,
  };

  return {
    contract,
    operations,
    validate(schema, value, view, root = '') {
      const validateFn = compile(schema, view, 'a schema');
      return validateFn(value) ? [] : toDiagnostics(validateFn.errors, root);
    },
    unmatchedResponse(kind, headers, body) {
      const compiled = unmatched[kind];
      return compiled ? compiled(headers, body) : [];
    },
  };
}

type Compile = (schema: OpenAPIV3.SchemaObject, view: SchemaView, where: string) => ValidateFunction;

function compileOperation(operation: Operation, compile: Compile): OperationValidators {
  const at = `/paths/${operation.pathTemplate.replace(/~/g, '~0').replace(/\//g, '~1')}/${operation.method}`;

  // One object schema per location: a single Ajv call reports every problem of that location.
  const byLocation = new Map<ParameterLocation, { specs: ParameterSpec[]; validate: ValidateFunction }>();
  for (const location of LOCATIONS) {
    const specs = operation.parameters.filter((p) => p.in === location);
    if (specs.length === 0) continue;
    const schema: OpenAPIV3.SchemaObject = {
      type: 'object',
      properties: Object.fromEntries(specs.map((p) => [location === 'header' ? p.name.toLowerCase() : p.name, p.schema])),
    };
    const required = specs.filter((p) => p.required).map((p) => (location === 'header' ? p.name.toLowerCase() : p.name));
    if (required.length) schema.required = required;
    byLocation.set(location, { specs, validate: compile(schema, 'request', `${at}/parameters`) });
  }

  const json = operation.requestBody?.content.find((media) => isJsonMediaType(media.mediaType));
  const bodyValidator = json?.schema ? compile(json.schema, 'request', `${at}/requestBody`) : undefined;
  const bodyRequired = operation.requestBody?.required === true;

  const compileResponse = makeResponseCompiler(compile);
  const responses = new Map<string, (headers: HeaderValues, body: unknown) => Diagnostic[]>();
  for (const [status, spec] of operation.responses) responses.set(status, compileResponse(spec, `${at}/responses/${status}`));

  return {
    operation,
    parameters(raw) {
      const values: ParsedParameters = { path: {}, query: {}, header: {} };
      const diagnostics: Diagnostic[] = [];
      for (const [location, { specs, validate }] of byLocation) {
        const out = values[OUTPUT_KEY[location]];
        for (const spec of specs) {
          const key = location === 'header' ? spec.name.toLowerCase() : spec.name;
          const text = location === 'path' ? raw.path[key] : location === 'query' ? raw.query[key] : raw.headers[key];
          if (text === undefined) {
            if (spec.schema.default !== undefined) out[key] = spec.schema.default;
            continue;
          }
          const coerced = coerceText(text, spec.schema);
          if (coerced.ok) out[key] = coerced.value;
          else diagnostics.push({ pointer: `/${location}/${key}`, keyword: 'type', message: coerced.message, expected: coerced.expected, actual: text });
        }
        if (!validate(out)) {
          // A value that failed coercion is absent from `out`; skip the `required` error Ajv then reports for it.
          const coercionFailed = new Set(diagnostics.map((d) => d.pointer));
          for (const diagnostic of toDiagnostics(validate.errors, `/${location}`)) {
            if (!coercionFailed.has(diagnostic.pointer)) diagnostics.push(diagnostic);
          }
        }
      }
      return diagnostics.length ? { ok: false, diagnostics } : { ok: true, values };
    },
    body(value) {
      if (value === undefined) return bodyRequired ? [{ pointer: '/body', keyword: 'required', message: 'a JSON body is required' }] : [];
      if (!bodyValidator) return [];
      return bodyValidator(value) ? [] : toDiagnostics(bodyValidator.errors, '/body');
    },
    response(status, headers, body) {
      const spec = responseFor(operation, status);
      if (!spec) {
        const documented = [...operation.responses.keys()].join(', ');
        return { diagnostics: [{ pointer: '/status', keyword: 'status', message: `${status} is not a documented status of ${operation.operationId} (documented: ${documented})`, expected: [...operation.responses.keys()], actual: status }] };
      }
      const validateResponse = responses.get(spec.status);
      return { statusKey: spec.status, diagnostics: validateResponse ? validateResponse(headers, body) : [] };
    },
  };
}

/** Compiles the body and header validators of one documented response. */
function makeResponseCompiler(compile: Compile) {
  return (spec: ResponseSpec, where: string): ((headers: HeaderValues, body: unknown) => Diagnostic[]) => {
    const headerChecks = spec.headers
      .filter((h) => h.name.toLowerCase() !== 'content-type') // OAS 3.0.3 §4.7.17: Content-Type in headers is ignored
      .map((h) => ({
        name: h.name.toLowerCase(),
        required: h.required,
        schema: h.schema,
        validate: h.schema ? compile(h.schema, 'response', `${where}/headers/${h.name}`) : undefined,
      }));
    const media = spec.content.map((m: MediaTypeSpec) => ({
      mediaType: m.mediaType,
      validate: m.schema ? compile(m.schema, 'response', `${where}/content/${m.mediaType.replace(/\//g, '~1')}/schema`) : undefined,
    }));

    return (headers, body) => {
      const diagnostics: Diagnostic[] = [];
      for (const check of headerChecks) {
        const value = headers[check.name];
        if (value === undefined) {
          if (check.required) diagnostics.push({ pointer: `/header/${check.name}`, keyword: 'required', message: `header ${check.name} is required by the document`, expected: check.name });
          continue;
        }
        if (!check.schema || !check.validate) continue;
        const coerced = coerceText(typeof value === 'string' ? value : value.join(', '), check.schema);
        if (!coerced.ok) {
          diagnostics.push({ pointer: `/header/${check.name}`, keyword: 'type', message: coerced.message, expected: coerced.expected, actual: value });
        } else if (!check.validate(coerced.value)) {
          diagnostics.push(...toDiagnostics(check.validate.errors, `/header/${check.name}`));
        }
      }
      if (media.length === 0) {
        if (body !== undefined) diagnostics.push({ pointer: '/body', keyword: 'content', message: 'the document declares no body for this response, yet one was sent' });
        return diagnostics;
      }
      const rawType = headers['content-type'];
      const contentType = (typeof rawType === 'string' ? rawType : rawType?.[0])?.split(';')[0]?.trim().toLowerCase();
      const match = media.find((m) => mediaTypeMatches(m.mediaType, contentType));
      if (!match) {
        diagnostics.push({ pointer: '/header/content-type', keyword: 'content', message: `Content-Type ${contentType ?? '(none)'} is not documented for this response (documented: ${media.map((m) => m.mediaType).join(', ')})`, expected: media.map((m) => m.mediaType), actual: contentType ?? null });
        return diagnostics;
      }
      if (body === undefined) {
        diagnostics.push({ pointer: '/body', keyword: 'content', message: 'the document declares a body for this response, but none was sent' });
      } else if (match.validate && !match.validate(body)) {
        diagnostics.push(...toDiagnostics(match.validate.errors, '/body'));
      }
      return diagnostics;
    };
  };
}

export function isJsonMediaType(mediaType: string | undefined): boolean {
  if (!mediaType) return false;
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** `application/json` matches itself; a documented range (`application/*`, `*\/*`) matches its members. */
function mediaTypeMatches(documented: string, actual: string | undefined): boolean {
  if (!actual) return false;
  const doc = documented.toLowerCase();
  if (doc === actual || doc === '*/*') return true;
  if (doc.endsWith('/*')) return actual.startsWith(doc.slice(0, -1));
  return false;
}
