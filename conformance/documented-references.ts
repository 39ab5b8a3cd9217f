/**
 * Whether a document says that a body naming a record that does not exist is refused. A 422 alone does not say it:
 * "Validation exception" (the Swagger Petstore v3), FastAPI's "Validation Error" on every operation, "Unprocessable
 * Entity" say that some well-formed bodies are refused, not that a reference is checked; the servers behind them
 * commonly take an order for a pet they do not have. The document says it in words of absence where it describes the
 * 422 (its answer's description, or an error code it lists for 422: `UNKNOWN_CATEGORY`, `PET_NOT_FOUND`), or in the
 * member's own description ("the id of an existing pet", "must exist").
 */
import type { Contract, Operation } from '../src/contract/index.js';

/** Words that say a record is absent: "does not exist", "no category has", "unknown pet", "not found", "no such". */
const ABSENCE = /\b(?:do(?:es)?\s*n[o’']t|not)\s+exist|\bnon-?existent\b|\bno\s+such\b|\bnot\s+found\b|\bunknown\s+(?!error\b|exception\b|failure\b|problem\b|reason\b)\w|\bthat\s+no\s+\w+\s+(?:has|holds|is)\b/i;

/** Words in a member's description that require the record it names to exist. */
const EXISTENCE = /\b(?:an?|the)\s+existing\b|\bmust\s+(?:already\s+)?exist\b|\bthat\s+exists\b/i;

/** What a document says where a refused reference would be described. */
export interface ReferenceTexts {
  /** The description of the operation's 422 answer. */
  readonly answer422?: string;
  /** The error codes the document lists for 422 (`x-error-codes`), with their descriptions. */
  readonly codes422: readonly { readonly code: string; readonly description?: string }[];
  /** The body member's own description. */
  readonly member?: string;
}

/** Whether these texts say that a body naming a record that does not exist is refused. */
export function saysUnknownReferenceRefused(texts: ReferenceTexts): boolean {
  // An error code's name as words: `UNKNOWN_CATEGORY` → "UNKNOWN CATEGORY", `PET_NOT_FOUND` → "PET NOT FOUND".
  const said = [texts.answer422 ?? '', ...texts.codes422.flatMap(({ code, description }) => [code.replace(/[_-]+/g, ' '), description ?? ''])];
  if (said.some((text) => ABSENCE.test(text))) return true;
  return texts.member !== undefined && (EXISTENCE.test(texts.member) || ABSENCE.test(texts.member));
}

/** The texts of `operation`'s document where it would say that a body naming no record is refused. */
export function referenceTexts(contract: Contract, operation: Operation, member: string | undefined): ReferenceTexts {
  const answer422 = operation.responses.get('422')?.description;
  return {
    ...(answer422 !== undefined ? { answer422 } : {}),
    codes422: [...contract.errorCodes.values()].filter((spec) => spec.status === 422),
    ...(member !== undefined ? { member } : {}),
  };
}
