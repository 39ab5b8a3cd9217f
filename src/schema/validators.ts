import type { Ajv, Options, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import type { Contract, MediaTypeSpec, Operation, ParameterLocation, ParameterSpec, ResponseSpec } from '../contract/index.js';
import { responseFor } from '../contract/model.js';
import { KitError } from '../kit-error.js';
import { ajvFor } from './ajv.js';
import { coerceParameter, coerceText } from './coerce.js';
import { parameterText } from './parameter-text.js';
import { toDiagnostics, type Diagnostic } from './diagnostics.js';
import type { SchemaView } from './oas-to-json-schema.js';
import { scanForeignSchemas, SchemaRegistry } from './schema-registry.js';

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
  /**
   * Validates a response: status documented, media type documented, headers, body. `bodyValidAgainst`: a schema the
   * caller has already validated this very body against (the same object, in the response view, and the body frozen
   * since): where the matched media type's schema is that one, its validator is not run again (the generic engine's
   * records, checked once when stored; mock/engine/json.ts validAgainst). Every other check still runs.
   */
  response(status: number, headers: HeaderValues, body: unknown, bodyValidAgainst?: object): ResponseVerdict;
  /** Compiles every validator of the operation now (see CompiledContract.compileAll). */
  compileAll(): void;
}

export interface CompiledContract {
  readonly contract: Contract;
  readonly operations: ReadonlyMap<string, OperationValidators>;
  /** Validates a value against any schema of the document, in a view (examples, fixtures, error bodies). */
  validate(schema: OpenAPIV3.SchemaObject, value: unknown, view: SchemaView, root?: string): Diagnostic[];
  /** Validates a response that no operation gives (`x-unmatched-requests`). */
  unmatchedResponse(kind: 'unknownPath' | 'wrongMethod', headers: HeaderValues, body: unknown): Diagnostic[];
  /** Compiles every validator now (a strict contract already has); for a document from elsewhere, what a full check of it costs. */
  compileAll(): void;
}

const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header'];
const NO_PARAMETERS: { ok: true; values: ParsedParameters } = Object.freeze({
  ok: true as const,
  values: Object.freeze({ path: Object.freeze({}), query: Object.freeze({}), header: Object.freeze({}) }),
});

const OUTPUT_KEY = { path: 'path', query: 'query', header: 'header', cookie: 'header' } as const;

/**
 * `compileContract(contract, ajvFor(contract, options))`, compiled once per process for a strict contract (our own
 * document, which loadContract hands out as one Contract while its bytes stay the same): a test file that starts a
 * mock and runs the runner against it dozens of times compiles its validators once per kind instead of twice per run
 * (issue 23, point 2). A strict contract's validators never change after they are compiled (a schema Ajv refuses
 * stops the load instead of warning into the contract later), and each call of one reads its own `errors` before
 * anything else can run, so sharing them is safe. A contract from elsewhere is compiled afresh on each call: it
 * compiles lazily and records what it meets in its own warnings, which belong to one run.
 */
export function sharedCompiledContract(contract: Contract, options: Pick<Options, 'allErrors' | 'verbose'> & CompileOptions = {}): CompiledContract {
  const { lazy, ...ajvOptions } = options;
  const compileOptions = lazy === undefined ? {} : { lazy };
  if (!contract.strict) return compileContract(contract, ajvFor(contract, ajvOptions), compileOptions);
  const key = `${options.allErrors ?? ''}/${options.verbose ?? ''}/${lazy ?? ''}`;
  let forContract = shared.get(contract);
  if (!forContract) shared.set(contract, (forContract = new Map()));
  let compiled = forContract.get(key);
  if (!compiled) forContract.set(key, (compiled = compileContract(contract, ajvFor(contract, ajvOptions), compileOptions)));
  return compiled;
}

export interface CompileOptions {
  /**
   * Compile each validator on first use, even for a strict contract. The runner asks for it: a run of a few checks
   * needs a few validators, and the bundled document's schemas are proved to compile in strict mode by every mock
   * start and by the tests (issue 33, point 2: the runner's start). The mock keeps compiling everything at start-up.
   */
  readonly lazy?: boolean;
}

const shared = new WeakMap<Contract, Map<string, CompiledContract>>();

/**
 * Compiles every validator the document implies: parameters per location,
 * the request body, and each response's body and headers. Nothing here runs
 * per request except the compiled functions.
 *
 * For a strict contract (our own document) everything is compiled here, at
 * start-up, and a schema Ajv's strict mode rejects is a KitError before the
 * mock serves anything. For a document from elsewhere each validator is
 * compiled the first time it is used (a 355-operation document compiles only
 * what a run touches), and a schema Ajv cannot compile becomes a contract
 * warning with a validator that accepts anything: the checks that needed it
 * find nothing, the run goes on.
 */
export function compileContract(contract: Contract, ajv: Ajv = ajvFor(contract), options: CompileOptions = {}): CompiledContract {
  const reject = (where: string, error: Error): void => {
    if (contract.strict) {
      throw new KitError('SPEC_SCHEMA_REJECTED', `${contract.file} at ${where}: Ajv (strict) rejects this schema: ${error.message}`, {
        file: contract.file,
        pointer: where,
        reason: error.message,
      });
    }
    contract.warn({ pointer: where, message: `the schema cannot be compiled: ${error.message}`, skipped: 'values are not checked against this schema' });
  };
  if (!contract.strict) scanForeignSchemas(ajv, contract.document, contract.warn);
  const registry = new SchemaRegistry(ajv, contract.document, !contract.strict, reject, contract.oasVersion);
  const compile = (schema: OpenAPIV3.SchemaObject, view: SchemaView, where: string, onRefused?: () => void): ValidateFunction => {
    try {
      return registry.compile(schema, view);
    } catch (error) {
      if (error instanceof KitError) throw error;
      onRefused?.();
      reject(where, error as Error);
      return ajv.compile(true);
    }
  };
  const requestValidators = new WeakMap<object, ValidateFunction>();
  const responseValidators = new WeakMap<object, ValidateFunction>();
  const lazy = options.lazy ?? !contract.strict;

  const operations = new Map<string, OperationValidators>();
  for (const operation of contract.operations) {
    operations.set(operation.operationId, compileOperation(operation, compile, lazy, contract.strict));
  }

  const compileResponse = makeResponseCompiler(compile, contract.strict);
  const unmatched = {
    unknownPath: contract.unmatched.unknownPath ? once(() => compileResponse(contract.unmatched.unknownPath!, '/x-unmatched-requests/unknownPath'), lazy) : undefined,
    wrongMethod: contract.unmatched.wrongMethod ? once(() => compileResponse(contract.unmatched.wrongMethod!, '/x-unmatched-requests/wrongMethod'), lazy) : undefined,
  };

  return {
    contract,
    operations,
    validate(schema, value, view, root = '') {
      // The registry asks Ajv's getSchema by id on every call (~0.2 µs); the generic engine validates every record
      // and answer it makes, so each schema's function is looked up once per view. A schema Ajv refused is not
      // kept: it is reported (and stood in for) on each call, as before.
      const cache = view === 'request' ? requestValidators : responseValidators;
      let validator = cache.get(schema);
      if (validator === undefined) {
        let refused = false;
        validator = compile(schema, view, 'a schema', () => (refused = true));
        if (!refused) cache.set(schema, validator);
      }
      return problemsOf(validator, value, root);
    },
    unmatchedResponse(kind, headers, body) {
      const compiled = unmatched[kind];
      return compiled ? compiled()(headers, body) : [];
    },
    compileAll() {
      for (const validators of operations.values()) validators.compileAll();
      unmatched.unknownPath?.();
      unmatched.wrongMethod?.();
    },
  };
}

/** The names an operation's other parameters of a location take: an exploded form object claims none of them. */
const othersMemo = new WeakMap<ParameterSpec, ReadonlySet<string>>();
function othersOf(spec: ParameterSpec, specs: readonly ParameterSpec[]): ReadonlySet<string> {
  let others = othersMemo.get(spec);
  if (!others) othersMemo.set(spec, (others = new Set(specs.filter((other) => other !== spec).map((other) => other.name))));
  return others;
}

/** `make`, run once: now when `lazy` is false, else on the first call. */
function once<T>(make: () => T, lazy: boolean): () => T {
  let made: { value: T } | undefined = lazy ? undefined : { value: make() };
  return () => (made ??= { value: make() }).value;
}

type Compile = (schema: OpenAPIV3.SchemaObject, view: SchemaView, where: string) => ValidateFunction;

function compileOperation(operation: Operation, compile: Compile, lazy: boolean, strict: boolean): OperationValidators {
  const at = `/paths/${operation.pathTemplate.replace(/~/g, '~0').replace(/\//g, '~1')}/${operation.method}`;

  // One object schema per location: a single Ajv call reports every problem of that location.
  const byLocation = once(() => {
    // An array, not a Map: parameters() walks it on every request, and a Map's iterator and entry arrays are garbage.
    const compiled: { location: ParameterLocation; specs: ParameterSpec[]; validate: ValidateFunction }[] = [];
    for (const location of LOCATIONS) {
      const specs = operation.parameters.filter((p) => p.in === location);
      if (specs.length === 0) continue;
      const schema: OpenAPIV3.SchemaObject = {
        type: 'object',
        properties: Object.fromEntries(specs.map((p) => [location === 'header' ? p.name.toLowerCase() : p.name, p.schema])),
      };
      const required = specs.filter((p) => p.required).map((p) => (location === 'header' ? p.name.toLowerCase() : p.name));
      if (required.length) schema.required = required;
      compiled.push({ location, specs, validate: compile(schema, 'request', `${at}/parameters`) });
    }
    return compiled;
  }, lazy);

  const json = operation.requestBody?.content.find((media) => isJsonMediaType(media.mediaType));
  const jsonSchema = json?.schema;
  const bodyValidator = jsonSchema ? once(() => compile(jsonSchema, 'request', `${at}/requestBody`), lazy) : undefined;
  const bodyRequired = operation.requestBody?.required === true;

  const compileResponse = makeResponseCompiler(compile, strict);
  const responses = new Map<string, () => (headers: HeaderValues, body: unknown, bodyValidAgainst?: object) => Diagnostic[]>();
  for (const [status, spec] of operation.responses) responses.set(status, once(() => compileResponse(spec, `${at}/responses/${status}`), lazy));

  return {
    operation,
    compileAll() {
      byLocation();
      bodyValidator?.();
      for (const compileResponse of responses.values()) compileResponse();
    },
    parameters(raw) {
      const locations = byLocation();
      // An operation without parameters (createPet) answers every request with one frozen result: four objects less per request.
      if (locations.length === 0) return NO_PARAMETERS;
      const values: ParsedParameters = { path: {}, query: {}, header: {} };
      const diagnostics: Diagnostic[] = [];
      for (const { location, specs, validate } of locations) {
        const out = values[OUTPUT_KEY[location]];
        const wire = location === 'path' ? raw.path : location === 'query' ? raw.query : raw.headers;
        let defaulted: Set<string> | undefined;
        for (const spec of specs) {
          const key = location === 'header' ? spec.name.toLowerCase() : spec.name;
          // By the parameter's style and explode (§4.7.12.4): `a,b`, `a|b`, `color[R]=1`, `.a.b`, `;id=5`.
          const text = parameterText(spec, wire, othersOf(spec, specs));
          if (text.kind === 'absent') {
            if (spec.schema.default !== undefined) {
              out[key] = spec.schema.default;
              (defaulted ??= new Set()).add(key);
            }
            continue;
          }
          const coerced = coerceParameter(text, spec.schema);
          if (coerced.ok) out[key] = coerced.value;
          else diagnostics.push({ pointer: `/${location}/${key}`, keyword: 'type', message: coerced.message, expected: coerced.expected, actual: wire[key] ?? null });
        }
        let problems = problemsOf(validate, out, `/${location}`);
        if (problems.length > 0 && defaulted !== undefined) {
          // A default its own schema refuses (InfluxDB's GetTasks `type`: default '' beside enum [basic, system]) is
          // the document's contradiction, not the client's, who sent nothing: the parameter stays absent.
          const refused = [...defaulted].filter((key) => problems.some((d) => d.pointer === `/${location}/${key}` || d.pointer.startsWith(`/${location}/${key}/`)));
          if (refused.length > 0) {
            for (const key of refused) delete out[key];
            problems = problemsOf(validate, out, `/${location}`);
          }
        }
        if (problems.length > 0) {
          // A value that failed coercion is absent from `out`; skip the `required` error Ajv then reports for it.
          const coercionFailed = new Set(diagnostics.map((d) => d.pointer));
          for (const diagnostic of problems) {
            if (!coercionFailed.has(diagnostic.pointer)) diagnostics.push(diagnostic);
          }
        }
      }
      return diagnostics.length ? { ok: false, diagnostics } : { ok: true, values };
    },
    body(value) {
      if (value === undefined) return bodyRequired ? [{ pointer: '/body', keyword: 'required', message: 'a JSON body is required' }] : [];
      if (!bodyValidator) return [];
      return problemsOf(bodyValidator(), value, '/body');
    },
    response(status, headers, body, bodyValidAgainst) {
      const spec = responseFor(operation, status);
      if (!spec) {
        const documented = [...operation.responses.keys()].join(', ');
        return { diagnostics: [{ pointer: '/status', keyword: 'status', message: `${status} is not a documented status of ${operation.operationId} (documented: ${documented})`, expected: [...operation.responses.keys()], actual: status }] };
      }
      const validateResponse = responses.get(spec.status);
      return { statusKey: spec.status, diagnostics: validateResponse ? validateResponse()(headers, body, bodyValidAgainst) : [] };
    },
  };
}

/**
 * Runs a compiled validator and returns its problems as Diagnostics. Ajv
 * leaves the last failure's `errors` on the function, and with `verbose` each
 * error holds the failing value (`data`) and its parents: a validator compiled
 * once for the process would keep the last rejected body, up to the 1 MiB
 * limit, alive until the next failure. The errors are read once here and
 * dropped, so nothing outlives the call.
 */
function problemsOf(validate: ValidateFunction, value: unknown, root: string): Diagnostic[] {
  if (validate(value)) return [];
  const diagnostics = toDiagnostics(validate.errors, root);
  validate.errors = null;
  return diagnostics;
}

/** Compiles the body and header validators of one documented response. */
function makeResponseCompiler(compile: Compile, strict: boolean) {
  return (spec: ResponseSpec, where: string): ((headers: HeaderValues, body: unknown, bodyValidAgainst?: object) => Diagnostic[]) => {
    const headerChecks = spec.headers
      .filter((h) => h.name.toLowerCase() !== 'content-type') // OAS 3.0.3 §4.7.17: Content-Type in headers is ignored
      .map((h) => ({
        name: h.name.toLowerCase(),
        required: h.required,
        schema: h.schema,
        validate: h.schema ? compile(h.schema, 'response', `${where}/headers/${h.name}`) : undefined,
      }));
    // A 204 or 304 cannot contain content (RFC 9110 §15.3.5, §15.4.5), whatever the document gives it (SendGrid
    // documents 42 of its 204s with JSON content): the answer is judged as one that documents none.
    const noContent = spec.status === '204' || spec.status === '304';
    const media = (noContent ? [] : spec.content).map((m: MediaTypeSpec) => ({
      mediaType: m.mediaType,
      schema: m.schema,
      validate: m.schema ? compile(m.schema, 'response', `${where}/content/${m.mediaType.replace(/\//g, '~1')}/schema`) : undefined,
    }));

    return (headers, body, bodyValidAgainst) => {
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
        } else {
          diagnostics.push(...problemsOf(check.validate, coerced.value, `/header/${check.name}`));
        }
      }
      if (media.length === 0) {
        // Our own document leaves `content` out only where no body is meant. A document from elsewhere that leaves it
        // out only does not describe the body (OpenAPI 3.0.3 §4.7.17: `content` is optional), so a body breaks nothing.
        if (body !== undefined && strict) diagnostics.push({ pointer: '/body', keyword: 'content', message: 'the document declares no body for this response, yet one was sent' });
        return diagnostics;
      }
      const rawType = headers['content-type'];
      const contentType = (typeof rawType === 'string' ? rawType : rawType?.[0])?.split(';')[0]?.trim().toLowerCase();
      const match = media.find((m) => mediaTypeMatches(m.mediaType, contentType));
      if (!match) {
        diagnostics.push({ pointer: '/header/content-type', keyword: 'content', message: `Content-Type ${contentType ?? '(none)'} is not documented for this response (documented: ${media.map((m) => m.mediaType).join(', ')})`, expected: media.map((m) => m.mediaType), actual: contentType ?? null });
        return diagnostics;
      }
      // The body arrives parsed only when it is JSON; a text/csv or image body has nothing here to check against a schema.
      if (!isJsonMediaType(contentType)) return diagnostics;
      if (body === undefined) {
        diagnostics.push({ pointer: '/body', keyword: 'content', message: 'the document declares a body for this response, but none was sent' });
      } else if (match.validate && (bodyValidAgainst === undefined || match.schema !== bodyValidAgainst)) {
        diagnostics.push(...problemsOf(match.validate, body, '/body'));
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

/**
 * `application/json` matches itself; a documented range (`application/*`, `*\/*`) matches its members. `actual` is a
 * bare type (its parameters cut); a documented key with parameters (Okta's `application/json;okta-version=1.0.0`) is
 * matched by its type and subtype too (RFC 9110 §8.3.1), else no answer of its could ever match.
 */
export function mediaTypeMatches(documented: string, actual: string | undefined): boolean {
  if (!actual) return false;
  const doc = documented.split(';')[0]!.trim().toLowerCase();
  if (doc === actual || doc === '*/*') return true;
  if (doc.endsWith('/*')) return actual.startsWith(doc.slice(0, -1));
  return false;
}
