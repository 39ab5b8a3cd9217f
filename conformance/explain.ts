/**
 * `petstore-kit conformance --explain CHECK`: what a check verifies, why it
 * matters, and what a conformant answer looks like, from the registry (the
 * description and `explain` of its CheckDefinition), so the words a report
 * shows and the words a vendor reads come from one place.
 */
import { KitError } from '../src/kit-error.js';
import { CHECKS } from './checks/index.js';
import { MIN_COVERAGE_CHECK } from './min-coverage.js';

const MIN_COVERAGE_EXPLANATION = {
  why: 'A run that --only/--skip or --read-only left hollow would otherwise pass while vouching for almost nothing.',
  conformant: 'A run that exercised at least the given share of the operations (and of the documented statuses, with statuses=N).',
};

export function explainCheck(id: string): string {
  const check = CHECKS.find((c) => c.id === id);
  const entry = check
    ? { id: check.id, family: check.family, description: check.description, writes: check.writes, unsafeUnderReadOnly: check.unsafeUnderReadOnly, explain: check.explain }
    : id === MIN_COVERAGE_CHECK.id
      ? { ...MIN_COVERAGE_CHECK, explain: MIN_COVERAGE_EXPLANATION }
      : undefined;
  if (!entry) {
    const near = CHECKS.map((c) => c.id).filter((c) => c.includes(id) || id.includes(c.split('-')[0]!));
    throw new KitError('USAGE', `petstore-kit conformance: --explain ${id}: no such check.${near.length ? ` Did you mean ${near.slice(0, 3).join(', ')}?` : ''} See petstore-kit conformance --list-checks.`);
  }
  return [
    `${entry.id} (${entry.family}, ${entry.writes ? 'sends writes: skipped under --read-only' : 'unsafeUnderReadOnly' in entry && entry.unsafeUnderReadOnly ? 'writes nothing, but skipped under --read-only' : 'reads only'})`,
    '',
    `What it verifies: ${entry.description}`,
    `Why: ${entry.explain.why}`,
    `A conformant answer: ${entry.explain.conformant}`,
    '',
  ].join('\n');
}
