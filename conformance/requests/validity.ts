/**
 * Whether an input the runner calls valid is valid as it will be sent: the
 * body as its exact JSON text read back, the path and query parameters as
 * the texts in the URL, with the operation's compiled validators (src/schema).
 */
import type { Operation } from '../../src/contract/index.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { parseJson, plainJson, stringifyJson } from '../json.js';
import type { CallInput } from './call.js';
import { lowerCaseKeys, queryOf } from './query.js';
import { needsStyle, type ParamValue } from './values.js';

/** The key under which checkValid's split reports a typed value its schema refuses (no parameter is named so). */
const TYPED_INVALID = '\u0000invalid';

export type Validity = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly reason: string };

export function checkValid(compiled: CompiledContract, operation: Operation, input: CallInput): Validity {
  const validators = compiled.operations.get(operation.operationId);
  if (!validators) return { ok: true, body: input.body };
  // Values written by their style (objects, delimited arrays) are validated as the typed values they are; the rest as the texts sent.
  const typed = new Set<string>();
  const split = (location: 'path' | 'query', values: CallInput['query']): CallInput['query'] => {
    const out: Record<string, ParamValue | undefined> = {};
    for (const [name, value] of Object.entries(values ?? {})) {
      const spec = operation.parameters.find((p) => p.in === location && p.name === name);
      if (value !== undefined && spec && needsStyle(spec, value)) {
        typed.add(`/${location}/${name}`);
        const problems = compiled.validate(spec.schema, value, 'request', `/${location}/${name}`);
        if (problems.length > 0) return { [TYPED_INVALID]: `${problems[0]!.pointer} ${problems[0]!.message}` };
      } else {
        out[name] = value;
      }
    }
    return out;
  };
  const pathValues = split('path', input.path);
  const queryValues = split('query', input.query);
  const invalid = pathValues?.[TYPED_INVALID] ?? queryValues?.[TYPED_INVALID];
  if (invalid !== undefined) return { ok: false, reason: `no valid input for ${operation.operationId}: the parameter ${String(invalid)}` };
  const path = Object.fromEntries(Object.entries(queryOf(pathValues)).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : v]));
  const parameters = validators.parameters({ path, query: queryOf(queryValues), headers: lowerCaseKeys(input.headers ?? {}) });
  // A required header the caller leaves out is one call() fills (headerParameters), so its absence here is no problem.
  const diagnostics = parameters.ok ? [] : parameters.diagnostics.filter((d) => !typed.has(d.pointer) && !(d.pointer.startsWith('/header') && d.keyword === 'required'));
  if (diagnostics.length > 0) {
    const first = diagnostics[0]!;
    return { ok: false, reason: `no valid input for ${operation.operationId}: the parameter ${first.pointer} ${first.message}` };
  }
  if (input.body === undefined && input.bodyText === undefined) return { ok: true, body: undefined };
  let sent: unknown;
  try {
    sent = plainJson(parseJson(input.bodyText ?? stringifyJson(input.body)));
  } catch {
    return { ok: false, reason: `no valid input for ${operation.operationId}: the body is not JSON` };
  }
  const problems = validators.body(sent);
  if (problems.length > 0) return { ok: false, reason: `no valid body for ${operation.operationId}: ${problems[0]!.pointer} ${problems[0]!.message}` };
  return { ok: true, body: input.body };
}
