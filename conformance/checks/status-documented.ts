import { isCredentialRefusal } from '../credentials.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { Operation } from '../../src/contract/index.js';
import { twinOf } from '../twins.js';
import { templateParameters } from '../requests/paths.js';
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
    // The run sent an invalid request on purpose (a broken body, a media type the operation does not take, an absent
    // id): the check that sent it judges the refusal's status, the documented one where the document names one, any
    // 4xx where it does not (OpenAPI 3.0.3 §4.7.16: responses need not be exhaustive; a 415 or a 404 needs no listing
    // to be right). Judging it here too would contradict that check. Where the operation documents no error answer at
    // all, the runner says so once, as a warning (runner.ts).
    // A URL with a path parameter may name nothing: 404 is a correct answer there whatever the operation lists (RFC 9110
    // §15.5.5), and the runner often has to make such values up (a parent id for Twilio's ListCall no record holds).
    if (x.status === 404 && x.operation.parameters.some((p) => p.in === 'path')) return NOT_APPLICABLE;
    // A 304 to a conditional GET is HTTP's own answer (RFC 9110 §13.1.2, §15.4.5), listed or not: whether it was
    // right to give it is replace-visible's to say (the validator of a record it changed).
    if (x.status === 304 && Object.keys(x.record.result.exchange.request.headers).some((name) => /^if-(none-match|modified-since)$/i.test(name))) return NOT_APPLICABLE;
    // A required path parameter the operation's path has no `{name}` for (Sonarr's `GET /` declares `path`): no request
    // can carry it (OpenAPI 3.0.3 §4.7.12.1 says the name MUST occur in the path), so a server that holds to the
    // document refuses every request and one that does not serves it. The document's defect, not the target's.
    if (x.status >= 400 && x.status < 500 && pathParameterNoRequestCarries(x.operation)) return NOT_APPLICABLE;
    // A URL the document names by two templates may be routed to the other one, whose parameters refuse it (twins.ts).
    if (x.status >= 400 && x.status < 500 && twinOf(ctx.contract, x.operation)) return NOT_APPLICABLE;
    // An operation that documents no success answer at all says nothing of which 2xx a success gets (OpenAPI 3.0.3
    // §4.7.16 expects documents to cover one; the classic Swagger Petstore's addPet lists only 405): any 2xx is the
    // document's gap, said once as a warning (runner.ts), not the target's defect. A 2xx to an invalid request is
    // still failed, by the check that sent it.
    if (x.status >= 200 && x.status < 300 && !documentsSuccess(x.operation)) {
      ctx.silentOnSuccess.add(x.operation.operationId);
      return NOT_APPLICABLE;
    }
    if (x.status >= 400 && x.status < 500 && ctx.settings.provokingChecks?.has(x.record.checkId)) {
      if (!documentsErrors(x.operation)) ctx.silentOnErrors.add(x.operation.operationId);
      return NOT_APPLICABLE;
    }
    return verdictOf(x.diagnostics.filter((d) => d.pointer === '/status' && d.keyword === 'status'));
  },
};

/** Whether an operation documents any 4xx answer: a 4xx code, the 4XX range or `default` (OpenAPI 3.0.3 §4.7.16). */
function documentsErrors(operation: Operation): boolean {
  return [...operation.responses.keys()].some((key) => key === 'default' || /^4(\d\d|XX)$/i.test(key));
}

/** Whether an operation documents a success answer: a 2xx code, the 2XX range or `default` (OpenAPI 3.0.3 §4.7.16). */
function documentsSuccess(operation: Operation): boolean {
  return [...operation.responses.keys()].some((key) => key === 'default' || /^2(\d\d|XX)$/i.test(key));
}

/** Whether an operation declares a required path parameter that its path template has no `{name}` for. */
function pathParameterNoRequestCarries(operation: Operation): boolean {
  const names = new Set(templateParameters(operation.pathTemplate));
  return operation.parameters.some((p) => p.in === 'path' && p.required && !names.has(p.name));
}
