import { excerptJson } from '../json.js';
import { createRouter } from '../../src/router.js';
import { sameValue } from '../compare.js';
import { isObject } from '../generate.js';
import { isUriReference } from '../headers.js';
import { createdSchema, identityField, okSchema, recordReads, representsCreated } from '../links.js';
import type { CheckDefinition } from './types.js';
import { goneBySunset } from './sunset-410.js';
import { resolveReference } from './support.js';

/**
 * The Location of a 201 names the new record (RFC 9110 §10.2.2, §15.3.2): a
 * GET of it answers 200 with the record created (the same identity; whether
 * its fields are what was sent is create-read-back's to say). A missing or
 * malformed Location is response-headers' finding; this one only follows it.
 */
export const locationResolves: CheckDefinition = {
  id: 'location-resolves',
  family: 'response',
  description: 'The Location of every 201 resolves: a GET of it answers 200 with the created record.',
  explain: {
    why: 'Clients follow Location after a create (RFC 9110 section 10.2.2); one that points nowhere or at the wrong collection breaks them.',
    conformant: '`201` with `Location: /pets/21`, and `GET /pets/21` answers 200 with the created record.',
  },
  writes: true,
  async run(ctx) {
    const basePath = new URL(ctx.client.baseUrl).pathname.replace(/\/+$/, '');
    const router = createRouter(ctx.contract, basePath);
    for (const kind of ctx.links.kinds.values()) {
      if (ctx.aborted) break;
      if (!ctx.isSelected(kind.create)) continue;
      const declared = kind.create.responses.get(kind.createdStatus)?.headers.some((h) => h.name.toLowerCase() === 'location');
      if (!declared) continue;
      const c = ctx.newCase('location-resolves', `${kind.create.operationId}, then GET its Location`, kind.create.operationId);
      const outcome = await c.create(kind, { setup: true });
      if (!outcome.ok) {
        c.setupFailed(outcome);
        continue;
      }
      const record = outcome.record;
      const location = record.call.headers['location'];
      if (!location) {
        c.skip('the 201 has no Location (response-headers reports that)');
        continue;
      }
      const url = isUriReference(location) ? resolveReference(location, ctx.client.baseUrl, record.call.result.url.href) : undefined;
      if (!url) {
        c.skip(`Location ${location} is not a URI reference (response-headers reports that)`);
        continue;
      }
      if (url.origin !== new URL(ctx.client.baseUrl).origin) {
        c.skip(`Location names another origin (${url.origin}); the runner only talks to the target`);
        continue;
      }
      const match = router.match('GET', url.pathname);
      const target = match.kind === 'match' ? ({ kind: 'operation', operation: match.operation } as const) : ({ kind: 'none' } as const);
      // The read's required headers go with it (a tenant header, Xero's xero-tenant-id), as with every call of the run.
      const headers = match.kind === 'match' ? ctx.requests.requiredHeaders(match.operation, c.generator) : {};
      // A Location whose id the read's own path parameter refuses (slot 3 where slotId is 1 to 2, while the record's
      // schema bounds nothing): the document itself rules that read out, so its refusal would say nothing (Case.follow).
      const ruledOut = match.kind === 'match' ? ctx.requests.ruledOutPath(match.operation, match.pathParams) : undefined;
      if (ruledOut !== undefined) {
        c.skip(`cannot conclude: Location ${location} names a value ${ruledOut}`);
        continue;
      }
      const result = await c.send({ method: 'GET', path: url.href, headers }, target);
      if (result.error || !result.response) {
        c.fail(`GET ${location}: ${result.error?.message ?? 'no answer'}`);
        continue;
      }
      if (match.kind !== 'match') {
        c.fail(`Location ${location} is not a path of the document`, [{ pointer: '/header/location', keyword: 'resolves', message: 'the Location matches no path template of the document', actual: location }]);
        continue;
      }
      // It must name a record of the kind created: a GET whose answer has the created record's schema.
      if (!representsCreated(okSchema(match.operation), createdSchema(kind))) {
        c.fail(`Location ${location} names a ${match.operation.operationId} resource, not what ${kind.create.operationId} created`, [{ pointer: '/header/location', keyword: 'resolves', message: `the Location routes to ${match.operation.operationId}, which reads another kind of record`, expected: recordReads(kind).map((t) => t.operation.pathTemplate).join(' or '), actual: location }]);
        continue;
      }
      if (goneBySunset(match.operation, result.response.status)) {
        // The Location names the record's URL, and past the sunset that URL answers 410 (sunset-410 judges whether rightly).
        c.pass();
        continue;
      }
      if (result.response.status !== 200) {
        c.fail(`GET ${location} answered ${result.response.status}, not 200`, [{ pointer: '/status', keyword: 'resolves', message: 'the Location of a created record must answer 200', expected: 200, actual: result.response.status }]);
        continue;
      }
      const body = result.response.body.kind === 'json' ? result.response.body.value : result.response.body.kind === 'text' ? result.response.body.lenient : undefined;
      const field = identityField(kind);
      if (field === undefined) {
        c.pass();
        continue;
      }
      const actual = isObject(body) ? body[field] : undefined;
      if (sameValue(record.body[field], actual)) c.pass();
      else c.fail(`GET ${location} gives ${field} ${excerptJson(actual)}, not the created ${excerptJson(record.body[field])}`, [{ pointer: `/body/${field}`, keyword: 'resolves', message: 'the Location must name the record just created', expected: record.body[field], actual }]);
    }
  },
};
