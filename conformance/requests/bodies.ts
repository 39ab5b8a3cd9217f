/**
 * Request bodies of the media types that are not JSON (issue 11, point 3):
 * application/x-www-form-urlencoded, multipart/form-data, text/plain and
 * application/octet-stream. Pure: a value in (generated from the media
 * type's schema), the exact text to send out. JSON bodies stay json.ts's.
 */
import type { MediaTypeSpec, Operation } from '../../src/contract/index.js';
import { isJsonMediaType } from '../../src/schema/index.js';

/** The non-JSON media types the runner builds bodies for, as OpenAPI 3.0.3 §4.7.14 (Request Body) and §4.7.15 (Encoding) describe them. */
export const FORM_URLENCODED = 'application/x-www-form-urlencoded';
export const MULTIPART = 'multipart/form-data';
const OTHER_BODY_TYPES: readonly string[] = [FORM_URLENCODED, MULTIPART, 'text/plain', 'application/octet-stream'];

/**
 * The media type a body is built for when the operation takes no JSON: the
 * first of its documented types (in the document's order) the runner can
 * build. JSON, when documented, is json.ts's and is preferred by the callers.
 */
export function otherBodyMedia(operation: Pick<Operation, 'requestBody'>): MediaTypeSpec | undefined {
  const content = operation.requestBody?.content ?? [];
  if (content.some((media) => isJsonMediaType(media.mediaType))) return undefined;
  return content.find((media) => OTHER_BODY_TYPES.includes(media.mediaType.split(';')[0]!.trim().toLowerCase()));
}

export interface EncodedBody {
  readonly text: string;
  /** The Content-Type sent, with the multipart boundary. */
  readonly contentType: string;
}

/** The exact text of a body of `mediaType` holding `value`; `boundary` separates multipart parts (RFC 7578 §4.1). */
export function encodeBody(mediaType: string, value: unknown, boundary: string): EncodedBody {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === FORM_URLENCODED) return { text: formUrlencoded(value), contentType: FORM_URLENCODED };
  if (type === MULTIPART) return { text: multipart(value, boundary), contentType: `${MULTIPART}; boundary=${boundary}` };
  return { text: fieldText(value), contentType: type };
}

/**
 * OpenAPI 3.0.3 §4.7.15: a form's properties are serialized as query
 * parameters of style form, explode true, by default: arrays repeat the
 * name; a nested object goes out as JSON text (its default content type).
 */
function formUrlencoded(value: unknown): string {
  return fields(value)
    .map(([name, text]) => `${encodeFormComponent(name)}=${encodeFormComponent(text)}`)
    .join('&');
}

/** application/x-www-form-urlencoded (WHATWG URL §5.2): percent-encoding with spaces as `+`. */
function encodeFormComponent(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

/** RFC 7578: one part per property (an array: one per item), objects as application/json parts. */
function multipart(value: unknown, boundary: string): string {
  const parts = Object.entries(isRecord(value) ? value : { value })
    .flatMap(([name, item]) => (Array.isArray(item) ? item.map((one: unknown) => [name, one] as const) : [[name, item] as const]))
    .filter(([, item]) => item !== undefined)
    .map(([name, item]) => {
      const disposition = `Content-Disposition: form-data; name="${name.replace(/"/g, '%22')}"`;
      const type = isRecord(item) ? '\r\nContent-Type: application/json' : '';
      return `--${boundary}\r\n${disposition}${type}\r\n\r\n${fieldText(item)}\r\n`;
    });
  return `${parts.join('')}--${boundary}--\r\n`;
}

/** The name/text pairs of a form: arrays repeat the name, objects are JSON text. */
function fields(value: unknown): [string, string][] {
  if (!isRecord(value)) return [['value', fieldText(value)]];
  return Object.entries(value).flatMap(([name, item]): [string, string][] =>
    item === undefined ? [] : Array.isArray(item) ? item.map((one: unknown): [string, string] => [name, fieldText(one)]) : [[name, fieldText(item)]],
  );
}

function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean | bigint);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
