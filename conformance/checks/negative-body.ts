import { parseJson, plainJson, stringifyJson } from '../json.js';
import { bodyMutations, isObject, mergeAllOf, propertiesOf, schema, type BodyMutation, type Schema } from '../generate.js';
import { bodyFields, nearMisses, withValueAt } from '../requests/boundaries.js';
import type { CheckDefinition } from './types.js';
import { answerSchema, judgeRejection, validationStatuses, jsonBodyOperations, snapshot, stateChanged, type Snapshot } from './support.js';

/**
 * For every operation with a JSON body: invalid variants of a valid body,
 * generated from its schema (each required field missing, wrong types, enum
 * violations such as PetStatus "adopted", unknown fields on closed shapes,
 * out-of-range values, bad formats), and for every field a value of each
 * JSON type it does not take, null where it is not nullable, its enum values
 * in another case and date-times in the near-miss forms lax parsers take
 * (requests/boundaries.ts), each rejected with a 4xx and changing
 * nothing. The exact bytes sent are validated once more before judging: a
 * mutation that turned valid on serialization is skipped, not counted.
 */
export const negativeBody: CheckDefinition = {
  id: 'negative-body',
  family: 'negative',
  description: 'Invalid bodies generated from the schemas (missing, every other JSON type per field, null, enum and its other case, near-miss date-times, unknown field, out of range) get a 4xx and change nothing.',
  explain: {
    why: 'A server that accepts what its schema forbids stores data its own clients cannot read back, and hides client bugs.',
    conformant: '`400` (or `422` where the document says so) with the Error shape naming the field, and no record created or changed.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for await (const { operation, media, where, inputs } of jsonBodyOperations(ctx, 'negative-body', 'invalid bodies', true)) {
      const validators = ctx.compiled.operations.get(operation.operationId)!;
      let before: Snapshot | undefined;
      const sent = new Set<string>();
      const mutations = [...bodyMutations(schema(media.schema), inputs.body), ...storedFieldMutations(schema(media.schema), answerSchema(operation), inputs.body), ...typeMutations(schema(media.schema), inputs.body)];
      for (const mutation of mutations) {
        if (ctx.aborted) break;
        // One request per text: a near miss the schema's own mutations already made is not sent twice.
        const key = stringifyJson(mutation.value);
        if (sent.has(key)) continue;
        sent.add(key);
        const c = ctx.newCase('negative-body', `${where} with ${mutation.description}`, operation.operationId);
        c.mutation = { kind: mutation.kind, pointer: mutation.pointer, description: mutation.description };
        const text = stringifyJson(mutation.value);
        // The exact bytes, parsed back, must still break the document; else the input is not invalid and proves nothing.
        if (validators.body(plainJson(parseJson(text))).length === 0 && !integerOutsideInt64(mutation.value)) {
          c.skip(`the mutation is valid once serialized as JSON (${text.length > 80 ? `${text.slice(0, 80)}…` : text}); not counted`);
          continue;
        }
        before ??= await snapshot(c, operation, inputs);
        const call = await c.call(operation, { path: inputs.path, query: inputs.query, bodyText: text });
        const changed = await stateChanged(c, before);
        judgeRejection(c, call, validationStatuses(c.ctx.contract, operation), changed, inputs);
        // After a change the state to compare with is the new one: take it afresh (twice, as ever).
        if (changed.length > 0) before = undefined;
      }
      // A required body sent empty (zero bytes, labelled JSON) is no body at all: refused, not taken as `{}` (issue 19).
      if (operation.requestBody?.required && !ctx.aborted) {
        const c = ctx.newCase('negative-body', `${where} with an empty body labelled application/json`, operation.operationId);
        c.mutation = { kind: 'missing-body', pointer: '', description: 'a required body sent empty (zero bytes) as application/json' };
        before ??= await snapshot(c, operation, inputs);
        const call = await c.call(operation, { path: inputs.path, query: inputs.query, bodyText: '' });
        judgeRejection(c, call, validationStatuses(c.ctx.contract, operation), await stateChanged(c, before), inputs);
      }
    }
  },
};

/**
 * For every field the body may hold (nested objects too), each near miss the schema refuses and lax parsers take
 * (requests/boundaries.ts: every other JSON type, null where not nullable, an enum value in another case, date-times
 * in non-RFC 3339 forms), in a copy of the valid body. Those the schema turns out to accept are skipped by the
 * caller's re-validation of the exact text, never counted.
 */
function typeMutations(bodySchema: ReturnType<typeof schema>, valid: unknown): BodyMutation[] {
  if (!isObject(valid)) return [];
  return bodyFields(bodySchema, valid).flatMap((field) =>
    nearMisses(field.schema).map((miss) => ({
      kind: miss.kind === 'null' ? 'wrong-type' : miss.kind,
      pointer: field.pointer,
      description: `${field.pointer} set to ${miss.description}`,
      value: withValueAt(valid, field.pointer, miss.value),
    })),
  );
}

/**
 * On a closed body (`additionalProperties: false`), each field the operation's answer declares and the body does
 * not (the `id` of a Pet sent to a NewPet, an Order's `quantity` sent to an OrderUpdate), with a value the answer's
 * field takes: the unknown field a server that validates input against the stored shape lets through, where a name
 * of the runner's own is refused.
 */
function storedFieldMutations(bodySchema: Schema, answer: Schema | undefined, valid: unknown): BodyMutation[] {
  if (!isObject(valid) || bodySchema.additionalProperties !== false || answer === undefined) return [];
  const own = propertiesOf(bodySchema);
  return Object.entries(propertiesOf(answer))
    .filter(([name]) => !Object.hasOwn(own, name) && !Object.hasOwn(valid, name))
    .flatMap(([name, raw]) => {
      const value = sampleOf(mergeAllOf(raw));
      return value === undefined ? [] : [{ kind: 'unknown-field' as const, pointer: `/${name}`, description: `/${name}, a field of the answer the closed body does not take, set to ${stringifyJson(value)}`, value: { ...valid, [name]: value } }];
    });
}

/** A value of a scalar schema: its example, its first enum value, or one of its type and format. */
function sampleOf(s: Schema): unknown {
  if (s.example !== undefined && (typeof s.example !== 'object' || s.example === null)) return s.example;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.type === 'integer' || s.type === 'number') return typeof s.minimum === 'number' ? Math.max(1, s.minimum) : 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'string') return s.format === 'date-time' ? '2026-01-01T00:00:00Z' : s.format === 'date' ? '2026-01-01' : 'x';
  return undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Ajv checks int64 on doubles, which cannot tell 2^63 from 2^63-1 (RFC 8259 §6); the generator writes such a
 * value as a bigint, so it is judged here on its digits. Walked with a stack: a body may be deep.
 */
function integerOutsideInt64(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'bigint') {
      if (item < INT64_MIN || item > INT64_MAX) return true;
    } else if (typeof item === 'object' && item !== null) {
      for (const child of Object.values(item)) stack.push(child);
    }
  }
  return false;
}
