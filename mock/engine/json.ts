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
/**
 * Objects and arrays `immutableJson` froze, all the way down: nothing in them can change, so neither can their text.
 * Marked by a private field (`Mark`'s), which only this module can read or set: a spread, `Object.keys`,
 * `JSON.stringify` and `structuredClone` never see it, so a copy is never taken for immutable. It is set just before
 * the object is frozen. Its value is `true`, or the schema the generic engine validated the value against when it made
 * it (`validAgainst`). Not an entry of a WeakSet: a write registers a record or two, and a weak table of every record
 * alive made each registration and each garbage collection cost more as the store grew (issue 34, point 1: measured
 * under `POST /pets`). Not a symbol property defined with `Object.defineProperty` either (what it was): that is a call
 * into the runtime with a descriptor object each time, about 0.2 µs a record against a few tens of nanoseconds for a
 * private field, which a class's constructor adds through an inline cache like any other field (issue 34, point 1).
 */
class Returns {
  constructor(value: object) {
    // A base class whose constructor returns another object: the subclass's fields are then added to that object.
    return value;
  }
}
class Mark extends Returns {
  #validAgainst: true | object;
  private constructor(value: object, validAgainst: true | object) {
    super(value);
    this.#validAgainst = validAgainst;
  }
  static set(value: object, validAgainst: true | object): void {
    new Mark(value, validAgainst);
  }
  static has(value: object): boolean {
    return #validAgainst in value;
  }
  static get(value: object): true | object | undefined {
    return #validAgainst in value ? (value as Mark).#validAgainst : undefined;
  }
}
const immutable = { has: Mark.has, get: Mark.get };

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
 * its text can be kept (and a check of it remembered, engine/engine.ts). What is already such a copy is
 * returned as it is, so copying a record that holds stored records costs only the new parts. A value holding
 * something else (a Date, a function) is copied and frozen, but not registered: its text is never kept.
 */
export function immutableJson<T>(value: T, validAgainstSchema?: object): T {
  return frozenCopy(value, validAgainstSchema) as T;
}

/**
 * `immutableJson` for a plain object its caller has just made and hands over (a record spread afresh with a field
 * changed): frozen where it is, its members copied as `immutableJson` copies them, so a write makes one object rather
 * than that one and a copy of it (issue 34, point 1). Anything else, or an object frozen already, is copied as
 * `immutableJson` does. Never for an object someone else may still hold or change.
 */
export function immutableFresh<T extends object>(value: T, validAgainstSchema?: object): T {
  if (immutable.has(value)) return value;
  if (Array.isArray(value) || Object.isFrozen(value) || Object.getPrototypeOf(value) !== Object.prototype) return frozenCopy(value, validAgainstSchema) as T;
  const fields = value as Record<string, unknown>;
  let settled = true;
  // for-in, not Object.keys: no list made per write (a plain object, checked above: nothing enumerable inherited).
  for (const key in fields) {
    const field = fields[key];
    if (typeof field === 'object' && field !== null && !immutable.has(field)) {
      const copy = frozenCopy(field);
      // `__proto__` as an own field (a spread of parsed JSON keeps it): set as a field, never as the prototype.
      if (key === '__proto__') Object.defineProperty(fields, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else fields[key] = copy;
      if (settled && !isSettled(copy)) settled = false;
    } else if (settled && !isSettled(field)) settled = false;
  }
  return seal(value, settled, validAgainstSchema);
}

/**
 * A new plain object with `from`'s own fields, as `{ ...from }` gives them, copied field by field. For a record that is
 * then given a field it lacks, or frozen (every record the generic engine stores is both): V8 (Node 20) builds an
 * object made by a spread on a map of its own, and adding a field to it or freezing it then costs 0.4-1.3 µs where
 * this copy costs well under 0.1 µs (issue 34, point 1: a behaviour's `put` and a rule's effect, each a record a write;
 * mock/engine/message.ts `copiedHeaders` says the same of headers). `__proto__` stays an own field, as a spread keeps it.
 */
export function copiedFields(from: Readonly<Record<string, unknown>>, into: Record<string, unknown> = {}): Record<string, unknown> {
  // Object.assign copies as fast and builds the same kind of object, but it sets `__proto__` as the prototype.
  if (!Object.hasOwn(from, '__proto__')) return Object.assign(into, from);
  for (const key of Object.keys(from)) setField(into, key, from[key]);
  return into;
}

/**
 * An empty plain object for a record that is to get `fields` fields and then be frozen by `immutableFresh`. Made by a
 * constructor kept for that number of fields, whose prototype is Object.prototype: it is a plain object to every reader
 * (its prototype, `constructor`, a spread, `JSON.stringify`, a deep equality), but V8 sizes the objects a constructor
 * makes by the first ones it saw get their fields (in-object slack tracking), so the fields and the immutable mark fit
 * in the object itself. An object literal has room for four: a record of four fields and its mark took a property
 * array more (96 bytes against 64), and one of some twenty fields set by name went to dictionary mode (1.7 KB frozen).
 * Issue 34, point 1: what a write allocates and what the store keeps, under POST /pets. `fields` is a guess; a record
 * that gets more keeps them all the same, outside the object.
 */
export function emptyRecord(fields: number): Record<string, unknown> {
  const at = fields < MAX_SIZED_FIELDS ? fields : MAX_SIZED_FIELDS;
  let make = recordMakers[at];
  if (make === undefined) make = recordMakers[at] = recordMaker();
  return new make();
}
/** Records of more fields than this share one constructor. */
const MAX_SIZED_FIELDS = 64;
const recordMakers: (new () => Record<string, unknown>)[] = [];
function recordMaker(): new () => Record<string, unknown> {
  // A function made per size: V8 keeps the object size it learns on the function, so each size learns its own.
  function PlainRecord(): void {}
  PlainRecord.prototype = Object.prototype;
  return PlainRecord as unknown as new () => Record<string, unknown>;
}

/** How many fields a plain object has (its own enumerable keys), counted without making a list of them. */
export function fieldCount(value: Readonly<Record<string, unknown>>): number {
  let count = 0;
  for (const _ in value) count += 1;
  return count;
}

/** `target[key] = value` as a spread or `JSON.parse` sets it: an own field even for `__proto__`, never the prototype. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * The schema an immutable value is known to be valid against (the response view), if any (issue 34, point 1). The
 * value is frozen all the way down, so it is still the value that passed, and the same compiled validator gives the
 * same verdict for it: the answer guard runs the other checks of an answer (status, media type, headers) and not that
 * one (engine/answer-guard.ts). A copy, an envelope or anything a behaviour hook made has none, and is checked in full.
 */
export function validAgainst(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const noted = immutable.get(value);
  return noted === true ? undefined : noted;
}

/** Whether `value` is an `immutableJson` copy: it and everything in it can never change. */
export function isImmutableJson(value: unknown): value is object {
  return typeof value === 'object' && value !== null && immutable.has(value);
}

function frozenCopy(value: unknown, validAgainstSchema?: object): unknown {
  if (typeof value !== 'object' || value === null || immutable.has(value)) return value;
  if (Array.isArray(value)) {
    const out = value.map((item) => frozenCopy(item));
    return seal(out, out.every(isSettled), validAgainstSchema);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  // Sized for its fields (emptyRecord): a copy of a record of four fields and its mark in 64 bytes, not 96.
  const out = emptyRecord(fieldCount(value as Record<string, unknown>));
  let settled = true;
  for (const key of Object.keys(value)) {
    const field = frozenCopy((value as Record<string, unknown>)[key]);
    // `__proto__` from JSON.parse is an own field; a plain assignment would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: field, enumerable: true });
    else out[key] = field;
    if (settled && !isSettled(field)) settled = false;
  }
  return seal(out, settled, validAgainstSchema);
}

function seal<T extends object>(value: T, settled: boolean, validAgainstSchema?: object): T {
  if (settled) Mark.set(value, validAgainstSchema ?? true);
  Object.freeze(value);
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

/**
 * Whether any direct part of an immutable copy has its text kept already, or is a page of records (whose texts will be).
 * Read without making a list of the parts (Object.values did, on every write's answer): an array by index, an object by
 * `for in`, where an inherited field it might meet as well only chooses between two ways of writing the same text.
 */
function holdsKeptText(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (keptOrPage(value[i])) return true;
    return false;
  }
  for (const key in value) if (keptOrPage((value as Record<string, unknown>)[key])) return true;
  return false;
}

function keptOrPage(field: unknown): boolean {
  if (typeof field !== 'object' || field === null) return false;
  return texts.has(field) || (Array.isArray(field) && typeof field[0] === 'object' && field[0] !== null && immutable.has(field));
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
