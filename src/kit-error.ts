/**
 * Kit errors: the kit itself, the document or the command line is wrong, as
 * opposed to a finding about a target (architecture principle 7). A command
 * that meets one exits 2. The set is closed; README's "Kit error codes"
 * section lists the same codes, and a test keeps the two in step.
 */
export const KIT_ERROR_CODES = {
  SPEC_NOT_FOUND: 'The OpenAPI document could not be read.',
  SPEC_UNPARSABLE: 'The OpenAPI document is not valid YAML or JSON.',
  SPEC_UNSUPPORTED_VERSION: 'The document is not OpenAPI 3.0.x or 3.1.x.',
  SPEC_INVALID: 'The document breaks the OpenAPI schema (with --strict, or where the kit cannot read past it), has a broken $ref or one that reads outside what --allow-refs allows, holds an example, default, const or enum that contains itself, or goes past a cap on size, depth or YAML aliases.',
  SPEC_SCHEMA_REJECTED: 'A schema in the document cannot be compiled by Ajv in strict mode.',
  HANDLER_MISSING: 'An operation of the document has no mock handler, or a handler has no operation.',
  FIXTURES_INVALID: 'The seed data does not match the document or the state rules.',
  USAGE: 'The command line is wrong.',
  TARGET_UNREACHABLE: 'The target did not answer before the first check.',
  BASE_URL_MISMATCH: "The target answers the documented paths with 404s that are not the contract's Error: --base-url lacks the API's path prefix or has a wrong one.",
  REPORT_WRITE_FAILED: 'The report could not be written.',
  REPORT_UNREADABLE: 'A report given to merge-reports cannot be read, is not a JSON report of a shard, or does not belong with the others (another run, a shard missing or given twice).',
} as const;

export type KitErrorCode = keyof typeof KIT_ERROR_CODES;

export class KitError extends Error {
  override readonly name = 'KitError';
  constructor(
    readonly code: KitErrorCode,
    message: string,
    readonly details: { file?: string; pointer?: string; reason?: string } = {},
  ) {
    super(message);
  }
}

export function isKitError(value: unknown): value is KitError {
  return value instanceof KitError;
}
