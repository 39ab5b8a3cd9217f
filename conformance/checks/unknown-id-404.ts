import type { Operation } from '../../src/contract/index.js';
import { answered } from '../requests/call.js';
import { pathProducer } from '../links.js';
import { mergeAllOf, type Schema } from '../generate.js';
import type { CheckDefinition } from './types.js';
import { goneBySunset } from './sunset-410.js';
import { prepareInputs, writesAllowed } from './support.js';

/**
 * A valid id that names no record gets a 404 on every operation with an id in
 * its path that documents 404 (RFC 9110 §15.5.5). The id is valid for the
 * parameter's own schema (an integer past any id handed out, a uuid, a
 * string of the run's tag: checks/support.ts absentIdFor), so a 400 is no
 * excuse.
 */
/** A PUT that documents 201 Created: the document says it creates the record at the id it is given (an upsert). */
function createsAtGivenId(operation: Operation): boolean {
  return operation.method === 'put' && operation.responses.has('201');
}

export const unknownId404: CheckDefinition = {
  id: 'unknown-id-404',
  family: 'routing',
  description: 'A valid but absent id (valid for the parameter\'s schema, naming no record) gets a 404 from every operation that documents one.',
  explain: {
    why: `A read, replace or delete of a record that does not exist must say so; a 200 with an empty body or a 500 hides the client's mistake.`,
    conformant: '`404` with the Error shape (e.g. code PET_NOT_FOUND) for an id no record has.',
  },
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      if (!operation.responses.has('404') || !operation.parameters.some((p) => p.in === 'path' && pathProducer(ctx.links, operation, p.name) !== undefined)) continue;
      const where = `${operation.method.toUpperCase()} ${operation.pathTemplate}`;
      const c = ctx.newCase('unknown-id-404', `${where} with an absent id`, operation.operationId);
      if (!writesAllowed(ctx, operation)) {
        c.skip('--read-only: the operation writes');
        continue;
      }
      if (createsAtGivenId(operation)) {
        // RFC 9110 §9.3.4: a PUT to a target with no current representation may create it, and answers 201 then.
        // Sent, the probe would be a create (Svix's upserting PUT /app/{app_id}), and every later "absent" id of the run would name it.
        c.skip(`${where} documents 201: a PUT to an absent id creates the record there (RFC 9110 §9.3.4), so 404 is not the only right answer`);
        continue;
      }
      // A closed list of ids (Firefly's configuration `name`: an enum of four) names records that may all exist
      // always: none of its values is an id that names no record, and one outside it is a 400's, not a 404's.
      const closed = operation.parameters.find((p) => p.in === 'path' && pathProducer(ctx.links, operation, p.name) !== undefined && isClosedList(p.schema));
      if (closed) {
        c.skip(`${closed.name} takes only listed values (enum or const), each of which may name a record that always exists`);
        continue;
      }
      const prepared = await prepareInputs(c, operation, { absent: true });
      if (!prepared.ok) {
        prepared.fail(c);
        continue;
      }
      const { path, query, body } = prepared.inputs;
      const call = await c.call(operation, { path, query, ...(body !== undefined ? { body } : {}) });
      if (call.problem) c.fail(call.problem);
      else if (goneBySunset(operation, call.status)) c.pass(); // past its sunset the whole operation is gone; sunset-410 judges that
      else if (call.status !== 404) c.fail(`${answered(call)}, not 404`, [{ pointer: '/status', keyword: 'status', message: 'an id no record has must get a 404', expected: 404, actual: call.status }]);
      else c.pass();
    }
  },
};

function isClosedList(raw: Schema): boolean {
  const s = mergeAllOf(raw);
  return Array.isArray(s.enum) || 'const' in s;
}
