import { createRouter } from '../../src/router.js';
import { targetUrl } from '../http.js';
import { expandPath, wireTemplate } from '../requests/paths.js';
import { pathRefusal } from '../safe-path.js';
import { ABSENT_ID } from '../generate.js';
import type { Case } from '../context.js';
import { prepareInputs } from './support.js';
import type { CheckDefinition } from './types.js';

/**
 * A path no template of the document matches gets a 404 (the document's
 * `x-unmatched-requests.unknownPath`): one beside every template, one below
 * a templated path with an id no record has, and one below each templated
 * GET path with a record the run owns, where a router that matches by
 * prefix would serve the record (`/pets/7/unknown` answered as `/pets/7`).
 */
export const unknownPath404: CheckDefinition = {
  id: 'unknown-path-404',
  family: 'routing',
  description: 'A path the document does not describe gets a 404, below records that exist too.',
  explain: {
    why: 'A path the API does not have must say so clearly, so a client with a wrong URL finds out at once; a router that serves /pets/7 for /pets/7/anything hides the client\'s mistake behind a record.',
    conformant: '`404` with the Error shape (code ROUTE_NOT_FOUND), for `/petstore-kit-unknown-…` and for `/pets/7/unknown-…` alike.',
  },
  writes: false,
  async run(ctx) {
    const router = createRouter(ctx.contract);
    const tag = ctx.runTag;
    const candidates = [`/petstore-kit-unknown-${tag}`];
    // One level below a templated path too: `/pets/1/unknown-…` must not fall through to `/pets/{petId}`.
    // Not a key with a `#fragment`: its expansion would carry the `#`, and the URL sent would stop there (RFC 3986 §3.5).
    const templated = ctx.contract.operations.find((op) => op.method === 'get' && op.pathTemplate.includes('{') && wireTemplate(op.pathTemplate) === op.pathTemplate);
    if (templated) candidates.push(`${expandPath(templated.pathTemplate, Object.fromEntries(templated.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID])))}/unknown-${tag}`);
    for (const path of candidates) {
      if (router.match('GET', path).kind !== 'no-path') continue;
      const c = ctx.newCase('unknown-path-404', `GET ${path}`);
      await expect404(c, path);
    }
    // Below each record the run owns, read by a templated GET: the record exists, the path below it does not.
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      if (operation.method !== 'get' || !operation.parameters.some((p) => p.in === 'path')) continue;
      const c = ctx.newCase('unknown-path-404', `GET ${operation.pathTemplate}/unknown-… below a record the run made`, operation.operationId);
      const prepared = await prepareInputs(c, operation);
      if (!prepared.ok) {
        prepared.fail(c);
        continue;
      }
      if (prepared.inputs.madeUpPath) {
        c.skip('no record the run made names this path (--read-only, or no create gives its id), so the path above it may not exist either');
        continue;
      }
      const recordPath = expandPath(operation.pathTemplate, prepared.inputs.path, operation.parameters);
      // A record whose id is no path segment (`..`, `a/b`) has no path below it either: skipped, naming the id.
      const refusal = pathRefusal(operation.pathTemplate, new URL(ctx.client.baseUrl).pathname, recordPath, targetUrl(ctx.client.baseUrl, recordPath));
      if (refusal !== undefined) {
        c.skip(refusal);
        continue;
      }
      const path = `${recordPath}/unknown-${tag}`;
      if (router.match('GET', path).kind !== 'no-path') {
        c.skip(`${path} is a path the document describes`);
        continue;
      }
      await expect404(c, path);
    }
  },
};

async function expect404(c: Case, path: string): Promise<void> {
  const result = await c.send({ method: 'GET', path }, { kind: 'unmatched', which: 'unknownPath' });
  if (result.error) c.fail(`GET ${path}: ${result.error.message}`);
  else if (result.response?.status !== 404) c.fail(`GET ${path} answered ${result.response?.status}, not 404`, [{ pointer: '/status', keyword: 'status', message: 'an unknown path must get a 404', expected: 404, actual: result.response?.status }]);
  else c.pass();
}
