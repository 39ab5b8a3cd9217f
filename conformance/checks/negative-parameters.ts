import type { Operation } from '../../src/contract/index.js';
import type { Case, RunContext } from '../context.js';
import type { Call } from '../requests/call.js';
import type { ParamValue } from '../requests/values.js';
import type { OpenAPIV3 } from 'openapi-types';
import type { ParameterSpec } from '../../src/contract/index.js';
import { parameterMutations, schema, type ParameterMutation } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { judgeRejection, observing, validationStatuses, prepareInputs, snapshot, stateChanged, writesAllowed, type PreparedInputs } from './support.js';

/**
 * For every operation with path or query parameters: values that break the
 * parameter's schema (ids 0, -1, abc, 1.5, 2^63; limit 0 and 101; offset -1;
 * filters of the wrong type or outside their enum) get a 4xx and change
 * nothing. Each text is validated as sent before judging. Reads go out in
 * parallel; writes one by one, on records the run owns, with a fraction made
 * from the owned id so a server that rounds it only touches the run's record.
 */
export const negativeParameters: CheckDefinition = {
  id: 'negative-parameters',
  family: 'negative',
  description: 'Path and query parameters that break their schema (ids 0/-1/abc/1.5/2^63, limit 0/101, offset -1, bad filters) get a 4xx.',
  explain: {
    why: 'Out-of-range ids, limits and filters must be refused, not guessed at; a server that guesses answers something the client did not ask for.',
    conformant: '`400` with the Error shape (code VALIDATION_FAILED) for `/pets/0`, `/pets/abc`, `?limit=0`, `?limit=101`, `?offset=-1`.',
  },
  // Its GET cases are safe under --read-only; its write cases are skipped there one by one.
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      const parameters = operation.parameters.filter((p) => p.in === 'path' || p.in === 'query');
      if (parameters.length === 0) continue;
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      if (!writesAllowed(ctx, operation)) {
        ctx.newCase('negative-parameters', `${where}: invalid parameters`, operation.operationId).skip('--read-only: the operation writes');
        continue;
      }
      const setup = ctx.newCase('negative-parameters', `${where}: invalid parameters`, operation.operationId);
      const prepared = await prepareInputs(setup, operation);
      if (!prepared.ok) {
        prepared.fail(setup);
        continue;
      }
      const cases = parameters.flatMap((parameter) => {
        const valid = prepared.inputs.path[parameter.name] ?? prepared.inputs.query[parameter.name] ?? '1';
        return [...parameterMutations(parameter, String(Array.isArray(valid) ? valid[0] : valid)), ...enumCaseMutations(parameter), ...laxBooleanMutations(parameter)].map((mutation) => ({ parameter, mutation }));
      });
      const tryOne = async ({ mutation }: (typeof cases)[number]): Promise<void> => {
        const c = ctx.newCase('negative-parameters', `${where} with ${mutation.description}`, operation.operationId);
        c.mutation = { kind: mutation.kind, pointer: mutation.pointer, description: mutation.description };
        const path: Record<string, ParamValue> = { ...prepared.inputs.path };
        const query: Record<string, ParamValue> = { ...prepared.inputs.query };
        if (mutation.location === 'path') path[mutation.name] = typeof mutation.text === 'string' ? mutation.text : (mutation.text[0] ?? '');
        else query[mutation.name] = mutation.text;
        if (stillValid(ctx, operation, path, query)) {
          c.skip(`${mutation.pointer} as sent is valid for the document; not counted`);
          return;
        }
        await judgeOne(c, operation, prepared.inputs, path, query);
      };
      if (operation.method === 'get' || operation.method === 'head') {
        await Promise.all(cases.map(tryOne));
      } else {
        for (const item of cases) {
          if (ctx.aborted) break;
          await tryOne(item);
        }
      }
    }
  },
};

async function judgeOne(c: Case, operation: Operation, inputs: PreparedInputs, path: Record<string, ParamValue>, query: Record<string, ParamValue>): Promise<void> {
  const writes = operation.method !== 'get' && operation.method !== 'head';
  const send = (): Promise<Call> => c.call(operation, { path, query, ...(inputs.body !== undefined ? { body: inputs.body } : {}) });
  if (!writes) return judgeRejection(c, await send(), validationStatuses(c.ctx.contract, operation), [], inputs);
  // The record is observed with no other check's write in between (shared-records.ts): the change seen is this request's.
  await observing(c, operation, inputs.path, async () => {
    const before = await snapshot(c, operation, inputs);
    const call = await send();
    judgeRejection(c, call, validationStatuses(c.ctx.contract, operation), await stateChanged(c, before), inputs);
  });
}

/**
 * A string enum's first value in another case (`AVAILABLE` for `available`), where that is no value of the enum: a
 * server that lower-cases a filter before matching takes it; the document's enum does not (JSON Schema compares
 * strings exactly). Re-validated as sent like every mutation, so a document whose parameter takes any case skips it.
 */
function enumCaseMutations(parameter: ParameterSpec): ParameterMutation[] {
  if (parameter.in !== 'path' && parameter.in !== 'query') return [];
  const raw = parameter.schema;
  const isArray = raw.type === 'array';
  const item = isArray ? schema((raw as OpenAPIV3.ArraySchemaObject).items) : raw;
  const first = item.enum?.find((value): value is string => typeof value === 'string' && /[a-z]/i.test(value));
  if (item.type !== 'string' || first === undefined) return [];
  const swapped = [...first].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
  const upper = first.toUpperCase() !== first ? first.toUpperCase() : swapped;
  if (item.enum!.includes(upper)) return [];
  return [{ kind: 'enum', location: parameter.in, name: parameter.name, pointer: `/${parameter.in}/${parameter.name}`, description: `${parameter.name}=${upper}: ${first} in another case`, text: isArray ? [upper] : upper }];
}

/**
 * A boolean as lax parsers read one: `1` and `TRUE`, which a server that tests truthiness or compares without case
 * takes as true; the document's boolean is `true` or `false` (OpenAPI 3.0.3 serialises it so). Re-validated as sent.
 */
function laxBooleanMutations(parameter: ParameterSpec): ParameterMutation[] {
  if (parameter.in !== 'path' && parameter.in !== 'query') return [];
  const raw = parameter.schema;
  const isArray = raw.type === 'array';
  const item = isArray ? schema((raw as OpenAPIV3.ArraySchemaObject).items) : raw;
  if (item.type !== 'boolean') return [];
  return (['1', 'TRUE'] as const).map((text) => ({ kind: 'wrong-type' as const, location: parameter.in as 'path' | 'query', name: parameter.name, pointer: `/${parameter.in}/${parameter.name}`, description: `${parameter.name}=${text}: not true or false (a lax parser's true)`, text: isArray ? [text] : text }));
}

/** Re-validates the exact texts sent with the operation's compiled parameter validators. */
function stillValid(ctx: RunContext, operation: Operation, path: Record<string, ParamValue>, query: Record<string, ParamValue>): boolean {
  const text = (value: ParamValue): string | string[] => (Array.isArray(value) ? value.map(String) : String(value));
  const result = ctx.compiled.operations.get(operation.operationId)?.parameters({
    path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)])),
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, text(v)])),
    headers: {},
  });
  return result?.ok === true;
}
