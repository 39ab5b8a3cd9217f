import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/** The status is one the document lists for the operation (OpenAPI 3.0.3 §4.7.16: exact code, then `4XX`, then `default`). */
export const statusDocumented: CheckDefinition = {
  id: 'status-documented',
  family: 'response',
  description: 'Every response status is documented for its operation.',
  explain: {
    why: 'Clients handle the statuses the document lists; an undocumented one (a 200 where 201 is documented, a 203) falls through their handling.',
    conformant: 'One of the statuses the operation documents, e.g. `201` for createPet, never `200`.',
  },
  writes: false,
  judge(x) {
    // A 5xx is no-server-error's defect: one defect, one owner.
    if (!x.operation || x.status >= 500) return NOT_APPLICABLE;
    return verdictOf(x.diagnostics.filter((d) => d.pointer === '/status' && d.keyword === 'status'));
  },
};
