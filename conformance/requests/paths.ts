/** Path templates filled with values (RFC 6570 simple expansion, or the parameter's style). */
import type { ParameterSpec } from '../../src/contract/index.js';
import { serializeParameter } from './serialize.js';
import { needsStyle, type ParamValue } from './values.js';

/**
 * Substitutes path parameters into a template: a value of an array or object
 * parameter, or of one with the label or matrix style, as its style says
 * (OpenAPI 3.0.3 §4.7.12.4, serialize.ts); any other value percent-encoded
 * (RFC 6570 simple expansion).
 */
export function expandPath(template: string, values: Readonly<Record<string, ParamValue>>, parameters: readonly ParameterSpec[] = []): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    const spec = parameters.find((p) => p.in === 'path' && p.name === name);
    if (value !== undefined && spec && needsStyle(spec, value)) return serializeParameter(spec, value).path ?? '';
    return encodeURIComponent(value === undefined ? `{${name}}` : String(Array.isArray(value) ? value[0] : value));
  });
}

/** The names of a template's path parameters, in order. */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/**
 * The path a template names on the wire: without a `#fragment` (`/v1/conversations#stream` is `/v1/conversations`).
 * A fragment is never part of a request-target (RFC 3986 §3.5, RFC 9110 §7.1); documents use one to give a second
 * operation to the same path and method (Mistral's streaming variants, Box's `#add`/`#update`).
 */
export function wireTemplate(template: string): string {
  const hash = template.indexOf('#');
  return hash < 0 ? template : template.slice(0, hash);
}
