import { sameRecord } from '../compare.js';
import { readSucceeded } from './support.js';
import { answered } from '../requests/call.js';
import { schema } from '../generate.js';
import { excerptJson } from '../json.js';
import { createdSchema, recordReads } from '../links.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';

/** Reads of one record in a row: two comparisons are enough to see a field that changes per read. */
const READS = 3;

/**
 * A record read again, with nothing sent in between, shows the same declared
 * fields (RFC 9110 §9.2.1: GET is safe; the contract's records change only
 * through its writes). Fields the document does not declare may change (an
 * `updatedAt` stamped at read time). A target whose reads are not stable (a
 * stateless stub, a declared field computed per read) is reported here, once
 * for the run, with every unstable read: the other checks then blame no
 * request for differences they see (checks/support.ts `snapshot`), so it is
 * not a hundred findings of "the rejected request changed the record".
 *
 * It runs alone and after the checks that run side by side, so it also lists
 * the unstable reads they noted.
 */
export const stableReads: CheckDefinition = {
  id: 'stable-reads',
  family: 'stateful',
  description: 'Reading a record again, with nothing sent in between, gives the same declared fields.',
  explain: {
    why: 'Clients cache and compare what they read; a declared field that changes between two reads with nothing written in between (RFC 9110 section 9.2.1: GET is safe) makes every "did my write take?" check unreliable. It is reported here once, so other checks blame no request for it.',
    conformant: '`GET /pets/21` twice in a row gives the same declared fields; a field the document does not declare (an `updatedAt` stamped per read) may differ.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    const c = ctx.newCase('stable-reads', `each created record read ${READS} times in a row`);
    const findings: Finding[] = [];
    let judged = 0;
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      if (!ctx.isSelected(kind.create)) continue;
      const reads = recordReads(kind).filter((t) => ctx.isSelected(t.operation) && t.operation.parameters.some((p) => p.in === 'path'));
      if (reads.length === 0) continue;
      const outcome = await c.create(kind, { setup: true });
      if (!outcome.ok) continue; // the create's own checks own that
      const recordSchema = schema(createdSchema(kind));
      for (const target of reads) {
        const key = `record ${target.operation.operationId}`;
        if (ctx.unstableReads.has(key)) continue;
        let previous: unknown;
        for (let i = 0; i < READS; i += 1) {
          const call = await c.follow(target, outcome.record);
          if (!readSucceeded(target.operation, call.status)) {
            // Whether it should have answered its documented success is create-read-back's (or, past a sunset, the deprecation checks').
            previous = undefined;
            break;
          }
          if (i > 0 && !sameRecord(previous, call.json, recordSchema)) {
            ctx.unstableReads.set(key, `two reads with nothing sent between them differ: ${excerptJson(previous, 80)} then ${excerptJson(call.json, 80)} (${answered(call)})`);
            break;
          }
          previous = call.json;
        }
        if (previous !== undefined) judged += 1;
      }
    }
    for (const [key, detail] of ctx.unstableReads) {
      findings.push({ pointer: '/body', keyword: 'stable', message: `${key}: ${detail}`, expected: 'the same declared fields on every read' });
    }
    if (findings.length === 0 && judged === 0) return c.skip('no record could be created and read back to compare its reads');
    c.conclude(findings, findings.length > 0 ? `reads are not stable: ${findings.map((f) => f.message.split(':')[0]).join(', ')}; no difference in them is blamed on a request` : undefined);
  },
};
