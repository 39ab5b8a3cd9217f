/**
 * Generation shared by the mock and the runner (issue 31): one generator, one budget. See generate.ts.
 */
export { capFlag, DEFAULT_GENERATION_BUDGET, parseGenerationBudget, type BudgetCap, type GenerationBudget } from './budget.js';
export {
  allowsNull,
  asSchema,
  branchesOf,
  define,
  firstExample,
  generatedTypeOf,
  isObject,
  jsonTypeOf,
  mergeAllOf,
  ofNamedType,
  prefixItemsOf,
  propertiesOf,
  typeOf,
  typesOf,
  withBranch,
  type JsonObject,
  type Schema,
} from './composition.js';
export { generate, whyUnmakeable, type GenerateOptions } from './generate.js';
export { setApart, type Holds, type SetApart } from './set-apart.js';
export { literalPrefix, samplePattern, shortestMatch, type PatternSample } from './patterns.js';
export { describeUnmakeable, type Generated, type Unmakeable } from './result.js';
export type { Style, View } from './walker.js';
