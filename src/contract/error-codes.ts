import { KitError } from '../kit-error.js';
import type { WarningList } from './warnings.js';

export interface ErrorCodeSpec {
  readonly code: string;
  readonly status: number;
  readonly description: string;
}

const SKIPPED = 'error-code-documented and the code half of error-shape do not check this code';

/**
 * `x-error-codes`: the closed set of codes an Error may carry. Our document
 * writes it as a map of code → {status, description}; documents from
 * elsewhere also write an array of {code, status, description} entries, or a
 * map of code → status. Those shapes are read; anything else is, for our own
 * document (strict), a KitError, and for a document from elsewhere a warning,
 * with the codes left out (the checks that need them then have nothing to
 * check, rather than refusing the document).
 */
export function readErrorCodes(raw: unknown, file: string, strict: boolean, warnings: WarningList): Map<string, ErrorCodeSpec> {
  const codes = new Map<string, ErrorCodeSpec>();
  if (raw === undefined) return codes;
  const problem = (pointer: string, message: string): void => {
    if (strict) throw new KitError('SPEC_INVALID', `${file} at ${pointer}: ${message}`, { file, pointer });
    warnings.add({ pointer, message, skipped: SKIPPED });
  };

  let entries: [pointer: string, code: unknown, value: unknown][];
  if (Array.isArray(raw)) {
    entries = raw.map((item: unknown, i) => [`/x-error-codes/${i}`, isRecord(item) ? item['code'] : item, item]);
  } else if (isRecord(raw)) {
    entries = Object.entries(raw).map(([code, value]) => [`/x-error-codes/${escapePointer(code)}`, code, value]);
  } else {
    problem('/x-error-codes', 'expected a map of code to {status, description}, or an array of {code, status, description}.');
    return codes;
  }

  for (const [pointer, code, value] of entries) {
    const status = statusOf(isRecord(value) ? (value['status'] ?? value['httpStatus']) : value);
    if (typeof code !== 'string' || code === '') {
      problem(pointer, 'an entry without a code (a non-empty string) is not read.');
    } else if (status === undefined) {
      problem(pointer, 'status must be a number (an HTTP status code).');
    } else {
      const description = isRecord(value) ? (value['description'] ?? value['message']) : undefined;
      codes.set(code, { code, status, description: typeof description === 'string' ? description : '' });
    }
  }
  return codes;
}

function statusOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[1-5][0-9][0-9]$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
