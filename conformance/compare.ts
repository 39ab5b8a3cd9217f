/**
 * "Equal to what was sent", as a client would judge it: every field sent
 * comes back with the same value; fields the server adds are allowed (stored
 * shapes are open); instants compare as instants (`…T09:00:00Z` equals
 * `…T09:00:00.000Z`, RFC 3339 §5.6).
 */
import type { Finding } from './model.js';
import { isObject, schema, type Schema } from './generate.js';

export function sameValue(expected: unknown, actual: unknown, s?: Schema): boolean {
  if (s?.format === 'date-time' && typeof expected === 'string' && typeof actual === 'string') {
    const a = Date.parse(expected);
    const b = Date.parse(actual);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((item, i) => sameValue(item, actual[i], s && 'items' in s ? schema(s.items) : undefined));
  }
  if (isObject(expected)) {
    return isObject(actual) && Object.keys(expected).every((key) => sameValue(expected[key], actual[key], s?.properties?.[key] ? schema(s.properties[key]) : undefined));
  }
  return Object.is(expected, actual) || (typeof expected === 'number' && expected === actual);
}

/**
 * Findings for every field of `expected` that `actual` lacks or holds with
 * another value. `root` prefixes the pointers (`/body`, `/body/0`).
 */
export function compareFields(expected: Readonly<Record<string, unknown>>, actual: unknown, root: string, s?: Schema, what = 'sent'): Finding[] {
  if (!isObject(actual)) return [{ pointer: root || '/', keyword: 'equal', message: `expected an object holding what was ${what}`, expected, actual }];
  const findings: Finding[] = [];
  for (const [key, value] of Object.entries(expected)) {
    if (value === undefined) continue;
    const propertySchema = s?.properties?.[key] ? schema(s.properties[key]) : undefined;
    if (!(key in actual)) {
      findings.push({ pointer: `${root}/${key}`, keyword: 'equal', message: `${key} was ${what} but is missing`, expected: value });
    } else if (!sameValue(value, actual[key], propertySchema)) {
      findings.push({ pointer: `${root}/${key}`, keyword: 'equal', message: `${key} differs from what was ${what}`, expected: value, actual: actual[key] });
    }
  }
  return findings;
}

/** Keeps only the fields the schema declares: what two representations of one record can be compared on. */
export function declaredFields(value: unknown, s: Schema | undefined): Record<string, unknown> {
  if (!isObject(value)) return {};
  const properties = s?.properties;
  if (!properties) return { ...value };
  return Object.fromEntries(Object.entries(value).filter(([key]) => key in properties));
}
