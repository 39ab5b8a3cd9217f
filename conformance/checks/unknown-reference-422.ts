import { ABSENT_ID, isObject, jsonBodyOf, propertiesOf, schema } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { documenting, provokeStatus, validCall } from './provoke.js';

/**
 * A body that names a record that does not exist (a `categoryId` or `petId`
 * no record has: a valid id, so not a 400) gets the documented 422 (RFC 9110
 * §15.5.21) and creates nothing. Which body fields name records comes from
 * the document's links: a field named like a parameter a create operation's
 * 201 links bind (`categoryId` ← createCategory) holds that record's id.
 */
export const unknownReference422: CheckDefinition = {
  id: 'unknown-reference-422',
  family: 'negative',
  description: `A body naming a record that does not exist (id ${ABSENT_ID}) gets the documented 422 and changes nothing.`,
  explain: {
    why: 'A well-formed body that names a record that does not exist is a semantic error (422, RFC 9110 section 15.5.21), not a malformed request (400) and not a missing target (404): clients show a different message for each.',
    conformant: '`POST /pets` with a `categoryId` no category has answers 422 with the Error shape, and no pet is created.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for (const operation of documenting(ctx, 422)) {
      const media = jsonBodyOf(operation);
      if (!media) continue;
      const references = Object.keys(propertiesOf(media.schema)).filter((name) => {
        const producer = ctx.links.producers.get(name);
        return producer !== undefined && ctx.links.kinds.get(operation.operationId) !== producer.kind;
      });
      for (const name of references) {
        if (ctx.aborted) return;
        await provokeStatus(ctx, {
          checkId: 'unknown-reference-422',
          operation,
          description: `with /${name} naming no record`,
          mutation: { kind: 'unknown-reference', pointer: `/body/${name}`, description: `/${name} set to ${ABSENT_ID}, a valid id no record has` },
          status: 422,
          request: (inputs) => ({ ...validCall(inputs), body: isObject(inputs.body) ? { ...inputs.body, [name]: ABSENT_ID } : inputs.body }),
          // Counted among the records under the unknown reference: a server that stores the body anyway adds one there.
          snapshotInputs: (inputs) => ({ ...inputs, bindings: { ...inputs.bindings, [name]: ABSENT_ID } }),
        });
      }
    }
  },
};
