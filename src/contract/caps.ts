/**
 * The caps on reading a file (issue 20), apart from any parser: the document's loader and the readers of the
 * other files the kit reads (bounded-files.ts, issue 31) share them. No YAML here, so a reader of JSON alone
 * (the Pet Store's fixtures, in the mock's browser-bundled core) does not carry a YAML parser.
 */

/**
 * The caps on what reading one file of a document may cost (issue 20): a
 * document from elsewhere is input, and input gets a bounded cost. Each is
 * far above what a published document needs (the largest seen, 12 MB, is
 * nested 30 levels and uses no alias inside an alias).
 */
export const DOCUMENT_CAPS = Object.freeze({
  /** Bytes of one file of the document (the root or a file a $ref names). */
  maxBytes: 64 * 1024 * 1024,
  /** Objects and arrays inside each other. */
  maxDepth: 256,
  /**
   * The `yaml` package's `maxAliasCount`: how far aliases may expand (an
   * alias of a node that holds aliases counts each of them). An anchor used
   * any number of times with no alias inside it costs nothing; nested
   * aliases (the "billion laughs") are what it stops.
   */
  maxAliasCount: 100,
});

export type CapName = 'size' | 'depth' | 'aliases';

/** A cap met while reading a file; the loader turns it into KitError SPEC_INVALID. */
export class CapExceeded extends Error {
  constructor(
    readonly cap: CapName,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Walks the parsed value without recursion (a deep value must not overflow
 * the stack here either), each shared object once: aliases make a graph, and
 * the alias cap bounds how far it expands, not how often a walk would revisit.
 */
export function assertDepth(url: string, value: unknown): void {
  const seen = new Set<object>();
  const stack: [node: unknown, depth: number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    if (depth >= DOCUMENT_CAPS.maxDepth) throw depthExceeded(url);
    seen.add(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
}

export function depthExceeded(url: string): CapExceeded {
  return new CapExceeded('depth', url, `${url} nests objects and arrays past the depth cap of ${DOCUMENT_CAPS.maxDepth} levels`);
}

