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
 */

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(body)`, byte for byte, reusing the kept text of immutable
 * records at the top level or one level down in an array. With `keep`, the
 * text of an immutable record met for the first time is kept: the server
 * asks for that when answering a read, since records are read again and
 * again, but not for a write's answer, which is usually encoded only once
 * (keeping it would cost a WeakMap entry for nothing).
 */
export function encodeJson(body: unknown, keep = true): string {
  if (!Array.isArray(body)) return encodeValue(body, keep);
  let out = '[';
  for (let i = 0; i < body.length; i++) {
    if (i > 0) out += ',';
    out += encodeValue(body[i], keep);
  }
  return `${out}]`;
}

function encodeValue(value: unknown, keep: boolean): string {
  if (typeof value !== 'object' || value === null) {
    // JSON.stringify writes null for what JSON cannot hold (undefined, functions) inside an array.
    return JSON.stringify(value) ?? 'null';
  }
  const kept = texts.get(value);
  if (kept !== undefined) return kept;
  const text = JSON.stringify(value);
  if (keep && isImmutable(value)) texts.set(value, text);
  return text;
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
