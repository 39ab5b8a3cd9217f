import { bodyDiagnostics, NOT_APPLICABLE, verdictOf } from '../judge.js';
import type { CheckDefinition } from './types.js';

/**
 * A 2xx body validates against the documented schema with Ajv: required
 * fields, types, formats, enum values (PetStatus). Error bodies are
 * error-shape's; a body the Content-Type does not announce is content-type's.
 */
export const responseSchema: CheckDefinition = {
  id: 'response-schema',
  family: 'response',
  description: 'Every 2xx body validates against the response schema (required fields, types, formats, enums).',
  explain: {
    why: 'Clients and generated types rely on the response schema; a missing required field, a wrong type or an unknown enum value breaks them at run time.',
    conformant: 'A body that validates against the documented schema, e.g. a Pet `{"id":21,"name":"Rex","categoryId":1,"status":"available"}`.',
  },
  writes: false,
  judge(x) {
    if (!x.operation || x.status < 200 || x.status >= 300 || x.statusKey === undefined) return NOT_APPLICABLE;
    return verdictOf(bodyDiagnostics(x));
  },
};
