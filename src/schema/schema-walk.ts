import type { OpenAPIV3 } from 'openapi-types';

/** Called once per schema object (by identity), with the JSON pointer where it was first met. */
export type SchemaVisitor = (schema: Record<string, unknown>, pointer: string) => void;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Where a JSON Schema 2020-12 schema holds subschemas (3.0 schemas use the first of each list only). */
const ONE = ['items', 'additionalProperties', 'not', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'if', 'then', 'else', 'contentSchema'] as const;
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const;

/**
 * Visits every schema of a dereferenced document once, components first (so
 * a shared schema is named where it is declared), then each operation's
 * parameters, request body and responses. Identity-based: a recursive schema
 * is visited once, and the walk ends.
 */
export function forEachSchema(document: OpenAPIV3.Document, visit: SchemaVisitor): void {
  const components = (document.components ?? {}) as Record<string, unknown>;
  const schemas = isRecord(components['schemas']) ? components['schemas'] : {};
  // A component is visited under its own name, wherever else it is used.
  const named = new Set<unknown>(Object.values(schemas));
  const seen = new Set<object>();
  const walk = (value: unknown, pointer: string, top = false): void => {
    if (!isRecord(value) || seen.has(value) || (!top && named.has(value))) return;
    seen.add(value);
    visit(value, pointer);
    for (const key of ONE) {
      const child = value[key];
      if (Array.isArray(child)) child.forEach((item: unknown, i) => walk(item, `${pointer}/${key}/${i}`));
      else walk(child, `${pointer}/${key}`);
    }
    for (const key of LISTS) {
      const list = value[key];
      if (Array.isArray(list)) list.forEach((child: unknown, i) => walk(child, `${pointer}/${key}/${i}`));
    }
    for (const key of MAPS) {
      const map = value[key];
      if (isRecord(map)) for (const [name, child] of Object.entries(map)) walk(child, `${pointer}/${key}/${escape(name)}`);
    }
  };
  const content = (value: unknown, pointer: string): void => {
    if (!isRecord(value)) return;
    for (const [mediaType, media] of Object.entries(value)) if (isRecord(media)) walk(media['schema'], `${pointer}/${escape(mediaType)}/schema`);
  };
  const parameterOrHeader = (value: unknown, pointer: string): void => {
    if (!isRecord(value)) return;
    walk(value['schema'], `${pointer}/schema`);
    content(value['content'], `${pointer}/content`);
  };
  const responses = (value: unknown, pointer: string): void => {
    if (!isRecord(value)) return;
    for (const [status, response] of Object.entries(value)) {
      if (!isRecord(response)) continue;
      const headers = response['headers'];
      if (isRecord(headers)) for (const [name, header] of Object.entries(headers)) parameterOrHeader(header, `${pointer}/${escape(status)}/headers/${escape(name)}`);
      content(response['content'], `${pointer}/${escape(status)}/content`);
    }
  };
  const parameters = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) value.forEach((parameter: unknown, i) => parameterOrHeader(parameter, `${pointer}/${i}`));
  };

  const pathItem = (item: unknown, at: string): void => {
    if (!isRecord(item)) return;
    parameters(item['parameters'], `${at}/parameters`);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      parameters(operation['parameters'], `${at}/${method}/parameters`);
      const body = operation['requestBody'];
      if (isRecord(body)) content(body['content'], `${at}/${method}/requestBody/content`);
      responses(operation['responses'], `${at}/${method}/responses`);
    }
  };

  for (const [name, schema] of Object.entries(schemas)) walk(schema, `/components/schemas/${escape(name)}`, true);
  for (const [path, item] of Object.entries(document.paths ?? {})) pathItem(item, `/paths/${escape(path)}`);
  // OpenAPI 3.1: webhooks, and path items kept in components (§4.8.7), hold schemas too.
  const webhooks: unknown = Object.getOwnPropertyDescriptor(document, 'webhooks')?.value;
  for (const [group, prefix] of [[webhooks, '/webhooks'], [components['pathItems'], '/components/pathItems']] as const) {
    if (isRecord(group)) for (const [name, item] of Object.entries(group)) pathItem(item, `${prefix}/${escape(name)}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
