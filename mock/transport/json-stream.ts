/**
 * The JSON text of a large answer (a whole exported state: 13 MB for 100,000
 * pets) in pieces, so the server can write it as the client reads it instead
 * of building one string first (issue 12, finding 6). A client that stops
 * reading then holds a socket buffer of the answer, not a copy of all of it,
 * and other requests are served between the pieces instead of waiting for one
 * long JSON.stringify.
 */

/** Below this many array items in all an answer is encoded at once (json.ts), with a Content-Length. */
export const STREAM_THRESHOLD = 10_000;
/** Items per piece: large enough that the pieces cost little, small enough to interleave with other requests. */
const ITEMS_PER_PIECE = 1_000;

/** Whether `body` is an object whose array fields hold more than STREAM_THRESHOLD items together. */
export function isLargeBody(body: unknown): body is Readonly<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'toJSON' in body) return false;
  // for-in rather than Object.values: this runs for every answer, and the array Object.values builds is garbage.
  let items = 0;
  for (const key in body) {
    const value = (body as Record<string, unknown>)[key];
    if (Array.isArray(value)) items += value.length;
  }
  return items > STREAM_THRESHOLD;
}

/** `JSON.stringify(body)`, byte for byte, in pieces of about ITEMS_PER_PIECE array items. */
export function* jsonPieces(body: Readonly<Record<string, unknown>>): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? undefined : JSON.stringify(value);
    // JSON.stringify leaves out fields it cannot hold (undefined, functions).
    if (!Array.isArray(value) && text === undefined) continue;
    const head = `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value)) {
      yield `${head}${text}`;
      continue;
    }
    let piece = `${head}[`;
    for (let i = 0; i < value.length; i++) {
      // Inside an array JSON.stringify writes null for what JSON cannot hold.
      piece += `${i > 0 ? ',' : ''}${JSON.stringify(value[i]) ?? 'null'}`;
      if ((i + 1) % ITEMS_PER_PIECE === 0) {
        yield piece;
        piece = '';
      }
    }
    yield `${piece}]`;
  }
  yield first ? '{}' : '}';
}
