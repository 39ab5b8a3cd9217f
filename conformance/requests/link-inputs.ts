/** The inputs a link of the document gives the operation it targets (OpenAPI 3.0.3 §4.7.20). */
import { stringifyJson } from '../json.js';
import { evaluateExpression, linkParameter, type ExpressionSource, type LinkTarget } from '../links.js';
import type { ParamValue } from './values.js';

/** The path and query inputs a link gives its target operation. */
export function linkInputs(target: LinkTarget, source: ExpressionSource): { path: Record<string, ParamValue>; query: Record<string, ParamValue> } {
  const path: Record<string, ParamValue> = {};
  const query: Record<string, ParamValue> = {};
  for (const [name, expression] of Object.entries(target.link.parameters)) {
    const parameter = linkParameter(target.operation, name);
    const value = evaluateExpression(expression, source);
    if (!parameter || value === undefined || value === null) continue;
    const text = typeof value === 'object' ? stringifyJson(value) : typeof value === 'bigint' ? value.toString() : (value as string | number | boolean);
    if (parameter.in === 'path') path[parameter.name] = text;
    else if (parameter.in === 'query') query[parameter.name] = text;
  }
  return { path, query };
}
