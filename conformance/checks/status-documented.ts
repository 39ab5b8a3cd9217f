import { isCredentialRefusal } from '../credentials.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { Operation } from '../../src/contract/index.js';
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
  judge(x, ctx) {
    // A 5xx is no-server-error's defect: one defect, one owner.
    if (!x.operation || x.status >= 500) return NOT_APPLICABLE;
    // A request without the credentials the operation requires is refused by any correct server, listed or not (credentials.ts).
    if (isCredentialRefusal(x.status) && ctx.credentials.missingFor(x.operation) !== undefined) return NOT_APPLICABLE;
    // The run sent an invalid request on purpose and the operation documents no error answer at all: a correct server
    // must refuse it with some 4xx, and no 4xx can be a documented one. The document is silent, not the target wrong;
    // the runner says so once, as a warning (runner.ts), instead of failing every operation of such a document.
    if (x.status >= 400 && x.status < 500 && ctx.settings.provokingChecks?.has(x.record.checkId) && !documentsErrors(x.operation)) {
      ctx.silentOnErrors.add(x.operation.operationId);
      return NOT_APPLICABLE;
    }
    return verdictOf(x.diagnostics.filter((d) => d.pointer === '/status' && d.keyword === 'status'));
  },
};

/** Whether an operation documents any 4xx answer: a 4xx code, the 4XX range or `default` (OpenAPI 3.0.3 §4.7.16). */
function documentsErrors(operation: Operation): boolean {
  return [...operation.responses.keys()].some((key) => key === 'default' || /^4(\d\d|XX)$/i.test(key));
}
