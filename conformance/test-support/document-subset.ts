/**
 * A published document cut down to some of its operations, for a test that runs only those against a referee
 * (Prism) that would otherwise read all of it: Prism takes 36 s of CPU to start on Xero's 235-operation
 * accounting document, most of it spent on operations the test never calls (issue 23, point 2). The cut keeps
 * the chosen operations as they are, and every component they reach through a `$ref` (or a discriminator's
 * mapping), so what is checked about them is what the whole document says. Tests only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writes the document at `file` with only the operations `keep` accepts (its raw text, `$ref`s and all) into the
 * folder `dir`, named after the original, and returns that file's path.
 */
export function writeDocumentSubset(file: string, dir: string, keep: (method: string, path: string, operation: Json) => boolean): string {
  const text = readFileSync(file, 'utf8');
  const document = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as Json;
  const paths: Json = {};
  for (const [path, item] of Object.entries(isObject(document['paths']) ? document['paths'] : {})) {
    if (!isObject(item)) continue;
    const kept = Object.entries(item).filter(([key, value]) => !METHODS.has(key) || (isObject(value) && keep(key, path, value)));
    if (kept.some(([key]) => METHODS.has(key))) paths[path] = Object.fromEntries(kept);
  }
  const subset: Json = { ...document, paths };
  // Webhooks (3.1) are not operations a client calls: a referee of requests has no use for them.
  delete subset['webhooks'];
  delete subset['components'];
  // What reaches a component is whatever is left: the kept paths, and any other member (an `x-webhooks`).
  if (isObject(document['components'])) subset['components'] = reachedComponents(document, Object.values(subset));
  const out = join(dir, `${basename(file).replace(/\.(ya?ml|json)$/, '')}.subset.json`);
  writeFileSync(out, JSON.stringify(subset));
  return out;
}

/** The components `roots` reach, transitively; security schemes are kept whole (they are named, not referenced). */
function reachedComponents(document: Json, roots: readonly unknown[]): Json {
  const all = isObject(document['components']) ? document['components'] : {};
  const kept: Record<string, Json> = isObject(all['securitySchemes']) ? { securitySchemes: all['securitySchemes'] } : {};
  const seen = new Set<string>();
  const pending: unknown[] = [...roots];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...value);
    } else if (isObject(value)) {
      pending.push(...Object.values(value));
    } else if (typeof value === 'string') {
      // `$ref: '#/components/schemas/Pet'`, a discriminator's `mapping: { dog: '#/components/schemas/Dog' }`, or deeper.
      const match = /^#\/components\/([^/]+)\/([^/]+)/.exec(value);
      if (!match) continue;
      const [, kind, escaped] = match as unknown as [string, string, string];
      const name = escaped.replace(/~1/g, '/').replace(/~0/g, '~');
      const key = `${kind}/${name}`;
      const target = isObject(all[kind]) ? (all[kind] as Json)[name] : undefined;
      if (seen.has(key) || target === undefined) continue;
      seen.add(key);
      (kept[kind] ??= {})[name] = target;
      pending.push(target);
    }
  }
  return kept;
}
