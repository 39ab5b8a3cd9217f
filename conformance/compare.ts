/**
 * "Equal", as a client of the document would judge two representations of
 * one record ("read back equal", "unchanged"):
 * - only the properties the document declares count: stored shapes are open,
 *   so a server may add fields (an `updatedAt` stamped at read time), and a
 *   field the document does not know is no evidence of anything;
 * - `format: date-time` values compare as instants (`…T09:00:00Z` equals
 *   `…T11:00:00+02:00` and `…T09:00:00.000Z`, RFC 3339 §5.6);
 * - numbers compare as values (`1.0` equals `1`, RFC 8259 §6), and an int64
 *   past 2^53 (a bigint, json.ts) by its exact digits;
 * - arrays compare as multisets: the document promises no order; an array of
 *   records holds what was sent when each sent record is in a distinct one of
 *   its records (a server fills fields in records it stores: Xero's
 *   `{"Items": [...]}` answers each item with its ItemID);
 * - a sent value the answer's own schema cannot hold as it was sent (a `date`
 *   sent, a `date-time` answered; an integer sent, a string answered) is
 *   compared by meaning where it is answered, and not expected where it is not:
 *   the document promises no verbatim echo of a value its answer cannot carry;
 *   one it cannot hold in any form (outside its enum, lengths, pattern or
 *   bounds) is not expected at all;
 * - an empty object or array sent (`{}`, `[{}]`) may be left out of the answer.
 *
 * Everything here is iterative (explicit stacks, no recursion), so a target
 * answering 100,000-deep JSON cannot overflow the runner's stack.
 */
import type { Finding } from './model.js';
import { safePattern } from '../src/schema/index.js';
import { isServerTime } from '../src/server-times.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isObject, mergeAllOf, schema, type Schema } from './generate.js';

/**
 * True when `actual` holds what `expected` holds: every declared field of an
 * expected object is in the actual one with an equal value (fields only the
 * actual one has are allowed), arrays hold the same items in any order.
 */
export function sameValue(expected: unknown, actual: unknown, s?: Schema): boolean {
  const stack: { e: unknown; a: unknown; s: Schema | undefined }[] = [{ e: expected, a: actual, s }];
  let table: Map<string, number> | undefined;
  while (stack.length > 0) {
    const { e, a, s: current } = stack.pop()!;
    if (Array.isArray(e)) {
      if (!Array.isArray(a) || a.length !== e.length) return false;
      if (e.some(isObject)) {
        if (!matchesEach(e, a, itemSchema(current))) return false;
        continue;
      }
      table ??= new Map();
      const items = itemSchema(current);
      const count = new Map<number, number>();
      for (const item of e) {
        const id = canonicalId(item, items, table);
        count.set(id, (count.get(id) ?? 0) + 1);
      }
      for (const item of a) {
        const id = canonicalId(item, items, table);
        const left = count.get(id) ?? 0;
        if (left === 0) return false;
        count.set(id, left - 1);
      }
      continue;
    }
    if (isObject(e)) {
      if (!isObject(a)) return false;
      const declared = declaredProperties(current);
      for (const key of Object.keys(e)) {
        if (declared && !(key in declared)) continue;
        if (!Object.prototype.hasOwnProperty.call(a, key)) return false;
        stack.push({ e: e[key], a: a[key], s: declared ? schema(declared[key]) : undefined });
      }
      continue;
    }
    if (leafKey(e, current) !== leafKey(a, current)) return false;
  }
  return true;
}

/**
 * Findings for every field of `expected` that `actual` lacks or holds with
 * another value. `root` prefixes the pointers (`/body`, `/body/0`).
 */
export function compareFields(expected: Readonly<Record<string, unknown>>, actual: unknown, root: string, s?: Schema, what = 'sent', depth = 0): Finding[] {
  if (!isObject(actual)) return [{ pointer: root || '/', keyword: 'equal', message: `expected an object holding what was ${what}`, expected, actual }];
  const findings: Finding[] = [];
  const declared = declaredProperties(s);
  for (const [key, value] of Object.entries(expected)) {
    if (value === undefined) continue;
    const propertySchema = declared?.[key] ? schema(declared[key]) : undefined;
    // OpenAPI 3.0.3 §4.7.25 (3.1: JSON Schema's writeOnly): a writeOnly field is sent, never answered; its absence is right.
    if (propertySchema && mergeAllOf(propertySchema).writeOnly === true) continue;
    const holding = propertySchema ? answerHolds(value, propertySchema) : 'verbatim';
    // A value outside what the answer allows (its enum, const, lengths, pattern, bounds) cannot come back in any
    // form: the answer's value is the document's, whatever it is (Rebilly's organization `name`: any length sent,
    // at most 60 answered).
    if (holding === 'never') continue;
    if (holding === 'by-meaning') {
      // Not expected as sent: absent or null is the document's own answer; a value must mean what was sent.
      const answered = actual[key];
      if (answered !== undefined && answered !== null && !sameMeaning(value, answered)) {
        findings.push({ pointer: `${root}/${escapePointer(key)}`, keyword: 'equal', message: `${key} differs from what was ${what}`, expected: value, actual: answered });
      }
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(actual, key)) {
      // An empty object or array (or one holding only such) carries no data: a server that leaves it out loses
      // nothing (Go's omitempty; Xero's envelopes answer no `pagination: {}` or `Warnings: [{}]` they were sent).
      // Nor does a null: a server that omits null fields (Jackson's NON_NULL), or reads a PATCH's null as "remove"
      // (RFC 7396), answers the same state without it.
      if (value === null || carriesNoData(value)) continue;
      findings.push({ pointer: `${root}/${escapePointer(key)}`, keyword: 'equal', message: `${key} was ${what} but is missing`, expected: value });
    } else if (isObject(value) && isObject(actual[key]) && declaredProperties(propertySchema) && depth < NESTED_DEPTH) {
      // A record inside another (Lago's `{ tax: { rate: "20.0" } }`, answered `{ tax: { rate: 20 } }`): its members
      // are compared as the top's are, each by what its own schema can hold.
      findings.push(...compareFields(value, actual[key], `${root}/${escapePointer(key)}`, propertySchema, what, depth + 1));
    } else if (Array.isArray(value) && Array.isArray(actual[key]) && value.some(isObject) && depth < NESTED_DEPTH && declaredProperties(itemSchema(propertySchema))) {
      // Records inside a list (OpenAI's eval `testing_criteria: [{input: [{role, ...}]}]`): each sent record is in a
      // distinct answered one, judged as a nested record is, member by member, so a member its answer's schema cannot
      // hold as sent (a `role` outside the answer's enum) is not expected back.
      const items = itemSchema(propertySchema)!;
      const answered = actual[key] as unknown[];
      const holds = (e: unknown, a: unknown): boolean => (isObject(e) ? compareFields(e, a, '', items, what, depth + 1).length === 0 : sameValue(e, a, items));
      if (answered.length !== value.length || !matchesEach(value, answered, items, holds)) {
        findings.push({ pointer: `${root}/${escapePointer(key)}`, keyword: 'equal', message: `${key} differs from what was ${what}`, expected: value, actual: answered });
      }
    } else if (!sameValue(value, actual[key], propertySchema)) {
      findings.push({ pointer: `${root}/${escapePointer(key)}`, keyword: 'equal', message: `${key} differs from what was ${what}`, expected: value, actual: actual[key] });
    }
  }
  return findings;
}

/**
 * A record answered as an array of records (SendGrid's `POST /v3/ips/warmup {ip}` answers `[{ip, start_date}]`, and
 * so does its read): the item that holds what was sent is the record, and it is compared whole; no item holding it,
 * undefined: the document does not say which item is the record (nor that the array holds it), so nothing is blamed.
 * `s` is the array's schema or its items'.
 */
export function compareInArray(expected: Readonly<Record<string, unknown>>, actual: readonly unknown[], root: string, s?: Schema, what = 'sent'): Finding[] | undefined {
  const items = itemSchema(s) ?? s;
  for (const [index, item] of actual.entries()) {
    if (isObject(item) && compareFields(expected, item, `${root}/${index}`, items, what).length === 0) return [];
  }
  return undefined;
}

/** Whether a schema is an array's (its `type`, or its `items`), through `allOf`. */
export function isArraySchema(s: Schema | undefined): boolean {
  return itemSchema(s) !== undefined || (s !== undefined && (s as { type?: unknown }).type === 'array');
}

/** Keeps only the fields the schema declares: what two representations of one record can be compared on. */
export function declaredFields(value: unknown, s: Schema | undefined): Record<string, unknown> {
  if (!isObject(value)) return {};
  const properties = declaredProperties(s);
  if (!properties) return { ...value };
  return Object.fromEntries(Object.entries(value).filter(([key]) => key in properties));
}

/**
 * The fields of what was sent that an answer of schema `s` reflects: those it declares, less those it marks
 * `readOnly` and the creation and update times it names as such (serverOwned). A readOnly member is the server's (OpenAPI 3.0.3 §4.7.25: relevant only in responses, not to be sent):
 * a server may keep its own value whatever a request said (Rebilly's invoice `websiteId`, settable on create, kept on
 * replace). What the server answered for it is still compared between its own answers.
 */
export function sentFieldsReflected(sent: unknown, s: Schema | undefined): Record<string, unknown> {
  const declared = declaredFields(sent, s);
  const properties = declaredProperties(s);
  if (!properties) return declared;
  return Object.fromEntries(Object.entries(declared).filter(([key]) => !serverOwned(key, properties[key])).map(([key, value]) => [key, withoutReadOnly(value, properties[key], 1)]));
}

/**
 * A member the server keeps as its own whatever a request said: one the answer marks readOnly, and a creation or
 * update time by its name (`created_at`, `updatedAt`: src/server-times.ts) that the document forgot to mark so.
 * Ory Hydra's client takes `created_at` in its create body and answers the time it stored the client, as the mock
 * does: expecting the sent time back was a finding no correct server could avoid.
 */
function serverOwned(key: string, property: Schema | undefined): boolean {
  if (!property) return false;
  const merged = mergeAllOf(property);
  return merged.readOnly === true || isServerTime(key, merged);
}

/** Past this depth a sent value is compared as it is (the runner's own values are far shallower). */
const READ_ONLY_DEPTH = 32;

/**
 * A sent value less the members its schema marks readOnly at any depth: a record sent in an envelope (`{ "rule":
 * { "created_at": ... } }`, PagerDuty) or inside another holds server-owned members too, which the server keeps as
 * its own whatever was sent.
 */
function withoutReadOnly(value: unknown, s: Schema | undefined, depth: number): unknown {
  if (!s || depth > READ_ONLY_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    return items ? value.map((item) => withoutReadOnly(item, items, depth + 1)) : value;
  }
  if (!isObject(value)) return value;
  const properties = declaredProperties(s);
  if (!properties) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const property = properties[key];
    // A member the answer's schema does not declare at this depth is not reflected, as at the top (declaredFields):
    // Adyen's `affirm` is sent as AffirmInfo `{supportEmail}` and answered as AffirmResponseInfo, closed without it.
    if (property === undefined || serverOwned(key, property)) continue;
    Object.defineProperty(kept, key, { value: withoutReadOnly(member, property, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

/** Two representations of a record are the same on every declared field, both ways ("unchanged"). */
export function sameRecord(a: unknown, b: unknown, s?: Schema): boolean {
  const table = new Map<string, number>();
  return canonicalId(a, s, table) === canonicalId(b, s, table);
}

/**
 * The properties a schema declares, its `allOf`, `oneOf` and `anyOf` parts
 * included (a Pet written as `allOf: [NewPet, {id}]` declares both);
 * undefined when it declares none, so a free-form object compares whole.
 */
export function declaredProperties(s: Schema | undefined): Record<string, Schema> | undefined {
  if (!s) return undefined;
  let out: Record<string, Schema> | undefined;
  const seen = new Set<Schema>();
  const stack: Schema[] = [s];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const [name, property] of Object.entries(current.properties ?? {})) {
      out ??= {};
      if (!(name in out)) out[name] = schema(property);
    }
    for (const part of [...(current.allOf ?? []), ...(current.oneOf ?? []), ...(current.anyOf ?? [])]) stack.push(schema(part));
  }
  return out;
}

/** Whether a value is empty containers all the way down (`{}`, `[]`, `[{}]`, `{"a": []}`). */
function carriesNoData(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (isObject(current)) stack.push(...Object.values(current));
    else return false;
  }
  return true;
}

/** The most records an array may hold for the matching below; past it, records are matched greedily. */
const MATCHED_RECORDS = 64;

/**
 * Whether each expected item is held by a distinct actual item (sameValue: its declared fields, equal): a
 * bipartite matching (Kuhn's augmenting paths), since greedy first-fit can pair an item with the one actual
 * record another item needed. The recursion goes only as deep as the expected value, which the runner made.
 */
function matchesEach(expected: readonly unknown[], actual: readonly unknown[], items: Schema | undefined, same: (e: unknown, a: unknown) => boolean = (e, a) => sameValue(e, a, items)): boolean {
  const holds = expected.map((e) => actual.map((a) => same(e, a)));
  const owner = new Array<number>(actual.length).fill(-1);
  const greedy = expected.length > MATCHED_RECORDS;
  const assign = (i: number, visited: boolean[]): boolean => {
    for (let j = 0; j < actual.length; j += 1) {
      if (!holds[i]![j] || visited[j]) continue;
      visited[j] = true;
      if (owner[j] === -1 || (!greedy && assign(owner[j]!, visited))) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < expected.length; i += 1) if (!assign(i, new Array<boolean>(actual.length).fill(false))) return false;
  return true;
}

/**
 * How the answer's schema for a field can hold a sent leaf: `verbatim`; `by-meaning` where its type or format differs
 * (a `date` sent, a `date-time` answered; 3.0 `nullable`, 3.1 type lists), compared by what it means; `never` where
 * the value breaks a word the answer sets on any value of its type (its enum or const, lengths, pattern, bounds), where
 * a null is sent and the answer cannot be null (Discord's `flags: null` sent, a UInt32 answered: the server's value for
 * "none" is its own), and where a scalar is sent and the answer holds only objects or arrays (OpenAI's `conversation`:
 * an id sent, `anyOf [Conversation, null]` answered). Through `allOf`, and through `oneOf`/`anyOf` as the most a
 * branch allows. Objects and arrays are compared member by member instead.
 */
export function answerHolds(value: unknown, s: Schema, depth = 0): Holding {
  if (Array.isArray(value)) {
    // A list of keys sent where the answer lists objects (Clerk's `permissions: ["org:read"]`, answered as
    // permission records): an item the answer's items cannot hold in any form says the list is the document's own.
    const items = itemSchema(s);
    if (items && depth < MAX_BRANCH_DEPTH && value.some((item) => (typeof item !== 'object' || item === null) && answerHolds(item, items, depth + 1) === 'never')) return 'never';
    // A list sent where the answer's member is no list (Intercom's ticket `contacts: [{id}]` sent, answered as an
    // object `{type, contacts: [...]}`): the answer's member is the document's own shape, not what was sent.
    if (!mayHold(s, 'array')) return 'never';
    // A list of records sent where the answer lists scalars (Intercom's `options: [{value}]` sent, answered as
    // `items: {type: string}`), and a list of lists where the answer lists records: no item can come back as sent.
    if (items && value.some((item) => (Array.isArray(item) && !mayHold(items, 'array')) || (isObject(item) && !mayHold(items, 'object')))) return 'never';
    return 'verbatim';
  }
  // A record sent where the answer's member is a list or a scalar: the same, the other way round.
  if (typeof value === 'object' && value !== null) return mayHold(s, 'object') ? 'verbatim' : 'never';
  const parts: Schema[] = [s, ...(s.allOf ?? []).map((part) => schema(part))];
  let never = false;
  let byMeaning = false;
  for (const part of parts) {
    const loose = part as { type?: unknown; nullable?: unknown; enum?: unknown; const?: unknown; pattern?: unknown };
    const types = Array.isArray(loose.type) ? (loose.type as unknown[]) : loose.type === undefined ? undefined : [loose.type];
    if (types && !types.some((type) => fitsType(value, type, loose.nullable === true))) {
      // Another scalar type can mean the same (`"5"` and 5, `true` and "true"); a text that is no number cannot be
      // one (Clerk's `legal_accepted_at`: a date-time text sent, Unix seconds answered), nor can an object, an array
      // or a refused null.
      if (types.some((type) => couldMean(value, type))) byMeaning = true;
      else never = true;
    }
    if (typeof value === 'string' && part.format === 'date-time' && !RFC3339_DATE_TIME.test(value)) byMeaning = true;
    if (typeof value === 'string' && part.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) byMeaning = true;
    // A text its answer's format refuses (Clerk's waitlist: any text sent as `email_address`, `format: email`
    // answered): no form of it is an answer the document allows.
    if (typeof value === 'string' && typeof part.format === 'string' && breaksFormat(value, part.format)) never = true;
    if (Array.isArray(loose.enum) && !loose.enum.some((option) => option === value)) never = true;
    if ('const' in loose && loose.const !== undefined && loose.const !== value) never = true;
    if (typeof value === 'string' && ((part.maxLength !== undefined && value.length > part.maxLength) || (part.minLength !== undefined && value.length < part.minLength))) never = true;
    if (typeof value === 'string' && typeof loose.pattern === 'string' && !matchesPattern(value, loose.pattern)) never = true;
    if (typeof value === 'number' && outOfBounds(value, part)) never = true;
    const branches = part.oneOf ?? part.anyOf;
    if (Array.isArray(branches) && branches.length > 0 && depth < MAX_BRANCH_DEPTH) {
      // The most any branch allows: one that holds the value as sent is enough.
      const verdicts = branches.map((branch) => answerHolds(value, schema(branch), depth + 1));
      if (!verdicts.includes('verbatim')) {
        if (verdicts.includes('by-meaning')) byMeaning = true;
        else never = true;
      }
    }
  }
  return never ? 'never' : byMeaning ? 'by-meaning' : 'verbatim';
}

/**
 * Whether a schema may hold a JSON array or object: false only where its `type` (3.1 type lists too) says it cannot,
 * through `allOf` (every part must allow it) and `oneOf`/`anyOf` (a branch must). A schema that names no type may
 * hold anything.
 */
function mayHold(s: Schema, kind: 'array' | 'object', depth = 0): boolean {
  if (depth > MAX_BRANCH_DEPTH) return true;
  const type = (s as { type?: unknown }).type;
  const types = Array.isArray(type) ? (type as unknown[]) : type === undefined ? undefined : [type];
  if (types && !types.includes(kind)) return false;
  if ((s.allOf ?? []).some((part) => !mayHold(schema(part), kind, depth + 1))) return false;
  for (const branches of [s.oneOf, s.anyOf]) {
    if (Array.isArray(branches) && branches.length > 0 && !branches.some((branch) => mayHold(schema(branch), kind, depth + 1))) return false;
  }
  return true;
}

export type Holding = 'verbatim' | 'by-meaning' | 'never';

/** How deep records inside records are compared member by member; deeper, a member is compared whole (sameValue). */
const NESTED_DEPTH = 8;

/**
 * The formats a text sent can break beyond any reading of it (a date or date-time is compared by meaning instead):
 * InfluxDB's task `every` is a plain string in the PATCH body and `format: duration` in the answer, so "swing" sent
 * can come back in no form the document allows.
 */
const STRICT_FORMATS = new Set(['email', 'uuid', 'uri', 'url', 'hostname', 'ipv4', 'ipv6', 'duration', 'uri-reference', 'uri-template', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'regex', 'byte']);

/** Whether `value` breaks one of STRICT_FORMATS, by ajv-formats' own definitions (what the validators apply). */
function breaksFormat(value: string, format: string): boolean {
  if (!STRICT_FORMATS.has(format)) return false;
  const definition = (fullFormats as Record<string, unknown>)[format];
  const check = typeof definition === 'object' && definition !== null && !(definition instanceof RegExp) ? (definition as { validate?: unknown }).validate : definition;
  if (check instanceof RegExp) return !check.test(value);
  if (typeof check === 'function') return !(check as (text: string) => boolean)(value);
  return false;
}

/** Whether a sent scalar could be written in an answer of `type` and mean the same. */
function couldMean(value: unknown, type: unknown): boolean {
  if (value === null || typeof value === 'object') return false;
  switch (type) {
    case 'string':
      return true;
    case 'integer':
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint' || (typeof value === 'string' && NUMERIC_TEXT.test(value.trim()));
    case 'boolean':
      return typeof value === 'boolean' || (typeof value === 'string' && /^(true|false)$/i.test(value.trim()));
    default:
      return false;
  }
}

const NUMERIC_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** Branches inside branches are followed this deep (a oneOf that holds itself ends here). */
const MAX_BRANCH_DEPTH = 8;

/**
 * Run in linear time (the document is untrusted: `^(a+)+$` would hang a backtracking RegExp); a pattern the linear
 * engine cannot run says nothing, and the value is taken as held.
 */
function matchesPattern(value: string, pattern: string): boolean {
  return safePattern(pattern)?.test(value) ?? true;
}

/** Outside `minimum`/`maximum` (3.0's boolean `exclusive*` and 3.1's numeric ones). */
function outOfBounds(value: number, s: Schema): boolean {
  const loose = s as { minimum?: unknown; maximum?: unknown; exclusiveMinimum?: unknown; exclusiveMaximum?: unknown };
  const min = typeof loose.minimum === 'number' ? loose.minimum : undefined;
  const max = typeof loose.maximum === 'number' ? loose.maximum : undefined;
  if (min !== undefined && (loose.exclusiveMinimum === true ? value <= min : value < min)) return true;
  if (max !== undefined && (loose.exclusiveMaximum === true ? value >= max : value > max)) return true;
  if (typeof loose.exclusiveMinimum === 'number' && value <= loose.exclusiveMinimum) return true;
  if (typeof loose.exclusiveMaximum === 'number' && value >= loose.exclusiveMaximum) return true;
  return false;
}

const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function fitsType(value: unknown, type: unknown, nullable: boolean): boolean {
  if (value === null) return type === 'null' || nullable;
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

/**
 * A value answered in another type or format than it was sent, meaning the same: a `date` answered as a
 * `date-time` of that day, a number as its decimal text (or the reverse), a boolean as `true`/`false`.
 */
function sameMeaning(sent: unknown, answered: unknown): boolean {
  if (leafKey(sent, undefined) === leafKey(answered, undefined)) return true;
  if (typeof sent === 'string' && typeof answered === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(sent)) return answered.startsWith(`${sent}T`) || answered.startsWith(`${sent}t`) || answered.startsWith(`${sent} `);
  if (typeof sent === 'string' && typeof answered === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(answered)) return sent.startsWith(answered);
  const text = (value: unknown): string | undefined => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value.trim() : undefined);
  const a = text(sent);
  const b = text(answered);
  if (a === undefined || b === undefined) return false;
  if (a === b) return true;
  return NUMERIC_TEXT.test(a) && NUMERIC_TEXT.test(b) && Number(a) === Number(b);
}

/** The schema of an array's items, through `allOf` parts. */
function itemSchema(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  if ('items' in s && s.items) return schema(s.items);
  for (const part of s.allOf ?? []) {
    const found = itemSchema(schema(part));
    if (found) return found;
  }
  return undefined;
}

function isDateTime(s: Schema | undefined): boolean {
  if (!s) return false;
  if (s.format === 'date-time') return true;
  return (s.allOf ?? []).some((part) => schema(part).format === 'date-time');
}

/** A leaf's identity as a string: equal strings, equal values. */
function leafKey(value: unknown, s: Schema | undefined): string {
  switch (typeof value) {
    case 'string': {
      if (isDateTime(s)) {
        const instant = Date.parse(value);
        if (!Number.isNaN(instant)) return `t${instant}`;
      }
      return `s${value}`;
    }
    case 'number':
      // 1.0 and 1 are one value; an integer double and a bigint compare by their digits.
      return Number.isInteger(value) ? `n${BigInt(value).toString()}` : `n${String(value)}`;
    case 'bigint':
      return `n${value.toString()}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'undefined';
    default:
      return value === null ? 'null' : isObject(value) ? '{}' : Array.isArray(value) ? '[]' : 'other';
  }
}

/**
 * A number naming the value up to the equality above (declared fields only,
 * instants, numeric values, order-free arrays): two values get the same
 * number from one `table` exactly when they are equal. Each container is
 * named by the sorted numbers of its children (hash-consing), so the keys
 * stay short and the work is iterative and near-linear at any depth.
 */
function canonicalId(value: unknown, s: Schema | undefined, table: Map<string, number>): number {
  interface Node {
    readonly value: unknown;
    readonly s: Schema | undefined;
    readonly parent: number;
    readonly key: string;
  }
  const nodes: Node[] = [{ value, s, parent: -1, key: '' }];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    if (Array.isArray(node.value)) {
      const items = itemSchema(node.s);
      for (const item of node.value) nodes.push({ value: item, s: items, parent: i, key: '' });
    } else if (isObject(node.value)) {
      const declared = declaredProperties(node.s);
      for (const [key, child] of Object.entries(node.value)) {
        if (declared && !(key in declared)) continue;
        nodes.push({ value: child, s: declared ? schema(declared[key]) : undefined, parent: i, key });
      }
    }
  }
  const children: (string[] | undefined)[] = new Array<string[] | undefined>(nodes.length);
  const intern = (text: string): number => {
    let id = table.get(text);
    if (id === undefined) table.set(text, (id = table.size));
    return id;
  };
  let rootId = 0;
  for (let i = nodes.length - 1; i >= 0; i -= 1) {
    const node = nodes[i]!;
    let id: number;
    if (Array.isArray(node.value)) id = intern(`[${(children[i] ?? []).sort().join(',')}]`);
    else if (isObject(node.value)) id = intern(`{${(children[i] ?? []).sort().join(',')}}`);
    else id = intern(leafKey(node.value, node.s));
    children[i] = undefined;
    if (node.parent < 0) {
      rootId = id;
      continue;
    }
    const parentIsObject = isObject(nodes[node.parent]!.value);
    (children[node.parent] ??= []).push(parentIsObject ? `${JSON.stringify(node.key)}:${id}` : String(id));
  }
  return rootId;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
