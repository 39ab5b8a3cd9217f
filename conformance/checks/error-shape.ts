import type { OpenAPIV3 } from 'openapi-types';
import { documentErrorSchema, responseFor, type Contract } from '../../src/contract/index.js';
import { isObject, mergeAllOf } from '../generate.js';
import { bodyDiagnostics, NOT_APPLICABLE, verdictOf, type JudgedExchange } from '../judge.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';

/**
 * Every 4xx/5xx body has the Error shape and its `status` equals the HTTP
 * status. A documented error status is validated against its own schema;
 * an undocumented one (status-documented's finding) against the document's
 * Error schema, so its body is still judged.
 *
 * The status-equality rule is our contract's convention, not HTTP's: it
 * applies only where the error schema of the answer declares an integer
 * `status` (issue 11, point 4). A Problem whose `status` is a string enum
 * is judged by its schema alone.
 */
export const errorShape: CheckDefinition = {
  id: 'error-shape',
  family: 'errors',
  description: 'Every 4xx/5xx body has the Error shape, and its status equals the HTTP status.',
  explain: {
    why: 'One Error shape lets every client report every failure the same way; a bare string or a `status` that disagrees with the HTTP status breaks that.',
    conformant: '`{"code":"VALIDATION_FAILED","message":"…","status":400}` with `status` equal to the HTTP status (`details` optional).',
  },
  writes: false,
  judge(x, ctx) {
    if (x.status < 400) return NOT_APPLICABLE;
    let findings: Finding[];
    const catalogue = x.unmatched !== undefined && !documentedUnmatched(ctx.contract, x.unmatched) && ctx.contract.errorCodes.size > 0 ? documentErrorSchema(ctx.contract) : undefined;
    if (catalogue) {
      // An unknown path or a wrong method, in a document that declares no answer for them but a document-wide error
      // catalogue (x-error-codes, with its not-found and method codes): the document's one Error shape is the answer.
      if (x.body.kind === 'json') findings = ctx.compiled.validate(catalogue, x.json, 'response', '/body');
      else findings = [{ pointer: '/body', keyword: 'type', message: `the answer is ${x.headers['content-type'] ?? 'without a Content-Type'}, not the document's JSON Error shape`, expected: 'application/json', actual: x.headers['content-type'] ?? null }];
    } else if (x.statusKey !== undefined || x.unmatched) {
      findings = bodyDiagnostics(x);
    } else if (x.body.kind === 'json') {
      const schema = documentErrorSchema(ctx.contract);
      if (!schema) return NOT_APPLICABLE;
      findings = ctx.compiled.validate(schema, x.json, 'response', '/body');
    } else if (x.body.kind === 'invalid-json') {
      findings = [{ pointer: '/body', keyword: 'json', message: `the body is not valid JSON (${x.body.message})` }];
    } else {
      return NOT_APPLICABLE;
    }
    if (ctx.contract.errorCodes.size > 0) {
      // Whether `code` is one of the documented codes (its pattern included) is error-code-documented's: here only that it is there, a string.
      findings = findings.filter((f) => f.pointer !== '/body/code' || f.keyword === 'required' || f.keyword === 'type');
    }
    if (isObject(x.json) && 'status' in x.json && x.json['status'] !== x.status && declaresIntegerStatus(answerSchema(x, ctx.contract))) {
      findings = [...findings, { pointer: '/body/status', keyword: 'const', message: `Error.status must equal the HTTP status ${x.status}`, expected: x.status, actual: x.json['status'] }];
    }
    return verdictOf(findings);
  },
};

/** The JSON schema this error answer is judged by: its documented response's, the unmatched request's, else the document's Error schema. */
function answerSchema(x: JudgedExchange, contract: Contract): OpenAPIV3.SchemaObject | undefined {
  const documented = x.operation && x.statusKey !== undefined ? responseFor(x.operation, x.status) : x.unmatched ? documentedUnmatched(contract, x.unmatched) : undefined;
  return documented?.content.find((m) => /json/i.test(m.mediaType))?.schema ?? documentErrorSchema(contract);
}

/** The answer x-unmatched-requests documents for an unmatched request; none for one that could not be parsed. */
function documentedUnmatched(contract: Contract, which: NonNullable<JudgedExchange['unmatched']>): Contract['unmatched']['unknownPath'] {
  return which === 'unparsable' ? undefined : contract.unmatched[which];
}

/** Whether a schema (its allOf parts merged) declares `status` as an integer: where our contract's status-equality convention is declared. */
function declaresIntegerStatus(schema: OpenAPIV3.SchemaObject | undefined): boolean {
  const status = schema ? mergeAllOf(schema).properties?.['status'] : undefined;
  return status !== undefined && 'type' in status && status.type === 'integer';
}
