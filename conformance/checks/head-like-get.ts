import type { Operation } from '../../src/contract/index.js';
import type { Call } from '../requests/call.js';
import { acceptFor } from '../requests/accept.js';
import { expandPath } from '../requests/paths.js';
import { queryParts } from '../requests/query.js';
import { targetUrl, type HttpResult } from '../http.js';
import type { Finding } from '../model.js';
import { prepareInputs } from './support.js';
import type { CheckDefinition } from './types.js';

/**
 * HEAD is GET without the body (RFC 9110 §9.3.2: "the server MUST NOT send
 * content in the response"; the header fields are those a GET would get).
 * For every GET of the document, on records the run owns: HEAD answers the
 * GET's status with its Content-Type and the headers the document declares
 * for that answer, and not one byte of body; or, as a method the document
 * does not list for the path, a refusal (405, whose Allow is
 * method-not-allowed-405's to judge, another 4xx, or 501). Sent on a connection of its own and read to its last
 * byte, since a client that trusts the framing never sees a body HEAD must
 * not have (and the next answer on that connection is corrupted by it).
 */
export const headLikeGet: CheckDefinition = {
  id: 'head-like-get',
  family: 'http',
  description: 'HEAD on every GET answers as the GET does (status, Content-Type, the documented headers) with no body, or is refused (a 4xx or 501) as a method the document does not list.',
  explain: {
    why: 'Proxies, caches and link checkers send HEAD; RFC 9110 section 9.3.2 makes it GET without content. A HEAD answered with a body corrupts the connection for the next request; one answered with other headers or another status misleads every cache.',
    conformant: '`HEAD /pets?limit=1` answers 200 with `Content-Type: application/json` and `X-Total-Count`, and no body (or 405: a method the document does not list).',
  },
  writes: false,
  async run(ctx) {
    for (const operation of ctx.operations) {
      if (ctx.aborted) break;
      if (operation.method !== 'get') continue;
      const c = ctx.newCase('head-like-get', `HEAD ${operation.pathTemplate}, beside GET`, operation.operationId);
      const prepared = await prepareInputs(c, operation);
      if (!prepared.ok) {
        prepared.fail(c);
        continue;
      }
      const { path, query } = prepared.inputs;
      const get = await c.call(operation, { path, query });
      if (get.problem || get.status === undefined) {
        c.skip(`the GET itself ${get.problem ?? 'got no answer'}; HEAD has nothing to be compared with`);
        continue;
      }
      const target = expandPath(operation.pathTemplate, path, operation.parameters);
      const parts = queryParts(operation, query);
      const url = targetUrl('http://x', target, parts.query, parts.rawQuery);
      const head = await c.sendRaw({ method: 'HEAD', path: `${url.pathname}${url.search}`, headers: { accept: acceptFor(operation), ...ctx.requests.requiredHeaders(operation, c.generator) } }, { kind: 'none' });
      c.conclude(judgeHead(operation, get, head));
    }
  },
};

function judgeHead(operation: Operation, get: Call, head: HttpResult): Finding[] {
  const response = head.response;
  if (!response) return [{ pointer: '/status', keyword: 'answer', message: `HEAD: ${head.error?.message ?? 'no answer'}` }];
  // HEAD is a method the document does not list: a server may refuse it (405 and its Allow are method-not-allowed-405's,
  // another 4xx or a 501 says the same). What it must not do is answer it otherwise than GET, or fail.
  if ((response.status >= 400 && response.status < 500) || response.status === 501) return [];
  if (response.status >= 500) return [{ pointer: '/status', keyword: 'server-error', message: `HEAD answered ${response.status}`, expected: get.status, actual: response.status }];
  const findings: Finding[] = [];
  // Both successes is the same answer (a HEAD told 200 where the GET has no content to describe, 204, says nothing false).
  const bothSucceed = response.status >= 200 && response.status < 300 && get.status !== undefined && get.status >= 200 && get.status < 300;
  if (response.status !== get.status && !bothSucceed) {
    return [{ pointer: '/status', keyword: 'status', message: `HEAD answered ${response.status} where GET answered ${get.status} (RFC 9110 §9.3.2: HEAD is GET without content)`, expected: get.status, actual: response.status }];
  }
  const bytes = head.exchange.response?.bodyBytes ?? 0;
  if (bytes > 0) findings.push({ pointer: '/body', keyword: 'head', message: `HEAD answered ${bytes} bytes of body; RFC 9110 §9.3.2: the server MUST NOT send content`, expected: 0, actual: bytes });
  const mediaType = (text: string | undefined): string | undefined => text?.split(';')[0]?.trim().toLowerCase();
  if (get.headers['content-type'] !== undefined && mediaType(response.headers['content-type']) !== mediaType(get.headers['content-type'])) {
    findings.push({ pointer: '/header/content-type', keyword: 'head', message: `HEAD answered Content-Type ${response.headers['content-type'] ?? '(none)'} where GET answered ${get.headers['content-type']}`, expected: get.headers['content-type'], actual: response.headers['content-type'] ?? null });
  }
  // The headers the document declares for this answer, where the GET carried them (their values may move with the data).
  for (const header of operation.responses.get(String(response.status))?.headers ?? []) {
    const name = header.name.toLowerCase();
    if (get.headers[name] !== undefined && response.headers[name] === undefined) {
      findings.push({ pointer: `/header/${name}`, keyword: 'head', message: `HEAD answered without ${header.name}, which the GET carried and the document declares`, expected: get.headers[name] });
    }
  }
  return findings;
}
