import type { OpenAPIV3 } from 'openapi-types';
import { KitError } from '../kit-error.js';
import type { LoadedDocument } from './load.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: OpenAPIV3.SchemaObject;
  readonly explode: boolean;
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
  readonly operationId: string;
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

export interface ErrorCodeSpec {
  readonly code: string;
  readonly status: number;
  readonly description: string;
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
}

/** Builds the frozen, indexed view of a loaded document that every part of the kit works from. */
export function buildContract(loaded: LoadedDocument): Contract {
  const { document } = loaded;
  const operations: Operation[] = [];
  const pathMethods = new Map<string, string[]>();

  for (const [pathTemplate, pathItem] of Object.entries(document.paths ?? {})) {
    if (!pathItem) continue;
    const methods: string[] = [];
    for (const method of HTTP_METHODS) {
      const raw = pathItem[method];
      if (!raw) continue;
      methods.push(method.toUpperCase());
      operations.push(buildOperation(pathTemplate, method, raw, pathItem.parameters ?? [], loaded.file));
    }
    pathMethods.set(pathTemplate, methods);
  }

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
    errorCodes: readErrorCodes(document, loaded.file),
    unmatched: readUnmatched(document),
  };
  return deepFreezeShallow(contract);
}

function buildOperation(
  pathTemplate: string,
  method: HttpMethod,
  raw: OpenAPIV3.OperationObject,
  pathParameters: readonly (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[],
  file: string,
): Operation {
  if (!raw.operationId) {
    throw new KitError('SPEC_INVALID', `${file} at /paths/${escapePointer(pathTemplate)}/${method}: every operation needs an operationId.`, {
      file,
      pointer: `/paths/${escapePointer(pathTemplate)}/${method}`,
      reason: 'operationId missing',
    });
  }
  const byKey = new Map<string, ParameterSpec>();
  for (const parameter of [...pathParameters, ...(raw.parameters ?? [])]) {
    const spec = toParameter(parameter as OpenAPIV3.ParameterObject);
    byKey.set(`${spec.in}:${spec.name}`, spec);
  }
  const responses = new Map<string, ResponseSpec>();
  for (const [status, response] of Object.entries(raw.responses ?? {})) {
    responses.set(status, toResponse(status, response as OpenAPIV3.ResponseObject));
  }
  const body = raw.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  const extensions = raw as unknown as Record<string, unknown>;
  const deprecation: DeprecationSpec | undefined = raw.deprecated
    ? {
        deprecatedAt: toDate(extensions['x-deprecated-at']),
        sunset: toDate(extensions['x-sunset']),
        successorTemplate: typeof extensions['x-successor-version'] === 'string' ? extensions['x-successor-version'] : undefined,
        documentationUrl: raw.externalDocs?.url,
      }
    : undefined;
  return {
    operationId: raw.operationId,
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

function toParameter(raw: OpenAPIV3.ParameterObject): ParameterSpec {
  const location = raw.in as ParameterLocation;
  const style = raw.style ?? (location === 'query' || location === 'cookie' ? 'form' : 'simple');
  return {
    name: raw.name,
    in: location,
    required: raw.required === true || location === 'path',
    schema: (raw.schema ?? {}) as OpenAPIV3.SchemaObject,
    explode: raw.explode ?? style === 'form',
    ...(raw.example !== undefined ? { example: raw.example } : {}),
  };
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

function readErrorCodes(document: OpenAPIV3.Document, file: string): Map<string, ErrorCodeSpec> {
  const raw = (document as unknown as Record<string, unknown>)['x-error-codes'];
  const codes = new Map<string, ErrorCodeSpec>();
  if (raw === undefined) return codes;
  if (typeof raw !== 'object' || raw === null) {
    throw new KitError('SPEC_INVALID', `${file} at /x-error-codes: expected a map of code to {status, description}.`, { file, pointer: '/x-error-codes' });
  }
  for (const [code, value] of Object.entries(raw as Record<string, { status?: unknown; description?: unknown }>)) {
    if (typeof value?.status !== 'number') {
      throw new KitError('SPEC_INVALID', `${file} at /x-error-codes/${code}: status must be a number.`, { file, pointer: `/x-error-codes/${code}` });
    }
    codes.set(code, { code, status: value.status, description: typeof value.description === 'string' ? value.description : '' });
  }
  return codes;
}

function readUnmatched(document: OpenAPIV3.Document): Contract['unmatched'] {
  const raw = (document as unknown as Record<string, unknown>)['x-unmatched-requests'] as
    | { unknownPath?: OpenAPIV3.ResponseObject; wrongMethod?: OpenAPIV3.ResponseObject }
    | undefined;
  return {
    ...(raw?.unknownPath ? { unknownPath: toResponse('404', raw.unknownPath) } : {}),
    ...(raw?.wrongMethod ? { wrongMethod: toResponse('405', raw.wrongMethod) } : {}),
  };
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
