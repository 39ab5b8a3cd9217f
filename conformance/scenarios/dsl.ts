/**
 * A small language for the contract's state rules: a scenario is a list of
 * steps, each an operationId with parameters and a body, what to expect
 * (a status, field values) and what to save for later steps. Scenarios are
 * data (workflows.ts); this file runs them. A scenario whose operations the
 * document lacks is skipped, not failed: the rules belong to this contract,
 * the runner to any document.
 */
import type { Contract, Operation } from '../../src/contract/index.js';
import { stringifyJson } from '../json.js';
import { totalCount } from '../checks/support.js';
import { sameValue } from '../compare.js';
import { answered, type Call } from '../requests/call.js';
import type { Case } from '../context.js';
import type { ParamValue } from '../requests/values.js';
import { isObject } from '../generate.js';
import { resolvePointer } from '../links.js';
import type { Finding } from '../model.js';

/**
 * A value in a step: JSON, a reference to something saved earlier
 * (`{ $var: 'pet#/id' }`), or a sum (`{ $add: [{ $var: 'stock#/quantity' }, 1] }`),
 * so a rule can be stated relative to the state just before ("cancelling
 * returns what was ordered") rather than to what earlier rules should have made it.
 */
export type Value =
  | string
  | number
  | boolean
  | null
  | { readonly $var: string }
  /** The X-Total-Count of a saved answer. */
  | { readonly $count: string }
  | { readonly $add: readonly Value[] }
  /** A text with every letter in the other case (`Rex` -> `rEX`). */
  | { readonly $otherCase: Value }
  | readonly Value[]
  | { readonly [key: string]: Value };

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
    /**
     * Statuses a correct server may answer instead, which end the scenario there, passed: the contract leaves open
     * whether the step is allowed at all (a replace that marks a pet with an open order available may be refused
     * with 409), and the steps after it judge only a server that allowed it.
     */
    readonly endsOn?: readonly number[];
    /** JSON pointer into the response body → expected value. */
    readonly fields?: Readonly<Record<string, Expectation>>;
    /**
     * For a list answer: the item whose `field` equals `equals`, and what it
     * holds (`fields`, pointers into the item) or that it is `absent`. When an
     * expected item is missing the scenario cannot judge its rule and is
     * skipped: a filter that does not hold is list-contains-created's finding.
     */
    readonly item?: { readonly field: string; readonly equals: Value; readonly fields?: Readonly<Record<string, Expectation>>; readonly absent?: true };
    /** For a list answer: its items' `field` values are exactly these, in any order. */
    readonly only?: { readonly field: string; readonly equals: readonly Value[] };
    /** For a list answer: what every item holds (pointers into the item). */
    readonly every?: Readonly<Record<string, Expectation>>;
    /** For a list answer: how many items the page holds. */
    readonly length?: Value;
    /** The X-Total-Count header, as a number. */
    readonly count?: Value;
  };
  /**
   * The check that owns a failure of this step, when it is not this
   * scenario's rule (a filter that does not hold is list-contains-created's,
   * a count under a plain narrowing total-count's): the scenario is then
   * skipped rather than failed, so one defect is reported once, and the
   * steps after it are judged on a base that held.
   */
  readonly owner?: string;
  /** Saves the response body under a name, for `{ $var: 'name#/pointer' }`, and its X-Total-Count, for `{ $count: 'name' }`. */
  readonly save?: string;
  /**
   * Sends the step `times` times at once, as clients do who click together: a state rule holds whatever order the
   * server takes them in, so at most `atMost` of them succeed, at least one does, and every other answers
   * `othersAnswer`. The first success is then judged and saved as the step's answer. A server that checks a rule,
   * awaits, then writes lets them all through; a runner held to one connection (`--concurrency 1`) sends them in turn,
   * and a correct server passes either way.
   */
  readonly atOnce?: { readonly times: number; readonly atMost: number; readonly othersAnswer: number };
  /**
   * Sent only where the document says what the step relies on in words (the operation's description, its
   * responses' and the error catalogue's descriptions for the expected status match): a rule the contract leaves to
   * each document (names unique whatever their case) is judged only where the document states it.
   */
  readonly documented?: RegExp;
}

export interface Scenario {
  readonly id: string;
  readonly description: string;
  /** The operation the rule is about: the result is filed under it, and --only/--skip by operation select it. */
  readonly subject: string;
  /** Compares counts of whole collections, which records other checks create side by side would move: runs alone. */
  readonly exclusive?: boolean;
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
  if (isCount(value)) return saved.get(`${value.$count}#count`);
  if (isOtherCase(value)) {
    const text = resolve(value.$otherCase, saved);
    return typeof text === 'string' ? [...text].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('') : undefined;
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
    if (step.documented && !step.documented.test(documentWords(ctx.contract, operation, step.expect.status))) continue;
    const path: Record<string, ParamValue> = {};
    const query: Record<string, ParamValue> = {};
    for (const [name, raw] of Object.entries(step.params ?? {})) {
      const value = resolve(raw, saved);
      const parameter = operation.parameters.find((p) => p.name === name);
      if (!parameter || value === undefined || value === null) continue;
      if (Array.isArray(value)) {
        // A repeatable query parameter (`?id=1&id=2`, style form, explode true).
        // An id past 2^53 (a bigint once JSON is read losslessly) goes out as its digits.
        const items = value.flatMap((v): (string | number | boolean)[] => (typeof v === 'bigint' ? [v.toString()] : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? [v] : []));
        if (parameter.in === 'query') query[name] = items;
        continue;
      }
      if (typeof value === 'object') continue;
      (parameter.in === 'path' ? path : query)[name] = typeof value === 'bigint' ? value.toString() : (value as string | number | boolean);
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
    const send = (): Promise<Call> => c.call(operation, { path, query, ...(body !== undefined ? { body } : {}) });
    let call: Call;
    if (step.atOnce) {
      const calls = await Promise.all(Array.from({ length: step.atOnce.times }, send));
      const broken = calls.find((one) => one.problem);
      if (broken) return c.failOn(step.operationId, `${label}: ${broken.problem}`);
      const successes = calls.filter((one) => one.status !== undefined && one.status >= 200 && one.status < 300);
      const stray = calls.find((one) => !successes.includes(one) && one.status !== step.atOnce!.othersAnswer);
      if (successes.length > step.atOnce.atMost || stray) {
        const statuses = calls.map((one) => one.status ?? 0);
        const message = stray
          ? `${label}: one of the ${calls.length} requests sent at once ${answered(stray)}, expected 2xx for at most ${step.atOnce.atMost} and ${step.atOnce.othersAnswer} for the rest`
          : `${label}: ${successes.length} of the ${calls.length} requests sent at once succeeded, at most ${step.atOnce.atMost} may (${statuses.join(', ')})`;
        return step.owner ? c.skip(`${message}; that is ${step.owner}'s finding`) : c.failOn(step.operationId, message, [{ pointer: `/steps/${index}/status`, keyword: 'concurrency', message, expected: `at most ${step.atOnce.atMost} success, ${step.atOnce.othersAnswer} for the rest`, actual: statuses }]);
      }
      call = successes[0] ?? calls[0]!;
    } else call = await send();
    // A wrong answer to the step itself is that operation's defect; a read that shows a wrong state is the rule's operation's (the scenario's subject).
    if (call.problem) return c.failOn(step.operationId, `${label}: ${call.problem}`);
    const status = call.status ?? 0;
    // `success` is any 2xx: whether it is the documented one is status-documented's to say.
    const expectedOk = step.expect.status === 'success' ? status >= 200 && status < 300 : status === step.expect.status;
    if (!expectedOk && step.expect.endsOn?.includes(status)) return c.pass();
    // A wrong status is the step's own operation misbehaving, and so is a wrong answer to a write; a read that shows
    // the wrong state is filed under the scenario's subject (the write before it broke the rule).
    const owned = (blameStep: boolean, message: string, findings: readonly Finding[]): void =>
      step.owner
        ? c.skip(`${message}; that is ${step.owner}'s finding, so this rule cannot be judged`)
        : blameStep
          ? c.failOn(step.operationId, message, findings)
          : c.fail(message, findings);
    if (!expectedOk) {
      const expected = step.expect.status === 'success' ? successStatuses(operation).join(' or ') || '2xx' : step.expect.status;
      return owned(true, `${label}: ${answered(call)}, expected ${expected}`, [{ pointer: `/steps/${index}/status`, keyword: 'status', message: `${label}: ${answered(call)}`, expected, actual: status }]);
    }
    let subject: unknown = call.json;
    let root = `/steps/${index}/body`;
    const item = step.expect.item;
    if (item) {
      const wanted = resolve(item.equals, saved);
      const list = Array.isArray(call.json) ? call.json : [];
      const at = list.findIndex((entry) => isObject(entry) && sameValue(wanted, entry[item.field]));
      if (item.absent) {
        if (at >= 0) return owned(false, `${label}: the list still holds ${item.field} ${stringifyJson(wanted)}`, [{ pointer: `${root}/${at}`, keyword: 'absent', message: `${label}: ${item.field} ${stringifyJson(wanted)} should be gone`, actual: list[at] }]);
        if (step.save) saved.set(step.save, savable(call));
        continue;
      }
      if (at < 0) return c.skip(`${label}: ${answered(call)} without ${item.field} ${stringifyJson(wanted)}, so this rule cannot be judged (list-contains-created reports a filter that does not hold)`);
      subject = list[at];
      root = `${root}/${at}`;
    }
    const findings: Finding[] = [];
    for (const [pointer, raw] of Object.entries({ ...(step.expect.fields ?? {}), ...(item?.fields ?? {}) })) {
      const finding = judgeField(subject, pointer, raw, root, label, saved);
      if (finding) findings.push(finding);
    }
    findings.push(...judgeList(call.json, step, root, label, saved));
    const count = totalCount(call);
    if (step.expect.count !== undefined && count === undefined) {
      return c.skip(`${label}: ${answered(call)} without a usable X-Total-Count, which is response-headers' finding; the count cannot be judged`);
    }
    if (step.expect.count !== undefined) {
      const expected = resolve(step.expect.count, saved);
      if (count !== expected) findings.push({ pointer: `/steps/${index}/header/x-total-count`, keyword: 'count', message: `${label}: X-Total-Count is ${count ?? 'missing'}, expected ${stringifyJson(expected)}`, expected, actual: count });
    }
    if (findings.length > 0) return owned(operation.method !== 'get', findings[0]!.message, findings);
    if (step.save) {
      saved.set(step.save, savable(call));
      if (count !== undefined) saved.set(`${step.save}#count`, count);
    }
  }
  c.pass();
}

function judgeField(subject: unknown, pointer: string, raw: Expectation, root: string, label: string, saved: ReadonlyMap<string, unknown>): Finding | undefined {
  const actual = resolvePointer(subject, pointer);
  if (typeof raw === 'object' && raw !== null && '$absent' in raw) {
    return actual === undefined ? undefined : { pointer: `${root}${pointer}`, keyword: 'absent', message: `${label}: ${pointer} should be absent`, actual };
  }
  const options: unknown[] = isOneOf(raw) ? raw.$oneOf.map((v) => resolve(v, saved)) : [resolve(raw as Value, saved)];
  if (options.some((expected) => sameValue(expected, actual))) return undefined;
  return { pointer: `${root}${pointer}`, keyword: 'state', message: `${label}: ${pointer} is ${stringifyJson(actual)}, expected ${options.map((o) => stringifyJson(o)).join(' or ')}`, expected: options.length === 1 ? options[0] : options, actual };
}

/** The list expectations of a step: which records (`only`), what each holds (`every`), how many (`length`). */
function judgeList(json: unknown, step: Step, root: string, label: string, saved: ReadonlyMap<string, unknown>): Finding[] {
  const { only, every, length } = step.expect;
  if (!only && !every && length === undefined) return [];
  if (!Array.isArray(json)) return [{ pointer: root, keyword: 'type', message: `${label}: the answer is not a list`, expected: 'array', actual: typeof json }];
  const findings: Finding[] = [];
  if (length !== undefined) {
    const expected = resolve(length, saved);
    if (json.length !== expected) findings.push({ pointer: root, keyword: 'length', message: `${label}: the page holds ${json.length} records, expected ${stringifyJson(expected)}`, expected, actual: json.length });
  }
  if (only) {
    const wanted = only.equals.map((v) => resolve(v, saved));
    const got = json.map((entry) => (isObject(entry) ? entry[only.field] : undefined));
    const same = got.length === wanted.length && wanted.every((w) => got.some((g) => sameValue(w, g)));
    if (!same) findings.push({ pointer: root, keyword: 'records', message: `${label}: the ${only.field}s listed are ${stringifyJson(got)}, expected exactly ${stringifyJson(wanted)} (any order)`, expected: wanted, actual: got });
  }
  for (const [at, entry] of json.entries()) {
    for (const [pointer, raw] of Object.entries(every ?? {})) {
      const finding = judgeField(entry, pointer, raw, `${root}/${at}`, label, saved);
      if (finding) findings.push(finding);
    }
  }
  return findings;
}

function isOtherCase(value: Value): value is { readonly $otherCase: Value } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$otherCase' in value && Object.keys(value).length === 1;
}

/** What the document says of an operation in words: its description, its responses' and the error catalogue's for `status`. */
function documentWords(contract: Contract, operation: Operation, status: number | 'success'): string {
  const raw: unknown = contract.document.paths?.[operation.pathTemplate]?.[operation.method];
  const own = isObject(raw) ? String(raw['description'] ?? '') : '';
  const responses = [...operation.responses.values()].map((r) => r.description ?? '');
  const codes = [...contract.errorCodes.values()].filter((code) => status === 'success' || code.status === status).map((code) => code.description);
  return [own, ...responses, ...codes].join(' ');
}

function isCount(value: Value): value is { readonly $count: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$count' in value && typeof value.$count === 'string' && Object.keys(value).length === 1;
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
