/**
 * Path templates a document gives twice (`/Journals/{JournalID}` and `/Journals/{JournalNumber}`, both with GET, in
 * Xero's accounting description), which OpenAPI 3.0.3 §4.7.8.1 forbids ("Templated paths with the same hierarchy but
 * different templated names MUST NOT exist"). A request to such a URL cannot say which it means: a correct server
 * routes it to one of them, and that one's parameters may refuse a value valid for the other (a journal number is no
 * uuid). The runner cannot blame that refusal on the target.
 */
import type { Contract, Operation } from '../src/contract/index.js';

const twinsByContract = new WeakMap<Contract, ReadonlyMap<Operation, Operation>>();

/** The other operation with the same method on a template of the same shape, when the document has one. */
export function twinOf(contract: Contract, operation: Operation): Operation | undefined {
  let twins = twinsByContract.get(contract);
  if (!twins) {
    const byShape = new Map<string, Operation[]>();
    for (const candidate of contract.operations) {
      const key = `${candidate.method} ${candidate.pathTemplate.replace(/\{[^{}]*\}/g, '{}')}`;
      byShape.set(key, [...(byShape.get(key) ?? []), candidate]);
    }
    const found = new Map<Operation, Operation>();
    for (const group of byShape.values()) {
      for (const member of group) {
        const other = group.find((candidate) => candidate.pathTemplate !== member.pathTemplate);
        if (other) found.set(member, other);
      }
    }
    twinsByContract.set(contract, (twins = found));
  }
  return twins.get(operation);
}
