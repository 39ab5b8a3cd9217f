import type { Case } from '../context.js';
import { jsonBodyOf } from '../generate.js';
import type { HttpResult, RawRequest } from '../http.js';
import { documentErrorSchema } from '../../src/contract/index.js';
import type { CheckDefinition } from './types.js';

/** One request a server's HTTP layer refuses before any route is chosen, and whether it may also be served. */
interface Unparsable {
  readonly description: string;
  readonly request: () => RawRequest;
  /** A server may take it (a larger header limit is its own business): then only an error must be in the shape. */
  readonly mayBeServed: boolean;
}

/** 96 KiB: past Node's 16 KiB and the 64 KiB of many proxies, within the 1 MiB some stacks allow. */
const LARGE_HEADER_BYTES = 96 * 1024;

/**
 * Requests the HTTP layer of a server answers before its routes see them:
 * a request line that is not one (RFC 9112 §3: method SP request-target SP
 * HTTP-version; "SHOULD respond with a 400"), a method token no server
 * knows, a chunked body whose chunk size is not hexadecimal (§7.1), and a
 * header block larger than servers take (RFC 6585 §5, 431). Where the
 * document keeps an error catalogue (`x-error-codes`: every error carries
 * one of its codes), those answers are errors like any other: a 4xx (or 501
 * for the method), whose body error-shape and error-code-documented judge
 * as they judge every error's (in the document's Error shape, with a listed
 * code). The header block may be served instead; it need not be refused.
 */
export const errorsBeforeRouting: CheckDefinition = {
  id: 'errors-before-routing',
  family: 'http',
  description: "Requests refused before routing (a malformed request line, an unknown method token, malformed chunking, a 96 KiB header) get a 4xx in the document's Error shape with a code from x-error-codes.",
  explain: {
    why: "A server's HTTP layer answers a request it cannot parse before the application sees it, often with a bare text or HTML page; where the document says every error carries one of its codes (x-error-codes), a client must get that Error there too (RFC 9112 section 3, RFC 6585 section 5).",
    conformant: '`GET /pets HTTP/1.1 x` answers `400` with `{"code":"MALFORMED_REQUEST","message":"…","status":400}`; a 96 KiB header answers 431 (or is served) in the same shape.',
  },
  writes: false,
  unsafeUnderReadOnly: 'this check sends malformed requests and unknown methods, and --read-only sends only well-formed GET, HEAD and OPTIONS requests',
  async run(ctx) {
    const shape = documentErrorSchema(ctx.contract);
    if (ctx.contract.errorCodes.size === 0 || !shape) {
      ctx.newCase('errors-before-routing', 'requests refused before routing').skip('the document keeps no error catalogue (x-error-codes) with an Error schema, so it promises nothing of the answers a server gives before routing');
      return;
    }
    const read = ctx.contract.operations.find((op) => op.method === 'get' && !op.parameters.some((p) => p.in === 'path' || (p.required && p.in !== 'header')));
    const create = ctx.contract.operations.find((op) => op.method === 'post' && jsonBodyOf(op) !== undefined && !op.parameters.some((p) => p.in === 'path'));
    const path = read?.pathTemplate ?? '/';
    const cases: Unparsable[] = [
      { description: `GET ${path} with a request line that does not end in its HTTP version`, mayBeServed: false, request: () => ({ method: 'GET', path, version: 'HTTP/1.1 petstore-kit' }) },
      { description: `GET ${path} in HTTP/9.9, a version that does not exist`, mayBeServed: false, request: () => ({ method: 'GET', path, version: 'HTTP/9.9' }) },
      { description: `${path} with the method PETSTOREKIT, a token no server knows`, mayBeServed: false, request: () => ({ method: 'PETSTOREKIT', path }) },
      {
        description: `GET ${path} with a header of ${LARGE_HEADER_BYTES / 1024} KiB`,
        mayBeServed: true,
        request: () => ({ method: 'GET', path, headers: { accept: 'application/json', 'x-petstore-kit-large': 'a'.repeat(LARGE_HEADER_BYTES) }, note: `(a header x-petstore-kit-large of ${LARGE_HEADER_BYTES} bytes)` }),
      },
      ...(create
        ? [
            {
              description: `POST ${create.pathTemplate} with a chunked body whose chunk size is not hexadecimal`,
              mayBeServed: false,
              request: (): RawRequest => ({ method: 'POST', path: create.pathTemplate, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: 'zz\r\n{}\r\n0\r\n\r\n' }),
            },
          ]
        : []),
    ];
    for (const unparsable of cases) {
      if (ctx.aborted) break;
      const request = unparsable.request();
      const c = ctx.newCase('errors-before-routing', unparsable.description);
      c.mutation = { kind: 'malformed-request', pointer: '', description: unparsable.description };
      judgeRefusal(c, await c.sendRaw(request, { kind: 'unmatched', which: 'unparsable' }), unparsable.mayBeServed);
    }
  },
};

/**
 * The verdict on an answer that must be a refusal (a 4xx, or 501 Not Implemented for a method, RFC 9110 §15.6.2),
 * or may also be a success where `mayBeServed`. What the refusal's body holds is judged where every error's is:
 * its shape by error-shape, its code by error-code-documented (the exchange is recorded as one no operation
 * answers); a 5xx is no-server-error's. What is this check's own: no answer at all, or a request served that
 * cannot be.
 */
export function judgeRefusal(c: Case, result: HttpResult, mayBeServed: boolean): void {
  const response = result.response;
  if (!response) return c.fail(`${result.exchange.request.method} ${result.exchange.request.url}: ${result.error?.message ?? 'no answer'}; the document promises an Error`, [{ pointer: '/status', keyword: 'answer', message: result.error?.message ?? 'no answer' }]);
  const { status } = response;
  if (status < 400 && !mayBeServed) {
    return c.fail(`answered ${status} to a request it cannot serve`, [{ pointer: '/status', keyword: 'status', message: `expected a 4xx (or 501), got ${status}`, expected: '4xx', actual: status }]);
  }
  if (status >= 500 && status !== 501) return c.skip(`answered ${status}, which no-server-error reports`);
  c.pass();
}
