import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../http.js';
import { evaluateExpression } from '../links.js';
import { toCall } from './call.js';

const sent = (body: string | undefined): HttpResult => ({
  url: new URL('http://127.0.0.1:1/things'),
  response: { status: 201, headers: {}, body: { kind: 'json', value: { id: 7 }, plain: { id: 7 } } },
  exchange: { request: { method: 'POST', url: 'http://127.0.0.1:1/things', headers: {}, ...(body !== undefined ? { body } : {}) }, durationMs: 1 },
});

describe('a call as a link reads it (OpenAPI 3.0.3 §4.7.20.4)', () => {
  it('gives $request.body the JSON the request sent, read when a link asks for it', () => {
    const call = toCall(sent('{"name":"Rex","tags":["a"]}'), '/things', 'POST', '{"name":"Rex","tags":["a"]}', {}, {});
    expect(evaluateExpression('$request.body#/name', call.source)).toBe('Rex');
    expect(evaluateExpression('$request.body#/tags/0', call.source)).toBe('a');
    // Asked twice, the same value.
    expect(call.source.requestBody).toBe(call.source.requestBody);
    expect(evaluateExpression('$response.body#/id', call.source)).toBe(7);
  });

  it('gives undefined for a body that is not JSON, and for none', () => {
    expect(evaluateExpression('$request.body#/name', toCall(sent('name=Rex'), '/things', 'POST', 'name=Rex', {}, {}).source)).toBeUndefined();
    expect(toCall(sent(undefined), '/things', 'POST', undefined, {}, {}).source.requestBody).toBeUndefined();
  });
});
