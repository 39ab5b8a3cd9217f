/**
 * What the acceptance checks share: valid variety generated from the
 * document (every length bound, every enum value, RFC 3339 forms, integer
 * bounds, unicode and spaces), the re-validation of exactly what is sent,
 * and the verdict on the answer. A conformant server must take every such
 * request; a refusal of one (400, 406, 413, 415, 422, …) is the finding.
 * Anything else (a 409 from a state rule, a 404 where a record should be, a
 * 5xx) is another check's to judge, so the case is skipped, never failed.
 */
import type { Operation, ParameterSpec } from '../../src/contract/index.js';
import { DEFAULT_GENERATION_BUDGET, ofNamedType } from '../../src/generate/index.js';
import type { Diagnostic } from '../../src/schema/index.js';
import { answered, type Call } from '../requests/call.js';
import type { Case, RunContext } from '../context.js';
import type { ParamValue } from '../requests/values.js';
import { prepareInputs, type PreparedInputs } from './support.js';
import { parseJson, plainJson } from '../json.js';
import { ABSENT_ID, type Schema } from '../generate.js';
import { twinOf } from '../twins.js';
import { DATE_TIME_FORMS, integerEdges, onlySpaces, realUserTexts } from '../requests/boundaries.js';

/** 2^63-1, the largest id the document allows; exact as text, which is how it goes into paths and queries. */
export const INT64_MAX_TEXT = '9223372036854775807';

export interface ValueVariant {
  readonly description: string;
  readonly value: unknown;
}

/**
 * Valid values of one property, from its schema: the shortest and the
 * longest string, a string of only spaces that meets minLength, the texts
 * real users send (surrounding spaces and line breaks, decomposed Unicode,
 * emoji, quotes: requests/boundaries.ts), every enum value, other date-time
 * forms, integer bounds and the 32- and 53-bit edges the bounds allow, both
 * booleans. `tag` keeps strings unique to the run; `letter` is the
 * one-character value.
 */
export function valueVariants(pointer: string, s: Schema, tag: string, letter: string): ValueVariant[] {
  const out: ValueVariant[] = [];
  if (s.enum) {
    // Only the values of the type the schema names: an enum of strings under `type: array` (Vimeo's content_filter)
    // lists no valid value, and a server is right to refuse each.
    for (const value of s.enum) if (ofNamedType(s, value)) out.push({ description: `${pointer} = ${JSON.stringify(value)}`, value });
    return out;
  }
  if (s.type === 'string' && s.format === 'date-time') {
    for (const value of DATE_TIME_FORMS) out.push({ description: `${pointer} = ${value}`, value });
    return out;
  }
  if (s.type === 'string' && !s.format && !s.pattern) {
    const min = Math.max(1, s.minLength ?? 0);
    const max = s.maxLength;
    if (min === 1) out.push({ description: `${pointer} one character long`, value: letter });
    // Not past the generation budget's default string cap (issue 31): a maxLength of 10^9 is not a value to send.
    if (max !== undefined && max >= tag.length + 2 && max <= DEFAULT_GENERATION_BUDGET.string) out.push({ description: `${pointer} ${max} characters long (its maxLength)`, value: `${'x'.repeat(max - tag.length - 1)} ${tag}` });
    out.push({ description: `${pointer} with non-ASCII letters and spaces`, value: clipTo(`Ünïcødé Ñame 名前 ${tag}`, max) });
    out.push({ description: `${pointer} with leading and trailing spaces`, value: clipTo(` ${tag} `, max) });
    const spaces = onlySpaces(s);
    if (spaces) out.push({ description: `${pointer} ${spaces.description}`, value: spaces.value });
    for (const text of realUserTexts(tag, max).slice(0, 3)) out.push({ description: `${pointer} with ${text.description}`, value: text.value });
    return out;
  }
  if (s.type === 'integer') {
    if (typeof s.minimum === 'number') out.push({ description: `${pointer} = ${s.minimum} (its minimum)`, value: s.minimum + (s.exclusiveMinimum === true ? 1 : 0) });
    const max = typeof s.maximum === 'number' ? s.maximum - (s.exclusiveMaximum === true ? 1 : 0) : s.format === 'int32' ? 2 ** 31 - 1 : undefined;
    if (max !== undefined) out.push({ description: `${pointer} = ${max} (its ${typeof s.maximum === 'number' ? 'maximum' : 'int32 maximum'})`, value: max });
    for (const edge of integerEdges(s)) if (edge.value !== max) out.push({ description: `${pointer} = ${edge.value} (${edge.description})`, value: edge.value });
    return out;
  }
  if (s.type === 'boolean') return [true, false].map((value) => ({ description: `${pointer} = ${String(value)}`, value }));
  return out;
}

function clipTo(text: string, max: number | undefined): string {
  return max === undefined ? text : [...text].slice(0, max).join('');
}

/**
 * Valid texts of one query parameter: its integer bounds and a large
 * offset, ids past 2^53 up to 2^63-1 for parameters that carry ids, every
 * enum value, both booleans, and for a repeatable parameter as many values
 * as it allows.
 */
export function queryVariants(parameter: ParameterSpec, carriesIds: boolean): { description: string; value: ParamValue }[] {
  const s = parameter.schema;
  const out: { description: string; value: ParamValue }[] = [];
  const name = parameter.name;
  if (s.type === 'array') {
    // Values of its items: listed ones where the items are an enum (Asana's `opt_fields`, whose 110 variants of absent
    // ids were all invalid and never sent), else ids no record has.
    const itemEnum: unknown = s.items !== undefined && 'enum' in s.items ? s.items.enum : undefined;
    const listed = Array.isArray(itemEnum) ? itemEnum.filter((v): v is string | number | boolean => v !== null && typeof v !== 'object').map(String) : undefined;
    const count = Math.min(s.maxItems ?? 3, listed && s.uniqueItems === true ? listed.length : 100);
    const values = Array.from({ length: count }, (_, i) => (listed && listed.length > 0 ? listed[i % listed.length]! : String(ABSENT_ID - i)));
    out.push({ description: `${name} repeated ${count} times${s.maxItems !== undefined ? ' (its maxItems)' : ''}`, value: values });
    if (carriesIds) out.push({ description: `${name}=${INT64_MAX_TEXT} and ${name}=${ABSENT_ID}`, value: [INT64_MAX_TEXT, String(ABSENT_ID)] });
    return out;
  }
  if (s.enum) return s.enum.filter((v): v is string | number | boolean => typeof v !== 'object').map((value) => ({ description: `${name}=${String(value)}`, value }));
  if (s.type === 'boolean') return [true, false].map((value) => ({ description: `${name}=${String(value)}`, value }));
  if (s.type === 'integer') {
    if (carriesIds) {
      out.push({ description: `${name}=${INT64_MAX_TEXT} (2^63-1, an id no record has)`, value: INT64_MAX_TEXT });
      return out;
    }
    if (typeof s.minimum === 'number') out.push({ description: `${name}=${s.minimum} (its minimum)`, value: s.minimum });
    if (typeof s.maximum === 'number') out.push({ description: `${name}=${s.maximum} (its maximum)`, value: s.maximum });
    else out.push({ description: `${name}=1000000 (large, past any page)`, value: 1_000_000 });
  }
  return out;
}

/**
 * Problems of a body text as the document sees it (empty: valid). The text is
 * read as every body the runner validates is read (json.ts): an id past 2^53
 * is parsed exactly, then shown to Ajv as plain JSON would show it, so what is
 * judged is exactly the text sent.
 */
export function bodyProblems(ctx: Pick<RunContext, 'compiled'>, operation: Operation, text: string): Diagnostic[] {
  return ctx.compiled.operations.get(operation.operationId)?.body(plainJson(parseJson(text))) ?? [];
}

/**
 * Problems of path and query texts as the document sees them (empty: valid). Header parameters are not judged here:
 * Case.call fills every required one (VictorOps' `X-VO-Api-Id` on every operation), so a request is not skipped as
 * lacking them.
 */
export function parameterProblems(ctx: RunContext, operation: Operation, path: Readonly<Record<string, ParamValue>>, query: Readonly<Record<string, ParamValue>>): Diagnostic[] {
  const text = (value: ParamValue): string | string[] => (Array.isArray(value) ? value.map(String) : String(value));
  const verdict = ctx.compiled.operations.get(operation.operationId)?.parameters({
    path: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)])),
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, text(v)])),
    headers: {},
  });
  return verdict && !verdict.ok ? verdict.diagnostics.filter((d) => !d.pointer.startsWith('/header/')) : [];
}

/** Why a variant the generator could not make valid is skipped: never a failure. */
export function invalidReason(problems: readonly Diagnostic[]): string {
  return `the generated request is not valid for the document (${problems[0]?.pointer ?? ''} ${problems[0]?.message ?? ''}); not sent`;
}

export function skipInvalid(c: Case, problems: readonly Diagnostic[]): void {
  c.skip(invalidReason(problems));
}

/**
 * The verdict on a valid request: `expected` ('success': any 2xx; or a
 * status) passes; a 4xx that refuses the request (anything but 404, 409 and
 * 410, which say something about the state, not the input) fails; the rest
 * is another check's to judge.
 */
export function judgeAcceptance(c: Case, call: Call, expected: 'success' | number): void {
  if (call.problem) return c.fail(call.problem);
  const status = call.status ?? 0;
  if (expected === 'success' ? status >= 200 && status < 300 : status === expected) return c.pass();
  if (status >= 500) return c.skip(`${answered(call)}; that is no-server-error's finding`);
  const operation = c.operationId === undefined ? undefined : c.ctx.contract.operationsById.get(c.operationId);
  const twin = operation && status >= 400 && status < 500 ? twinOf(c.ctx.contract, operation) : undefined;
  if (twin) return c.skip(`${answered(call)}; the document names this URL by two templates (${operation!.pathTemplate} and ${twin.pathTemplate}), which OpenAPI forbids: a server routes it to one, whose parameters may refuse it`);
  if (status >= 400 && ![404, 409, 410].includes(status)) {
    return c.fail(`refused a valid request: ${answered(call)}`, [
      { pointer: '/status', keyword: 'accepted', message: `the request is valid for the document, so it must not be refused with ${status}`, expected: expected === 'success' ? '2xx' : expected, actual: status },
    ]);
  }
  c.skip(`${answered(call)}: not a refusal of the input (a state rule, a missing record or a sunset), which other checks judge`);
}

export type Sent = { readonly call: Call; readonly text: string } | { readonly skip: string };

/**
 * Valid inputs shared by the variants of one operation (records to name, a
 * valid body), made afresh when a variant meets a 409: that is state an
 * earlier variant left (an open order on the pet, a name now taken), so the
 * variant is tried once more on records of its own before it is judged.
 */
export class SharedInputs {
  private inputs: PreparedInputs | undefined;

  constructor(private readonly operation: Operation) {}

  /** The inputs the last variant used. */
  get current(): PreparedInputs | undefined {
    return this.inputs;
  }

  /** Sends one variant; undefined when no inputs could be prepared (the case is then already reported). */
  async send(c: Case, attempt: (inputs: PreparedInputs) => Promise<Sent>): Promise<Sent | undefined> {
    const first = this.inputs ? await attempt(this.inputs) : undefined;
    // Inputs an earlier variant used may name what that variant created (its key, now taken): a refusal of them is
    // first put to fresh inputs, and only a refusal of those is the target's to answer for. A 409 was the only such
    // refusal once; a server may say the same with its documented 400 or 422.
    if (first && !('call' in first && refusedAsTaken(first.call.status))) return first;
    const prepared = await prepareInputs(c, this.operation);
    this.inputs = prepared.ok ? prepared.inputs : undefined;
    if (!prepared.ok) {
      prepared.fail(c);
      return undefined;
    }
    return attempt(prepared.inputs);
  }
}

/** Sends a body text once it is known to be valid for the operation (chunked, with `framing`). */
export async function sendValidBody(c: Case, operation: Operation, inputs: PreparedInputs, text: string, contentType?: string, framing?: 'chunked'): Promise<Sent> {
  const problems = bodyProblems(c.ctx, operation, text);
  if (problems.length > 0) return { skip: invalidReason(problems) };
  return { call: await c.call(operation, { path: inputs.path, query: inputs.query, bodyText: text, ...(contentType ? { contentType } : {}), ...(framing ? { framing } : {}) }), text };
}

/** A client error that may mean "that already exists" (409, or a 400 or 422 saying so), as opposed to auth, 404s, media types. */
function refusedAsTaken(status: number | undefined): boolean {
  return status === 409 || status === 400 || status === 422;
}
