/**
 * Names a schema by its place in the document's components (`#/components/schemas/Thing`), so a report of what
 * cannot be generated points where the author wrote it rather than along the path the walk took to reach it. The
 * document is dereferenced (src/contract/load.ts): a `$ref` to a component is that very object, found by identity.
 */
import type { Schema } from './composition.js';

export type Locate = (schema: Schema) => string | undefined;

const locators = new WeakMap<object, Locate>();

export function componentLocator(document: object): Locate {
  const known = locators.get(document);
  if (known) return known;
  const places = new Map<object, string>();
  const components: unknown = Reflect.get(document, 'components');
  const schemas: unknown = typeof components === 'object' && components !== null ? Reflect.get(components, 'schemas') : undefined;
  if (typeof schemas === 'object' && schemas !== null) {
    for (const [name, schema] of Object.entries(schemas)) {
      if (typeof schema === 'object' && schema !== null && !places.has(schema)) places.set(schema, `#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
  const locate: Locate = (schema) => places.get(schema);
  locators.set(document, locate);
  return locate;
}
