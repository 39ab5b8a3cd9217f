/**
 * Ids of records the target already lists, for reads whose path names a record no operation of the run can make
 * (Asana's workspaces: listed by `GET /workspaces`, made by no operation of its document). The runner used to fill
 * such a path with the parameter's example (`/workspaces/12345/projects`), which a stateful target rightly answers
 * 404: every check of every read under it then skipped, some 500 results on Asana's document. The list is read once
 * per run and parent values, its first item whose member the parameter names (memberNamedBy: `gid` for
 * `{workspace_gid}`) gives the id.
 *
 * Only for reads: a check writes only what the run created, and a listed record is the target's, not the run's.
 */
import type { Operation, ParameterSpec } from '../../src/contract/index.js';
import type { Case } from '../context.js';
import { isObject } from '../generate.js';
import { memberNamedBy } from '../own-keys.js';
import { templateParameters, wireTemplate } from '../requests/paths.js';
import type { ParamValue } from '../requests/values.js';
import { pageItems } from './page-items.js';

/** The methods that read: the only ones sent to a record the run did not make. */
export const READ_METHODS: ReadonlySet<string> = new Set(['get', 'head']);

/**
 * A value for `parameter` of `operation` that names a record the target lists at the path above it (`/workspaces` for
 * `/workspaces/{workspace_gid}/projects`), with the parent values `known` already holds; undefined where no such list
 * is documented, its parents are unknown, it answers no success, or none of its items has a member the parameter
 * names with a value the parameter `takes` (its schema, as the text sent).
 */
export function listedPathValue(c: Case, operation: Operation, parameter: ParameterSpec, known: Readonly<Record<string, ParamValue>>, takes: (text: string) => boolean): Promise<string | undefined> {
  const template = wireTemplate(operation.pathTemplate);
  const at = template.indexOf(`/{${parameter.name}}`);
  if (at <= 0) return Promise.resolve(undefined);
  const listPath = template.slice(0, at);
  const list = c.ctx.contract.operations.find((op) => op.method === 'get' && wireTemplate(op.pathTemplate) === listPath);
  if (!list) return Promise.resolve(undefined);
  const parents = templateParameters(listPath);
  if (parents.some((name) => known[name] === undefined)) return Promise.resolve(undefined);
  const under = Object.fromEntries(parents.map((name) => [name, known[name]!]));
  // Once per list, parent values and parameter: the checks that read under the same record ask in turn.
  const key = `${list.operationId}\u0000${JSON.stringify(under)}\u0000${parameter.name}`;
  let found = c.ctx.listedIds.get(key);
  if (found === undefined) c.ctx.listedIds.set(key, (found = firstListedId(c, list, under, parameter, takes)));
  return found;
}

async function firstListedId(c: Case, list: Operation, under: Record<string, ParamValue>, parameter: ParameterSpec, takes: (text: string) => boolean): Promise<string | undefined> {
  const call = await c.call(list, { path: under });
  if (call.problem || call.status === undefined || call.status < 200 || call.status >= 300) return undefined;
  for (const item of pageItems(call.json, list.pathTemplate.split('/').pop() ?? '') ?? []) {
    if (!isObject(item)) continue;
    const member = memberNamedBy(parameter.name, item);
    const value = member === undefined ? undefined : item[member];
    if ((typeof value === 'string' || typeof value === 'number') && String(value) !== '' && takes(String(value))) return String(value);
  }
  return undefined;
}
