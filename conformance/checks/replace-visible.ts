import { compareFields, declaredFields } from '../compare.js';
import { answered } from '../requests/call.js';
import { isObject, schema } from '../generate.js';
import { createdSchema, recordReads } from '../links.js';
import type { Finding } from '../model.js';
import { readBack } from './create-read-back.js';
import { answerSchema, promisedBy } from './support.js';
import type { CheckDefinition } from './types.js';

/**
 * Replace a created record through the PUT its 201 links to (RFC 9110 §9.3.4:
 * the new state is what was sent), then read it back through its links:
 * the replacement is what they show.
 */
export const replaceVisible: CheckDefinition = {
  id: 'replace-visible',
  family: 'stateful',
  description: 'A replace (the PUT a 201 links to) answers with the new state, and later reads show it.',
  explain: {
    why: 'A replace that answers 200 but does not store the new state makes clients overwrite data they think they saved.',
    conformant: '`PUT /pets/21` with a new name answers 200 with that name, and a later `GET /pets/21` shows it.',
  },
  writes: true,
  async run(ctx) {
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      const replace = kind.replace;
      if (!replace || !ctx.isSelected(replace.operation)) continue;
      const c = ctx.newCase('replace-visible', `${kind.create.operationId}, then ${replace.operation.operationId} and read back`, replace.operation.operationId);
      const outcome = await c.create(kind, { setup: true });
      if (!outcome.ok) {
        c.setupFailed(outcome);
        continue;
      }
      const record = outcome.record;
      // Keep the records the original named (its category): the replacement changes the record, not what it hangs on.
      const bindings = Object.fromEntries(Object.entries(record.sent).filter(([name]) => ctx.links.producers.has(name)));
      const generated = c.generator.validBodyOrReason(replace.operation, bindings);
      const replacement = generated.ok ? generated.body : undefined;
      if (!generated.ok || !isObject(replacement)) {
        c.skip(generated.ok ? `the valid body for ${replace.operation.operationId} is not an object` : generated.reason);
        continue;
      }
      const call = await c.follow(replace, record, { body: replacement });
      if (call.problem) {
        c.fail(call.problem);
        continue;
      }
      if (call.status === undefined || call.status < 200 || call.status >= 300) {
        c.fail(`${answered(call)} to a valid replacement`, [{ pointer: '/status', keyword: 'status', message: 'a valid replacement of an existing record must succeed', expected: '2xx', actual: call.status }]);
        continue;
      }
      const recordSchema = schema(createdSchema(kind));
      const expected = declaredFields(replacement, recordSchema);
      // The replace's answer is judged on what its own schema promises: a PATCH may answer a receipt (Adyen's
      // registeredDevices answers only `success`, additionalProperties: false), not the record.
      const findings: Finding[] = call.json === undefined ? [] : compareFields(promisedBy(replace.operation, expected), call.json, '/body', answerSchema(replace.operation) ?? recordSchema, 'sent in the replacement');
      for (const target of recordReads(kind)) findings.push(...(await readBack(c, record, target, expected)));
      c.conclude(findings);
    }
  },
};
