/**
 * JSON text of a value that may hold ids past 2^53 as bigint (int64 ids,
 * RFC 8259 §6 leaves precision to implementations): JSON.stringify throws on
 * a bigint, so each is written digit for digit instead. Everything else is
 * JSON.stringify's output, byte for byte.
 */
import { randomUUID } from 'node:crypto';

export function jsonText(value: unknown): string {
  // A placeholder no string of the value can hold: a NUL and a fresh UUID per call.
  const mark = `\u0000${randomUUID()}:`;
  const text: string | undefined = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${mark}${item.toString()}` : item));
  // undefined (and functions) have no JSON text; a message still needs a word for them.
  if (text === undefined) return 'undefined';
  return text.split(`"${JSON.stringify(mark).slice(1, -1)}`).map((part, i) => (i === 0 ? part : part.replace(/^(-?\d+)"/, '$1'))).join('');
}
