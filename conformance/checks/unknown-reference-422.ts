import { ABSENT_ID, isObject, jsonBodyOf, propertiesOf, schema } from '../generate.js';
import type { Case } from '../context.js';
import { referenceTexts, saysUnknownReferenceRefused } from '../documented-references.js';
import { evaluateExpression, unqualified, type LinkModel, type Producer } from '../links.js';
import { memberNamedBy } from '../own-keys.js';
import { answered } from '../requests/call.js';
import { goneBySunset } from './sunset-410.js';
import type { CheckDefinition } from './types.js';
import { documenting, provokeStatus, validCall } from './provoke.js';
import { inRun } from './support.js';

/**
 * A body that names a record that does not exist (a `categoryId` or `petId`
 * no record has: a valid id, so not a 400) gets the documented 422 (RFC 9110
 * §15.5.21) and creates nothing. Which body fields name records comes from
 * the document's links: a field named like a parameter a create operation's
 * 201 links bind (`categoryId` ← createCategory) holds that record's id.
 * Only where the document says so (documented-references.ts): a 422 whose words say nothing of absent records does
 * not promise that a reference is checked.
 * Each such field is tried twice: with an id never used, and with the id of
 * a record the run created and deleted (a soft delete, or a reference checked
 * against a cache, takes the second).
 */
export const unknownReference422: CheckDefinition = {
  id: 'unknown-reference-422',
  family: 'negative',
  description: `A body naming a record that does not exist (id ${ABSENT_ID}, or one the run created and deleted) gets the documented 422 and changes nothing.`,
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
      // The member the operation's own item path names (`slug` for POST /users beside /users/{userSlug}) is the key of
      // the record it makes, not a reference to another kind that happens to be read by a `slug` too.
      const ownKeys = new Set(ctx.contract.operations.flatMap((item) => {
        const parameter = item.pathTemplate.startsWith(`${operation.pathTemplate}/`) ? /^\/\{([^{}/]+)\}$/.exec(item.pathTemplate.slice(operation.pathTemplate.length))?.[1] : undefined;
        const member = parameter === undefined ? undefined : memberNamedBy(parameter, propertiesOf(media.schema));
        return member === undefined ? [] : [member];
      }));
      const members = propertiesOf(media.schema);
      const references = Object.keys(members).filter((name) => {
        const producer = ctx.links.producers.get(name);
        // Only where the document says a missing record is refused: a 422 of "Validation exception" does not.
        if (!saysUnknownReferenceRefused(referenceTexts(ctx.contract, operation, descriptionOf(members[name])))) return false;
        // A name the links of several kinds bind (`slug`, `uuid`: every Coolify resource is read by its `uuid`) says
        // no kind: in a body it may be the record's own key (a user's `slug`) or name a record of any of them, so
        // no id of one kind is sure to be refused there.
        return producer !== undefined && ctx.links.kinds.get(operation.operationId) !== producer.kind && bindingKinds(ctx.links, name) === 1 && !ownKeys.has(name);
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
        // A record that existed and was deleted is no record either: a server that deletes softly, or checks
        // references against a cache, takes its id where it refuses one never used.
        const producer = ctx.links.producers.get(name)!;
        if (ctx.aborted || !producer.kind.remove || !inRun(ctx, producer.kind.remove.operation)) continue;
        let deleted: unknown;
        await provokeStatus(ctx, {
          checkId: 'unknown-reference-422',
          operation,
          description: `with /${name} naming a record the run deleted`,
          mutation: { kind: 'unknown-reference', pointer: `/body/${name}`, description: `/${name} set to the id of a ${producer.kind.create.operationId} record the run created and deleted` },
          status: 422,
          setup: async (c) => {
            const made = await deletedRecord(c, producer);
            if (typeof made === 'string') return made;
            deleted = made.id;
            return undefined;
          },
          request: (inputs) => ({ ...validCall(inputs), body: isObject(inputs.body) ? { ...inputs.body, [name]: deleted } : inputs.body }),
          snapshotInputs: (inputs) => ({ ...inputs, bindings: { ...inputs.bindings, [name]: deleted } }),
        });
      }
    }
  },
};

function descriptionOf(member: unknown): string | undefined {
  return isObject(member) && typeof member.description === 'string' ? member.description : undefined;
}

/** How many kinds' links bind a parameter of this name from what their create answers. */
function bindingKinds(links: LinkModel, name: string): number {
  return [...links.kinds.values()].filter((kind) => kind.links.some((target) => Object.keys(target.link.parameters).some((qualified) => unqualified(qualified) === name))).length;
}

/**
 * A record of the producer's kind, created and deleted through the DELETE its 201 links to, and its id as the
 * producer's expression reads it; or why there is none. The delete must succeed and every read link then answer
 * 404: a record still readable is delete-removes' finding, and may still be named.
 */
async function deletedRecord(c: Case, producer: Producer): Promise<{ id: unknown } | string> {
  const { kind, expression } = producer;
  const outcome = await c.create(kind, { setup: true });
  if (!outcome.ok) return `a ${kind.create.operationId} record to delete could not be made: ${outcome.reason}`;
  const id = evaluateExpression(expression, outcome.record.call.source);
  if (id === undefined || id === null || typeof id === 'object') return `the ${kind.create.operationId} record's id could not be read (${expression})`;
  const removed = await c.follow(kind.remove!, outcome.record);
  if (removed.problem || removed.status === undefined || removed.status < 200 || removed.status >= 300) return `deleting the ${kind.create.operationId} record ${answered(removed)}, so it cannot be named as deleted`;
  for (const read of kind.reads) {
    const after = await c.follow(read, outcome.record);
    if (after.status !== 404 && !goneBySunset(read.operation, after.status)) return `${read.operation.operationId} of the deleted record ${answered(after)}, not 404 (delete-removes judges it), so it is not surely gone`;
  }
  return { id };
}
