import { isObject } from '../generate.js';
import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/**
 * An error's `code` is one of the document's closed set (`x-error-codes`),
 * and the set's entry for it names the same HTTP status. A body without a
 * string code is error-shape's finding; a code that is not one of the set
 * (including one that breaks the Error schema's pattern) is this one's.
 */
export const errorCodeDocumented: CheckDefinition = {
  id: 'error-code-documented',
  family: 'errors',
  description: 'Every error code is one the document lists in x-error-codes, for that HTTP status.',
  explain: {
    why: 'Clients branch on `Error.code`; a code the document does not list (or lists for another status) cannot be handled by code written from the document.',
    conformant: '`{"code":"PET_NOT_FOUND","message":"…","status":404}`: a code from `x-error-codes`, listed there for that status.',
  },
  writes: false,
  judge(x, ctx) {
    const codes = ctx.contract.errorCodes;
    if (x.status < 400 || codes.size === 0 || !isObject(x.json) || typeof x.json['code'] !== 'string') return NOT_APPLICABLE;
    const code = x.json['code'];
    const spec = codes.get(code);
    if (!spec) {
      return verdictOf([{ pointer: '/body/code', keyword: 'x-error-codes', message: `${code} is not a code the document lists in x-error-codes`, expected: [...codes.keys()], actual: code }]);
    }
    if (spec.status !== x.status) {
      return verdictOf([{ pointer: '/body/code', keyword: 'x-error-codes', message: `x-error-codes gives ${code} the status ${spec.status}, but it came with ${x.status}`, expected: spec.status, actual: x.status }]);
    }
    return verdictOf([]);
  },
};
