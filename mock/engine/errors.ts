/**
 * The one builder of Error bodies (architecture principle 3). Every error the
 * mock answers, from the router, the body checks, the validators, the state
 * rules or the admin surface, goes through here, so each has the document's
 * Error shape and a `status` taken from the document's `x-error-codes` for its
 * code: never a status typed by hand next to a code.
 */
import type { Contract } from '../../src/contract/index.js';
import { API_ERROR_CODES, type ApiErrorCode } from '../../src/api-error-codes.js';
import { KitError } from '../../src/kit-error.js';
import type { Diagnostic } from '../../src/schema/index.js';
import type { ApiError, ErrorDetail } from '../../src/types.js';

export interface ErrorAnswer {
  readonly status: number;
  readonly body: ApiError;
}

export interface ErrorFactory {
  /** The document's status for a code. */
  statusOf(code: ApiErrorCode): number;
  /** An Error body and its status; `details` only for validation failures. */
  error(code: ApiErrorCode, message: string, details?: readonly Diagnostic[]): ErrorAnswer;
  /** VALIDATION_FAILED with every problem, and a message naming the first so a log line alone is useful. */
  validationFailed(diagnostics: readonly Diagnostic[]): ErrorAnswer;
}

/** Checks, once, that the document lists every code the mock can answer with, and builds the factory. */
export function createErrorFactory(contract: Contract): ErrorFactory {
  const statuses = new Map<ApiErrorCode, number>();
  const missing: string[] = [];
  for (const code of API_ERROR_CODES) {
    const spec = contract.errorCodes.get(code);
    if (spec) statuses.set(code, spec.status);
    else missing.push(code);
  }
  if (missing.length > 0) {
    throw new KitError('SPEC_INVALID', `${contract.file} at /x-error-codes: the mock answers with ${missing.join(', ')}, which the document does not list; add them with their status.`, {
      file: contract.file,
      pointer: '/x-error-codes',
      reason: `missing ${missing.join(', ')}`,
    });
  }

  const statusOf = (code: ApiErrorCode): number => statuses.get(code) ?? 500;

  const error = (code: ApiErrorCode, message: string, details?: readonly Diagnostic[]): ErrorAnswer => {
    const status = statusOf(code);
    const body: ApiError = details && details.length > 0 ? { code, message, status, details: details.map(toDetail) } : { code, message, status };
    return { status, body };
  };

  return {
    statusOf,
    error,
    validationFailed(diagnostics) {
      const [first] = diagnostics;
      const more = diagnostics.length - 1;
      const summary = first ? `${first.pointer} ${first.message}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}` : 'see details';
      return error('VALIDATION_FAILED', `The request does not match the contract: ${summary}; see details.`, diagnostics);
    },
  };
}

function toDetail(diagnostic: Diagnostic): ErrorDetail {
  return { path: diagnostic.pointer, message: diagnostic.message };
}
