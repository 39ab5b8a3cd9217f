import type { HttpResult } from '../http.js';
import { ABSENT_ID, parameterMutations } from '../generate.js';
import type { Finding } from '../model.js';
import { wireTemplate } from '../requests/paths.js';
import type { Operation } from '../../src/contract/index.js';
import type { CheckDefinition } from './types.js';

/**
 * With --origin, error answers allow the origin too: a browser hides from
 * page code every answer without Access-Control-Allow-Origin (Fetch standard
 * §3.2.5, CORS check), so a front end sees "Failed to fetch" instead of the
 * 404 or 400 it should show. Servers often add the header in the success
 * path only, or in one error path. Tried on an unknown path, on the reads
 * of absent records, and on a list with an invalid query value (400), with
 * Accept: text/html (406) and with a method its path lacks (405).
 */
export const corsOnErrors: CheckDefinition = {
  id: 'cors-on-errors',
  family: 'cors',
  description: 'With --origin: every error answer (404, 400, 405, 406) carries Access-Control-Allow-Origin too, so browser code can read it.',
  explain: {
    why: 'A browser gives page code no access to an answer without Access-Control-Allow-Origin (Fetch standard, CORS check): an error without it reaches the front end as a network failure, not as the Error the document promises.',
    conformant: '`GET /pets/9007199254740991` with `Origin: http://localhost:5173` answers 404 with `Access-Control-Allow-Origin: http://localhost:5173` (or `*`).',
  },
  writes: false,
  needsOrigin: true,
  async run(ctx) {
    const origin = ctx.settings.origin!;
    const judge = (c: ReturnType<typeof ctx.newCase>, result: HttpResult): void => {
      if (result.error || !result.response) return c.fail(`${result.exchange.request.method} ${result.exchange.request.url}: ${result.error?.message ?? 'no answer'}`);
      const { status, headers } = result.response;
      if (status < 400) return c.skip(`answered ${status}, not an error`);
      const allow = headers['access-control-allow-origin'];
      const findings: Finding[] =
        allow === origin || allow === '*'
          ? []
          : [{ pointer: '/header/access-control-allow-origin', keyword: 'cors', message: `the ${status} answer does not allow ${origin}: browser code sees a network failure instead of the error`, expected: origin, ...(allow !== undefined ? { actual: allow } : {}) }];
      c.conclude(findings);
    };
    const unknown = `/petstore-kit-unknown-${ctx.runTag}`;
    const first = ctx.newCase('cors-on-errors', `GET ${unknown} from ${origin}`);
    judge(first, await first.send({ method: 'GET', path: unknown, headers: { origin } }, { kind: 'unmatched', which: 'unknownPath' }));
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      const ids = operation.parameters.filter((p) => p.in === 'path');
      if (operation.method !== 'get' || ids.length === 0 || !operation.responses.has('404')) continue;
      if (ids.some((p) => p.schema.type !== 'integer')) continue;
      const c = ctx.newCase('cors-on-errors', `${operation.method.toUpperCase()} ${operation.pathTemplate} of an absent record from ${origin}`, operation.operationId);
      const call = await c.call(operation, { path: Object.fromEntries(ids.map((p) => [p.name, ABSENT_ID])), headers: { origin } });
      judge(c, call.result);
    }
    // Every other error status a read can draw without writing anything, not only 404: servers often add the header
    // in one error path (the router's) and forget the others (validation, content negotiation, method).
    // The first such list --only/--skip leave in, whichever shard runs: a sharded run judges it once, in the shard that
    // holds it; a list left out by --skip gives way to the next.
    const inRun = (op: Operation): boolean => ctx.settings.runSelection?.has(op.operationId) ?? true;
    const list = ctx.contract.operations.find((op) => inRun(op) && op.method === 'get' && !op.parameters.some((p) => p.in === 'path' || (p.required && p.in !== 'header')));
    if (!list || !ctx.operations.includes(list) || ctx.aborted) return;
    const invalid = list.parameters
      .filter((p) => p.in === 'query')
      .flatMap((p) => parameterMutations(p, '1'))
      .find((mutation) => typeof mutation.text === 'string');
    if (invalid && list.responses.has('400')) {
      const c = ctx.newCase('cors-on-errors', `GET ${list.pathTemplate}?${invalid.name}=${String(invalid.text)} (invalid) from ${origin}`, list.operationId);
      judge(c, (await c.call(list, { query: { [invalid.name]: String(invalid.text) }, headers: { origin } })).result);
    }
    if (list.responses.has('406')) {
      const c = ctx.newCase('cors-on-errors', `GET ${list.pathTemplate} with Accept: text/html from ${origin}`, list.operationId);
      judge(c, (await c.call(list, { headers: { origin, accept: 'text/html' } })).result);
    }
    // The methods of the path on the wire: a key with a `#fragment` (`/things#stream`) is the same path (RFC 3986 §3.5).
    const wire = wireTemplate(list.pathTemplate);
    const onWire = [...ctx.contract.pathMethods].filter(([key]) => wireTemplate(key) === wire).flatMap(([, methods]) => methods);
    const missing = ['PATCH', 'PUT', 'DELETE'].find((method) => !onWire.includes(method));
    if (missing && !ctx.settings.readOnly) {
      const c = ctx.newCase('cors-on-errors', `${missing} ${wire}, a method it does not have, from ${origin}`, list.operationId);
      judge(c, await c.send({ method: missing, path: wire, headers: { origin, 'content-type': 'application/json' }, ...(missing === 'DELETE' ? {} : { body: '{}' }) }, { kind: 'unmatched', which: 'wrongMethod' }));
    }
  },
};
