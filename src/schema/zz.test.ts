import { it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { compileContract } from './validators.js';
it('x', async () => {
  const c = await loadContract('/work/shared/reference/ref-openapi.yaml');
  const compiled = compileContract(c);
  compiled.compileAll();
  console.log(c.strict, JSON.stringify(c.warnings, null, 1));
});
