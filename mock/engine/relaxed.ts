/**
 * The guard behind `--validation warn|off`. Relaxed validation must still
 * never let a value reach the store, or an answer, that the document forbids
 * (a name that is a number or 500 characters long, a negative quantity, a
 * status outside the enum): stored records share their property schemas with
 * the request bodies, so a tolerated body constraint would come back as an
 * answer that breaks the contract. So the guard is the document's own request
 * schemas with only these constraints removed:
 *
 * - in bodies, `additionalProperties` (unknown fields are dropped: handlers
 *   read the declared fields by name) and `minProperties`/`maxProperties` (an
 *   empty update changes nothing);
 * - in parameters, which are never stored: upper bounds, lengths, patterns
 *   and list sizes (`?limit=500`, a 200-id filter). Types, `enum`, `format`,
 *   `required` and lower bounds stay (ids >= 1, offset >= 0), and text is
 *   still coerced strictly.
 *
 * Derived from the document and compiled once, by the same compileContract as
 * the strict validators.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { Contract, Operation } from '../../src/contract/index.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';

const BODY_TOLERATED = new Set(['additionalProperties', 'minProperties', 'maxProperties']);
const PARAMETER_TOLERATED = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf']);

export function compileRelaxed(contract: Contract): CompiledContract {
  const bodyMemo = new WeakMap<object, OpenAPIV3.SchemaObject>();
  const parameterMemo = new WeakMap<object, OpenAPIV3.SchemaObject>();
  const relaxBody = (schema: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject => relaxSchema(schema, BODY_TOLERATED, bodyMemo);
  const relaxParameter = (schema: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject => relaxSchema(schema, PARAMETER_TOLERATED, parameterMemo);
  const operations: Operation[] = contract.operations.map((operation) => ({
    ...operation,
    parameters: operation.parameters.map((parameter) => ({ ...parameter, schema: relaxParameter(parameter.schema) })),
    ...(operation.requestBody
      ? { requestBody: { ...operation.requestBody, content: operation.requestBody.content.map((media) => ({ ...media, ...(media.schema ? { schema: relaxBody(media.schema) } : {}) })) } }
      : {}),
    // Responses are checked by the strict validators' users (tests, the runner), never by the guard.
    responses: new Map(),
  }));
  const relaxed: Contract = {
    ...contract,
    operations,
    operationsById: new Map(operations.map((operation) => [operation.operationId, operation])),
    unmatched: {},
  };
  return compileContract(relaxed);
}

function relaxSchema(schema: OpenAPIV3.SchemaObject, tolerated: ReadonlySet<string>, memo: WeakMap<object, OpenAPIV3.SchemaObject>): OpenAPIV3.SchemaObject {
  const cached = memo.get(schema);
  if (cached) return cached;
  const out: Record<string, unknown> = {};
  memo.set(schema, out);
  for (const [key, value] of Object.entries(schema)) {
    if (tolerated.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, isObject(child) ? relaxSchema(child, tolerated, memo) : child]));
    } else if ((key === 'items' || key === 'not') && isObject(value)) {
      out[key] = relaxSchema(value, tolerated, memo);
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((child: unknown) => (isObject(child) ? relaxSchema(child, tolerated, memo) : child));
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isObject(value: unknown): value is OpenAPIV3.SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
