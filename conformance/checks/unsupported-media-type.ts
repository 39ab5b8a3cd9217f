import { stringifyJson } from '../json.js';
import { isJsonMediaType } from '../../src/schema/index.js';
import type { CheckDefinition } from './types.js';
import { documentedStatus, judgeRejection, jsonBodyOperations, snapshot, stateChanged } from './support.js';

/**
 * A valid body sent as text/plain, or with no Content-Type, is not a media
 * type the operation accepts: 415 (RFC 9110 §15.5.16) where the document
 * names it, else a 4xx; nothing changes.
 */
export const unsupportedMediaType: CheckDefinition = {
  id: 'unsupported-media-type',
  family: 'negative',
  description: 'A valid body sent as text/plain, without Content-Type, in an unknown Content-Encoding or gzip-coded gets a 415 (where documented) and changes nothing.',
  explain: {
    why: 'A body in a media type the operation does not accept must be refused (RFC 9110 section 15.5.16), not parsed by guesswork.',
    conformant: '`415` with the Error shape (code UNSUPPORTED_MEDIA_TYPE), and nothing changed.',
  },
  writes: true,
  exclusive: true,
  async run(ctx) {
    for await (const { operation, where, inputs } of jsonBodyOperations(ctx, 'unsupported-media-type', 'unsupported media types')) {
      const documented = operation.requestBody?.content.map((m) => m.mediaType.toLowerCase()) ?? [];
      const variants: { contentType: string | null; description: string; encoding?: string; coding?: 'gzip' }[] = [
        { contentType: 'text/plain', description: 'a valid body sent as text/plain' },
        { contentType: null, description: 'a valid body sent without Content-Type' },
        // RFC 9110 §8.4 and §15.5.16: a body in a content coding the server does not know is not a body it can read. A
        // server that answers 2xx ignored the header and took the bytes as identity. Only where the operation documents 415.
        ...(operation.responses.has('415') ? [{ contentType: 'application/json', description: 'a valid JSON body labelled Content-Encoding: x-petstore-unknown', encoding: 'x-petstore-unknown' }] : []),
        // A request body's media type is what the document declares, and OpenAPI has no place to declare a content
        // coding for one: a gzip-coded body is not a representation the operation takes, as a media type it does not
        // list is not (RFC 9110 §15.5.16 names both). Only where the operation documents 415.
        ...(operation.responses.has('415') ? [{ contentType: 'application/json', description: 'a valid JSON body compressed with Content-Encoding: gzip', coding: 'gzip' as const }] : []),
      ];
      for (const variant of variants) {
        const c = ctx.newCase('unsupported-media-type', `${where} with ${variant.description}`, operation.operationId);
        c.mutation = { kind: 'media-type', pointer: '/header/content-type', description: variant.description };
        // The exact request must be outside what the document accepts: a document that takes text/plain or */* makes this no test.
        if (variant.encoding === undefined && variant.coding === undefined && variant.contentType !== null && (isJsonMediaType(variant.contentType) || documented.some((m) => m === variant.contentType || m === '*/*' || m === 'text/*'))) {
          c.skip(`${variant.contentType} is a media type the operation documents; not counted`);
          continue;
        }
        const before = await snapshot(c, operation, inputs);
        const call = await c.call(operation, {
          path: inputs.path,
          query: inputs.query,
          bodyText: stringifyJson(inputs.body),
          contentType: variant.contentType,
          ...(variant.encoding ? { headers: { 'content-encoding': variant.encoding } } : {}),
          ...(variant.coding ? { contentCoding: variant.coding } : {}),
        });
        judgeRejection(c, call, documentedStatus(operation, 415), await stateChanged(c, before), inputs);
      }
    }
  },
};
