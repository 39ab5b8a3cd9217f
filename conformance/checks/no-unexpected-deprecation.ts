import { NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/** Only operations the document marks `deprecated: true` may announce a deprecation (RFC 9745 §2). */
export const noUnexpectedDeprecation: CheckDefinition = {
  id: 'no-unexpected-deprecation',
  family: 'deprecation',
  description: 'Operations the document does not deprecate send no Deprecation header.',
  explain: {
    why: 'A Deprecation header on an operation the document does not deprecate tells clients to migrate away from a supported operation (RFC 9745).',
    conformant: 'No `Deprecation` header outside the deprecated operation (getPet).',
  },
  writes: false,
  judge(x) {
    if (!x.operation || x.operation.deprecated) return NOT_APPLICABLE;
    const value = x.headers['deprecation'];
    if (value === undefined) return verdictOf([]);
    return verdictOf([{ pointer: '/header/deprecation', keyword: 'absent', message: `${x.operation.operationId} is not deprecated in the document, yet it sends Deprecation: ${value}`, expected: '(absent)', actual: value }]);
  },
};
