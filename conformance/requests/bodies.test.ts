/**
 * Issue 11, point 3: the exact text of bodies that are not JSON, for the
 * media types OpenAPI 3.0.3 §4.7.14 and §4.7.15 describe (form fields as
 * exploded form, nested objects as JSON, RFC 7578 multipart parts).
 */
import { describe, expect, it } from 'vitest';
import type { MediaTypeSpec, Operation } from '../../src/contract/index.js';
import { encodeBody, otherBodyMedia } from './bodies.js';

const NOTE = { title: 'a b&c', labels: ['x', 'y'], meta: { lang: 'en' } };

describe('encodeBody', () => {
  it('application/x-www-form-urlencoded: fields encoded, spaces as +, arrays repeated, objects as JSON text', () => {
    expect(encodeBody('application/x-www-form-urlencoded', NOTE, 'B')).toEqual({
      text: 'title=a+b%26c&labels=x&labels=y&meta=%7B%22lang%22%3A%22en%22%7D',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('multipart/form-data: one part per field and per array item, the boundary in the Content-Type, objects as application/json parts', () => {
    const { text, contentType } = encodeBody('multipart/form-data', NOTE, 'petstore-kit-1');
    expect(contentType).toBe('multipart/form-data; boundary=petstore-kit-1');
    expect(text).toBe(
      [
        '--petstore-kit-1\r\nContent-Disposition: form-data; name="title"\r\n\r\na b&c\r\n',
        '--petstore-kit-1\r\nContent-Disposition: form-data; name="labels"\r\n\r\nx\r\n',
        '--petstore-kit-1\r\nContent-Disposition: form-data; name="labels"\r\n\r\ny\r\n',
        '--petstore-kit-1\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"lang":"en"}\r\n',
        '--petstore-kit-1--\r\n',
      ].join(''),
    );
  });

  it('text/plain and application/octet-stream: the value as text', () => {
    expect(encodeBody('text/plain; charset=utf-8', 'hello', 'B')).toEqual({ text: 'hello', contentType: 'text/plain' });
    expect(encodeBody('application/octet-stream', 'bytes', 'B')).toEqual({ text: 'bytes', contentType: 'application/octet-stream' });
  });
});

describe('otherBodyMedia', () => {
  const media = (mediaType: string): MediaTypeSpec => ({ mediaType, examples: new Map() });
  const operation = (...types: string[]): Pick<Operation, 'requestBody'> => ({ requestBody: { required: true, content: types.map(media) } });

  it('picks the first documented type it can build, and leaves JSON to the JSON generator', () => {
    expect(otherBodyMedia(operation('application/xml', 'multipart/form-data', 'text/plain'))?.mediaType).toBe('multipart/form-data');
    expect(otherBodyMedia(operation('application/x-www-form-urlencoded', 'application/json'))).toBeUndefined();
    expect(otherBodyMedia(operation('application/xml'))).toBeUndefined();
  });
});
