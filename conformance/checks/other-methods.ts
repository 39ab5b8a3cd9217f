import { ABSENT_ID } from '../generate.js';
import { expandPath } from '../requests/paths.js';
import type { CheckDefinition } from './types.js';

/** Methods a client or proxy may send that no OpenAPI document describes as an operation: TRACE (RFC 9110 §9.3.8) and WebDAV's PROPFIND (RFC 4918 §9.1). */
const OTHER_METHODS = ['TRACE', 'PROPFIND'] as const;

/**
 * Methods the document does not list for a path, other than the ones
 * method-not-allowed-405 tries: TRACE, which a server that echoes it back
 * exposes to cross-site tracing, and PROPFIND, which WebDAV clients and
 * scanners send. Each gets a refusal: the document's answer for a wrong
 * method where it declares one (`x-unmatched-requests`, 405), else a 4xx or
 * 501 (RFC 9110 §15.6.2), never a 2xx; its body is judged like every other
 * error's (error-shape, error-code-documented). Sent byte for byte on a
 * connection of its own, since HTTP libraries refuse TRACE.
 */
export const otherMethods: CheckDefinition = {
  id: 'other-methods',
  family: 'http',
  description: 'TRACE and PROPFIND on every path are refused (the documented 405, else a 4xx or 501), never served, with an error like any other.',
  explain: {
    why: 'A method the document does not have must be refused like any wrong method (RFC 9110 section 15.5.6, 15.6.2); a TRACE echoed back exposes request headers to cross-site tracing, and a 2xx to PROPFIND tells WebDAV clients the path is theirs.',
    conformant: '`TRACE /pets/1` answers `405` with `Allow: GET, PUT, DELETE` and the Error shape (or a 404 or 501 Error where the document says nothing of wrong methods).',
  },
  writes: false,
  async run(ctx) {
    if (ctx.settings.readOnly) {
      ctx.newCase('other-methods', 'TRACE and PROPFIND').skip('--read-only sends only GET, HEAD and OPTIONS');
      return;
    }
    const declared = ctx.contract.unmatched.wrongMethod ? 405 : undefined;
    for (const [template, methods] of ctx.contract.pathMethods) {
      if (ctx.aborted) break;
      const operations = ctx.contract.operations.filter((op) => op.pathTemplate === template);
      if (!operations.some((op) => ctx.isSelected(op))) continue;
      const path = expandPath(template, Object.fromEntries(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID] as const))));
      for (const method of OTHER_METHODS) {
        if (methods.includes(method)) continue;
        const c = ctx.newCase('other-methods', `${method} ${template} (documented: ${methods.join(', ')})`);
        const result = await c.sendRaw({ method, path, headers: { accept: 'application/json' } }, { kind: 'unmatched', which: 'wrongMethod' });
        const status = result.response?.status;
        if (status === undefined) c.fail(`${method} ${path}: ${result.error?.message ?? 'no answer'}`);
        else if (declared !== undefined && status !== declared) c.fail(`${method} ${path} answered ${status}, not the ${declared} the document gives a method it does not list`, [{ pointer: '/status', keyword: 'status', message: 'x-unmatched-requests.wrongMethod', expected: declared, actual: status }]);
        else if (status < 400) c.fail(`${method} ${path} answered ${status}: a method the document does not list for the path was served`, [{ pointer: '/status', keyword: 'status', message: 'a method the path does not document must be refused', expected: '4xx or 501', actual: status }]);
        else if (status >= 500 && status !== 501) c.skip(`answered ${status}, which no-server-error reports`);
        else c.pass();
      }
    }
  },
};
