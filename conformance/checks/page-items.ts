/** The records of a list's page, wherever its answer keeps them (list-contains-created, delete-removes, listed-records). */

/** Envelope members that hold a page's records, by the names APIs give them (`{"data": [...], "done": false}`). */
const ENVELOPE_MEMBERS = ['data', 'items', 'results', 'records', 'content', 'entries', 'values', 'elements'];

/**
 * A page's records: the body itself when it is an array, else the array an envelope object holds: the member named
 * as the path's last segment (Xero's `GET /BankTransfers` → `{"BankTransfers": [...], "Warnings": [...]}`), one named
 * as lists usually are (in any case), its only array member, or its only array of objects. Undefined when there is none.
 */
export function pageItems(body: unknown, lastSegment: string): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const ownName = Object.keys(record).find((key) => key.toLowerCase() === lastSegment.toLowerCase() && Array.isArray(record[key]));
  if (ownName !== undefined) return record[ownName] as unknown[];
  const namedKey = Object.keys(record).find((key) => ENVELOPE_MEMBERS.includes(key.toLowerCase()) && Array.isArray(record[key]));
  if (namedKey !== undefined) return record[namedKey] as unknown[];
  const arrays = Object.values(record).filter((value): value is unknown[] => Array.isArray(value));
  if (arrays.length === 1) return arrays[0];
  // SCIM's ListResponse: `Resources` beside `schemas` (strings); the one array holding objects holds the records.
  const ofObjects = arrays.filter((value) => value.length > 0 && value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)));
  return ofObjects.length === 1 ? ofObjects[0] : undefined;
}
