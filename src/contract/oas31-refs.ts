/**
 * OpenAPI 3.1 references, made into what json-schema-ref-parser dereferences
 * correctly. Applied to each parsed file of a 3.1 document, before any
 * reference is resolved.
 *
 * - A Schema Object's `$ref` with sibling keywords (JSON Schema 2020-12
 *   §8.2.3.1: the reference is one more applicator, its result combined with
 *   the siblings') becomes `{ ...siblings, allOf: [{ $ref }, ...allOf] }`.
 *   The reference parser would instead merge the target's keywords under the
 *   siblings, so a sibling `required` would replace the target's. Only
 *   assertion siblings trigger it (see ASSERTIONS); a Reference Object outside
 *   a schema may carry only `summary` and `description` (OpenAPI 3.1
 *   §4.8.23), which override the target's, as the reference parser's merge does.
 * - `$anchor` (§8.2.2) and `$id` (§8.2.1) targets within the file become JSON
 *   pointers, the only form the reference parser finds inside a file: a
 *   `$ref: '#node'` or `$ref: 'https://example.com/schemas/pet'` (a schema of
 *   this file with that `$id`), or `'…/pet#/$defs/tag'` (a pointer inside it).
 */
export function prepareOas31References(root: unknown): void {
  const targets = collectTargets(root);
  rewrite(root, FILE_BASE, targets, new Set());
}

/** The base URI of the file itself; `.invalid` (RFC 2606) is never fetched, and relative references resolve against it. */
const FILE_BASE = 'https://oas31-file.invalid/document';

/**
 * The sibling keywords that make a `$ref` one applicator among others: JSON
 * Schema assertions (2020-12 validation and applicator vocabularies). An
 * annotation beside a `$ref` (`description`, `readOnly`, `example`) is kept by
 * the reference parser's merge as well, and a Path Item's or a Parameter's
 * fields beside a `$ref` (`get`, `parameters`, `required: true`) are not a
 * schema's: those objects are left to the reference parser as they are.
 */
const ASSERTIONS = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains',
  'maxProperties', 'minProperties', 'dependentRequired', 'format',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
]);

/** Absolute URI (an `$id`, or an `$id` plus `#anchor`) → JSON pointer of the schema in this file. */
type Targets = Map<string, string>;

function collectTargets(root: unknown): Targets {
  const targets: Targets = new Map();
  const seen = new Set<object>();
  const walk = (node: unknown, base: string, pointer: string): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((child: unknown, i) => walk(child, base, `${pointer}/${i}`));
      return;
    }
    const record = node as Record<string, unknown>;
    let here = base;
    const id = record['$id'];
    if (typeof id === 'string' && id !== '') {
      const resolved = resolveUri(id, base);
      if (resolved !== undefined) {
        here = withoutFragment(resolved);
        if (!targets.has(here)) targets.set(here, pointer);
      }
    }
    const anchor = record['$anchor'];
    if (typeof anchor === 'string' && anchor !== '' && !targets.has(`${here}#${anchor}`)) targets.set(`${here}#${anchor}`, pointer);
    for (const [key, child] of Object.entries(record)) walk(child, here, `${pointer}/${escapePointer(key)}`);
  };
  walk(root, FILE_BASE, '');
  return targets;
}

function rewrite(node: unknown, base: string, targets: Targets, seen: Set<object>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const child of node) rewrite(child, base, targets, seen);
    return;
  }
  const record = node as Record<string, unknown>;
  const id = record['$id'];
  const resolvedId = typeof id === 'string' && id !== '' ? resolveUri(id, base) : undefined;
  const here = resolvedId !== undefined ? withoutFragment(resolvedId) : base;
  const ref = record['$ref'];
  if (typeof ref === 'string') {
    const pointer = targetPointer(ref, here, targets);
    if (pointer !== undefined) record['$ref'] = `#${pointer}`;
    // `required` is an assertion as a list of names; `required: true` is a Parameter's or a Request Body's field.
    const asserts = Object.keys(record).some((key) => ASSERTIONS.has(key) || (key === 'required' && Array.isArray(record[key])));
    if (asserts) {
      const reference = record['$ref'];
      delete record['$ref'];
      const allOf = Array.isArray(record['allOf']) ? (record['allOf'] as unknown[]) : [];
      record['allOf'] = [{ $ref: reference }, ...allOf];
    }
  }
  for (const child of Object.values(record)) rewrite(child, here, targets, seen);
}

/** The JSON pointer, in this file, of what `ref` names from `base`; undefined when it is not a target of this file known by `$id` or `$anchor`. */
function targetPointer(ref: string, base: string, targets: Targets): string | undefined {
  // A plain JSON pointer into the file: the reference parser finds it as it is (unless an $id changed the base, below).
  const resolved = resolveUri(ref, base);
  if (resolved === undefined) return undefined;
  const exact = targets.get(resolved);
  if (exact !== undefined) return exact;
  const hash = resolved.indexOf('#');
  const resource = hash < 0 ? resolved : resolved.slice(0, hash);
  const fragment = hash < 0 ? '' : decodeFragment(resolved.slice(hash + 1));
  const at = resource === FILE_BASE ? '' : targets.get(resource);
  if (at === undefined) return undefined;
  if (fragment === '' || fragment.startsWith('/')) {
    // Inside the file's own resource a pointer needs no rewriting.
    return resource === FILE_BASE ? undefined : `${at}${fragment}`;
  }
  return undefined;
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
