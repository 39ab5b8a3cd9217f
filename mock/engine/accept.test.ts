/** acceptsAnyOf: an Accept admits an operation's answer when it admits any media type the operation answers with (RFC 9110 §12.5.1). */
import { describe, expect, it } from 'vitest';
import { acceptsAnyOf } from './accept.js';

describe('acceptsAnyOf (RFC 9110 §12.5.1, §12.4.2)', () => {
  it.each([
    [undefined, ['application/json'], true],
    ['', ['application/json'], true],
    ['*/*', ['application/vnd.github+json'], true],
    ['application/vnd.github+json', ['application/vnd.github+json'], true],
    ['application/vnd.github+json; version=2022-11-28', ['application/vnd.github+json'], true],
    ['application/*', ['application/problem+json'], true],
    ['text/*', ['text/event-stream'], true],
    ['text/csv;q=0.9, application/json;q=0.1', ['application/json'], true],
    ['text/event-stream', ['application/json', 'text/event-stream'], true],
    ['image/png', ['image/*'], true],
    ['*/*', ['image/*'], true],
    ['text/html', ['application/json'], false],
    ['application/json;q=0', ['application/json'], false],
    ['application/json;q=0, */*', ['application/json'], false],
    ['text/*;q=0, */*', ['text/plain'], false],
    ['image/*;q=0', ['image/*'], false],
    ['application/json; charset=utf-8', ['application/json; charset=utf-8'], true],
    ['garbage', ['application/json'], true],
    ['text/html', [], true],
  ])('%j for %j → %s', (accept, mediaTypes, expected) => {
    expect(acceptsAnyOf(accept, mediaTypes)).toBe(expected);
  });
});
