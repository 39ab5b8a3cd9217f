/**
 * An answer in a media type other than JSON, written from the value the engine would have answered in JSON (a record,
 * a list, an error's words): XML for `application/xml`, `text/xml` and `+xml` types (elements named as the schema's
 * `xml.name` says, OpenAPI 3.0.3 §4.7.26), CSV for `text/csv` (RFC 4180: a header line, one line per record), the text
 * itself for a string, and JSON text otherwise (`text/plain` of an object). The validators read no body but JSON, so
 * this is as valid as the document can say: the documented media type, and the content its schema describes.
 */
import { isObject, mergeAllOf, type JsonObject, type Schema } from './schemas.js';

/** Whether a media type is XML (RFC 7303: `application/xml`, `text/xml`, and the `+xml` suffix). */
export function isXmlMediaType(mediaType: string): boolean {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

/** The media type to send for a documented one: a range (`text/*`, `*\/*`) is sent as text/plain. */
export function concreteMediaType(documented: string): string {
  return documented.includes('*') ? 'text/plain' : documented.split(';')[0]!.trim();
}

/** The text of `value` in `mediaType`; `schema` (the media's own, when it has one) names the XML elements. */
export function textOf(mediaType: string, value: unknown, schema?: Schema): string {
  if (typeof value === 'string') return value;
  if (isXmlMediaType(mediaType)) return `<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement(xmlName(schema) ?? 'response', value, schema, 0)}`;
  if (/^text\/csv\b/i.test(mediaType.trim())) return csvOf(value);
  return value === undefined ? '' : JSON.stringify(value);
}

const MAX_DEPTH = 16;

function xmlName(schema: Schema | undefined): string | undefined {
  const xml = schema ? (mergeAllOf(schema) as { xml?: { name?: unknown } }).xml : undefined;
  return typeof xml?.name === 'string' && xml.name !== '' ? xml.name : undefined;
}

function xmlElement(name: string, value: unknown, schema: Schema | undefined, depth: number): string {
  const tag = safeName(name);
  if (value === undefined || value === null) return `<${tag}/>`;
  if (depth > MAX_DEPTH) return `<${tag}/>`;
  const s = schema ? mergeAllOf(schema) : undefined;
  if (Array.isArray(value)) {
    const items = s && 'items' in s && isObject(s.items) ? (s.items as Schema) : undefined;
    const itemName = xmlName(items) ?? (tag.endsWith('s') && tag.length > 1 ? tag.slice(0, -1) : 'item');
    return `<${tag}>${value.map((item) => xmlElement(itemName, item, items, depth + 1)).join('')}</${tag}>`;
  }
  if (isObject(value)) {
    const properties = s?.properties ?? {};
    const inner = Object.entries(value)
      .map(([key, member]) => {
        const property = Object.hasOwn(properties, key) && isObject(properties[key]) ? (properties[key] as Schema) : undefined;
        return xmlElement(xmlName(property) ?? key, member, property, depth + 1);
      })
      .join('');
    return `<${tag}>${inner}</${tag}>`;
  }
  return `<${tag}>${escapeXml(String(value))}</${tag}>`;
}

/** An XML name (XML 1.0 §2.3) from a JSON member name: what is not a name character becomes `_`. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** RFC 4180: the records of a list (a bare array, or the first array member of an envelope) as lines; anything else as one. */
function csvOf(value: unknown): string {
  const rows = Array.isArray(value) ? value : isObject(value) ? (Object.values(value).find(Array.isArray) ?? [value]) : [value];
  const records = rows.map((row: unknown): JsonObject => (isObject(row) ? row : { value: row }));
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const cell = (member: unknown): string => {
    const text = member === undefined || member === null ? '' : typeof member === 'string' ? member : JSON.stringify(member);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.map(cell).join(','), ...records.map((record) => columns.map((column) => cell(record[column])).join(','))].join('\r\n') + '\r\n';
}
