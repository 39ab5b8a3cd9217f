import { createRouter } from '../../src/router.js';
import { expandPath } from '../requests/paths.js';
import { ABSENT_ID } from '../generate.js';
import type { CheckDefinition } from './types.js';

/** A path no template of the document matches gets a 404 (the document's `x-unmatched-requests.unknownPath`). */
export const unknownPath404: CheckDefinition = {
  id: 'unknown-path-404',
  family: 'routing',
  description: 'A path the document does not describe gets a 404.',
  explain: {
    why: 'A path the API does not have must say so clearly, so a client with a wrong URL finds out at once.',
    conformant: '`404` with the Error shape (code ROUTE_NOT_FOUND).',
  },
  writes: false,
  async run(ctx) {
    const router = createRouter(ctx.contract);
    const tag = ctx.runTag;
    const candidates = [`/petstore-kit-unknown-${tag}`];
    // One level below a templated path too: `/pets/1/unknown-…` must not fall through to `/pets/{petId}`.
    const templated = ctx.contract.operations.find((op) => op.method === 'get' && op.pathTemplate.includes('{'));
    if (templated) candidates.push(`${expandPath(templated.pathTemplate, Object.fromEntries(templated.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ABSENT_ID])))}/unknown-${tag}`);
    for (const path of candidates) {
      if (router.match('GET', path).kind !== 'no-path') continue;
      const c = ctx.newCase('unknown-path-404', `GET ${path}`);
      const result = await c.send({ method: 'GET', path }, { kind: 'unmatched', which: 'unknownPath' });
      if (result.error) c.fail(`GET ${path}: ${result.error.message}`);
      else if (result.response?.status !== 404) c.fail(`GET ${path} answered ${result.response?.status}, not 404`, [{ pointer: '/status', keyword: 'status', message: 'an unknown path must get a 404', expected: 404, actual: result.response?.status }]);
      else c.pass();
    }
  },
};
