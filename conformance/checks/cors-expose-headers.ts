import type { Operation } from '../../src/contract/index.js';
import type { Call } from '../requests/call.js';
import type { Case } from '../context.js';
import { tokenList } from '../headers.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { prepareInputs, writesAllowed } from './support.js';

/**
 * Browser code on --origin can read the response headers the document
 * declares (Location, X-Total-Count, Deprecation, Sunset, Link): each
 * appears in Access-Control-Expose-Headers (or `*`), since only the
 * CORS-safelisted response headers are readable otherwise (Fetch standard
 * §3.2.3). One request with Origin per operation whose success declares
 * headers: reads always, creates unless --read-only.
 */
export const corsExposeHeaders: CheckDefinition = {
  id: 'cors-expose-headers',
  family: 'cors',
  description: 'With --origin: Access-Control-Expose-Headers names every response header the document declares.',
  explain: {
    why: 'Browser code can read only the response headers CORS exposes (Fetch standard, CORS-safelisted response headers); a hidden Location or X-Total-Count breaks a front end although curl sees it.',
    conformant: '`Access-Control-Expose-Headers: Location, X-Total-Count, Deprecation, Sunset, Link` (every declared header) on answers to a request with Origin.',
  },
  writes: false,
  needsOrigin: true,
  async run(ctx) {
    const origin = ctx.settings.origin!;
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      const declared = declaredHeaders(operation);
      if (declared.length === 0) continue;
      const c = ctx.newCase('cors-expose-headers', `${operation.method.toUpperCase()} ${operation.pathTemplate} from ${origin}: expose ${declared.join(', ')}`, operation.operationId);
      if (!writesAllowed(ctx, operation)) {
        c.skip('--read-only: the operation writes');
        continue;
      }
      const call = await request(c, operation, origin);
      if (!call) continue;
      if (call.problem) {
        c.fail(call.problem);
        continue;
      }
      const findings: Finding[] = [];
      const allowOrigin = call.headers['access-control-allow-origin'];
      if (allowOrigin !== origin && allowOrigin !== '*') {
        findings.push({ pointer: '/header/access-control-allow-origin', keyword: 'cors', message: `the answer does not allow ${origin}, so browser code cannot read it at all`, expected: origin, ...(allowOrigin !== undefined ? { actual: allowOrigin } : {}) });
      }
      const exposed = tokenList(call.headers['access-control-expose-headers']);
      const missing = declared.filter((name) => !exposed.includes(name.toLowerCase()) && !exposed.includes('*'));
      if (missing.length > 0) {
        findings.push({ pointer: '/header/access-control-expose-headers', keyword: 'cors', message: `Access-Control-Expose-Headers lacks ${missing.join(', ')}; browser code cannot read ${missing.length > 1 ? 'them' : 'it'}`, expected: declared.join(', '), actual: call.headers['access-control-expose-headers'] ?? '(absent)' });
      }
      c.conclude(findings);
    }
  },
};

/** CORS-safelisted response header names (Fetch standard): readable without being exposed. */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

function declaredHeaders(operation: Operation): string[] {
  const names = new Map<string, string>();
  for (const [status, response] of operation.responses) {
    if (!status.startsWith('2')) continue;
    for (const header of response.headers) if (!SAFELISTED.has(header.name.toLowerCase())) names.set(header.name.toLowerCase(), header.name);
  }
  return [...names.values()];
}

async function request(c: Case, operation: Operation, origin: string): Promise<Call | undefined> {
  const kind = c.ctx.links.kinds.get(operation.operationId);
  if (kind) {
    const outcome = await c.create(kind, { headers: { origin }, setup: true });
    if (outcome.ok) return outcome.record.call;
    c.setupFailed(outcome);
    return undefined;
  }
  const prepared = await prepareInputs(c, operation);
  if (!prepared.ok) {
    prepared.fail(c);
    return undefined;
  }
  const { path, query, body } = prepared.inputs;
  return c.call(operation, { path, query, headers: { origin }, ...(body !== undefined ? { body } : {}) });
}
