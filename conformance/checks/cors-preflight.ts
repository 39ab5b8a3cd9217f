import { expandPath } from '../requests/paths.js';
import { ABSENT_ID, jsonBodyOf } from '../generate.js';
import { tokenList } from '../headers.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';

/**
 * A browser page on --origin can call every documented method: the
 * preflight (Fetch standard §3.2.2, an OPTIONS with Origin and
 * Access-Control-Request-Method) is answered with an ok status, an
 * Access-Control-Allow-Origin matching the origin (or `*`), the method in
 * Access-Control-Allow-Methods, and the requested headers (Content-Type for
 * a JSON body, the names of --header) in Access-Control-Allow-Headers.
 */
export const corsPreflight: CheckDefinition = {
  id: 'cors-preflight',
  family: 'cors',
  description: 'With --origin: the CORS preflight of every documented method is answered for that origin.',
  explain: {
    why: 'A browser sends a preflight OPTIONS before any non-simple request (Fetch standard, CORS protocol); if it fails, the real request is never sent.',
    conformant: '`204` (or 200) to OPTIONS with `Access-Control-Allow-Origin` matching the origin and `Access-Control-Allow-Methods` holding the requested method.',
  },
  writes: false,
  needsOrigin: true,
  async run(ctx) {
    const origin = ctx.settings.origin!;
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      const method = operation.method.toUpperCase();
      const path = expandPath(operation.pathTemplate, Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID])));
      const requested = [...(jsonBodyOf(operation) ? ['content-type'] : []), ...ctx.settings.headerNames.map((n) => n.toLowerCase())];
      const c = ctx.newCase('cors-preflight', `OPTIONS ${operation.pathTemplate} for ${method} from ${origin}`, operation.operationId);
      const result = await c.send(
        {
          method: 'OPTIONS',
          path,
          headers: { origin, 'access-control-request-method': method, ...(requested.length ? { 'access-control-request-headers': requested.join(',') } : {}) },
        },
        { kind: 'none' },
      );
      if (result.error || !result.response) {
        c.fail(`OPTIONS ${path}: ${result.error?.message ?? 'no answer'}`);
        continue;
      }
      const { status, headers } = result.response;
      const findings: Finding[] = [];
      if (status < 200 || status > 299) findings.push({ pointer: '/status', keyword: 'cors', message: `the preflight answered ${status}; the Fetch standard requires an ok status (2xx)`, expected: '2xx', actual: status });
      const allowOrigin = headers['access-control-allow-origin'];
      if (allowOrigin !== origin && allowOrigin !== '*') {
        findings.push({ pointer: '/header/access-control-allow-origin', keyword: 'cors', message: `the preflight does not allow ${origin}`, expected: origin, ...(allowOrigin !== undefined ? { actual: allowOrigin } : {}) });
      }
      const methods = tokenList(headers['access-control-allow-methods']).map((m) => m.toUpperCase());
      // GET, HEAD and POST are CORS-safelisted methods: a browser needs no Allow-Methods entry for them.
      if (!['GET', 'HEAD', 'POST'].includes(method) && !methods.includes(method) && !methods.includes('*')) {
        findings.push({ pointer: '/header/access-control-allow-methods', keyword: 'cors', message: `${method} is not in Access-Control-Allow-Methods`, expected: method, actual: headers['access-control-allow-methods'] ?? '(absent)' });
      }
      const allowHeaders = tokenList(headers['access-control-allow-headers']);
      for (const name of requested) {
        if (!allowHeaders.includes(name) && !allowHeaders.includes('*')) {
          findings.push({ pointer: '/header/access-control-allow-headers', keyword: 'cors', message: `the requested header ${name} is not in Access-Control-Allow-Headers`, expected: name, actual: headers['access-control-allow-headers'] ?? '(absent)' });
        }
      }
      c.conclude(findings);
    }
  },
};
