import { createRouter } from '../../src/router.js';
import { isAbsoluteHttpUri, isUriReference, parseLinkHeader } from '../headers.js';
import type { Finding } from '../model.js';
import type { CheckDefinition } from './types.js';
import { declaresDeprecationHeaders } from './deprecation-headers.js';
import { prepareInputs, resolveReference } from './support.js';

/**
 * The links a deprecated operation announces lead somewhere: the
 * `successor-version` target (RFC 5829), a URI reference, answers 200 on the
 * target, and the `deprecation` target (RFC 9745 §3) is a valid absolute http(s) URI. Other
 * hosts are never fetched: the runner talks to its target only. Missing
 * links are deprecation-headers' finding.
 */
export const deprecationLinks: CheckDefinition = {
  id: 'deprecation-links',
  family: 'deprecation',
  description: 'A deprecated operation\'s successor-version link answers 200 and its deprecation link is a valid absolute URI.',
  explain: {
    why: 'A successor link that does not work strands the clients the deprecation tries to move.',
    conformant: 'The successor-version link (e.g. `/pets?id=21`) answers 200, and the deprecation link is an absolute URI.',
  },
  writes: false,
  async run(ctx) {
    const basePath = new URL(ctx.client.baseUrl).pathname.replace(/\/+$/, '');
    const router = createRouter(ctx.contract, basePath);
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      if (!operation.deprecated) continue;
      if (!declaresDeprecationHeaders(operation)) {
        // Noted, not failed (issue 11, point 4): the document promises no Deprecation, Sunset or Link for this operation.
        ctx
          .newCase('deprecation-links', `${operation.operationId}: deprecated without deprecation headers`, operation.operationId)
          .skip('a bare `deprecated: true`: the document declares no Deprecation or Sunset header and no x-deprecated-at or x-sunset, so the RFC 9745/8594 checks do not apply');
        continue;
      }
      if (operation.method !== 'get') continue;
      const c = ctx.newCase('deprecation-links', `${operation.operationId}: follow its Link`, operation.operationId);
      const prepared = await prepareInputs(c, operation);
      if (!prepared.ok) {
        prepared.fail(c);
        continue;
      }
      const call = await c.call(operation, { path: prepared.inputs.path, query: prepared.inputs.query });
      if (call.problem) {
        c.fail(call.problem);
        continue;
      }
      const link = call.headers['link'];
      const links = parseLinkHeader(link ?? '');
      const successor = links.find((l) => l.rels.includes('successor-version'));
      const documentation = links.find((l) => l.rels.includes('deprecation'));
      if (!successor && !documentation) {
        c.skip('the answer has no Link with successor-version or deprecation (deprecation-headers reports that)');
        continue;
      }
      const findings: Finding[] = [];
      if (successor) {
        const url = isUriReference(successor.target) ? resolveReference(successor.target, ctx.client.baseUrl, call.result.url.href) : undefined;
        if (!url) {
          findings.push({ pointer: '/header/link', keyword: 'successor-version', message: `the successor-version target <${successor.target}> is not a URI reference`, actual: successor.target });
        } else if (url.origin !== new URL(ctx.client.baseUrl).origin) {
          findings.push({ pointer: '/header/link', keyword: 'successor-version', message: `the successor-version target ${url.href} is on another origin; the successor of an operation of this API is on this API`, actual: url.href });
        } else {
          const match = router.match('GET', url.pathname);
          const target = match.kind === 'match' ? ({ kind: 'operation', operation: match.operation } as const) : ({ kind: 'none' } as const);
          if (match.kind === 'match') {
            // A parameter the successor does not declare is ignored by it: the link then reads something else (the whole list).
            const declared = new Set(match.operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
            const unknown = [...new Set(url.searchParams.keys())].filter((name) => !declared.has(name));
            if (unknown.length > 0) {
              findings.push({ pointer: '/header/link', keyword: 'successor-version', message: `the successor-version target ${successor.target} uses ${unknown.join(', ')}, which ${match.operation.operationId} does not declare, so it does not read this record`, expected: [...declared].join(', '), actual: unknown.join(', ') });
            }
          }
          const result = await c.send({ method: 'GET', path: url.href }, target);
          if (result.error) findings.push({ pointer: '/header/link', keyword: 'successor-version', message: `GET ${url.href}: ${result.error.message}` });
          else if (result.response?.status !== 200) {
            findings.push({ pointer: '/header/link', keyword: 'successor-version', message: `the successor-version target ${successor.target} answered ${result.response?.status}, not 200`, expected: 200, actual: result.response?.status });
          }
        }
      }
      if (documentation) {
        // RFC 9745 §3: the deprecation link points at documentation a person reads; the document's convention is an absolute URL.
        if (!isAbsoluteHttpUri(documentation.target)) {
          findings.push({ pointer: '/header/link', keyword: 'deprecation', message: `the deprecation target <${documentation.target}> is not a valid absolute http(s) URI`, actual: documentation.target });
        }
      }
      c.conclude(findings);
    }
  },
};
