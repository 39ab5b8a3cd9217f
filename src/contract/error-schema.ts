import type { OpenAPIV3 } from 'openapi-types';
import type { Contract } from './model.js';

const cache = new WeakMap<Contract, OpenAPIV3.SchemaObject | null>();

/**
 * The schema a document's errors take where an answer documents none of its own (a status the operation does not
 * list): the answer `x-unmatched-requests` documents for an unknown path, else `components.schemas.Error`. One rule
 * for both halves: the runner judges such an error by it (error-shape), and the generic mock answers in it.
 */
export function documentErrorSchema(contract: Contract): OpenAPIV3.SchemaObject | undefined {
  const known = cache.get(contract);
  if (known !== undefined) return known ?? undefined;
  const fromUnmatched = contract.unmatched.unknownPath?.content.find((m) => /json/i.test(m.mediaType))?.schema;
  const fromComponents = contract.document.components?.schemas?.['Error'] as OpenAPIV3.SchemaObject | undefined;
  const schema = fromUnmatched ?? fromComponents;
  cache.set(contract, schema ?? null);
  return schema;
}
