import type { PublishedDocument } from '../../../fixtures/published/index.js';

/**
 * The fast tier's share of the corpus: of each publisher's documents with at least five operations (resources to
 * round-trip), the smallest; of those, the three smallest (today Xero's bank feeds, Adyen's disputes and Bump.sh's
 * Train Travel, an OpenAPI 3.1 document).
 */
export function fastCorpusSlice(documents: readonly PublishedDocument[]): PublishedDocument[] {
  const smallest = new Map<string, PublishedDocument>();
  for (const document of [...documents].filter((d) => d.operations >= 5).sort((a, b) => a.bytes - b.bytes)) {
    const publisher = document.name.split('/')[0]!;
    if (!smallest.has(publisher)) smallest.set(publisher, document);
  }
  return [...smallest.values()].slice(0, 3);
}
