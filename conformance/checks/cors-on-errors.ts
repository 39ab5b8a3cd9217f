import type { HttpResult } from '../http.js';
import { ABSENT_ID } from '../generate.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';

/**
 * With --origin, error answers allow the origin too: a browser hides from
 * page code every answer without Access-Control-Allow-Origin (Fetch standard
 * §3.2.5, CORS check), so a front end sees "Failed to fetch" instead of the
 * 404 or 400 it should show. Servers often add the header in the success
 * path only. Tried on an unknown path and on the reads of absent records.
 */
export const corsOnErrors: CheckDefinition = {
  id: 'cors-on-errors',
  family: 'cors',
  description: 'With --origin: error answers (404, 400, ...) carry Access-Control-Allow-Origin too, so browser code can read them.',
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
  },
};
