import type { OpenAPIV3 } from 'openapi-types';
import { readErrorCodes, type ErrorCodeSpec } from './error-codes.js';
import type { LoadedDocument, OasVersion } from './load.js';
import { assignOperationIds } from './operation-ids.js';
import { WarningList, type ContractWarning } from './warnings.js';

export type { ErrorCodeSpec } from './error-codes.js';
export type { ContractWarning } from './warnings.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** OpenAPI 3.0.3 §4.7.12.4. */
export type ParameterStyle = 'matrix' | 'label' | 'form' | 'simple' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: OpenAPIV3.SchemaObject;
  readonly explode: boolean;
  /** The declared style, or the location's default (form for query and cookie, simple for path and header). */
  readonly style?: ParameterStyle;
  /** `allowReserved`: query values may keep RFC 3986 reserved characters unencoded. */
  readonly allowReserved?: boolean;
  /** Set when the parameter is described by `content` (one media type) instead of `schema` and `style`. */
  readonly mediaType?: string;
  readonly example?: unknown;
}

export interface MediaTypeSpec {
  readonly mediaType: string;
  readonly schema?: OpenAPIV3.SchemaObject;
  /** Named examples; a lone `example` is kept under the name `default`. */
  readonly examples: ReadonlyMap<string, unknown>;
}

export interface HeaderSpec {
  readonly name: string;
  readonly required: boolean;
  readonly schema?: OpenAPIV3.SchemaObject;
}

export interface LinkSpec {
  readonly name: string;
  readonly operationId: string;
  /** Parameter name → runtime expression or constant (OpenAPI 3.0.3 §4.7.20). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ResponseSpec {
  /** The status key as written: '200', '4XX' or 'default'. */
  readonly status: string;
  readonly description: string;
  readonly headers: readonly HeaderSpec[];
  readonly content: readonly MediaTypeSpec[];
  readonly links: readonly LinkSpec[];
}

export interface DeprecationSpec {
  /** `x-deprecated-at`, an RFC 3339 instant. */
  readonly deprecatedAt?: Date;
  /** `x-sunset`, an RFC 3339 instant. */
  readonly sunset?: Date;
  /** `x-successor-version`, a URL template over the operation's path parameters. */
  readonly successorTemplate?: string;
  /** `externalDocs.url`: the human-readable page a `rel="deprecation"` link names. */
  readonly documentationUrl?: string;
}

export interface Operation {
  /** The declared operationId, or one derived from the method and path (operation-ids.ts); see `operationIdDerived`. */
  readonly operationId: string;
  /** True when the document declares no operationId for this operation. */
  readonly operationIdDerived?: boolean;
  readonly method: HttpMethod;
  readonly pathTemplate: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly deprecated: boolean;
  readonly deprecation?: DeprecationSpec;
  /** Path-level and operation-level parameters merged (operation wins). */
  readonly parameters: readonly ParameterSpec[];
  readonly requestBody?: { readonly required: boolean; readonly content: readonly MediaTypeSpec[] };
  readonly responses: ReadonlyMap<string, ResponseSpec>;
}

export interface Contract {
  readonly file: string;
  readonly sha256: string;
  readonly title: string;
  readonly version: string;
  readonly document: OpenAPIV3.Document;
  readonly operations: readonly Operation[];
  readonly operationsById: ReadonlyMap<string, Operation>;
  /** Path template → the methods it documents, upper case, in document order. */
  readonly pathMethods: ReadonlyMap<string, readonly string[]>;
  /** `x-error-codes`: the closed set of codes an Error may carry. */
  readonly errorCodes: ReadonlyMap<string, ErrorCodeSpec>;
  /** `x-unmatched-requests`: what the router answers before any operation is chosen. */
  readonly unmatched: { readonly unknownPath?: ResponseSpec; readonly wrongMethod?: ResponseSpec };
  /**
   * Strict (our own document): a schema Ajv's strict mode rejects, or an
   * extension in a shape the kit does not read, refuses the document, and every
   * validator is compiled at start-up. Not strict (a document from elsewhere):
   * the document is taken as valid OpenAPI; what the kit cannot use becomes a
   * warning, and validators are compiled when first needed.
   */
  readonly strict: boolean;
  /** The document's OpenAPI version, `3.0` or `3.1`: its schemas are OpenAPI 3.0's dialect or JSON Schema 2020-12. */
  readonly oasVersion: OasVersion;
  /** What the kit could not use in the document, for the report; grows as validators are compiled (see WarningList). */
  readonly warnings: readonly ContractWarning[];
  /** Adds a warning (the schema layer's, met while compiling). */
  readonly warn: (warning: ContractWarning) => void;
}

export interface BuildOptions {
  /**
   * Default true here (a document built in memory, as the MSW adapter does in a
   * browser, is our own); loadContract decides by the file instead: strict for
   * the bundled openapi.yaml, lenient for any other.
   */
  readonly strict?: boolean;
}

/** Builds the frozen, indexed view of a loaded document that every part of the kit works from. */
export function buildContract(loaded: LoadedDocument, options: BuildOptions = {}): Contract {
  const { document } = loaded;
  const strict = options.strict ?? true;
  const warnings = new WarningList();
  // What a lenient load let through (load.ts): the document's letter, not what it describes.
  for (const warning of loaded.warnings ?? []) warnings.add({ ...warning, skipped: 'nothing: the document is read as written' });
  const found: { pathTemplate: string; method: HttpMethod; raw: OpenAPIV3.OperationObject; pathParameters: readonly (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[]; declaredId?: string }[] = [];
  const pathMethods = new Map<string, string[]>();

  for (const [pathTemplate, pathItem] of Object.entries(document.paths ?? {})) {
    if (!pathItem) continue;
    for (const method of HTTP_METHODS) {
      const raw = pathItem[method];
      if (!raw) continue;
      found.push({ pathTemplate, method, raw, pathParameters: pathItem.parameters ?? [], ...(raw.operationId ? { declaredId: raw.operationId } : {}) });
    }
    // `Allow` (RFC 9110 §10.2.1) lists the methods in the document's order, as its reader wrote them: the path
    // item's own key order, not HTTP_METHODS' (which orders the operations, and so their derived ids).
    const methods = Object.keys(pathItem).filter((key): key is HttpMethod => (HTTP_METHODS as readonly string[]).includes(key) && pathItem[key as HttpMethod] !== undefined);
    pathMethods.set(pathTemplate, methods.map((method) => method.toUpperCase()));
  }
  const ids = assignOperationIds(found);
  found.forEach((entry, i) => {
    if (entry.declaredId !== undefined && ids[i] !== entry.declaredId) {
      warnings.add({
        pointer: `/paths/${entry.pathTemplate.replace(/~/g, '~0').replace(/\//g, '~1')}/${entry.method}/operationId`,
        message: `operationId "${entry.declaredId}" is already another operation's (OpenAPI requires it unique): this one is "${ids[i]}" in the kit`,
        skipped: `nothing: --only/--skip and the reports name it "${ids[i]}"`,
      });
    }
  });
  const operations = found.map((entry, i) => buildOperation(entry.pathTemplate, entry.method, entry.raw, entry.pathParameters, ids[i]!));

  const operationsById = new Map<string, Operation>();
  for (const operation of operations) operationsById.set(operation.operationId, operation);

  const contract: Contract = {
    file: loaded.file,
    sha256: loaded.sha256,
    title: document.info.title,
    version: document.info.version,
    document,
    operations,
    operationsById,
    pathMethods,
    errorCodes: readErrorCodes(extension(document, 'x-error-codes'), loaded.file, strict, warnings),
    unmatched: readUnmatched(document, warnings),
    strict,
    oasVersion: loaded.oasVersion ?? '3.0',
    warnings: warnings.items,
    warn: (warning) => warnings.add(warning),
  };
  return deepFreezeShallow(contract);
}

function buildOperation(
  pathTemplate: string,
  method: HttpMethod,
  raw: OpenAPIV3.OperationObject,
  pathParameters: readonly (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[],
  operationId: string,
): Operation {
  const byKey = new Map<string, ParameterSpec>();
  for (const parameter of [...pathParameters, ...(raw.parameters ?? [])]) {
    const spec = toParameter(parameter as OpenAPIV3.ParameterObject);
    if (spec.in === 'header' && IGNORED_HEADER_PARAMETERS.has(spec.name.toLowerCase())) continue;
    byKey.set(`${spec.in}:${spec.in === 'header' ? spec.name.toLowerCase() : spec.name}`, spec);
  }
  const responses = new Map<string, ResponseSpec>();
  for (const [status, response] of Object.entries(raw.responses ?? {})) {
    responses.set(status, toResponse(status, response as OpenAPIV3.ResponseObject));
  }
  const body = raw.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  const extensions: Record<string, unknown> = { ...raw };
  const deprecation: DeprecationSpec | undefined = raw.deprecated
    ? {
        deprecatedAt: toDate(extensions['x-deprecated-at']),
        sunset: toDate(extensions['x-sunset']),
        successorTemplate: typeof extensions['x-successor-version'] === 'string' ? extensions['x-successor-version'] : undefined,
        documentationUrl: raw.externalDocs?.url,
      }
    : undefined;
  return {
    operationId,
    ...(raw.operationId ? {} : { operationIdDerived: true }),
    method,
    pathTemplate,
    tags: raw.tags ?? [],
    summary: raw.summary ?? '',
    deprecated: raw.deprecated === true,
    ...(deprecation ? { deprecation } : {}),
    parameters: [...byKey.values()],
    ...(body ? { requestBody: { required: body.required === true, content: toContent(body.content) } } : {}),
    responses,
  };
}

/**
 * Header parameters that neither the mock nor the runner takes from a document. OAS 3.0.3 §4.7.12.1: a header
 * parameter named Accept, Content-Type or Authorization SHALL be ignored. And the fields the HTTP layer owns: the
 * message's framing and coding (Content-Length, Transfer-Encoding, Content-Encoding: RFC 9112 §6, RFC 9110 §8.4) and
 * the connection's own (Host, Connection, Keep-Alive, TE, Trailer, Upgrade, Expect: RFC 9110 §7.2, §7.6.1, §10.1.1).
 * InfluxDB's write documents `Content-Length`: a value generated for it (1) beside a body of another length is a
 * request no server can read, and the client refuses to send it.
 */
export const IGNORED_HEADER_PARAMETERS: ReadonlySet<string> = new Set([
  'accept',
  'content-type',
  'authorization',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'host',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

function toParameter(raw: OpenAPIV3.ParameterObject): ParameterSpec {
  const location = raw.in as ParameterLocation;
  const style = (raw.style ?? (location === 'query' || location === 'cookie' ? 'form' : 'simple')) as ParameterStyle;
  // §4.7.12: a parameter has `schema` or `content` (a map with exactly one media type).
  const [mediaType, media] = Object.entries(raw.content ?? {})[0] ?? [];
  const example = parameterExample(raw);
  return {
    name: raw.name,
    in: location,
    required: raw.required === true || location === 'path',
    schema: (raw.schema ?? media?.schema ?? {}) as OpenAPIV3.SchemaObject,
    explode: raw.explode ?? style === 'form',
    style,
    ...(raw.allowReserved === true ? { allowReserved: true } : {}),
    ...(!raw.schema && mediaType ? { mediaType } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/** A parameter's example: its lone `example`, else the value of its first named `examples` entry (OpenAPI 3.0.3 §4.7.12: the two are exclusive). */
function parameterExample(raw: OpenAPIV3.ParameterObject): unknown {
  if (raw.example !== undefined) return raw.example;
  for (const entry of Object.values(raw.examples ?? {})) {
    if (entry && typeof entry === 'object' && 'value' in entry && entry.value !== undefined) return entry.value;
  }
  return undefined;
}

function toResponse(status: string, raw: OpenAPIV3.ResponseObject): ResponseSpec {
  const headers: HeaderSpec[] = Object.entries(raw.headers ?? {}).map(([name, header]) => {
    const h = header as OpenAPIV3.HeaderObject;
    return { name, required: h.required === true, ...(h.schema ? { schema: h.schema as OpenAPIV3.SchemaObject } : {}) };
  });
  const links: LinkSpec[] = Object.entries(raw.links ?? {}).flatMap(([name, link]) => {
    const l = link as OpenAPIV3.LinkObject;
    return l.operationId ? [{ name, operationId: l.operationId, parameters: (l.parameters ?? {}) as Record<string, unknown> }] : [];
  });
  return { status, description: raw.description, headers, content: toContent(raw.content), links };
}

function toContent(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined): MediaTypeSpec[] {
  return Object.entries(content ?? {}).map(([mediaType, media]) => {
    const examples = new Map<string, unknown>();
    if (media.example !== undefined) examples.set('default', media.example);
    for (const [name, example] of Object.entries(media.examples ?? {})) {
      const value = (example as OpenAPIV3.ExampleObject).value;
      if (value !== undefined) examples.set(name, value);
    }
    return { mediaType, ...(media.schema ? { schema: media.schema as OpenAPIV3.SchemaObject } : {}), examples };
  });
}

function readUnmatched(document: OpenAPIV3.Document, warnings: WarningList): Contract['unmatched'] {
  const raw = extension(document, 'x-unmatched-requests');
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    warnings.add({ pointer: '/x-unmatched-requests', message: 'expected a map with unknownPath and wrongMethod responses.', skipped: 'unknown-path and wrong-method answers are checked without a documented body' });
    return {};
  }
  const { unknownPath, wrongMethod } = raw as { unknownPath?: OpenAPIV3.ResponseObject; wrongMethod?: OpenAPIV3.ResponseObject };
  return {
    ...(unknownPath ? { unknownPath: toResponse('404', unknownPath) } : {}),
    ...(wrongMethod ? { wrongMethod: toResponse('405', wrongMethod) } : {}),
  };
}

/** A top-level `x-` extension of the document; openapi-types does not type them. */
function extension(document: OpenAPIV3.Document, name: `x-${string}`): unknown {
  return Object.getOwnPropertyDescriptor(document, name)?.value as unknown;
}

function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Freezes the contract and its operations so no part of the kit can edit what the others rely on. */
function deepFreezeShallow(contract: Contract): Contract {
  for (const operation of contract.operations) Object.freeze(operation);
  Object.freeze(contract.operations);
  return Object.freeze(contract);
}

/** The response spec for a status: the exact code first, then its class (`4XX`), then `default`. */
export function responseFor(operation: Operation, status: number): ResponseSpec | undefined {
  return operation.responses.get(String(status)) ?? operation.responses.get(`${String(status)[0]}XX`) ?? operation.responses.get('default');
}
