import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, readJsonBody } from './body.js';

const bytesOf = (text: string) => ({ kind: 'bytes' as const, bytes: new TextEncoder().encode(text) });
const json = { 'content-type': 'application/json' };

describe('readJsonBody', () => {
  it('refuses nesting past the limit at the smallest body that can hold it, and reads the deepest allowed', () => {
    // MAX_BODY_DEPTH + 1 bytes of `[`: the first body long enough to nest too deep (a shorter one is not scanned).
    const tooDeep = readJsonBody(bytesOf('['.repeat(MAX_BODY_DEPTH + 1)), json, true, MAX_BODY_DEPTH);
    expect(tooDeep).toMatchObject({ ok: false, code: 'VALIDATION_FAILED', message: expect.stringContaining(`deeper than ${MAX_BODY_DEPTH}`) });
    const deepest = readJsonBody(bytesOf(`${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`), json, true, MAX_BODY_DEPTH);
    expect(deepest.ok).toBe(true);
    // Short text that is not JSON is still named by the parse.
    expect(readJsonBody(bytesOf('[[['), json, true, MAX_BODY_DEPTH)).toMatchObject({ ok: false, code: 'MALFORMED_JSON' });
  });

  it('gives the same verdict on a Content-Type every time it is asked (the verdict is remembered)', () => {
    for (let round = 0; round < 3; round++) {
      expect(readJsonBody(bytesOf('{"a":1}'), { 'content-type': 'application/json; charset=utf-8' }, true)).toEqual({ ok: true, value: { a: 1 } });
      expect(readJsonBody(bytesOf('{"a":1}'), { 'content-type': 'text/plain' }, true)).toEqual({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json; got text/plain.' });
      expect(readJsonBody(bytesOf('{"a":1}'), { 'content-type': 'application/json; charset=latin1' }, true)).toEqual({ ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as UTF-8 JSON; charset latin1 is not supported.' });
    }
  });
});
