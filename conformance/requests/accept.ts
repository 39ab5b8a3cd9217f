/** The Accept a request to an operation carries, from the media types its responses document. */
import type { Operation } from '../../src/contract/index.js';

/**
 * The Accept of a request to an operation, from the media types its
 * responses document (RFC 9110 §12.5.1; issue 11, point 3): application/json
 * where the operation answers JSON (what the checks read), else the types it
 * documents, its successes' first, else anything. An operation that produces
 * only text/csv is never asked for JSON it cannot give.
 */
export function acceptFor(operation: Operation): string {
  const { success, other } = documentedMediaTypes(operation);
  const types = [...new Set([...success, ...other])];
  if (types.includes('application/json') && (success.length === 0 || success.includes('application/json'))) return 'application/json';
  return types.length > 0 ? types.join(', ') : '*/*';
}

/** Whether the operation's successes answer application/json: the operations our JSON-only checks (Accept and charset variants) apply to. */
export function answersJson(operation: Operation): boolean {
  return documentedMediaTypes(operation).success.includes('application/json');
}

/** The media types (lower-case) an operation's responses document: its successes' (2xx, default) and the others'. */
function documentedMediaTypes(operation: Operation): { success: string[]; other: string[] } {
  const success: string[] = [];
  const other: string[] = [];
  for (const [status, response] of operation.responses) {
    for (const media of response.content) (/^2|^default$/i.test(status) ? success : other).push(media.mediaType.toLowerCase());
  }
  return { success, other };
}
