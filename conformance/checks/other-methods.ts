import { ABSENT_ID } from '../generate.js';
import { expandPath, wireTemplate } from '../requests/paths.js';
import { judgeRefusal } from './errors-before-routing.js';
import type { CheckDefinition } from './types.js';

/** Methods a client or proxy may send that no operation of a document usually has: TRACE (RFC 9110 §9.3.8) and WebDAV's PROPFIND (RFC 4918 §9.1). */
const OTHER_METHODS = ['TRACE', 'PROPFIND'] as const;

/**
 * Methods the document does not list for a path, beyond the ones
 * method-not-allowed-405 tries: TRACE, which a server that echoes it back
 * opens to cross-site tracing, and PROPFIND, which WebDAV clients and
 * scanners send. Each is refused, never served: a 4xx, or 501 Not
 * Implemented (RFC 9110 §15.6.2); its body is judged as every error's is
 * (error-shape, error-code-documented). Which 4xx is method-not-allowed-405's
 * question (that check owns the 405 and its Allow), not this one's: a server
 * that answers a method it never routes with 404 refuses it too. Sent byte
 * for byte on a connection of its own, since HTTP libraries refuse TRACE.
 */
export const otherMethods: CheckDefinition = {
  id: 'other-methods',
  family: 'http',
  description: 'TRACE and PROPFIND on every path are refused (a 4xx or 501), never served.',
  explain: {
    why: 'A method the document does not have must be refused (RFC 9110 sections 15.5.6, 15.6.2); a TRACE echoed back exposes request headers to cross-site tracing, and a 2xx to PROPFIND tells WebDAV clients the path is theirs. The refusal is an error like any other, in the document\'s Error shape.',
    conformant: '`TRACE /pets/1` answers `405` with the Error shape (code METHOD_NOT_ALLOWED), or a 404 or 501 Error.',
  },
  writes: false,
  unsafeUnderReadOnly: 'this check sends TRACE and PROPFIND, and --read-only sends only GET, HEAD and OPTIONS',
  async run(ctx) {
    const sent = new Set<string>();
    for (const [key] of ctx.contract.pathMethods) {
      if (ctx.aborted) break;
      const operations = ctx.contract.operations.filter((op) => op.pathTemplate === key);
      if (!operations.some((op) => ctx.isSelected(op))) continue;
      // A key with a `#fragment` is the path without it on the wire (RFC 3986 §3.5): that path is tried once, with the
      // methods of every key that names it, and never with a literal `#`.
      const template = wireTemplate(key);
      if (sent.has(template) || (template !== key && ctx.contract.pathMethods.has(template))) continue;
      sent.add(template);
      const methods = [...new Set([...ctx.contract.pathMethods].filter(([other]) => wireTemplate(other) === template).flatMap(([, m]) => m))];
      const path = expandPath(template, Object.fromEntries(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID] as const))));
      for (const method of OTHER_METHODS) {
        if (methods.includes(method)) continue;
        const c = ctx.newCase('other-methods', `${method} ${template} (documented: ${methods.join(', ')})`);
        c.mutation = { kind: 'method', pointer: '', description: `${method}, a method ${template} does not document` };
        judgeRefusal(c, await c.sendRaw({ method, path, headers: { accept: 'application/json' } }, { kind: 'unmatched', which: 'wrongMethod' }), false);
      }
    }
  },
};
