/**
 * Values built from a document's schemas, for a foreign document's initial records and for answers it has no
 * example for (issue 22, points 3 and 4): the kit's one generator (src/generate/, issue 31) in its lifelike
 * style, within the generation budget. Seeded: the same seed gives the same values, run after run. Faker is a
 * private instance (never the global one) and bundles for a browser, so the core stays free of Node.
 *
 * A value is built for one view (OpenAPI 3.0.3 §4.7.24): an answer carries `readOnly` fields and never
 * `writeOnly` ones; a request the other way round. The caller validates what comes out (the document decides),
 * and asks again with another `variant` (other branches of `oneOf`/`anyOf`, other enum values) when it fails.
 */
import type { Faker } from '@faker-js/faker';
import { createEnglishFaker } from '../../src/english-faker.js';
import { DEFAULT_GENERATION_BUDGET, generate, type Generated, type GenerationBudget, type Schema, type View } from '../../src/generate/index.js';

export { prefixItemsOf } from '../../src/generate/composition.js';
export type { View } from '../../src/generate/index.js';

export class ValueGenerator {
  readonly faker: Faker;

  constructor(
    seed: number,
    readonly budget: GenerationBudget = DEFAULT_GENERATION_BUDGET,
    /** The document, so a report names the component a schema is (`#/components/schemas/Thing`). */
    private readonly document?: object,
  ) {
    this.faker = createEnglishFaker(seed);
  }

  /** A value of the schema, or why none can be made within the budget (`at`: where the schema is, for the report). */
  attempt(raw: Schema, view: View, variant = 0, depth = 0, name = '', at?: string): Generated {
    return generate(raw, { view, style: 'lifelike', faker: this.faker, budget: this.budget, variant, depth, name, ...(at !== undefined ? { at } : {}), ...(this.document ? { document: this.document } : {}) });
  }

  /** A value of the schema, or undefined when none can be made within the budget. */
  value(raw: Schema, view: View, variant = 0, depth = 0, name = ''): unknown {
    const result = this.attempt(raw, view, variant, depth, name);
    return result.ok ? result.value : undefined;
  }
}
