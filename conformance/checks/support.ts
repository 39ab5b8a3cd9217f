/**
 * What several active checks need: valid inputs for an operation (records
 * the run owns for its path ids, a valid body), a snapshot of the state an
 * invalid request must not change, the verdict on an answer to an invalid
 * request, and reading a collection without paging through it.
 */
import type { Contract, MediaTypeSpec, Operation, ParameterSpec } from '../../src/contract/index.js';
import { answered, type Call, type CallInput } from '../requests/call.js';
import type { Case, CreatedRecord, RunContext } from '../context.js';
import { expandPath } from '../requests/paths.js';
import type { ParamValue } from '../requests/values.js';
import { coerceText } from '../../src/schema/index.js';
import { ABSENT_ID, absentIdCandidates, isObject, jsonBodyOf, propertiesOf, sampleParameterText, schema, type Schema } from '../generate.js';
import { excerptJson } from '../json.js';
import { deepestPathFirst, evaluateExpression, identityField, okSchema, parentsNamedBy, pathProducer, type ResourceKind } from '../links.js';
import { memberNamedBy } from '../own-keys.js';
import type { Finding } from '../model.js';
import { declaredFields, declaredProperties, sameRecord, sameValue } from '../compare.js';
import { goneBySunset } from './sunset-410.js';
import { listedPathValue, READ_METHODS } from './listed-records.js';

export interface PreparedInputs {
  readonly path: Record<string, ParamValue>;
  readonly query: Record<string, ParamValue>;
  /** A valid body (undefined when the operation takes none). */
  readonly body?: unknown;
  /** Values bound into the body from records the run owns (`categoryId`), reused by later inputs. */
  readonly bindings: Record<string, unknown>;
  /**
   * Whether a path parameter holds a value the runner made up (no record the run created names it, or an example
   * under --read-only): the URL may name nothing, and a 404 is a correct refusal of any request to it.
   */
  readonly madeUpPath?: boolean;
  /**
   * Whether a path parameter names a record the target listed (listed-records.ts), for a read: the target's record,
   * not the run's, which its item path may still not show (a 404 refuses a request to it as rightly).
   */
  readonly listedPath?: boolean;
}

export type Prepared = { readonly ok: true; readonly inputs: PreparedInputs } | { readonly ok: false; readonly fail: (c: Case) => void };

/** One operation with a JSON request body, and valid inputs prepared for it (jsonBodyOperations). */
export interface BodyOperation {
  readonly operation: Operation;
  readonly media: MediaTypeSpec;
  /** `POST /pets`: how the cases of the operation are titled. */
  readonly where: string;
  readonly inputs: PreparedInputs;
}

/**
 * The operations that take a JSON body, each with valid inputs prepared under a setup case of `checkId` titled
 * `${where}: ${setupTitle}`: the loop the body checks (malformed-json, negative-body, unsupported-media-type)
 * each wrote out. An operation whose inputs cannot be prepared fails (or skips) its setup case and is left out;
 * `withSchema` leaves out a body declared without a schema; the loop ends when the run is aborted.
 */
export async function* jsonBodyOperations(ctx: RunContext, checkId: string, setupTitle: string, withSchema = false): AsyncGenerator<BodyOperation> {
  for (const operation of ctx.operations) {
    const media = jsonBodyOf(operation);
    if (!media || (withSchema && !media.schema) || ctx.aborted) continue;
    const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
    const setup = ctx.newCase(checkId, `${where}: ${setupTitle}`, operation.operationId);
    const prepared = await prepareInputs(setup, operation);
    if (!prepared.ok) {
      prepared.fail(setup);
      continue;
    }
    yield { operation, media, where, inputs: prepared.inputs };
  }
}

/**
 * Valid inputs for an operation. Path parameters that name a record (by
 * the links' producers: `petId` → createPet) get a record the run creates
 * for the purpose, so nothing the run did not create is touched; with
 * `absent` they get a valid id no record has. Under --read-only nothing is
 * created: the document's examples stand in.
 */
export async function prepareInputs(c: Case, operation: Operation, options: { absent?: boolean } = {}): Promise<Prepared> {
  const ctx = c.ctx;
  const path: Record<string, ParamValue> = {};
  const query: Record<string, ParamValue> = {};
  const bindings: Record<string, unknown> = {};
  let listedPath = false;
  // The parameters given a made-up value, deepest first.
  const madeUp: ParameterSpec[] = [];
  const putKind = ctx.links.putKinds.get(operation.operationId);
  // The values of parent parameters a record made below them was created in (`tasklist` of the task made for
  // `/lists/{tasklist}/tasks/{task}`): the deepest record is made first, and its parents are the ones its create named,
  // so the path names a task in its own list, never in another list made for the same request.
  const madeIn: Record<string, ParamValue> = {};
  for (const parameter of deepestPathFirst(operation)) {
    if (parameter.in === 'path') {
      const producer = pathProducer(ctx.links, operation, parameter.name);
      if (producer && !options.absent && madeIn[parameter.name] !== undefined) {
        path[parameter.name] = madeIn[parameter.name]!;
      } else if (producer && options.absent) {
        const absent = absentIdFor(c, parameter);
        if (absent === undefined) return { ok: false, fail: (k) => k.skip(`no value valid for ${parameter.name}'s schema that names no record`) };
        path[parameter.name] = absent;
      } else if (producer && !ctx.settings.readOnly) {
        const outcome = await c.create(producer.kind, { setup: true });
        if (!outcome.ok) return { ok: false, fail: (k) => k.setupFailed(outcome) };
        const value = evaluateExpression(producer.expression, outcome.record.call.source);
        // A record without the value its link names (an answer in an envelope, a field left out) gives no id to send:
        // `/things/undefined` would be a request the runner made up, and its refusal blamed on the target.
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') {
          return { ok: false, fail: (k) => k.skip(`the ${producer.kind.create.operationId} answer holds no ${parameter.name} where ${producer.expression} points, so there is no id to send`) };
        }
        path[parameter.name] = String(value);
        Object.assign(madeIn, parentsNamedBy(producer.kind, outcome.record.call.source, operation));
      } else if (putKind?.keyParameter === parameter.name && !ctx.settings.readOnly) {
        // The key a PUT makes its record at (links.ts putCreates) is never a made-up word, which may name a record the
        // target holds (the PUT would overwrite it, and what it made there would not be the run's to delete): a record
        // the run made with that PUT, so a check replaces what it owns; for an absent id, a key of the run's own.
        if (options.absent) {
          path[parameter.name] = c.ownPathKey(parameter) ?? madeUpPathValue(c, operation, parameter);
        } else {
          const outcome = await c.create(putKind, { setup: true });
          if (!outcome.ok) return { ok: false, fail: (k) => k.setupFailed(outcome) };
          const key = evaluateExpression(`$request.path.${parameter.name}`, outcome.record.call.source);
          path[parameter.name] = String(key);
          // A body member the key names (`reportId` for `{reportId}`) is sent the key the path holds, and kept so.
          const member = memberNamedBy(parameter.name, propertiesOf(jsonBodyOf(operation)?.schema));
          if (member !== undefined) bindings[member] = key;
        }
      } else {
        path[parameter.name] = madeUpPathValue(c, operation, parameter);
        madeUp.push(parameter);
      }
    } else if (parameter.in === 'query' && parameter.required) {
      // Typed, so an array keeps its items and an object its keys; call() writes them by the parameter's style (issue 11, point 3).
      query[parameter.name] = ctx.requests.validParameterValue(parameter, c.generator) ?? sampleParameterText(parameter, c.generator);
    }
  }
  let madeUpPath = madeUp.length > 0;
  // A read of a record no create of the run makes: one the target lists, where it lists any (listed-records.ts),
  // parents first, so a list below a listed record (`/workspaces/{w}/users`) is read under it.
  if (madeUp.length > 0 && !options.absent && READ_METHODS.has(operation.method)) {
    let left = madeUp.length;
    for (const parameter of [...madeUp].reverse()) {
      const listed = await listedPathValue(c, operation, parameter, path, (text) => parameterTextValid(ctx, parameter, text));
      if (listed === undefined) continue;
      path[parameter.name] = listed;
      left -= 1;
    }
    listedPath = left < madeUp.length;
    madeUpPath = left > 0;
  }
  const media = jsonBodyOf(operation);
  if (!media) {
    // Ids the run owns, examples or samples: whatever they are, they are checked as the texts sent before anything is called valid.
    const valid = options.absent ? { ok: true as const } : c.checkValid(operation, { path, query });
    if (!valid.ok) return { ok: false, fail: (k) => k.skip(valid.reason) };
    return { ok: true, inputs: { path, query, bindings, ...(madeUpPath ? { madeUpPath } : {}), ...(listedPath ? { listedPath } : {}) } };
  }
  for (const name of Object.keys(propertiesOf(media.schema))) {
    const producer = ctx.links.producers.get(name);
    // A member bound above is the record's own key (`slug` for `/users/{userSlug}`): not a reference to the kind another
    // path names by the same word (`/projects/{slug}`), whose record's slug the PUT would send against its own path.
    if (!producer || ctx.links.kinds.get(operation.operationId) === producer.kind || name in bindings) continue;
    if (ctx.settings.readOnly) continue;
    const outcome = await c.create(producer.kind, { setup: true });
    if (!outcome.ok) return { ok: false, fail: (k) => k.setupFailed(outcome) };
    bindings[name] = evaluateExpression(producer.expression, outcome.record.call.source);
  }
  const generated = c.generator.validBodyOrReason(operation, bindings);
  if (!generated.ok) return { ok: false, fail: (k) => k.skip(generated.reason) };
  // A create's client-chosen key is the run's own, fresh for each preparation (context.ts ownKey).
  const body = c.ownKey(operation, generated.body);
  const valid = c.checkValid(operation, { path, query, body });
  if (!valid.ok) return { ok: false, fail: (k) => k.skip(valid.reason) };
  return { ok: true, inputs: { path, query, body, bindings, ...(madeUpPath ? { madeUpPath } : {}), ...(listedPath ? { listedPath } : {}) } };
}

/**
 * A value the runner makes up for a path parameter, valid for the parameter of the same name of every other operation
 * on the path too, where their schemas differ (Sonarr's `PUT /api/v3/config/host/{id}` takes a string id, its GET an
 * int32): the checks carry one operation's path values to the others on its path (replace-visible's read after the
 * PUT, a snapshot's read: carryRefusal), and a value only one of them takes is a request the runner made invalid. The
 * operation's own value where the others take it; else the first of theirs the operation takes as well; else its own
 * (the read that cannot take it is then skipped with the reason, never sent).
 */
function madeUpPathValue(c: Case, operation: Operation, parameter: ParameterSpec): ParamValue {
  const own = styledValue(c, parameter) ?? sampleParameterText(parameter, c.generator);
  const others = samePathParameters(c.ctx.contract, operation, parameter);
  if (others.every((other) => parameterValueValid(c.ctx, other, own))) return own;
  for (const other of others) {
    const candidates = [c.ctx.requests.validParameterValue(other, c.generator), sampleParameterText(other, c.generator), ...absentIdCandidates(other, c.generator)];
    const both = candidates.find((candidate): candidate is ParamValue => candidate !== undefined && [parameter, ...others].every((p) => parameterValueValid(c.ctx, p, candidate)));
    if (both !== undefined) return both;
  }
  return own;
}

/** The path parameters named `parameter.name` of the other operations on `operation`'s path whose schema differs from its own. */
function samePathParameters(contract: Contract, operation: Operation, parameter: ParameterSpec): ParameterSpec[] {
  return contract.operations
    .filter((op) => op !== operation && op.pathTemplate === operation.pathTemplate)
    .flatMap((op) => op.parameters.filter((p) => p.in === parameter.in && p.name === parameter.name && !sameParameterSchema(p, parameter)));
}

/** Whether two parameters have one schema (the same object, or the same JSON text; a schema that holds itself is compared by object only). */
function sameParameterSchema(a: ParameterSpec, b: ParameterSpec): boolean {
  if (a.schema === b.schema) return true;
  try {
    return JSON.stringify(a.schema) === JSON.stringify(b.schema);
  } catch {
    return false;
  }
}

/** Whether a parameter value is valid for the parameter's schema: a scalar as the text sent, an array or object as typed. */
function parameterValueValid(ctx: RunContext, parameter: ParameterSpec, value: ParamValue): boolean {
  if (typeof value === 'object') return ctx.compiled.validate(parameter.schema, value, 'request').length === 0;
  return parameterTextValid(ctx, parameter, String(value));
}

/**
 * Why path and query values prepared for `from` must not be carried to `to`, another operation on the same path (the
 * read replace-visible makes after a PUT, the read a snapshot makes around a write), or undefined when they may: a
 * value `to` declares a parameter for, with another schema than `from`'s, that `to`'s own schema refuses (Sonarr's GET
 * with an int32 `id` sent the string `brief` a PUT takes). Such a read would be a request the runner made invalid,
 * and its refusal no answer about the record; the check skips it with this reason instead.
 */
export function carryRefusal(ctx: RunContext, from: Operation, to: Operation, input: { readonly path?: Readonly<Record<string, ParamValue>>; readonly query?: Readonly<Record<string, ParamValue>> }): string | undefined {
  for (const location of ['path', 'query'] as const) {
    for (const [name, value] of Object.entries(input[location] ?? {})) {
      const receiving = to.parameters.find((p) => p.in === location && p.name === name);
      const sending = from.parameters.find((p) => p.in === location && p.name === name);
      if (!receiving || (sending && sameParameterSchema(sending, receiving))) continue;
      if (parameterValueValid(ctx, receiving, value)) continue;
      return `the ${location} parameter ${name} = ${JSON.stringify(typeof value === 'bigint' ? String(value) : value)}, valid for ${from.operationId}, is not valid for ${to.operationId}'s own ${name} schema, and no value valid for both was found: ${to.operationId} is not sent it`;
    }
  }
  return undefined;
}

/** A typed value for a path parameter written by its style (an array, an object, label or matrix); undefined for a plain one. */
function styledValue(c: Case, parameter: ParameterSpec): ParamValue | undefined {
  const styled = parameter.schema.type === 'array' || parameter.schema.type === 'object' || (parameter.style !== undefined && parameter.style !== 'simple');
  return styled ? c.ctx.requests.validParameterValue(parameter, c.generator) : undefined;
}

/**
 * A valid id no record has, for one path parameter: the first of the
 * generator's candidates (generate.ts absentIdCandidates) that the
 * parameter's own schema accepts as the text sent, so that a 404 is the only
 * right answer (issue 11, point 4: an integer for a uuid id would rightly get 400).
 */
export function absentIdFor(c: Case, parameter: ParameterSpec): string | undefined {
  return absentIdCandidates(parameter, c.generator).find((text) => parameterTextValid(c.ctx, parameter, text));
}

/** Whether a parameter's text, coerced as its schema says, is valid for that schema. */
export function parameterTextValid(ctx: RunContext, parameter: ParameterSpec, text: string): boolean {
  const coerced = coerceText(text, parameter.schema);
  return coerced.ok && ctx.compiled.validate(parameter.schema, coerced.value, 'request').length === 0;
}

/**
 * Runs an observation of the records an operation's path touches (a snapshot, the request, the read after) holding
 * that path, so no other check's write lands inside it (shared-records.ts).
 */
export function observing<T>(c: Case, operation: Operation, path: Readonly<Record<string, ParamValue>>, observation: () => Promise<T>): Promise<T> {
  return c.observeRecords(expandPath(operation.pathTemplate, path, operation.parameters), observation);
}

/** What an invalid request must leave unchanged, read twice before it was sent and found stable. */
export type Snapshot =
  | { readonly kind: 'count'; readonly value: number; readonly describe: string; readonly read: SnapshotRead }
  | { readonly kind: 'record'; readonly value: unknown; readonly describe: string; readonly read: SnapshotRead }
  | { readonly kind: 'none'; readonly reason: string };

/** How a snapshot is taken, so the same read can be made again after the request. */
interface SnapshotRead {
  /** Names the read for the run's list of unstable reads (`record getPet`). */
  readonly key: string;
  readonly operation: Operation;
  readonly input: CallInput;
  readonly schema?: Schema;
}

type Taken = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/**
 * A create operation: the count of its collection (X-Total-Count, narrowed to
 * a parent the run owns when the list can filter by it, so other data and
 * other clients do not move it). Anything else on a path: the record read
 * through the GET of the same path.
 *
 * The read is made twice: a difference is only ever blamed on a request when
 * the same read was stable without it. A read that is not (a field computed
 * per read, a stateless stub) is noted once in the run (`ctx.unstableReads`;
 * stable-reads owns that finding) and no request is blamed for it afterwards.
 */
export async function snapshot(c: Case, operation: Operation, inputs: PreparedInputs): Promise<Snapshot> {
  const ctx = c.ctx;
  const kind = ctx.links.kinds.get(operation.operationId);
  let read: SnapshotRead;
  let describe: string;
  if (kind) {
    if (!kind.list) return { kind: 'none', reason: `${operation.operationId} has no list operation to count with` };
    const narrowing = narrowingQuery(kind, inputs.bindings);
    // A nested collection is counted under the parent the request names (`/lists/{tasklist}/tasks`: its path is the create's).
    read = { key: `count ${kind.list.operationId}`, operation: kind.list, input: { ...(Object.keys(inputs.path).length > 0 ? { path: inputs.path } : {}), query: { ...narrowing, ...limitOne(kind.list) } } };
    describe = `the X-Total-Count of ${kind.list.operationId}${Object.keys(narrowing).length ? ` filtered by ${Object.keys(narrowing).join(', ')}` : ''}`;
  } else {
    const get = ctx.contract.operations.find((op) => op.method === 'get' && op.pathTemplate === operation.pathTemplate);
    if (!get || ctx.settings.readOnly) return { kind: 'none', reason: 'no read of the same path' };
    const refusal = carryRefusal(ctx, operation, get, { path: inputs.path });
    if (refusal !== undefined) return { kind: 'none', reason: refusal };
    const recordSchema = okSchema(get);
    read = { key: `record ${get.operationId}`, operation: get, input: { path: inputs.path }, ...(recordSchema ? { schema: schema(recordSchema) } : {}) };
    describe = `the record read by ${get.operationId}`;
  }
  const known = ctx.unstableReads.get(read.key);
  if (known) return { kind: 'none', reason: `${read.key} is not stable (${known}); stable-reads reports it` };
  const first = await take(c, read);
  if (!first.ok) return { kind: 'none', reason: first.reason };
  const second = await take(c, read);
  if (!second.ok) return { kind: 'none', reason: second.reason };
  if (!same(read, first.value, second.value)) {
    const detail = `two reads with nothing sent between them differ: ${excerptJson(first.value, 80)} then ${excerptJson(second.value, 80)}`;
    ctx.unstableReads.set(read.key, detail);
    return { kind: 'none', reason: `${read.key} is not stable (${detail}); stable-reads reports it` };
  }
  return kind ? { kind: 'count', value: second.value as number, describe, read } : { kind: 'record', value: second.value, describe, read };
}

async function take(c: Case, read: SnapshotRead): Promise<Taken> {
  const call = await c.call(read.operation, read.input);
  if (read.key.startsWith('count ')) {
    const count = totalCount(call);
    return count === undefined ? { ok: false, reason: `${answered(call)} without a usable X-Total-Count` } : { ok: true, value: count };
  }
  return readSucceeded(read.operation, call.status) ? { ok: true, value: call.json } : { ok: false, reason: answered(call) };
}

function same(read: SnapshotRead, a: unknown, b: unknown): boolean {
  return read.key.startsWith('count ') ? a === b : sameRecord(a, b, read.schema);
}

/**
 * Findings when the state a snapshot took changed since: the same read again,
 * and when it differs, once more, so only a new state that holds is blamed on
 * the request (a read that flickers is noted as unstable instead).
 */
export async function stateChanged(c: Case, before: Snapshot): Promise<Finding[]> {
  if (before.kind === 'none') return [];
  const { read } = before;
  if (c.ctx.unstableReads.has(read.key)) return [];
  const after = await take(c, read);
  if (!after.ok || same(read, before.value, after.value)) return [];
  const again = await take(c, read);
  if (!again.ok) return [];
  if (!same(read, after.value, again.value)) {
    c.ctx.unstableReads.set(read.key, `reads differ from one another: ${excerptJson(after.value, 80)} then ${excerptJson(again.value, 80)}`);
    return [];
  }
  if (before.kind === 'count') {
    return [{ pointer: '/header/x-total-count', keyword: 'unchanged', message: `${before.describe} went from ${String(before.value)} to ${String(after.value)}: the rejected request created something`, expected: before.value, actual: after.value }];
  }
  return [{ pointer: '/body', keyword: 'unchanged', message: `${before.describe} changed in the fields the document declares: the rejected request changed it`, expected: before.value, actual: after.value }];
}

/** Query values that narrow a collection to records under a parent the run owns (`listPets?categoryId=<own>`). */
export function narrowingQuery(kind: ResourceKind, bindings: Readonly<Record<string, unknown>>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const parameter of kind.list?.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    const value = bindings[parameter.name];
    if (typeof value === 'string' || typeof value === 'number') out[parameter.name] = value;
  }
  return out;
}

export function limitOne(list: Operation): Record<string, ParamValue> {
  return list.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? { limit: 1 } : {};
}

export function totalCount(call: Call): number | undefined {
  const text = call.headers['x-total-count'];
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
}

/**
 * The verdict on the answer to an invalid request: a 4xx (the one the
 * document names, when it names one) and nothing changed. A 5xx is left to
 * no-server-error and an Error body to error-shape, so one defect is
 * reported once.
 */
export function judgeRejection(c: Case, call: Call, expected: number | readonly number[] | undefined, changed: readonly Finding[], inputs?: PreparedInputs): void {
  const documented = expected === undefined ? [] : typeof expected === 'number' ? [expected] : expected;
  // A URL whose id the runner made up may name nothing: the server may say so before it reads the body (RFC 9110
  // orders neither), so 404 refuses the request as rightly as the documented status.
  const accepted = (inputs?.madeUpPath || inputs?.listedPath) && documented.length > 0 && !documented.includes(404) ? [...documented, 404] : documented;
  const expectedStatus = accepted.length === 0 ? undefined : accepted.length === 1 ? accepted[0] : accepted.join(' or ');
  if (call.problem) return c.fail(call.problem);
  const status = call.status ?? 0;
  if (status >= 500) return c.skip(`answered ${status}; that is no-server-error's finding`);
  const operation = c.operationId !== undefined ? c.ctx.contract.operationsById.get(c.operationId) : undefined;
  if (operation && goneBySunset(operation, status)) {
    // A sunset operation may refuse everything with 410 (sunset-410 judges whether the sunset has passed).
    return changed.length > 0 ? c.fail(changed[0]!.message, changed) : c.pass();
  }
  if (status < 400) {
    return c.fail(`accepted: answered ${status} to an invalid request`, [
      { pointer: '/status', keyword: 'rejected', message: `an invalid request must get a 4xx, not ${status}`, expected: expectedStatus ?? '4xx', actual: status },
      ...changed,
    ]);
  }
  if (accepted.length > 0 && !accepted.includes(status)) {
    return c.fail(`answered ${status}, not ${expectedStatus}`, [{ pointer: '/status', keyword: 'status', message: `the document answers this with ${expectedStatus}`, expected: expectedStatus, actual: status }, ...changed]);
  }
  if (changed.length > 0) return c.fail(changed[0]!.message, changed);
  c.pass();
}

/** The status to expect when the operation documents it, else any 4xx. */
/**
 * The statuses that may refuse a request whose content breaks the schema: 400, and also 422 where the operation
 * documents both and nothing says which is meant (RFC 9110 §15.5.21: 422 is for well-formed content the server
 * cannot process, which a schema violation is; many APIs answer it). A document with an error catalogue
 * (`x-error-codes`, ours) names the one status its validation error has, so that one alone is accepted.
 */
export function validationStatuses(contract: Contract, operation: Operation): number | readonly number[] | undefined {
  const documented = [400, 422].filter((status) => operation.responses.has(String(status)));
  if (contract.errorCodes.size > 0 || documented.length < 2) return documentedStatus(operation, 400);
  return documented;
}

/**
 * The fields of `expected` an operation's answer promises: those its 2xx JSON schema declares, when it declares
 * any (a free-form answer promises everything). A field only another representation declares is not looked for.
 */
export function promisedBy(operation: Operation, expected: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (promisesNoBody(operation)) return {};
  const answer = answerSchema(operation);
  return answer ? declaredFields(expected, answer) : { ...expected };
}

/**
 * Whether a read answered with a success its operation documents: any documented 2xx (`2XX` too), or 200 where the
 * operation documents none (PagerDuty's `GET /incident_workflows/{id}` documents only a 201: a 201 is its success).
 */
export function readSucceeded(operation: Operation, status: number | undefined): boolean {
  if (status === undefined) return false;
  const documented = [...operation.responses.keys()].filter((code) => /^2/.test(code));
  if (documented.length === 0) return status === 200;
  return documented.some((code) => code.toUpperCase() === '2XX' ? status >= 200 && status < 300 : Number(code) === status);
}

/** The success a read is expected to answer, for a finding's `expected`: its first documented 2xx, else 200. */
export function readSuccess(operation: Operation): number {
  const first = [...operation.responses.keys()].find((code) => /^2\d\d$/.test(code));
  return first ? Number(first) : 200;
}

/**
 * Whether every 2xx answer of the operation is documented with no content (`200: { description }` only): it promises
 * no body, so no field of it; an empty answer is what the document allows (readme.com's legacy reads).
 */
export function promisesNoBody(operation: Operation): boolean {
  const successes = [...operation.responses].filter(([status]) => /^2/.test(status));
  return successes.length > 0 && successes.every(([, response]) => response.content.length === 0);
}

/**
 * The schema of an operation's first documented 2xx JSON answer, when it declares properties: what that answer
 * promises, field by field (its types and formats, which may differ from the request's or the created record's).
 */
export function answerSchema(operation: Operation): Schema | undefined {
  const answer = [...operation.responses].find(([status]) => /^2/.test(status))?.[1].content.find((m) => /json/i.test(m.mediaType))?.schema;
  return declaredProperties(schema(answer)) ? schema(answer) : undefined;
}

export function documentedStatus(operation: Operation, status: number): number | undefined {
  return operation.responses.has(String(status)) ? status : undefined;
}

/** The record with this identity in a list body, if any. */
export function findItem(list: unknown, field: string | undefined, id: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(list) || field === undefined) return undefined;
  return list.find((item): item is Record<string, unknown> => isObject(item) && sameValue(item[field], id));
}

/** The id of a created record (what its links bind). */
export function idOf(record: CreatedRecord): unknown {
  const field = identityField(record.kind);
  return field ? record.body[field] : undefined;
}

/** A value of the same parameter that differs from `value` (another enum value, the other boolean, an absent id). */
export function otherValue(parameter: ParameterSpec, value: unknown): ParamValue | undefined {
  const s = parameter.schema;
  if (s.enum) {
    const other = s.enum.find((v) => v !== value);
    return typeof other === 'string' || typeof other === 'number' || typeof other === 'boolean' ? other : undefined;
  }
  if (s.type === 'boolean') return !(value === true || value === 'true');
  if (s.type === 'integer') return ABSENT_ID;
  return undefined;
}

/**
 * Where a URI reference from the target points. The document's Location
 * is "relative to the server's base URL or absolute": a path that already
 * carries the base path is taken as is, any other absolute path gets the
 * base path prepended; other relative references resolve against the
 * request (RFC 3986 §5).
 */
export function resolveReference(reference: string, baseUrl: string, requestUrl: string): URL | undefined {
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('//')) return new URL(reference, requestUrl);
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (reference.startsWith('/')) {
      const path = prefix && (reference === prefix || reference.startsWith(`${prefix}/`) || reference.startsWith(`${prefix}?`)) ? reference : `${prefix}${reference}`;
      return new URL(path, base.origin);
    }
    return new URL(reference, requestUrl);
  } catch {
    return undefined;
  }
}

/**
 * Whether a check may send an operation beside its subject (a DELETE to make a record gone, a list read after it):
 * one that --only/--skip leave in, in whichever shard it is judged; a sharded run must send what a run in one piece
 * sends, or their verdicts differ.
 */
export function inRun(ctx: RunContext, operation: Operation): boolean {
  return ctx.settings.runSelection?.has(operation.operationId) ?? ctx.isSelected(operation);
}

/** The operations of the run (selected) that a check applies to, with a skip for each one read-only leaves out. */
export function writesAllowed(ctx: RunContext, operation: Operation): boolean {
  return !ctx.settings.readOnly || ['get', 'head', 'options'].includes(operation.method);
}
