/**
 * The kept OpenAPI schema check (openapi-schema-check.ts) gives swagger-parser's own verdict: on every document of
 * fixtures/ (OpenAPI 3.0 and 3.1, ours and foreign ones), on the generated documents of the any-document tier, and on
 * each of them broken in the ways a document breaks the OpenAPI schema (a member of the wrong type, a required member
 * missing, an unknown member where none is allowed), derived from the document rather than picked by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { generateDocument } from '../../mock/engine/test-support/document-shapes.js';
import { PACKAGE_ROOT } from '../package-info.js';
import { casesForTier } from '../test-tier.js';
import { conformsToOpenApiSchema } from './openapi-schema-check.js';

const swaggerParsersOwnCheck = createRequire(import.meta.url)('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void;

function swaggerParserSays(document: unknown): boolean {
  try {
    swaggerParsersOwnCheck(structuredClone(document));
    return true;
  } catch {
    return false;
  }
}

function documentsUnder(folder: string): { name: string; document: Record<string, unknown> }[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name) => ({ name, document: parseYaml(readFileSync(join(folder, name), 'utf8'), { maxAliasCount: -1 }) as Record<string, unknown> }))
    .filter(({ document }) => typeof document === 'object' && document !== null && typeof document['openapi'] === 'string');
}

const FIXTURES = [
  { name: 'openapi.yaml', document: parseYaml(readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8')) as Record<string, unknown> },
  ...documentsUnder(join(PACKAGE_ROOT, 'fixtures', 'documents')),
];

/** The ways a document breaks the OpenAPI schema, each applied to a copy. */
const BREAKS: readonly { readonly what: string; readonly apply: (document: Record<string, unknown>) => void }[] = [
  { what: 'info missing', apply: (d) => delete d['info'] },
  { what: 'info.title a number', apply: (d) => ((d['info'] as Record<string, unknown>)['title'] = 7) },
  { what: 'paths an array', apply: (d) => (d['paths'] = []) },
  { what: 'an unknown root member', apply: (d) => (d['pathz'] = {}) },
  {
    what: 'a response without its description',
    apply: (d) => {
      for (const item of Object.values((d['paths'] ?? {}) as Record<string, Record<string, { responses?: Record<string, Record<string, unknown>> }>>)) {
        for (const operation of Object.values(item)) {
          const response = Object.values(operation?.responses ?? {})[0];
          if (response && !('$ref' in response)) {
            delete response['description'];
            return;
          }
        }
      }
      d['info'] = 'no response to break';
    },
  },
];

describe('the OpenAPI schema check kept for the process', () => {
  // swagger-parser compiles the OpenAPI schema on every call (a tenth of a second): the fast tier breaks each fixture
  // one way, in turn; the full tier two ways.
  const breaksPerFixture = casesForTier({ fast: 1, full: 2 });
  it.each(FIXTURES.map((f, index) => [f.name, f.document, index] as const))('gives swagger-parser’s verdict on %s, whole and broken', (_name, document, index) => {
    expect(conformsToOpenApiSchema(structuredClone(document))).toBe(swaggerParserSays(document));
    for (const { what, apply } of Array.from({ length: breaksPerFixture }, (_, k) => BREAKS[(index + k) % BREAKS.length]!)) {
      const broken = structuredClone(document);
      apply(broken);
      expect(conformsToOpenApiSchema(broken), what).toBe(swaggerParserSays(broken));
      expect(conformsToOpenApiSchema(broken), what).toBe(false);
    }
  });

  it('gives swagger-parser’s verdict on generated documents, whole and broken', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: BREAKS.length }), (seed, breakIndex) => {
        const { document } = generateDocument(seed);
        const copy = structuredClone(document) as Record<string, unknown>;
        BREAKS[breakIndex]?.apply(copy);
        expect(conformsToOpenApiSchema(copy)).toBe(swaggerParserSays(copy));
      }),
      { numRuns: casesForTier({ fast: 10, full: 30 }), seed: 33 },
    );
  });

  it('says no to what names no OpenAPI version', () => {
    for (const value of [null, 'openapi: 3.0.3', 42, {}, { openapi: 3 }]) expect(conformsToOpenApiSchema(value)).toBe(false);
  });
});
