/**
 * JSON pointers (RFC 6901) in text a person reads, clipped when long: a chain of 2,000 `allOf`s gave an error line
 * of 4 KB, most of it `/allOf/0` again and again (review 1, finding 14). A long pointer keeps its first and last
 * segments and says how many it leaves out; the full pointer stays where a program reads it (a KitError's
 * `details.pointer`, the `details` of the mock's Error payload). Pure: the mock's browser-bundled core uses it too.
 */

/** Pointers (or paths) up to this many characters are left as they are. */
const MAX_POINTER_CHARACTERS = 200;
const HEAD_SEGMENTS = 8;
const TAIL_SEGMENTS = 4;
/** A pointer, `#/a/b` or `/a/b`: slash-separated segments (a segment holds no slash, so the match is linear). */
const POINTER = /#?(?:\/[^\s/'"`)]*)+/g;

export function clipPointers(text: string): string {
  if (text.length <= MAX_POINTER_CHARACTERS) return text;
  return text.replace(POINTER, (pointer) => (pointer.length <= MAX_POINTER_CHARACTERS ? pointer : clipPointer(pointer)));
}

function clipPointer(pointer: string): string {
  const hash = pointer.startsWith('#') ? '#' : '';
  const segments = pointer.slice(hash.length + 1).split('/');
  if (segments.length <= HEAD_SEGMENTS + TAIL_SEGMENTS) return `${pointer.slice(0, MAX_POINTER_CHARACTERS)}…`;
  const left = segments.length - HEAD_SEGMENTS - TAIL_SEGMENTS;
  return `${hash}/${segments.slice(0, HEAD_SEGMENTS).join('/')}/…(${left} segments)…/${segments.slice(-TAIL_SEGMENTS).join('/')}`;
}
