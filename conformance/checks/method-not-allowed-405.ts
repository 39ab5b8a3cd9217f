import { expandPath, wireTemplate } from '../requests/paths.js';
import { ABSENT_ID } from '../generate.js';
import { tokenList } from '../headers.js';
import type { CheckDefinition } from './types.js';

/**
 * A known path with a method it does not document gets a 405 whose `Allow`
 * lists exactly the documented methods (RFC 9110 §15.5.6, §10.2.1). The
 * method tried is the least harmful one missing (PATCH before PUT before
 * POST before DELETE), with ids no record has and an empty JSON object, so a
 * server that does accept it touches nothing.
 *
 * A path key with a `#fragment` (`/v1/conversations#stream`, Box's `…/schema#add`) names no request-target of its
 * own: the fragment is never sent (RFC 3986 §3.5, RFC 9110 §7.1), so its operations reach the server, if they reach
 * it at all, on the path without it. Its case is skipped with that reason, never sent with a literal `#` nor
 * judged against its own methods alone; the key without the fragment is judged instead, and its `Allow` may list
 * the methods of the fragment keys too: Allow lists the target resource's methods (RFC 9110 §15.5.6), and a server
 * that serves those operations serves them on that very URL. A server that does not route them (the key taken
 * literally, a path no request can name) lists the key's own methods, which the document allows as well.
 */
export const methodNotAllowed405: CheckDefinition = {
  id: 'method-not-allowed-405',
  family: 'routing',
  description: 'A known path with an undocumented method gets a 405 with Allow listing exactly the documented methods.',
  explain: {
    why: 'A wrong method on a known path is a client bug; 405 with Allow tells the client which methods exist (RFC 9110 section 15.5.6), a 404 or 500 misleads it.',
    conformant: '`405` with `Allow: GET, PUT, DELETE` (exactly the documented methods) and the Error shape.',
  },
  writes: true,
  async run(ctx) {
    for (const [template, methods] of ctx.contract.pathMethods) {
      if (ctx.aborted) break;
      const operations = ctx.contract.operations.filter((op) => op.pathTemplate === template);
      if (!operations.some((op) => ctx.isSelected(op))) continue;
      const wire = wireTemplate(template);
      if (wire !== template) {
        const there = ctx.contract.pathMethods.has(wire) ? `; ${wire}'s own case judges that URL, its Allow with or without ${methods.join(', ')}` : `, which no key of the document names without a fragment: whether the server routes these operations there is not the document's to say`;
        ctx.newCase('method-not-allowed-405', `${template} (documented: ${methods.join(', ')})`).skip(`not sent: a fragment is never part of a request (RFC 3986 §3.5), so ${template} is ${wire} on the wire${there}`);
        continue;
      }
      const pathParams = Object.fromEntries(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID] as const)));
      const path = expandPath(template, pathParams);
      // A method another template serves on this very URL (`PATCH /things/public` is also `PATCH /things/{thingId}`) is no wrong method.
      const method = ['PATCH', 'PUT', 'POST', 'DELETE'].find((m) => !methods.includes(m) && !servedElsewhere(ctx.contract.pathMethods, template, m, path));
      if (!method) {
        if (['PATCH', 'PUT', 'POST', 'DELETE'].some((m) => !methods.includes(m))) {
          ctx.newCase('method-not-allowed-405', `${template} (documented: ${methods.join(', ')})`).skip(`every method ${template} lacks is served on the same URL by another path template, so none is a wrong method there`);
        }
        continue;
      }
      const c = ctx.newCase('method-not-allowed-405', `${method} ${template} (documented: ${methods.join(', ')})`);
      const hasBody = method !== 'DELETE';
      const result = await c.send(
        { method, path, ...(hasBody ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) },
        { kind: 'unmatched', which: 'wrongMethod' },
      );
      if (result.error || !result.response) {
        c.fail(`${method} ${path}: ${result.error?.message ?? 'no answer'}`);
        continue;
      }
      const { status, headers } = result.response;
      if (status !== 405) {
        c.fail(`${method} ${path} answered ${status}, not 405`, [{ pointer: '/status', keyword: 'status', message: 'a method the path does not document must get a 405', expected: 405, actual: status }]);
        continue;
      }
      const allow = headers['allow'];
      const expected = [...methods].sort();
      const actual = [...new Set(tokenList(allow).map((m) => m.toUpperCase()))].sort();
      // Where other templates serve this very URL, Allow may list their methods too: the URL's methods (RFC 9110 §10.2.1).
      // So may it the methods of the keys that are this path with a fragment (`/things#stream`), each set whole or not at all.
      const twins = ALL_METHODS.filter((m) => servedElsewhere(ctx.contract.pathMethods, template, m, path, 'templates'));
      const fragments = ALL_METHODS.filter((m) => servedElsewhere(ctx.contract.pathMethods, template, m, path, 'fragments'));
      const allowed = [[], twins, fragments, [...twins, ...fragments]].map((more) => [...new Set([...methods, ...more])].sort().join(','));
      if (allow === undefined) {
        c.fail('a 405 must carry Allow (RFC 9110 §15.5.6)', [{ pointer: '/header/allow', keyword: 'required', message: 'Allow is missing', expected: expected.join(', ') }]);
      } else if (!allowed.includes(actual.join(','))) {
        c.fail(`Allow lists ${actual.join(', ') || '(nothing)'}; the document has ${expected.join(', ')}`, [{ pointer: '/header/allow', keyword: 'const', message: 'Allow must list exactly the methods the document gives this path', expected: expected.join(', '), actual: allow }]);
      } else {
        c.pass();
      }
    }
  },
};

const ALL_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'];

/**
 * Whether another path template with `method` matches the concrete `path` (each `{name}` one segment, OpenAPI 3.0.3
 * §4.7.8), a key with a `#fragment` by the path it names on the wire. `only` narrows to the other templates, or to
 * the keys with a fragment.
 */
function servedElsewhere(pathMethods: ReadonlyMap<string, readonly string[]>, template: string, method: string, path: string, only?: 'templates' | 'fragments'): boolean {
  const segments = path.split('/');
  for (const [other, methods] of pathMethods) {
    if (other === template || !methods.includes(method)) continue;
    const wire = wireTemplate(other);
    if ((only === 'templates' && wire !== other) || (only === 'fragments' && wire === other)) continue;
    const parts = wire.split('/');
    if (parts.length === segments.length && parts.every((part, i) => segmentMatches(part, segments[i]!))) return true;
  }
  return false;
}

/** Whether a template segment (`{id}`, `{id}.json`, `v{major}`, a literal) matches a concrete one (OAS 3.0.3 §4.7.8). */
function segmentMatches(part: string, segment: string): boolean {
  if (!part.includes('{')) return part === segment;
  const pattern = part.split(/\{[^{}]*\}/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${pattern}$`).test(segment);
}
