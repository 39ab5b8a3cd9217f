/**
 * What the checks that provoke a documented error status share: take valid
 * inputs for an operation (records the run owns in its path, a valid body),
 * change exactly one thing that must draw the status, send it, and judge the
 * answer as a rejection that changes nothing. Each check names the one thing
 * it changes, so a server that ignores it is reported once, by that check
 * (architecture principle 6).
 */
import { stringifyJson } from '../json.js';
import { bodyProblems } from './valid-variants.js';
import type { Operation } from '../../src/contract/index.js';
import { answered, type CallInput } from '../requests/call.js';
import type { Case, RunContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { judgeRejection, prepareInputs, snapshot, stateChanged, writesAllowed, type PreparedInputs, type Snapshot } from './support.js';

export interface Provocation {
  readonly checkId: string;
  readonly operation: Operation;
  /** What was changed, for the title: "with Accept: text/html only". */
  readonly description: string;
  readonly mutation: NonNullable<CheckResult['mutation']>;
  /** The status the document promises for it. */
  readonly status: number;
  /** The request to send, built from valid inputs. */
  readonly request: (inputs: PreparedInputs) => CallInput;
  /** Inputs to take the "nothing changed" snapshot with (default: the valid inputs), e.g. narrowed to the unknown reference sent. */
  readonly snapshotInputs?: (inputs: PreparedInputs) => PreparedInputs;
  /** What the provocation needs made first (a record made and deleted, to name): a reason to skip the case, or undefined. */
  readonly setup?: (c: Case) => Promise<string | undefined>;
}

/** Sends one provocation and reports one case: the documented status, and nothing changed. */
export async function provokeStatus(ctx: RunContext, p: Provocation): Promise<void> {
  const where = `${p.operation.method.toUpperCase()} ${p.operation.pathTemplate}`;
  const c = ctx.newCase(p.checkId, `${where} ${p.description}`, p.operation.operationId);
  c.mutation = p.mutation;
  if (!writesAllowed(ctx, p.operation)) return c.skip('--read-only: the operation writes');
  const unready = await p.setup?.(c);
  if (unready !== undefined) return c.skip(unready);
  const prepared = await prepareInputs(c, p.operation);
  if (!prepared.ok) return prepared.fail(c);
  const inputs = prepared.inputs;
  // A safe method changes nothing by definition (RFC 9110 §9.2.1): no snapshot to compare.
  const safe = ['get', 'head', 'options'].includes(p.operation.method);
  const snapshotInputs = p.snapshotInputs?.(inputs) ?? inputs;
  const request = p.request(inputs);
  // The exact bytes, read back as the validators read a body (bodyProblems), must still be a valid body: the one change must be the only thing wrong.
  const text = request.bodyText ?? (request.body !== undefined ? stringifyJson(request.body) : undefined);
  const problems = text === undefined ? [] : bodyProblems(ctx, p.operation, text);
  if (problems.length > 0) return c.skip(`the body sent would not be valid (${problems[0]!.pointer} ${problems[0]!.message}), so a refusal would prove nothing`);
  const before: Snapshot | undefined = safe ? undefined : await snapshot(c, p.operation, snapshotInputs);
  const call = await c.call(p.operation, request);
  // A deprecated operation past its sunset answers 410 whatever was sent (contract.md, Deprecation); which of the two a server tells first, the contract leaves open.
  if (call.status === 410 && p.operation.deprecated && p.status !== 410) return c.skip(`${answered(call)}: the operation is past its sunset, so it is gone whatever the request; the 410 is sunset-410's to judge`);
  judgeRejection(c, call, p.status, before ? await stateChanged(c, before) : []);
}

/** The valid inputs as a call: path, query and the valid body (when the operation takes one). */
export function validCall(inputs: PreparedInputs): CallInput {
  return { path: inputs.path, query: inputs.query, ...(inputs.body !== undefined ? { body: inputs.body } : {}) };
}

/** The operations of the run that document `status`, in document order. */
export function documenting(ctx: RunContext, status: number): Operation[] {
  return ctx.operations.filter((op) => op.responses.has(String(status)));
}
