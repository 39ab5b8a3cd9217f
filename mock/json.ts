/**
 * JSON text for response bodies, with the text of immutable records kept.
 *
 * The store hands out frozen records and replaces a record on every change
 * instead of editing it (store.ts), so a frozen object whose fields are all
 * primitives can never change: its JSON text can be kept by identity and
 * reused for every later answer that includes it. A list page then costs
 * one string join instead of a `JSON.stringify` of twenty objects (about
 * 1.5 µs instead of 5.5 µs on the bench machine; issue 5). The WeakMap holds
 * nothing alive: a replaced or deleted record's text goes with it.
 *
 * A record of another document holds objects (Twilio's `links`), which a
 * shallow freeze does not protect: the generic engine stores deep, frozen
 * copies made by `immutableJson`, which registers every object it freezes,
 * so their text is kept too, and an answer built of them (a list envelope,
 * `{ data: record }`) is written from the kept texts of its parts (issue 22,
 * point 8).
 */

const texts = new WeakMap<object, string>();
/** Objects and arrays `immutableJson` froze, all the way down: nothing in them can change, so neither can their text. */
const immutable = new WeakSet<object>();

/**
 * `JSON.stringify(body)`, byte for byte, reusing the kept text of immutable
 * records at the top level or one level down in an array, and at any depth
 * inside an `immutableJson` value. With `keep`, the text of an immutable
 * record met for the first time is kept: the server asks for that when
 * answering a read, since records are read again and again, but not for a
 * write's answer, which is usually encoded only once (keeping it would cost a
 * WeakMap entry for nothing).
 */
export function encodeJson(body: unknown, keep = true): string {
  if (!Array.isArray(body)) return encodeValue(body, keep);
  const kept = texts.get(body);
  if (kept !== undefined) return kept;
  const text = composeArray(body, keep);
  if (keep && immutable.has(body)) texts.set(body, text);
  return text;
}

/**
 * Whether `encodeJson` keeps the text of `body`: the same body will always be written the same way, so a transport
 * may keep what it derives from that text (server.ts keeps its UTF-8 bytes).
 */
export function hasKeptText(body: unknown): boolean {
  return typeof body === 'object' && body !== null && texts.has(body);
}

/**
 * A deep copy of a JSON value in which every plain object and array is frozen and registered as immutable, so
 * its text can be kept (and a check of it remembered, generic/engine.ts). What is already such a copy is
 * returned as it is, so copying a record that holds stored records costs only the new parts. A value holding
 * something else (a Date, a function) is copied and frozen, but not registered: its text is never kept.
 */
export function immutableJson<T>(value: T): T {
  return frozenCopy(value) as T;
}

/** Whether `value` is an `immutableJson` copy: it and everything in it can never change. */
export function isImmutableJson(value: unknown): value is object {
  return typeof value === 'object' && value !== null && immutable.has(value);
}

function frozenCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || immutable.has(value)) return value;
  if (Array.isArray(value)) {
    const out = value.map(frozenCopy);
    return seal(out, out.every(isSettled));
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  let settled = true;
  for (const key of Object.keys(value)) {
    const field = frozenCopy((value as Record<string, unknown>)[key]);
    // `__proto__` from JSON.parse is an own field; a plain assignment would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: field, enumerable: true });
    else out[key] = field;
    if (settled && !isSettled(field)) settled = false;
  }
  return seal(out, settled);
}

function seal<T extends object>(value: T, settled: boolean): T {
  Object.freeze(value);
  if (settled) immutable.add(value);
  return value;
}

/** A JSON primitive, or an immutable copy: what an immutable parent may hold. */
function isSettled(value: unknown): boolean {
  if (typeof value === 'object') return value === null || immutable.has(value);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === undefined;
}

function encodeValue(value: unknown, keep: boolean): string {
  if (typeof value !== 'object' || value === null) {
    // JSON.stringify writes null for what JSON cannot hold (undefined, functions) inside an array.
    return JSON.stringify(value) ?? 'null';
  }
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  if (immutable.has(value)) {
    // Written from the kept texts of its parts when it holds any (an envelope of stored records), else at once.
    const text = holdsKeptText(value) ? (Array.isArray(value) ? composeArray(value, keep) : composeObject(value as Record<string, unknown>, keep)) : JSON.stringify(value);
    if (keep) texts.set(value, text);
    return text;
  }
  const text = JSON.stringify(value);
  if (keep && isImmutable(value)) texts.set(value, text);
  return text;
}

function composeArray(values: readonly unknown[], keep: boolean): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += encodeValue(values[i], keep);
  }
  return `${out}]`;
}

/** An immutable copy's object as JSON.stringify writes it: own keys in order, undefined fields left out (no functions, no toJSON in one). */
function composeObject(value: Record<string, unknown>, keep: boolean): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${encodeValue(field, keep)}`;
    first = false;
  }
  return `${out}}`;
}

/** Whether any direct part of an immutable copy has its text kept already, or is a page of records (whose texts will be). */
function holdsKeptText(value: object): boolean {
  for (const field of Object.values(value)) {
    if (typeof field !== 'object' || field === null) continue;
    if (texts.has(field)) return true;
    if (Array.isArray(field) && typeof field[0] === 'object' && field[0] !== null && immutable.has(field)) return true;
  }
  return false;
}

/** Frozen, with only primitive fields: no nested object could change behind the kept text. */
function isImmutable(value: object): boolean {
  if (!Object.isFrozen(value) || Array.isArray(value) || 'toJSON' in value) return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null) return false;
  }
  return true;
}
