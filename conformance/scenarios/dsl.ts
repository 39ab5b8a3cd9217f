/**
 * A small language for the contract's state rules: a scenario is a list of
 * steps, each an operationId with parameters and a body, what to expect
 * (a status, field values) and what to save for later steps. Scenarios are
 * data (workflows.ts); this file runs them. A scenario whose operations the
 * document lacks is skipped, not failed: the rules belong to this contract,
 * the runner to any document.
 */
import type { Operation } from '../../src/contract/index.js';
import { sameValue } from '../compare.js';
import { answered, type Call, type Case, type ParamValue } from '../context.js';
import { isObject } from '../generate.js';
import { resolvePointer } from '../links.js';
import type { Finding } from '../model.js';

/**
 * A value in a step: JSON, a reference to something saved earlier
 * (`{ $var: 'pet#/id' }`), or a sum (`{ $add: [{ $var: 'stock#/quantity' }, 1] }`),
 * so a rule can be stated relative to the state just before ("cancelling
 * returns what was ordered") rather than to what earlier rules should have made it.
 */
export type Value = string | number | boolean | null | { readonly $var: string } | { readonly $add: readonly Value[] } | readonly Value[] | { readonly [key: string]: Value };

/** A field expectation: a value, one of several, or absence. */
export type Expectation = Value | { readonly $oneOf: readonly Value[] } | { readonly $absent: true };

export interface Step {
  readonly operationId: string;
  /** Why the step is there, for the report. */
  readonly note: string;
  /** Path and query parameters by name. */
  readonly params?: Readonly<Record<string, Value>>;
  /**
   * The body: a literal, or `$valid` for the generator's valid body of the
   * operation (its example, unique names) with `with` merged over it and
   * `without` removed.
   */
  readonly body?: Value | { readonly $valid: true; readonly with?: Readonly<Record<string, Value>>; readonly without?: readonly string[] };
  readonly expect: {
    /** A status, or `success` for any 2xx the operation documents. */
    readonly status: number | 'success';
    /** JSON pointer into the response body → expected value. */
    readonly fields?: Readonly<Record<string, Expectation>>;
    /**
     * For a list answer: the item whose `field` equals `equals`, and what it
     * holds (`fields`, pointers into the item) or that it is `absent`. When an
     * expected item is missing the scenario cannot judge its rule and is
     * skipped: a filter that does not hold is list-contains-created's finding.
     */
    readonly item?: { readonly field: string; readonly equals: Value; readonly fields?: Readonly<Record<string, Expectation>>; readonly absent?: true };
  };
  /** Saves the response body under a name, for `{ $var: 'name#/pointer' }`. */
  readonly save?: string;
}

export interface Scenario {
  readonly id: string;
  readonly description: string;
  /** The operation the rule is about: the result is filed under it, and --only/--skip by operation select it. */
  readonly subject: string;
  readonly steps: readonly Step[];
}

/** The operations a scenario needs. */
export function operationsOf(scenario: Scenario): string[] {
  return [...new Set(scenario.steps.map((s) => s.operationId))];
}

function isVar(value: unknown): value is { $var: string } {
  return isObject(value) && typeof value['$var'] === 'string' && Object.keys(value).length === 1;
}

function resolve(value: Value | undefined, saved: ReadonlyMap<string, unknown>): unknown {
  if (value === undefined) return undefined;
  if (isVar(value)) {
    const [name, pointer] = value.$var.split('#') as [string, string | undefined];
    return resolvePointer(saved.get(name), pointer ?? '');
  }
  if (isAdd(value)) {
    const parts = value.$add.map((v) => resolve(v, saved));
    return parts.every((p) => typeof p === 'number') ? (parts as number[]).reduce((a, b) => a + b, 0) : undefined;
  }
  if (Array.isArray(value)) return value.map((v: Value) => resolve(v, saved));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v as Value, saved)]));
  return value;
}

/** Runs the steps in order; the first step that does not hold fails the case (later steps depend on it). */
export async function runScenario(c: Case, scenario: Scenario): Promise<void> {
  const ctx = c.ctx;
  const saved = new Map<string, unknown>();
  for (const [index, step] of scenario.steps.entries()) {
    if (ctx.aborted) return c.skip('interrupted');
    const operation = ctx.contract.operationsById.get(step.operationId)!;
    const label = `step ${index + 1} (${step.operationId}: ${step.note})`;
    const path: Record<string, ParamValue> = {};
    const query: Record<string, ParamValue> = {};
    for (const [name, raw] of Object.entries(step.params ?? {})) {
      const value = resolve(raw, saved);
      const parameter = operation.parameters.find((p) => p.name === name);
      if (!parameter || value === undefined || value === null || typeof value === 'object') continue;
      (parameter.in === 'path' ? path : query)[name] = value as string | number | boolean;
    }
    let body: unknown;
    if (step.body !== undefined) {
      if (isValidSpec(step.body)) {
        const spec = step.body;
        const extra = isObject(resolve(spec.with ?? {}, saved)) ? (resolve(spec.with ?? {}, saved) as Record<string, unknown>) : {};
        const outcome = c.generator.validBodyOrReason(operation, extra);
        // No valid input, no verdict: skipped with the reason, never failed (issue 9, point 1).
        if (!outcome.ok) return c.skip(`${label}: ${outcome.reason}`);
        const generated = outcome.body;
        body = isObject(generated) ? { ...generated, ...extra } : generated;
        if (isObject(body)) for (const name of spec.without ?? []) delete body[name];
      } else {
        body = resolve(step.body as Value, saved);
      }
    }
    const call = await c.call(operation, { path, query, ...(body !== undefined ? { body } : {}) });
    // A wrong answer to the step itself is that operation's defect; a read that shows a wrong state is the rule's operation's (the scenario's subject).
    if (call.problem) return c.failOn(step.operationId, `${label}: ${call.problem}`);
    const status = call.status ?? 0;
    // `success` is any 2xx: whether it is the documented one is status-documented's to say.
    const expectedOk = step.expect.status === 'success' ? status >= 200 && status < 300 : status === step.expect.status;
    if (!expectedOk) {
      const expected = step.expect.status === 'success' ? successStatuses(operation).join(' or ') || '2xx' : step.expect.status;
      return c.failOn(step.operationId, `${label}: ${answered(call)}, expected ${expected}`, [{ pointer: `/steps/${index}/status`, keyword: 'status', message: `${label}: ${answered(call)}`, expected, actual: status }]);
    }
    let subject: unknown = call.json;
    let root = `/steps/${index}/body`;
    const item = step.expect.item;
    if (item) {
      const wanted = resolve(item.equals, saved);
      const list = Array.isArray(call.json) ? call.json : [];
      const at = list.findIndex((entry) => isObject(entry) && sameValue(wanted, entry[item.field]));
      if (item.absent) {
        if (at >= 0) return c.fail(`${label}: the list still holds ${item.field} ${JSON.stringify(wanted)}`, [{ pointer: `${root}/${at}`, keyword: 'absent', message: `${label}: ${item.field} ${JSON.stringify(wanted)} should be gone`, actual: list[at] }]);
        if (step.save) saved.set(step.save, savable(call));
        continue;
      }
      if (at < 0) return c.skip(`${label}: ${answered(call)} without ${item.field} ${JSON.stringify(wanted)}, so this rule cannot be judged (list-contains-created reports a filter that does not hold)`);
      subject = list[at];
      root = `${root}/${at}`;
    }
    const findings: Finding[] = [];
    for (const [pointer, raw] of Object.entries({ ...(step.expect.fields ?? {}), ...(item?.fields ?? {}) })) {
      const actual = resolvePointer(subject, pointer);
      if (typeof raw === 'object' && raw !== null && '$absent' in raw) {
        if (actual !== undefined) findings.push({ pointer: `${root}${pointer}`, keyword: 'absent', message: `${label}: ${pointer} should be absent`, actual });
        continue;
      }
      const options: unknown[] = isOneOf(raw) ? raw.$oneOf.map((v) => resolve(v, saved)) : [resolve(raw as Value, saved)];
      if (!options.some((expected) => sameValue(expected, actual))) {
        findings.push({ pointer: `${root}${pointer}`, keyword: 'state', message: `${label}: ${pointer} is ${JSON.stringify(actual)}, expected ${options.map((o) => JSON.stringify(o)).join(' or ')}`, expected: options.length === 1 ? options[0] : options, actual });
      }
    }
    if (findings.length > 0) return operation.method === 'get' ? c.fail(findings[0]!.message, findings) : c.failOn(step.operationId, findings[0]!.message, findings);
    if (step.save) saved.set(step.save, savable(call));
  }
  c.pass();
}

/** Past this size an answer is not kept for later steps: a record is far smaller, and a hostile 1 MiB list must not outlive its step (issue 12, finding 2). */
const MAX_SAVED_BYTES = 256 * 1024;

function savable(call: Call): unknown {
  return (call.result.exchange.response?.bodyBytes ?? 0) <= MAX_SAVED_BYTES ? call.json : undefined;
}

function isAdd(value: Value): value is { readonly $add: readonly Value[] } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$add' in value && Array.isArray(value.$add) && Object.keys(value).length === 1;
}

function isOneOf(raw: Expectation): raw is { readonly $oneOf: readonly Value[] } {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && '$oneOf' in raw && Array.isArray(raw.$oneOf);
}

function isValidSpec(body: Step['body']): body is { readonly $valid: true; readonly with?: Readonly<Record<string, Value>>; readonly without?: readonly string[] } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && '$valid' in body && body.$valid === true;
}

function successStatuses(operation: Operation): number[] {
  return [...operation.responses.keys()].filter((k) => /^2\d\d$/.test(k)).map(Number);
}
